// The talent pool: skills, trusted contacts (a worker in one company's pool) and where workers live.
// Some contacts are workers the core seed already hired; the rest were never hired.
import { addDays } from "../../dates.js";
import { itemAt, referenced } from "../../records.js";
import type { HireRecord, SandboxData, WorkerRecord } from "../../seed/index.js";

type ContactStatus = "INVITED" | "ACTIVE" | "DECLINED" | "APPLIED" | "BLOCKED";
type SkillableType = "WORKER" | "TRUSTED_CONTACT" | "JOB";

interface SkillRecord {
  id: string;
  name: string;
  /** What the skill may be applied to (`skills(skillableType:)`). */
  types: SkillableType[];
}
interface AddressRecord {
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
}
export interface TrustedContactRecord {
  id: string;
  workerId: string;
  companyId: string;
  status: ContactStatus;
  skillIds: string[];
  invitedAt: string;
  statusUpdatedAt: string;
  createdAt: string;
  /** null: added by a process, not invited by someone. */
  invitedByUserId: string | null;
  origin: "INVITED" | "ADDED";
  originChannel: TrustedContactOriginChannel;
  externalIdentifier: string | null;
  /** Invitation emails sent through the API (createTrustedContact, reinviteTrustedContact). */
  invitationEmails?: InvitationEmail[];
}
type TrustedContactOriginChannel =
  | "EXISTING_SETUP"
  | "DIRECT_INVITE"
  | "PERSONAL_INVITE"
  | "CANDIDATE_SUBMISSION"
  | "MARKETPLACE_HIRE"
  | "EXTERNAL_LINK"
  | "ORGANISATION_HIRE";
interface InvitationEmail {
  /** DateTime the email went out. */
  sentAt: string;
  to: string;
  message: string | null;
  sentByUserId: string;
}
export interface TalentData {
  skills: Map<string, SkillRecord>;
  /** Insertion order is creation order; issue 11's mutations add and change records here. */
  contacts: Map<string, TrustedContactRecord>;
  /** By worker id; workers without one have no address. */
  addresses: Map<string, AddressRecord>;
  counters: { contact: number; skill: number };
}

declare module "../../seed/types.js" {
  interface SandboxData {
    /** Set by the talent domain's seed. */
    talent?: TalentData;
  }
}

export function talentOf(data: SandboxData): TalentData {
  if (!data.talent) throw new Error("The talent domain has not been seeded.");
  return data.talent;
}

export const COUNTRY_NAMES: Record<string, string> = {
  AT: "Austria",
  CA: "Canada",
  DE: "Germany",
  DK: "Denmark",
  FI: "Finland",
  GB: "United Kingdom",
  NL: "Netherlands",
  NO: "Norway",
  PL: "Poland",
  SE: "Sweden",
  US: "United States",
};

const SKILL_NAMES = [
  "React",
  "TypeScript",
  "JavaScript",
  "Node.js",
  "Python",
  "Data Analysis",
  "SQL",
  "PostgreSQL",
  "Project Management",
  "Agile",
  "UX Design",
  "Figma",
  "AWS",
  "Kubernetes",
  "Go",
  "Java",
  "Machine Learning",
  "React Native",
  "Wind Turbine Maintenance",
  "Electrical Engineering",
  "Copywriting",
  "German",
  "Health and Safety",
  "Supply Chain",
  "Test Automation",
] as const;
type SkillName = (typeof SKILL_NAMES)[number];

/** Skills of the core seed's jobs, for the hired workers added to a pool. */
const JOB_SKILLS: Record<string, SkillName[]> = {
  "Senior Backend Engineer": ["TypeScript", "Node.js", "PostgreSQL"],
  "Wind Turbine Technician": ["Wind Turbine Maintenance", "Electrical Engineering"],
  "Data Analyst": ["Data Analysis", "SQL", "Python"],
  "UX Designer": ["UX Design", "Figma"],
  "Project Manager": ["Project Management", "Agile"],
  "Electrical Engineer": ["Electrical Engineering"],
  "Frontend Developer": ["React", "JavaScript", "TypeScript"],
  "HSE Coordinator": ["Health and Safety"],
  "Cloud Architect": ["AWS", "Kubernetes"],
  Copywriter: ["Copywriting", "German"],
  "Supply Chain Analyst": ["Supply Chain", "Data Analysis"],
  "QA Engineer": ["Test Automation", "Python"],
};

