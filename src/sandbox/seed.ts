// Deterministic sample data for the sandbox. Dates are relative to `today`, so tests pin it and
// the data reads naturally whatever day it runs. A seeded PRNG keeps every run identical.
import { addDays, endOfMonth, startOfNextMonth } from "./dates.js";
import { SANDBOX_DOMAINS } from "./domains/index.js";

export const SANDBOX_TOKENS = {
  full: "sandbox-full-4f1c9d2e7b",
  limited: "sandbox-limited-8a3e6b0c51",
} as const;

export type HireStatus =
  | "DRAFT"
  | "OFFERED"
  | "READY"
  | "ACTIVE"
  | "ENDED"
  | "CANCELLED"
  | "TERMINATED";
export type ContractStatus = "DRAFT" | "ACTIVE" | "ARCHIVED";
export type InvoiceStatus = "PAID" | "UNPAID" | "OVERDUE" | "CREDITED";
export type LocationPreference = "ONSITE_ONLY" | "ONSITE_SOME" | "REMOTE_ONLY";

export interface CompanyRecord {
  __typename: "Company";
  id: string;
  name: string;
  currency: string;
  market: string;
  externalIdentifier: string | null;
  avatar: null;
}
export interface OrganisationRecord {
  __typename: "Organisation";
  id: string;
  name: string;
  market: string;
  avatar: null;
}
export interface RecruiterRecord {
  __typename: "Recruiter";
  id: string;
  name: string;
  initials: string;
  avatar: null;
}
export interface WorkerRecord {
  __typename: "Worker";
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  jobTitle: string | null;
  avatar: null;
}
export interface FileRecord {
  id: string;
  name: string;
  mimeType: string;
  size: number;
}
export interface ContractRecord {
  id: string;
  hireId: string;
  jobName: string;
  jobDescription: string;
  locationPreference: LocationPreference | null;
  status: ContractStatus;
  startDate: string | null;
  endDate: string | null;
  currency: string;
  rateType: string;
  rate: number;
  purchaseOrderNumber: string | null;
  paymentTermMethod: "NET" | "END_OF_MONTH";
  paymentTerm: number;
  files: FileRecord[];
}
export interface HireRecord {
  id: string;
  number: string;
  status: HireStatus;
  workerId: string;
  companyId: string;
  recruiterId: string | null;
  createdAt: string;
  startDate: string | null;
  endDate: string | null;
  terminationDate: string | null;
  externalIdentifier: string | null;
  /** Oldest first; the last one is the latest contract. */
  contractIds: string[];
}
export interface InvoiceRowRecord {
  id: string;
  workerId: string | null;
  /** What the row bills: job, period, quantity × unit price = amount, PO number. */
  customText: string;
}
export interface InvoiceRecord {
  id: string;
  number: string;
  hireId: string | null;
  /** The billed contract's PO number; `invoices(search:)` matches it. Not an Invoice field. */
  purchaseOrderNumber: string | null;
  companyId: string;
  currency: string;
  netAmount: number;
  taxAmount: number;
  grossAmount: number;
  grossOpenAmount: number;
  markedPaidAt: string | null;
  date: string;
  dueDate: string;
  payeeDisplayName: string;
  transactionType: "INVOICE" | "CREDIT_NOTE" | "BATCH_INVOICE";
  isFullyCredited: boolean;
  status: InvoiceStatus;
  externalIdentifier: string | null;
  rows: InvoiceRowRecord[];
}
export interface TimesheetRecord {
  hireId: string;
  reportedDate: string;
  hours: number;
  externalId: string;
  reference?: string;
  isPayable: boolean;
  meta?: Record<string, unknown>;
}

export interface SandboxData {
  today: string;
  companies: CompanyRecord[];
  organisations: OrganisationRecord[];
  recruiters: RecruiterRecord[];
  workers: Map<string, WorkerRecord>;
  hires: Map<string, HireRecord>;
  contracts: Map<string, ContractRecord>;
  invoices: InvoiceRecord[];
  timesheets: Map<string, TimesheetRecord>;
  counters: { hire: number; contract: number; worker: number; file: number };
}

export const PLATFORM_ENTITY_NAME = "Workforce Platform ApS";

