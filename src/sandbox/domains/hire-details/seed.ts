// Seeded records for hire details: the companies' users (hire and project owners), each hire's
// compliance rows, custom fields with values on contracts, and projects. Ana's hire is fixed; the
// rest come from the seed's deterministic `rand`.
import { IDENTITIES } from "../../context.js";
import { addDays } from "../../dates.js";
import { itemAt, referenced } from "../../records.js";
import type { HireRecord, SandboxData } from "../../seed/index.js";

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  /** The companies whose team the user is on. */
  companyIds: string[];
  createdAt: string;
}

type ComplianceActor = "WORKER" | "COMPANY" | "RECRUITER" | "WORKSOME";

interface ComplianceRecord {
  name: string;
  actor: ComplianceActor;
  applicable: boolean;
  completed: boolean;
  completedAt: string | null;
  type: string | null;
  title: string;
  description: string;
}

interface CustomFieldOptionRecord {
  id: string;
  fieldId: string;
  displayOrder: number;
  value: string;
}

export interface CustomFieldRecord {
  id: string;
  companyId: string;
  userId: string;
  title: string;
  slug: string;
  description: string | null;
  fieldType: "SINGLE_SELECT" | "FREE_TEXT";
  appliesTo: "CONTRACT" | "JOB" | "TRUSTED_CONTACT";
  options: CustomFieldOptionRecord[];
  validation: Array<"REQUIRED" | "NULLABLE">;
  visibility: "INTERNAL" | "WORKER";
  approval: boolean;
  apiOnly: boolean;
  createdAt: string;
}

export interface CustomFieldValueRecord {
  id: string;
  fieldId: string;
  /** What the value is set on: a contract, a job or a talent-pool record. */
  on: "Contract" | "Job" | "TrustedContact";
  targetId: string;
  userId: string;
  optionId: string | null;
  content: string | null;
}

export interface ProjectRecord {
  id: string;
  name: string;
  description: string | null;
  currency: string;
  creatorId: string;
  companyId: string;
  internalBudget: number | null;
  allocatedBudget: number;
  spent: number;
  endDate: string | null;
  ownerIds: string[];
  externalIdentifier: string | null;
}

export interface HireDetailsData {
  users: Map<string, UserRecord>;
  /** Hire id → owner user ids. */
  owners: Map<string, string[]>;
  /** Hire id → its compliance rows. */
  compliances: Map<string, ComplianceRecord[]>;
  customFields: CustomFieldRecord[];
  customFieldValues: CustomFieldValueRecord[];
  projects: ProjectRecord[];
}

// Kept beside the core data rather than in it: SandboxData belongs to the core.
const store = new WeakMap<SandboxData, HireDetailsData>();

export function hireDetailsOf(data: SandboxData): HireDetailsData {
  const details = store.get(data);
  if (!details) throw new Error("hire details were not seeded for this sandbox data");
  return details;
}

export const HIRE_DETAILS_FIXTURES = {
  /** Ana's hire owners, in order. */
  anaOwnerIds: ["usr_001", "usr_003"],
  /** Ana's compliance gaps: applicable and not completed. */
  anaGaps: ["BANK_ACCOUNT", "FREELANCER_DK_BUSINESS_ENTITY"],
  /** The cost center on Ana's active contract. */
  anaCostCenter: "DK-ENG Engineering",
  anaBudgetLine: "BL-2026-ENG-07",
} as const;