interface ContactSpec {
  /** An existing worker (by id) or a new one (by name). */
  worker: string | { first: string; last: string; jobTitle: string };
  country: string;
  city: string;
  skills: SkillName[];
  status: ContactStatus;
  origin?: "INVITED" | "ADDED";
}

const nordlys: ContactSpec[] = [
  {
    worker: "wrk_001",
    country: "DK",
    city: "Copenhagen",
    skills: ["TypeScript", "Node.js", "PostgreSQL", "React"],
    status: "ACTIVE",
  },
  {
    worker: "wrk_003",
    country: "DK",
    city: "Aarhus",
    skills: ["Python", "Data Analysis", "SQL"],
    status: "ACTIVE",
  },
  {
    worker: "wrk_004",
    country: "DK",
    city: "Esbjerg",
    skills: ["Wind Turbine Maintenance", "Electrical Engineering"],
    status: "ACTIVE",
    origin: "ADDED",
  },
  {
    worker: { first: "Mikkel", last: "Andersen", jobTitle: "Frontend Developer" },
    country: "DK",
    city: "Copenhagen",
    skills: ["React", "TypeScript", "JavaScript"],
    status: "ACTIVE",
  },
  {
    worker: { first: "Camilla", last: "Vestergaard", jobTitle: "UX Engineer" },
    country: "DK",
    city: "Aarhus",
    skills: ["React", "UX Design", "Figma"],
    status: "INVITED",
  },
  {
    worker: { first: "Nikolaj", last: "Brandt", jobTitle: "Mobile Developer" },
    country: "DK",
    city: "Odense",
    skills: ["React Native", "JavaScript"],
    status: "ACTIVE",
  },
  {
    worker: { first: "Elsa", last: "Bergström", jobTitle: "Full-stack Developer" },
    country: "SE",
    city: "Malmö",
    skills: ["React", "TypeScript", "Node.js"],
    status: "ACTIVE",
  },
  {
    worker: { first: "Frederik", last: "Juhl", jobTitle: "Data Engineer" },
    country: "DK",
    city: "Aalborg",
    skills: ["Python", "Machine Learning", "AWS"],
    status: "ACTIVE",
  },
  {
    worker: { first: "Ida", last: "Mortensen", jobTitle: "Project Manager" },
    country: "DK",
    city: "Copenhagen",
    skills: ["Project Management", "Agile"],
    status: "DECLINED",
  },
  {
    worker: { first: "Tobias", last: "Krogh", jobTitle: "Frontend Developer" },
    country: "DK",
    city: "Copenhagen",
    skills: ["React", "Node.js"],
    status: "BLOCKED",
  },
  {
    worker: { first: "Laura", last: "Friis", jobTitle: "Data Analyst" },
    country: "NO",
    city: "Oslo",
    skills: ["Data Analysis", "SQL", "Python"],
    status: "APPLIED",
  },
  {
    worker: { first: "Oliver", last: "Dahl", jobTitle: "Backend Developer" },
    country: "DK",
    city: "Copenhagen",
    skills: ["Python", "Go", "Kubernetes", "AWS", "PostgreSQL"],
    status: "ACTIVE",
  },
];