export const SANDBOX_FIXTURES = {
  companies: { nordlys: "cmp_nordlys", harbor: "cmp_harbor", castell: "cmp_castell" },
  agencyId: "rec_brightpath",
  organisationId: "org_nordic_group",
  anaHireId: "hire_001",
  anaContractId: "ctr_002",
  anaPreviousContractId: "ctr_001",
  /** Ana's pending change: an unsigned DRAFT at DKK 780.00 hourly, seeded after every other contract. */
  anaDraftContractId: "ctr_065",
  anaWorkerId: "wrk_001",
  harborHireId: "hire_002",
  draftHireId: "hire_003",
  endedHireId: "hire_004",
} as const;

/** mulberry32: small, fast and good enough for sample data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, width = 3) => String(n).padStart(width, "0");
const round2 = (n: number) => Math.round(n * 100) / 100;

const WORKER_NAMES: Array<[string, string]> = [
  ["Ana", "Costa"],
  ["Liam", "O'Connor"],
  ["Priya", "Raman"],
  ["Jonas", "Petersen"],
  ["Amara", "Okafor"],
  ["Mateo", "Hernández"],
  ["Sofie", "Kjær"],
  ["Hiroshi", "Tanaka"],
  ["Fatima", "Al-Sayed"],
  ["Lukas", "Schneider"],
  ["Chloé", "Dubois"],
  ["Oluwaseun", "Adeyemi"],
  ["Ingrid", "Solberg"],
  ["Wei", "Zhang"],
  ["Aisha", "Khan"],
  ["Tomasz", "Nowak"],
  ["Elena", "Popescu"],
  ["Diego", "Ramírez"],
  ["Freja", "Lindgren"],
  ["Kwame", "Mensah"],
  ["Nadia", "Haddad"],
  ["Rasmus", "Holm"],
  ["Mei", "Lin"],
  ["Carlos", "Silva"],
  ["Leila", "Farahani"],
  ["Jakob", "Berger"],
  ["Zanele", "Dlamini"],
  ["Aarav", "Sharma"],
  ["Maren", "Eriksen"],
  ["Yusuf", "Demir"],
  ["Grace", "Mwangi"],
  ["Henrik", "Lund"],
  ["Sakura", "Ito"],
  ["Javier", "Moreno"],
  ["Olga", "Ivanova"],
  ["Emeka", "Nwosu"],
  ["Camille", "Laurent"],
  ["Anders", "Nygaard"],
  ["Layla", "Hassan"],
  ["Marek", "Kowalski"],
  ["Isabel", "Ferreira"],
  ["Tariq", "Mahmoud"],
  ["Astrid", "Nielsen"],
  ["Kenji", "Watanabe"],
  ["Beatriz", "Santos"],
  ["Samuel", "Boateng"],
  ["Linnea", "Johansson"],
  ["Ravi", "Patel"],
  ["Hanna", "Virtanen"],
  ["Omar", "Benali"],
  ["Julia", "Wagner"],
  ["Thabo", "Nkosi"],
];

const JOBS: Array<{ name: string; description: string }> = [
  { name: "Senior Backend Engineer", description: "Build and run the metering platform's APIs." },
  { name: "Wind Turbine Technician", description: "Service and inspect offshore turbines." },
  { name: "Data Analyst", description: "Report on consumption and grid balancing data." },
  { name: "UX Designer", description: "Design the customer self-service portal." },
  { name: "Project Manager", description: "Run the store roll-out programme." },
  { name: "Electrical Engineer", description: "Substation design and commissioning." },
  { name: "Frontend Developer", description: "Build the web shop's checkout flow." },
  { name: "HSE Coordinator", description: "Health, safety and environment on site." },
  { name: "Cloud Architect", description: "Plan the migration to managed infrastructure." },
  { name: "Copywriter", description: "Product and campaign copy in English and German." },
  { name: "Supply Chain Analyst", description: "Forecast stock and supplier lead times." },
  { name: "QA Engineer", description: "Automate regression tests for the mobile apps." },
];

const LOCATIONS: LocationPreference[] = ["REMOTE_ONLY", "ONSITE_SOME", "ONSITE_ONLY"];

const HOURLY_RATE: Record<string, [number, number]> = {
  DKK: [450, 950],
  USD: [60, 160],
  EUR: [55, 140],
};
const TAX_RATE: Record<string, number> = { DKK: 0.25, USD: 0, EUR: 0.19 };

export function createSeed(today: string): SandboxData {
  const rand = prng(0x5eed_2026);
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;

  const companies: CompanyRecord[] = [
    {
      __typename: "Company",
      id: "cmp_nordlys",
      name: "Nordlys Energi A/S",
      currency: "DKK",
      market: "DK",
      externalIdentifier: "ERP-NORDLYS",
      avatar: null,
    },
    {
      __typename: "Company",
      id: "cmp_harbor",
      name: "Harbor & Pine Inc.",
      currency: "USD",
      market: "US",
      externalIdentifier: null,
      avatar: null,
    },
    {
      __typename: "Company",
      id: "cmp_castell",
      name: "Castell Retail GmbH",
      currency: "EUR",
      market: "DE",
      externalIdentifier: "CR-0042",
      avatar: null,
    },
  ];
  const organisations: OrganisationRecord[] = [
    {
      __typename: "Organisation",
      id: "org_nordic_group",
      name: "Nordlys Group",
      market: "DK",
      avatar: null,
    },
  ];
  const recruiters: RecruiterRecord[] = [
    {
      __typename: "Recruiter",
      id: "rec_brightpath",
      name: "Brightpath Staffing",
      initials: "BS",
      avatar: null,
    },
  ];
  const companyById = new Map(companies.map((c) => [c.id, c]));

  const data: SandboxData = {
    today,
    companies,
    organisations,
    recruiters,
    workers: new Map(),
    hires: new Map(),
    contracts: new Map(),
    invoices: [],
    timesheets: new Map(),
    counters: { hire: 0, contract: 0, worker: 0, file: 0 },
  };

  const newWorker = (first: string, last: string, jobTitle: string): WorkerRecord => {
    data.counters.worker += 1;
    const slug = `${first}.${last}`
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      // Letters that do not decompose: Kjær → kjaer, Øst → oest, Strauß → strauss.
      .replace(/æ/gi, "ae")
      .replace(/ø/gi, "oe")
      .replace(/ß/g, "ss")
      .replace(/[^A-Za-z.]/g, "")
      .toLowerCase();
    const worker: WorkerRecord = {
      __typename: "Worker",
      id: `wrk_${pad(data.counters.worker)}`,
      firstName: first,
      lastName: last,
      email: `${slug}@example.com`,
      phone: `+45 ${int(20, 99)} ${int(10, 99)} ${int(10, 99)} ${int(10, 99)}`,
      jobTitle,
      avatar: null,
    };
    data.workers.set(worker.id, worker);
    return worker;
  };

  const newFiles = (count: number): FileRecord[] => {
    // Attachments only: the contract document itself is Contract.pdfUrl.
    const names = ["Statement of work.pdf", "NDA.pdf", "Supporting documents.pdf"];
    return names.slice(0, count).map((name) => {
      data.counters.file += 1;
      return {
        id: `file_${pad(data.counters.file)}`,
        name,
        mimeType: "application/pdf",
        size: int(40_000, 400_000),
      };
    });
  };

  interface ContractSpec {
    status: ContractStatus;
    startDate: string | null;
    endDate: string | null;
    rate: number;
    files: number;
  }
  interface HireSpec {
    worker: WorkerRecord;
    companyId: string;
    status: HireStatus;
    recruiterId?: string | null;
    startDate: string | null;
    endDate: string | null;
    terminationDate?: string | null;
    createdAt: string;
    job: { name: string; description: string };
    rateType: string;
    location: LocationPreference | null;
    contracts: ContractSpec[];
    externalIdentifier?: string | null;
  }

  const addHire = (spec: HireSpec): HireRecord => {
    data.counters.hire += 1;
    const n = data.counters.hire;
    const company = companyById.get(spec.companyId) as CompanyRecord;
    const term: Array<["NET" | "END_OF_MONTH", number]> = [
      ["NET", 30],
      ["END_OF_MONTH", 30],
      ["NET", 14],
    ];
    const [method, days] = term[n % term.length] as ["NET" | "END_OF_MONTH", number];
    const hire: HireRecord = {
      id: `hire_${pad(n)}`,
      number: `H-${10_000 + n}`,
      status: spec.status,
      workerId: spec.worker.id,
      companyId: spec.companyId,
      recruiterId: spec.recruiterId ?? null,
      createdAt: spec.createdAt,
      startDate: spec.startDate,
      endDate: spec.endDate,
      terminationDate: spec.terminationDate ?? null,
      externalIdentifier: spec.externalIdentifier ?? null,
      contractIds: [],
    };
    for (const c of spec.contracts) {
      data.counters.contract += 1;
      const contract: ContractRecord = {
        id: `ctr_${pad(data.counters.contract)}`,
        hireId: hire.id,
        jobName: spec.job.name,
        jobDescription: spec.job.description,
        locationPreference: spec.location,
        status: c.status,
        startDate: c.startDate,
        endDate: c.endDate,
        currency: company.currency,
        rateType: spec.rateType,
        rate: c.rate,
        purchaseOrderNumber: n % 3 === 0 ? `PO-${company.market}-${4_000 + n}` : null,
        paymentTermMethod: method,
        paymentTerm: days,
        files: newFiles(c.files),
      };
      data.contracts.set(contract.id, contract);
      hire.contractIds.push(contract.id);
    }
    data.hires.set(hire.id, hire);
    return hire;
  };

  const rateFor = (currency: string, rateType: string) => {
    const [lo, hi] = HOURLY_RATE[currency] ?? [50, 150];
    const hourly = int(lo, hi);
    if (rateType === "DAILY") return hourly * 8;
    if (rateType === "MONTHLY") return hourly * 160;
    return hourly;
  };

  // Fixed hires other tests rely on.
  const names = [...WORKER_NAMES];
  const nextName = () => names.shift() ?? ["Alex", `Worker${data.counters.worker + 1}`];
  const [anaFirst, anaLast] = nextName() as [string, string];
  const ana = newWorker(anaFirst, anaLast, "Backend Engineer");
  const anaStart = addDays(today, -120);
  const anaEnd = addDays(today, 240);
  addHire({
    worker: ana,
    companyId: "cmp_nordlys",
    status: "ACTIVE",
    startDate: anaStart,
    endDate: anaEnd,
    createdAt: addDays(today, -140),
    job: JOBS[0] as (typeof JOBS)[number],
    rateType: "HOURLY",
    location: "REMOTE_ONLY",
    externalIdentifier: "SAP-EMP-1001",
    contracts: [
      { status: "ARCHIVED", startDate: anaStart, endDate: anaEnd, rate: 650, files: 1 },
      { status: "ACTIVE", startDate: addDays(today, -30), endDate: anaEnd, rate: 725, files: 2 },
    ],
  });
  const [hf, hl] = nextName() as [string, string];
  const harborStart = addDays(today, -60);
  addHire({
    worker: newWorker(hf, hl, "Project Manager"),
    companyId: "cmp_harbor",
    status: "ACTIVE",
    startDate: harborStart,
    endDate: addDays(today, 120),
    createdAt: addDays(today, -75),
    job: JOBS[4] as (typeof JOBS)[number],
    rateType: "HOURLY",
    location: "ONSITE_SOME",
    contracts: [
      {
        status: "ACTIVE",
        startDate: harborStart,
        endDate: addDays(today, 120),
        rate: 95,
        files: 1,
      },
    ],
  });
  const [df, dl] = nextName() as [string, string];
  const draftStart = addDays(startOfNextMonth(today), 14);
  addHire({
    worker: newWorker(df, dl, "Data Analyst"),
    companyId: "cmp_nordlys",
    status: "DRAFT",
    startDate: draftStart,
    endDate: addDays(draftStart, 90),
    createdAt: addDays(today, -2),
    job: JOBS[2] as (typeof JOBS)[number],
    rateType: "HOURLY",
    location: "ONSITE_SOME",
    contracts: [
      {
        status: "DRAFT",
        startDate: draftStart,
        endDate: addDays(draftStart, 90),
        rate: 540,
        files: 0,
      },
    ],
  });
  const [ef, el] = nextName() as [string, string];
  const endedStart = addDays(today, -200);
  const endedEnd = addDays(today, -20);
  addHire({
    worker: newWorker(ef, el, "Wind Turbine Technician"),
    companyId: "cmp_nordlys",
    status: "ENDED",
    startDate: endedStart,
    endDate: endedEnd,
    createdAt: addDays(today, -215),
    job: JOBS[1] as (typeof JOBS)[number],
    rateType: "DAILY",
    location: "ONSITE_ONLY",
    recruiterId: "rec_brightpath",
    contracts: [
      { status: "ARCHIVED", startDate: endedStart, endDate: endedEnd, rate: 4_800, files: 1 },
    ],
  });

  // Generated hires: a fixed status mix, shuffled deterministically.
  const mix: HireStatus[] = [
    ...Array<HireStatus>(20).fill("ACTIVE"),
    ...Array<HireStatus>(7).fill("ENDED"),
    ...Array<HireStatus>(4).fill("TERMINATED"),
    ...Array<HireStatus>(5).fill("DRAFT"),
    ...Array<HireStatus>(5).fill("OFFERED"),
    ...Array<HireStatus>(6).fill("READY"),
    ...Array<HireStatus>(5).fill("CANCELLED"),
  ];
  for (let i = mix.length - 1; i > 0; i--) {
    const j = int(0, i);
    [mix[i], mix[j]] = [mix[j] as HireStatus, mix[i] as HireStatus];
  }
  const companyCycle = ["cmp_nordlys", "cmp_nordlys", "cmp_harbor", "cmp_nordlys", "cmp_castell"];
  const monthEnd = endOfMonth(today);
  const nextMonth = startOfNextMonth(today);
  let endingThisMonth = 0;
  const reusedWorkers: WorkerRecord[] = [];

  mix.forEach((status, i) => {
    const companyId = companyCycle[i % companyCycle.length] as string;
    const company = companyById.get(companyId) as CompanyRecord;
    const job = pick(JOBS);
    // A few workers come back for a second engagement, so Worker.hires has more than one.
    const worker =
      i % 13 === 12 && reusedWorkers.length > 0
        ? (reusedWorkers.shift() as WorkerRecord)
        : (() => {
            const [f, l] = nextName() as [string, string];
            const w = newWorker(f, l, job.name);
            if (i % 6 === 0) reusedWorkers.push(w);
            return w;
          })();
    const rateType = i % 7 === 3 ? "DAILY" : i % 11 === 5 ? "MONTHLY" : "HOURLY";
    const rate = rateFor(company.currency, rateType);
    const location = i % 9 === 4 ? null : (LOCATIONS[i % LOCATIONS.length] as LocationPreference);
    let startDate: string | null;
    let endDate: string | null;
    let terminationDate: string | null = null;
    let createdAt: string;
    const contracts: ContractSpec[] = [];
    switch (status) {
      case "ACTIVE": {
        startDate = addDays(today, -int(10, 300));
        if (endingThisMonth < 5) {
          endingThisMonth += 1;
          endDate = monthEnd > today ? addDays(today, int(1, dayDiff(today, monthEnd))) : today;
        } else {
          endDate = i % 8 === 0 ? null : addDays(today, int(20, 300));
        }
        createdAt = addDays(startDate, -int(7, 40));
        if (i % 4 === 0) {
          const revisedFrom = addDays(startDate, int(5, Math.max(5, dayDiff(startDate, today))));
          contracts.push({ status: "ARCHIVED", startDate, endDate, rate, files: 1 });
          contracts.push({
            status: "ACTIVE",
            startDate: revisedFrom,
            endDate,
            rate: round2(rate * 1.08),
            files: 2,
          });
        } else {
          contracts.push({ status: "ACTIVE", startDate, endDate, rate, files: 1 + (i % 2) });
        }
        break;
      }
      case "ENDED": {
        startDate = addDays(today, -int(150, 400));
        endDate = addDays(today, -int(5, 120));
        createdAt = addDays(startDate, -int(7, 40));
        if (i % 3 === 0) {
          contracts.push({ status: "ARCHIVED", startDate, endDate, rate, files: 1 });
          contracts.push({
            status: "ARCHIVED",
            startDate: addDays(startDate, 30),
            endDate,
            rate: round2(rate * 1.05),
            files: 1,
          });
        } else {
          contracts.push({ status: "ARCHIVED", startDate, endDate, rate, files: 1 });
        }
        break;
      }
      case "TERMINATED": {
        startDate = addDays(today, -int(60, 250));
        endDate = addDays(today, int(30, 200));
        terminationDate = addDays(today, -int(3, 50));
        createdAt = addDays(startDate, -int(7, 40));
        contracts.push({ status: "ARCHIVED", startDate, endDate, rate, files: 1 });
        break;
      }
      case "OFFERED":
      case "READY": {
        startDate = addDays(nextMonth, int(0, 20));
        endDate = addDays(startDate, int(60, 240));
        createdAt = addDays(today, -int(1, 20));
        contracts.push({
          status: status === "READY" ? "ACTIVE" : "DRAFT",
          startDate,
          endDate,
          rate,
          files: status === "READY" ? 1 : 0,
        });
        break;
      }
      case "DRAFT": {
        startDate = i % 2 === 0 ? addDays(today, int(20, 90)) : null;
        endDate = startDate ? addDays(startDate, int(60, 180)) : null;
        createdAt = addDays(today, -int(0, 10));
        contracts.push({ status: "DRAFT", startDate, endDate, rate, files: 0 });
        break;
      }
      default: {
        // CANCELLED: never started.
        startDate = addDays(today, -int(-30, 60));
        endDate = addDays(startDate, int(60, 180));
        createdAt = addDays(startDate, -int(10, 30));
        contracts.push({ status: "ARCHIVED", startDate, endDate, rate, files: 0 });
      }
    }
    addHire({
      worker,
      companyId,
      status,
      recruiterId: companyId !== "cmp_castell" && i % 5 === 1 ? "rec_brightpath" : null,
      startDate,
      endDate,
      terminationDate,
      createdAt,
      job,
      rateType,
      location,
      contracts,
      externalIdentifier: i % 4 === 1 ? `SAP-EMP-${1_100 + i}` : null,
    });
  });

  seedInvoices(data, today, int);
  for (const domain of SANDBOX_DOMAINS) domain.seed?.(data, rand);
  // Last of all, so every other contract keeps its id and nothing seeded above sees this draft.
  addPendingChange(data, SANDBOX_FIXTURES.anaHireId, {
    rate: 780,
    startDate: startOfNextMonth(startOfNextMonth(today)),
  });
  return data;
}

/**
 * A change to a hire's active contract that nobody has signed: a DRAFT copy with new terms, which
 * becomes the hire's latest contract while the active one stays in force. Uses no randomness.
 */