const TEAM: Array<Omit<UserRecord, "createdAt">> = [
  { ...IDENTITIES.full.user, companyIds: ["cmp_nordlys", "cmp_harbor", "cmp_castell"] },
  { ...IDENTITIES.limited.user, companyIds: ["cmp_nordlys"] },
  {
    id: "usr_003",
    name: "Freya Dahl",
    email: "freya.dahl@nordlys.example",
    companyIds: ["cmp_nordlys"],
  },
  {
    id: "usr_004",
    name: "Mikkel Sørensen",
    email: "mikkel.sorensen@nordlys.example",
    companyIds: ["cmp_nordlys"],
  },
  {
    id: "usr_005",
    name: "Dana Whitfield",
    email: "dana.whitfield@harborpine.example",
    companyIds: ["cmp_harbor"],
  },
  {
    id: "usr_006",
    name: "Marcus Reed",
    email: "marcus.reed@harborpine.example",
    companyIds: ["cmp_harbor"],
  },
  {
    id: "usr_007",
    name: "Katrin Vogel",
    email: "katrin.vogel@castell.example",
    companyIds: ["cmp_castell"],
  },
  {
    id: "usr_008",
    name: "Felix Braun",
    email: "felix.braun@castell.example",
    companyIds: ["cmp_castell"],
  },
];

interface ComplianceSpec {
  name: string;
  actor: ComplianceActor;
  type: string;
  title: string;
  description: string;
}

const WORKER_ITEMS: ComplianceSpec[] = [
  {
    name: "IDENTIFICATION",
    actor: "WORKER",
    type: "worker",
    title: "Identification",
    description: "The worker adds their date of birth, nationality and an identity document.",
  },
  {
    name: "BANK_ACCOUNT",
    actor: "WORKER",
    type: "worker",
    title: "Bank account",
    description: "The worker adds the bank account their payments go to.",
  },
  {
    name: "ADDRESS",
    actor: "WORKER",
    type: "worker",
    title: "Address",
    description: "The worker adds the address they are registered at.",
  },
];

const BUSINESS_ENTITY: Record<string, ComplianceSpec[]> = {
  DK: [
    {
      name: "FREELANCER_DK_BUSINESS_ENTITY",
      actor: "WORKER",
      type: "business_entity",
      title: "Danish business entity",
      description: "The worker registers their Danish business entity and its CVR number.",
    },
  ],
  US: [
    {
      name: "FREELANCER_US_BUSINESS_ENTITY",
      actor: "WORKER",
      type: "business_entity",
      title: "US business entity",
      description: "The worker registers their US business entity and its tax id.",
    },
    {
      name: "US_WORKER_CLASSIFICATION",
      actor: "COMPANY",
      type: "classification",
      title: "US worker classification",
      description: "The company answers the classification questions for this engagement.",
    },
  ],
  DE: [
    {
      name: "FREELANCER_DE_BUSINESS_ENTITY",
      actor: "WORKER",
      type: "business_entity",
      title: "German business entity",
      description: "The worker registers their German business entity and its tax number.",
    },
  ],
};

const CONTRACT_DOC: ComplianceSpec = {
  name: "CONTRACT_DOC",
  actor: "COMPANY",
  type: "contract",
  title: "Contract document",
  description: "The company provides the contract document both parties sign.",
};

const ONSITE_PRESENCE: ComplianceSpec = {
  name: "ONSITE_PRESENCE",
  actor: "COMPANY",
  type: "location",
  title: "Onsite presence",
  description: "The company confirms where and how often the worker works on site.",
};

const BACKGROUND_CHECKS: ComplianceSpec = {
  name: "BACKGROUND_CHECKS",
  actor: "WORKSOME",
  type: "worker",
  title: "Background checks",
  description: "Right-to-work and background checks on the worker are completed.",
};

interface FieldSpec {
  title: string;
  slug: string;
  description: string;
  fieldType: "SINGLE_SELECT" | "FREE_TEXT";
  appliesTo: "CONTRACT" | "JOB" | "TRUSTED_CONTACT";
  options: string[];
  required: boolean;
  approval?: boolean;
}