const harbor: ContactSpec[] = [
  {
    worker: "wrk_002",
    country: "US",
    city: "Boston",
    skills: ["Project Management", "Agile"],
    status: "ACTIVE",
  },
  {
    worker: { first: "Jordan", last: "Reyes", jobTitle: "Frontend Developer" },
    country: "US",
    city: "Austin",
    skills: ["React", "TypeScript"],
    status: "ACTIVE",
  },
  {
    worker: { first: "Emily", last: "Carter", jobTitle: "Data Analyst" },
    country: "US",
    city: "Denver",
    skills: ["Python", "Data Analysis", "SQL"],
    status: "INVITED",
  },
  {
    worker: { first: "Marcus", last: "Bell", jobTitle: "Cloud Engineer" },
    country: "US",
    city: "Seattle",
    skills: ["AWS", "Kubernetes", "Go"],
    status: "ACTIVE",
  },
  {
    worker: { first: "Hannah", last: "Brooks", jobTitle: "Product Designer" },
    country: "CA",
    city: "Toronto",
    skills: ["UX Design", "Figma"],
    status: "APPLIED",
  },
];

const castell: ContactSpec[] = [
  {
    worker: { first: "Lena", last: "Hoffmann", jobTitle: "Copywriter" },
    country: "DE",
    city: "Berlin",
    skills: ["Copywriting", "German"],
    status: "ACTIVE",
  },
  {
    worker: { first: "Felix", last: "Braun", jobTitle: "Frontend Developer" },
    country: "DE",
    city: "Munich",
    skills: ["React", "JavaScript", "TypeScript"],
    status: "ACTIVE",
  },
  {
    worker: { first: "Marta", last: "Wiśniewska", jobTitle: "Software Engineer" },
    country: "PL",
    city: "Kraków",
    skills: ["Java", "SQL", "React"],
    status: "INVITED",
  },
  {
    worker: { first: "Paul", last: "Richter", jobTitle: "Project Manager" },
    country: "DE",
    city: "Hamburg",
    skills: ["Project Management"],
    status: "ACTIVE",
  },
  {
    // The same freelancer as in Nordlys' pool: one worker, two companies' contacts.
    worker: "Mikkel Andersen",
    country: "DK",
    city: "Copenhagen",
    skills: ["React", "TypeScript"],
    status: "ACTIVE",
  },
  {
    worker: { first: "Sophie", last: "Keller", jobTitle: "Data Analyst" },
    country: "AT",
    city: "Vienna",
    skills: ["Data Analysis", "Python"],
    status: "DECLINED",
  },
];

/** Hired workers of the core seed added to each pool besides the named ones, and where they live. */
const HIRED_EXTRA = {
  cmp_nordlys: { count: 4, country: "DK", cities: ["Copenhagen", "Aarhus", "Odense", "Vejle"] },
  cmp_harbor: { count: 3, country: "US", cities: ["Portland", "Chicago", "New York"] },
  cmp_castell: { count: 3, country: "DE", cities: ["Cologne", "Leipzig", "Stuttgart"] },
} satisfies Record<string, { count: number; country: string; cities: string[] }>;

const pad = (n: number) => String(n).padStart(3, "0");

function emailSlug(first: string, last: string): string {
  return `${first}.${last}`
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/æ/gi, "ae")
    .replace(/ø/gi, "oe")
    .replace(/ł/g, "l")
    .replace(/[^A-Za-z.]/g, "")
    .toLowerCase();
}