function addPendingChange(
  data: SandboxData,
  hireId: string,
  change: { rate: number; startDate: string },
): void {
  const hire = data.hires.get(hireId) as HireRecord;
  const active = [...hire.contractIds]
    .reverse()
    .map((id) => data.contracts.get(id) as ContractRecord)
    .find((c) => c.status === "ACTIVE") as ContractRecord;
  data.counters.contract += 1;
  const draft: ContractRecord = {
    ...active,
    id: `ctr_${pad(data.counters.contract)}`,
    status: "DRAFT",
    startDate: change.startDate,
    rate: change.rate,
    files: [],
  };
  data.contracts.set(draft.id, draft);
  hire.contractIds.push(draft.id);
}

function dayDiff(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
}

function seedInvoices(
  data: SandboxData,
  today: string,
  int: (min: number, max: number) => number,
): void {
  const billable = [...data.hires.values()].filter(
    (h) =>
      (h.status === "ACTIVE" || h.status === "ENDED" || h.status === "TERMINATED") &&
      h.startDate !== null &&
      h.startDate < today,
  );
  const pattern: InvoiceStatus[] = [
    "PAID",
    "UNPAID",
    "OVERDUE",
    "PAID",
    "CREDITED",
    "UNPAID",
    "PAID",
    "OVERDUE",
  ];
  type Draft = Omit<InvoiceRecord, "id" | "number" | "rows"> & {
    rows: Omit<InvoiceRowRecord, "id">[];
  };
  const drafts: Draft[] = [];
  for (let i = 0; i < 64; i++) {
    const hire = billable[i % billable.length] as HireRecord;
    const contract = data.contracts.get(hire.contractIds.at(-1) as string) as ContractRecord;
    const status = pattern[i % pattern.length] as InvoiceStatus;
    const hours = int(16, 160);
    const hourly =
      contract.rateType === "DAILY"
        ? contract.rate / 8
        : contract.rateType === "MONTHLY"
          ? contract.rate / 160
          : contract.rate;
    const net = round2(hours * hourly);
    const tax = round2(net * (TAX_RATE[contract.currency] ?? 0));
    const gross = round2(net + tax);
    let date: string;
    let dueDate: string;
    let open = gross;
    let markedPaidAt: string | null = null;
    switch (status) {
      case "PAID":
        date = addDays(today, -int(35, 300));
        dueDate = addDays(date, 30);
        markedPaidAt = addDays(dueDate, -int(0, 12));
        open = 0;
        break;
      case "UNPAID":
        date = addDays(today, -int(0, 25));
        dueDate = addDays(date, 30);
        break;
      case "OVERDUE":
        date = addDays(today, -int(45, 150));
        dueDate = addDays(date, 30);
        // Some overdue invoices are partly paid.
        if (i % 3 === 0) open = round2(gross / 2);
        break;
      default:
        date = addDays(today, -int(30, 200));
        dueDate = addDays(date, 30);
        open = 0;
    }
    const rows = invoiceRows({
      contract,
      workerId: hire.workerId,
      date,
      hours,
      hourly,
      net,
    });
    const payee = hire.recruiterId
      ? (data.recruiters.find((r) => r.id === hire.recruiterId)?.name ?? PLATFORM_ENTITY_NAME)
      : PLATFORM_ENTITY_NAME;
    const base: Draft = {
      hireId: hire.id,
      purchaseOrderNumber: contract.purchaseOrderNumber,
      companyId: hire.companyId,
      currency: contract.currency,
      netAmount: net,
      taxAmount: tax,
      grossAmount: gross,
      grossOpenAmount: open,
      markedPaidAt,
      date,
      dueDate,
      payeeDisplayName: payee,
      transactionType: i % 16 === 9 ? "BATCH_INVOICE" : "INVOICE",
      isFullyCredited: status === "CREDITED",
      status,
      externalIdentifier: i % 5 === 2 ? `ERP-${70_000 + i}` : null,
      rows,
    };
    drafts.push(base);
    if (status === "CREDITED") {
      // The credit note that cancelled it: negative amounts, settled, counted as paid.
      const noteDate = addDays(date, int(2, 10));
      drafts.push({
        ...base,
        netAmount: -net,
        taxAmount: -tax,
        grossAmount: -gross,
        grossOpenAmount: 0,
        markedPaidAt: noteDate,
        date: noteDate,
        dueDate: noteDate,
        transactionType: "CREDIT_NOTE",
        isFullyCredited: false,
        status: "PAID",
        externalIdentifier: null,
        rows: rows.map((r) => ({ ...r, customText: `Credit: ${r.customText}` })),
      });
    }
  }
  drafts.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const perYear = new Map<string, number>();
  let row = 0;
  data.invoices = drafts.map((d, index) => {
    const year = d.date.slice(0, 4);
    const prefix = d.transactionType === "CREDIT_NOTE" ? "CN" : "INV";
    const key = `${prefix}-${year}`;
    const seq = (perYear.get(key) ?? 0) + 1;
    perYear.set(key, seq);
    const rows = d.rows.map((r) => {
      row += 1;
      return { ...r, id: `row_${pad(row, 4)}` };
    });
    return { ...d, id: `inv_${pad(index + 1)}`, number: `${key}-${pad(seq, 4)}`, rows };
  });
}