const FIELDS: Record<string, FieldSpec[]> = {
  cmp_nordlys: [
    {
      title: "Cost center",
      slug: "cost-center",
      description: "The cost center the hire's invoices are booked on.",
      fieldType: "SINGLE_SELECT",
      appliesTo: "CONTRACT",
      options: ["DK-ENG Engineering", "DK-OPS Operations", "DK-FIN Finance"],
      required: true,
    },
    {
      title: "Budget line",
      slug: "budget-line",
      description: "The budget line approved for this engagement.",
      fieldType: "FREE_TEXT",
      appliesTo: "CONTRACT",
      options: [],
      required: false,
    },
    {
      title: "Headcount approval",
      slug: "headcount-approval",
      description: "Whether the engagement counts against the approved headcount.",
      fieldType: "SINGLE_SELECT",
      appliesTo: "CONTRACT",
      options: ["Within plan", "Extra headcount"],
      required: false,
      approval: true,
    },
    {
      title: "Department",
      slug: "department",
      description: "The department that owns the job.",
      fieldType: "SINGLE_SELECT",
      appliesTo: "JOB",
      options: ["Grid", "Retail", "Offshore"],
      required: false,
    },
  ],
  cmp_harbor: [
    {
      title: "Cost center",
      slug: "cost-center",
      description: "The cost center the hire's invoices are booked on.",
      fieldType: "SINGLE_SELECT",
      appliesTo: "CONTRACT",
      options: ["US-100 Product", "US-200 Field services"],
      required: true,
    },
    {
      title: "Budget line",
      slug: "budget-line",
      description: "The budget line approved for this engagement.",
      fieldType: "FREE_TEXT",
      appliesTo: "CONTRACT",
      options: [],
      required: false,
    },
    {
      title: "Region",
      slug: "region",
      description: "The sales region the job serves.",
      fieldType: "SINGLE_SELECT",
      appliesTo: "JOB",
      options: ["East", "West"],
      required: false,
    },
  ],
  cmp_castell: [
    {
      title: "Kostenstelle",
      slug: "kostenstelle",
      description: "The cost center (Kostenstelle) the hire's invoices are booked on.",
      fieldType: "SINGLE_SELECT",
      appliesTo: "CONTRACT",
      options: ["DE-10 Filialen", "DE-20 E-Commerce"],
      required: true,
    },
    {
      title: "Budget line",
      slug: "budget-line",
      description: "The budget line approved for this engagement.",
      fieldType: "FREE_TEXT",
      appliesTo: "CONTRACT",
      options: [],
      required: false,
    },
    {
      title: "Store number",
      slug: "store-number",
      description: "The store the job is for, if any.",
      fieldType: "FREE_TEXT",
      appliesTo: "JOB",
      options: [],
      required: false,
    },
  ],
};

/** Every company's: who owns a job's budget, and how the company rates a talent-pool member. */
const LATER_FIELDS: FieldSpec[] = [
  {
    title: "Budget owner",
    slug: "budget-owner",
    description: "The person whose budget pays for the job.",
    fieldType: "FREE_TEXT",
    appliesTo: "JOB",
    options: [],
    required: false,
  },
  {
    title: "Talent tier",
    slug: "talent-tier",
    description: "How the company rates the worker in its talent pool.",
    fieldType: "SINGLE_SELECT",
    appliesTo: "TRUSTED_CONTACT",
    options: ["Preferred", "Approved", "Trial"],
    required: false,
  },
];

/**
 * Values on jobs and talent-pool records, once both are seeded (the jobs domain calls this last).
 * Chosen by position, not by the random source, so the seeds after it keep their numbers. About
 * one in three jobs and one in four records has none.
 */