export function seedTalent(data: SandboxData, rand: () => number): void {
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const talent: TalentData = {
    skills: new Map(),
    contacts: new Map(),
    addresses: new Map(),
    counters: { contact: 0, skill: 0 },
  };
  data.talent = talent;

  const skillIds = new Map<string, string>();
  for (const name of SKILL_NAMES) {
    talent.counters.skill += 1;
    const id = `skl_${pad(talent.counters.skill)}`;
    talent.skills.set(id, { id, name, types: ["WORKER", "TRUSTED_CONTACT", "JOB"] });
    skillIds.set(name, id);
  }
  const idsOf = (names: readonly SkillName[]) => names.map((n) => referenced(skillIds, n));

  const workerByName = new Map<string, WorkerRecord>();
  const resolveWorker = (spec: ContactSpec["worker"]): WorkerRecord => {
    if (typeof spec === "string") {
      const found = data.workers.get(spec) ?? workerByName.get(spec);
      if (!found) throw new Error(`Talent seed: no worker ${spec}`);
      return found;
    }
    data.counters.worker += 1;
    const worker: WorkerRecord = {
      __typename: "Worker",
      id: `wrk_${pad(data.counters.worker)}`,
      firstName: spec.first,
      lastName: spec.last,
      email: `${emailSlug(spec.first, spec.last)}@example.com`,
      phone: null,
      jobTitle: spec.jobTitle,
      avatar: null,
    };
    data.workers.set(worker.id, worker);
    workerByName.set(`${spec.first} ${spec.last}`, worker);
    return worker;
  };

  const hiresAt = (companyId: string) =>
    [...data.hires.values()]
      .filter((h) => h.companyId === companyId)
      .sort((a, b) => (a.id < b.id ? -1 : 1));

  /** Adds the contact and returns its worker's id; a hired worker was invited before the hire. */
  const addContact = (companyId: string, spec: ContactSpec): string => {
    const worker = resolveWorker(spec.worker);
    const earliest = hiresAt(companyId)
      .filter((h) => h.workerId === worker.id)
      .map((h) => h.createdAt)
      .sort()[0];
    if (!talent.addresses.has(worker.id)) {
      talent.addresses.set(worker.id, { city: spec.city, country: spec.country });
    }
    talent.counters.contact += 1;
    const origin = spec.origin ?? "INVITED";
    const latest = addDays(data.today, -int(20, 400));
    const invitedAt = earliest && earliest < latest ? addDays(earliest, -int(5, 30)) : latest;
    const answered = addDays(invitedAt, int(1, 14));
    const statusUpdatedAt =
      spec.status === "INVITED" || answered > data.today ? invitedAt : answered;
    talent.contacts.set(`tc_${pad(talent.counters.contact)}`, {
      id: `tc_${pad(talent.counters.contact)}`,
      workerId: worker.id,
      companyId,
      status: spec.status,
      skillIds: idsOf(spec.skills),
      invitedAt,
      statusUpdatedAt,
      createdAt: invitedAt,
      invitedByUserId: origin === "INVITED" ? "usr_001" : null,
      origin,
      // Invited people came by direct invitation; the others were added after a hire.
      originChannel: origin === "INVITED" ? "DIRECT_INVITE" : "MARKETPLACE_HIRE",
      externalIdentifier:
        companyId === "cmp_nordlys" ? `TP-${1_000 + talent.counters.contact}` : null,
    });
    return worker.id;
  };

  const pools: Array<[keyof typeof HIRED_EXTRA, ContactSpec[]]> = [
    ["cmp_nordlys", nordlys],
    ["cmp_harbor", harbor],
    ["cmp_castell", castell],
  ];
  for (const [companyId, specs] of pools) {
    const inPool = new Set<string>();
    for (const spec of specs) inPool.add(addContact(companyId, spec));
    // A few more workers this company has hired, skilled as their job says.
    const extra = HIRED_EXTRA[companyId];
    let added = 0;
    for (const hire of hiresAt(companyId)) {
      if (added >= extra.count) break;
      if (inPool.has(hire.workerId)) continue;
      inPool.add(hire.workerId);
      const job = jobNameOf(data, hire);
      addContact(companyId, {
        worker: hire.workerId,
        country: extra.country,
        city: itemAt(extra.cities, added % extra.cities.length),
        skills: JOB_SKILLS[job] ?? [],
        status: "ACTIVE",
        origin: added % 2 === 0 ? "INVITED" : "ADDED",
      });
      added += 1;
    }
  }
}

function jobNameOf(data: SandboxData, hire: HireRecord): string {
  const contract = referenced(data.contracts, hire.contractIds.at(-1));
  return contract.jobName;
}