const moneyText = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * The rows of one invoice, from what it bills (no randomness): the hours of the four weeks before
 * the invoice date, in two rows of two weeks when there are 80 hours or more. The amounts add up
 * to the invoice's net amount.
 */
function invoiceRows(bill: {
  contract: ContractRecord;
  workerId: string;
  date: string;
  hours: number;
  hourly: number;
  net: number;
}): Omit<InvoiceRowRecord, "id">[] {
  const { contract, date, hourly, net } = bill;
  const parts =
    bill.hours >= 80
      ? [
          { hours: Math.floor(bill.hours / 2), from: addDays(date, -28), to: addDays(date, -15) },
          {
            hours: bill.hours - Math.floor(bill.hours / 2),
            from: addDays(date, -14),
            to: addDays(date, -1),
          },
        ]
      : [{ hours: bill.hours, from: addDays(date, -28), to: addDays(date, -1) }];
  let billed = 0;
  return parts.map((part, index) => {
    const amount = index === parts.length - 1 ? round2(net - billed) : round2(part.hours * hourly);
    billed = round2(billed + amount);
    const po = contract.purchaseOrderNumber ? ` (PO ${contract.purchaseOrderNumber})` : "";
    const c = contract.currency;
    return {
      workerId: bill.workerId,
      customText: `${contract.jobName}, ${part.from} – ${part.to}: ${part.hours} hours × ${c} ${moneyText.format(hourly)} = ${c} ${moneyText.format(amount)}${po}`,
    };
  });
}