export function seedJobAndContactValues(
  data: SandboxData,
  jobs: Array<{ id: string; companyId: string }>,
  contacts: Array<{ id: string; companyId: string }>,
): void {
  const details = hireDetailsOf(data);
  let n = details.customFieldValues.length;
  const add = (
    on: CustomFieldValueRecord["on"],
    targetId: string,
    field: CustomFieldRecord,
    value: { optionId?: string; content?: string },
  ) => {
    n += 1;
    details.customFieldValues.push({
      id: `cfv_${pad(n, 4)}`,
      fieldId: field.id,
      on,
      targetId,
      userId: field.userId,
      optionId: value.optionId ?? null,
      content: value.content ?? null,
    });
  };
  const fieldsOf = (companyId: string, appliesTo: CustomFieldRecord["appliesTo"]) =>
    details.customFields.filter((f) => f.companyId === companyId && f.appliesTo === appliesTo);
  for (const [i, job] of jobs.entries()) {
    if (i % 3 === 2) continue;
    const team = teamOf(details, job.companyId);
    for (const field of fieldsOf(job.companyId, "JOB")) {
      if (field.fieldType === "SINGLE_SELECT") {
        const option = itemAt(field.options, i % field.options.length);
        add("Job", job.id, field, { optionId: option.id });
      } else if (field.slug === "budget-owner") {
        const owner = referenced(details.users, team[i % team.length]);
        add("Job", job.id, field, { content: owner.name });
      } else {
        add("Job", job.id, field, { content: `Store ${pad(100 + i)}` });
      }
    }
  }
  for (const [i, contact] of contacts.entries()) {
    if (i % 4 === 3) continue;
    for (const field of fieldsOf(contact.companyId, "TRUSTED_CONTACT")) {
      if (field.fieldType !== "SINGLE_SELECT") continue;
      const option = itemAt(field.options, i % field.options.length);
      add("TrustedContact", contact.id, field, { optionId: option.id });
    }
  }
}

const pad = (n: number, width = 3) => String(n).padStart(width, "0");
const dateTime = (date: string) => `${date}T09:00:00.000000Z`;

export function seedHireDetails(data: SandboxData, rand: () => number): void {
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const today = data.today;
  const details: HireDetailsData = {
    users: new Map(),
    owners: new Map(),
    compliances: new Map(),
    customFields: [],
    customFieldValues: [],
    projects: [],
  };
  store.set(data, details);

  for (const u of TEAM)
    details.users.set(u.id, { ...u, createdAt: dateTime(addDays(today, -900)) });
  const marketOf = (companyId: string) =>
    data.companies.find((c) => c.id === companyId)?.market ?? "";

  // Hires in id order, so the same rand draws go to the same hires on every run.
  const hires = [...data.hires.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const hire of hires) {
    const team = teamOf(details, hire.companyId);
    if (hire.id === "hire_001") {
      details.owners.set(hire.id, [...HIRE_DETAILS_FIXTURES.anaOwnerIds]);
    } else {
      const first = itemAt(team, int(0, team.length - 1));
      const second = itemAt(team, int(0, team.length - 1));
      details.owners.set(hire.id, first === second ? [first] : [first, second]);
    }
    details.compliances.set(hire.id, compliancesFor(data, hire, marketOf(hire.companyId), rand));
  }

  seedCustomFields(data, details, hires, int);
  seedProjects(data, details);
}

function compliancesFor(
  data: SandboxData,
  hire: HireRecord,
  market: string,
  rand: () => number,
): ComplianceRecord[] {
  const contract = referenced(data.contracts, hire.contractIds.at(-1));
  const onsite =
    contract.locationPreference !== null && contract.locationPreference !== "REMOTE_ONLY";
  const local = BUSINESS_ENTITY[market] ?? [];
  const worker = [...WORKER_ITEMS, ...local.filter((s) => s.actor === "WORKER")];
  const specs = [
    ...worker,
    ...local.filter((s) => s.actor !== "WORKER"),
    CONTRACT_DOC,
    ONSITE_PRESENCE,
    BACKGROUND_CHECKS,
  ];
  const started =
    hire.status === "ACTIVE" || hire.status === "ENDED" || hire.status === "TERMINATED";
  // Which applicable rows are still open.
  const open = new Set<string>();
  if (hire.id === "hire_001") {
    for (const name of HIRE_DETAILS_FIXTURES.anaGaps) open.add(name);
  } else if (hire.status === "ACTIVE") {
    // About a third of active hires have one worker item missing.
    if (rand() < 0.35) open.add(itemAt(worker, Math.floor(rand() * worker.length)).name);
  } else if (!started && hire.status !== "READY") {
    for (const s of worker) open.add(s.name);
    if (hire.status === "DRAFT") open.add(CONTRACT_DOC.name);
  }
  const doneOn = dateTime(addDays(hire.createdAt, 3));
  return specs.map((s) => {
    const applicable =
      s.name === ONSITE_PRESENCE.name || s.name === BACKGROUND_CHECKS.name ? onsite : true;
    const completed = applicable && !open.has(s.name);
    return {
      name: s.name,
      actor: s.actor,
      applicable,
      completed,
      completedAt: completed ? doneOn : null,
      type: s.type,
      title: s.title,
      description: s.description,
    };
  });
}

function seedCustomFields(
  data: SandboxData,
  details: HireDetailsData,
  hires: HireRecord[],
  int: (min: number, max: number) => number,
): void {
  let fieldN = 0;
  let optionN = 0;
  for (const company of data.companies) {
    // Someone on the company's own team, not the admin who spans all three.
    const creator = itemAt(teamOf(details, company.id), -1);
    for (const spec of FIELDS[company.id] ?? []) {
      fieldN += 1;
      const id = `cf_${pad(fieldN)}`;
      details.customFields.push({
        id,
        companyId: company.id,
        userId: creator,
        title: spec.title,
        slug: spec.slug,
        description: spec.description,
        fieldType: spec.fieldType,
        appliesTo: spec.appliesTo,
        options: spec.options.map((value, i) => {
          optionN += 1;
          return { id: `cfo_${pad(optionN)}`, fieldId: id, displayOrder: i + 1, value };
        }),
        validation: [spec.required ? "REQUIRED" : "NULLABLE"],
        visibility: "INTERNAL",
        approval: spec.approval ?? false,
        apiOnly: false,
        createdAt: dateTime(addDays(data.today, -400)),
      });
    }
  }

  // Fields added later, after every company's first ones, so those keep their ids.
  for (const company of data.companies) {
    const creator = itemAt(teamOf(details, company.id), -1);
    for (const spec of LATER_FIELDS) {
      fieldN += 1;
      const id = `cf_${pad(fieldN)}`;
      details.customFields.push({
        id,
        companyId: company.id,
        userId: creator,
        title: spec.title,
        slug: spec.slug,
        description: spec.description,
        fieldType: spec.fieldType,
        appliesTo: spec.appliesTo,
        options: spec.options.map((value, i) => {
          optionN += 1;
          return { id: `cfo_${pad(optionN)}`, fieldId: id, displayOrder: i + 1, value };
        }),
        validation: ["NULLABLE"],
        visibility: "INTERNAL",
        approval: false,
        apiOnly: false,
        createdAt: dateTime(addDays(data.today, -200)),
      });
    }
  }

  // A free-text field on talent-pool records, added last so every earlier field keeps its id. No
  // record has a value yet: update_talent_contact sets them.
  for (const company of data.companies) {
    const creator = itemAt(teamOf(details, company.id), -1);
    fieldN += 1;
    details.customFields.push({
      id: `cf_${pad(fieldN)}`,
      companyId: company.id,
      userId: creator,
      title: "Notice period",
      slug: "notice-period",
      description: "The notice the worker needs before a new engagement starts.",
      fieldType: "FREE_TEXT",
      appliesTo: "TRUSTED_CONTACT",
      options: [],
      validation: ["NULLABLE"],
      visibility: "INTERNAL",
      approval: false,
      apiOnly: false,
      createdAt: dateTime(addDays(data.today, -30)),
    });
  }

  // Values on every contract of a hire: a revision keeps the hire's cost center and budget line.
  let valueN = 0;
  const add = (
    fieldId: string,
    contractId: string,
    userId: string,
    value: Partial<CustomFieldValueRecord>,
  ) => {
    valueN += 1;
    details.customFieldValues.push({
      id: `cfv_${pad(valueN, 4)}`,
      fieldId,
      on: "Contract",
      targetId: contractId,
      userId,
      optionId: value.optionId ?? null,
      content: value.content ?? null,
    });
  };
  for (const hire of hires) {
    const fields = details.customFields.filter(
      (f) => f.companyId === hire.companyId && f.appliesTo === "CONTRACT",
    );
    const owner = itemAt(details.owners.get(hire.id) ?? [], 0);
    const ana = hire.id === "hire_001";
    const chosen = new Map<string, Partial<CustomFieldValueRecord>>();
    for (const field of fields) {
      if (field.fieldType === "SINGLE_SELECT") {
        // Required fields always have a value; optional ones on about half the hires.
        if (!field.validation.includes("REQUIRED") && int(0, 1) === 0 && !ana) continue;
        const option = ana
          ? (field.options.find((o) => o.value === HIRE_DETAILS_FIXTURES.anaCostCenter) ??
            itemAt(field.options, 0))
          : itemAt(field.options, int(0, field.options.length - 1));
        chosen.set(field.id, { optionId: option.id });
      } else {
        if (!ana && int(0, 2) === 0) continue;
        const content = ana
          ? HIRE_DETAILS_FIXTURES.anaBudgetLine
          : `BL-${data.today.slice(0, 4)}-${hire.companyId.slice(4, 7).toUpperCase()}-${pad(int(1, 40), 2)}`;
        chosen.set(field.id, { content });
      }
    }
    for (const contractId of hire.contractIds) {
      for (const [fieldId, value] of chosen) add(fieldId, contractId, owner, value);
    }
  }
}

function teamOf(details: HireDetailsData, companyId: string): string[] {
  return [...details.users.values()]
    .filter((u) => u.companyIds.includes(companyId))
    .map((u) => u.id);
}

function seedProjects(data: SandboxData, details: HireDetailsData): void {
  const today = data.today;
  const specs: Array<Omit<ProjectRecord, "id" | "currency">> = [
    {
      name: "Smart meter roll-out",
      description: "Replace 40,000 household meters with smart meters across Zealand.",
      creatorId: "usr_001",
      companyId: "cmp_nordlys",
      internalBudget: 4_500_000,
      allocatedBudget: 3_200_000,
      spent: 1_875_430.5,
      endDate: null,
      ownerIds: ["usr_001", "usr_003"],
      externalIdentifier: "PRJ-NORD-001",
    },
    {
      name: "Offshore maintenance 2026",
      description: "Planned service of the Anholt and Horns Rev turbines.",
      creatorId: "usr_003",
      companyId: "cmp_nordlys",
      internalBudget: 2_000_000,
      allocatedBudget: 1_600_000,
      spent: 640_000,
      endDate: null,
      ownerIds: ["usr_003"],
      externalIdentifier: null,
    },
    {
      name: "Grid balancing pilot",
      description: "A finished pilot of demand response with industrial customers.",
      creatorId: "usr_004",
      companyId: "cmp_nordlys",
      internalBudget: 750_000,
      allocatedBudget: 750_000,
      spent: 731_200,
      endDate: addDays(today, -45),
      ownerIds: ["usr_004", "usr_002"],
      externalIdentifier: "PRJ-NORD-003",
    },
    {
      name: "Store network refresh",
      description: "New point-of-sale hardware in 120 stores.",
      creatorId: "usr_005",
      companyId: "cmp_harbor",
      internalBudget: 900_000,
      allocatedBudget: 450_000,
      spent: 212_300,
      endDate: null,
      ownerIds: ["usr_005", "usr_006"],
      externalIdentifier: "HP-PRJ-77",
    },
    {
      name: "Webshop relaunch",
      description: null,
      creatorId: "usr_007",
      companyId: "cmp_castell",
      internalBudget: null,
      allocatedBudget: 180_000,
      spent: 96_500,
      endDate: null,
      ownerIds: ["usr_007"],
      externalIdentifier: null,
    },
  ];
  specs.forEach((spec, i) => {
    const company = data.companies.find((c) => c.id === spec.companyId);
    details.projects.push({
      ...spec,
      id: `prj_${pad(i + 1)}`,
      currency: company?.currency ?? "EUR",
    });
  });
}
