// Jobs, their candidates and bids. Candidates are workers from the talent pool (seeded before this
// domain); two finished jobs lead to the core seed's hires of Ana (Nordlys) and Liam (Harbor).
import { addDays } from "../../dates.js";
import { referenced } from "../../records.js";
import type { HireRecord, SandboxData, WorkerRecord } from "../../seed/index.js";
import { seedJobAndContactValues } from "../hire-details/seed.js";
import { talentOf } from "../talent/seed.js";

type JobStatus = "DRAFT" | "ACTIVE" | "COMPLETED" | "REMOVED";
export type JobCandidateHiringStep =
  | "SHORTLISTED"
  | "INVITED_TO_APPLY"
  | "APPLIED"
  | "HIRING"
  | "INTERVIEW_SELECTED"
  | "INTERVIEW_SCHEDULED"
  | "INTERVIEW_COMPLETED"
  | "COMPLETION_ON_HOLD";
type JobCandidateStatus = "ELIGIBLE" | "NON_ELIGIBLE" | "DUPLICATE";
type BidStatus = "OPEN" | "ACCEPTED" | "REJECTED" | "CANCELLED";
type SourcingChannel = "TRUSTED_CONTACT" | "CANDIDATE_SUBMISSION" | "MARKETPLACE";

export interface JobRecord {
  id: string;
  number: number;
  name: string;
  description: string;
  companyId: string;
  status: JobStatus;
  paused: boolean;
  skillIds: string[];
  currency: string;
  rateType: string | null;
  rate: number | null;
  minimumRate: number | null;
  maximumRate: number | null;
  locationPreference: "ONSITE_ONLY" | "ONSITE_SOME" | "REMOTE_ONLY" | null;
  startDate: string | null;
  endDate: string | null;
  requiredWorkers: number;
  /** DateTime strings, as the platform writes them. */
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  externalIdentifier: string | null;
}
export interface JobCandidateRecord {
  id: string;
  jobId: string;
  workerId: string;
  step: JobCandidateHiringStep;
  status: JobCandidateStatus;
  statusReason: string | null;
  /** Internal note on the status; only the company sees it. */
  statusComment: string | null;
  isPreferred: boolean;
  sourcingChannel: SourcingChannel;
  /** The worker's active bid on the job, if any. */
  bidId: string | null;
  /** The hire made from this candidacy, if any. */
  hireId: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface BidRecord {
  id: string;
  jobId: string;
  workerId: string;
  /** A staffing agency that bid on the worker's behalf. */
  supplierId: string | null;
  status: BidStatus;
  rate: number | null;
  rateType: string | null;
  currency: string;
  brief: string | null;
  /** Not a Bid field; keeps the order bids arrived in. */
  createdAt: string;
}
export interface JobsData {
  /** Insertion order is creation order; issue 11's mutations add and change records here. */
  jobs: Map<string, JobRecord>;
  candidates: Map<string, JobCandidateRecord>;
  bids: Map<string, BidRecord>;
  /** Hire id → the job it is on (Hire.job), for hires no candidacy leads to. */
  hireJobs: Map<string, string>;
  /**
   * The jobs of the core's hires, which were not made through the job board: reachable through
   * Hire.job and job(id), left out of jobs() so the seeded board stays as its tests know it.
   */
  hireOnlyJobs: Map<string, JobRecord>;
  counters: { job: number; candidate: number; bid: number };
}

declare module "../../seed/types.js" {
  interface SandboxData {
    /** Set by the jobs domain's seed. */
    jobs?: JobsData;
  }
}

export function jobsOf(data: SandboxData): JobsData {
  if (!data.jobs) throw new Error("The jobs domain has not been seeded.");
  return data.jobs;
}

/** A platform DateTime for a day, at a fixed hour so the seed stays the same. */
const dateTime = (date: string, hour = 9) =>
  `${date}T${String(hour).padStart(2, "0")}:00:00.000000Z`;

interface CandidateSpec {
  worker: string;
  step: JobCandidateHiringStep;
  status?: JobCandidateStatus;
  statusReason?: string;
  preferred?: boolean;
  channel?: SourcingChannel;
  bid?: { status: BidStatus; rate: number; brief?: string; supplierId?: string };
  hireId?: string;
}
interface JobSpec {
  name: string;
  description: string;
  companyId: string;
  status: JobStatus;
  skills: string[];
  rateType: string;
  /** A fixed rate, or a range. */
  rate: number | [number, number];
  location: JobRecord["locationPreference"];
  /** Days from today. */
  created: number;
  start: number | null;
  end: number | null;
  candidates?: CandidateSpec[];
}

const JOB_SPECS: JobSpec[] = [
  {
    name: "Senior Backend Engineer",
    description: "Build and run the metering platform's APIs.",
    companyId: "cmp_nordlys",
    status: "COMPLETED",
    skills: ["TypeScript", "Node.js", "PostgreSQL"],
    rateType: "HOURLY",
    rate: [600, 800],
    location: "REMOTE_ONLY",
    created: -150,
    start: -120,
    end: 240,
    candidates: [
      {
        worker: "Ana Costa",
        step: "HIRING",
        preferred: true,
        bid: { status: "ACCEPTED", rate: 650, brief: "Eight years of Node.js APIs." },
        hireId: "hire_001",
      },
      {
        worker: "Oliver Dahl",
        step: "APPLIED",
        status: "NON_ELIGIBLE",
        statusReason: "OTHER_CANDIDATE_ACCEPTED",
        bid: { status: "REJECTED", rate: 720 },
      },
    ],
  },
  {
    name: "React Frontend Developer",
    description: "Build the customer self-service portal's new React front end.",
    companyId: "cmp_nordlys",
    status: "ACTIVE",
    skills: ["React", "TypeScript"],
    rateType: "HOURLY",
    rate: [550, 750],
    location: "ONSITE_SOME",
    created: -20,
    start: 30,
    end: 210,
    candidates: [
      { worker: "Mikkel Andersen", step: "SHORTLISTED", preferred: true },
      { worker: "Camilla Vestergaard", step: "INVITED_TO_APPLY" },
      {
        worker: "Elsa Bergström",
        step: "APPLIED",
        bid: { status: "OPEN", rate: 690, brief: "React and design systems since 2017." },
      },
      {
        worker: "Nikolaj Brandt",
        step: "APPLIED",
        channel: "CANDIDATE_SUBMISSION",
        bid: { status: "OPEN", rate: 610, supplierId: "rec_brightpath" },
      },
    ],
  },
  {
    name: "Backend Developer (Python)",
    description: "Grid-balancing services in Python on AWS.",
    companyId: "cmp_nordlys",
    status: "ACTIVE",
    skills: ["Python", "PostgreSQL", "AWS"],
    rateType: "HOURLY",
    rate: [600, 750],
    location: "REMOTE_ONLY",
    created: -12,
    start: 21,
    end: 200,
    candidates: [
      {
        worker: "Frederik Juhl",
        step: "APPLIED",
        preferred: true,
        bid: { status: "OPEN", rate: 680 },
      },
      { worker: "Oliver Dahl", step: "APPLIED", bid: { status: "OPEN", rate: 720 } },
      {
        worker: "Priya Raman",
        step: "APPLIED",
        status: "NON_ELIGIBLE",
        statusReason: "AVAILABILITY",
        bid: { status: "CANCELLED", rate: 600 },
      },
    ],
  },
  {
    name: "Grid Data Analyst",
    description: "Report on consumption and grid-balancing data.",
    companyId: "cmp_nordlys",
    status: "ACTIVE",
    skills: ["Data Analysis", "SQL"],
    rateType: "HOURLY",
    rate: 560,
    location: "ONSITE_SOME",
    created: -5,
    start: 40,
    end: 130,
  },
  {
    name: "Wind Turbine Technician",
    description: "Service and inspect offshore turbines.",
    companyId: "cmp_nordlys",
    status: "DRAFT",
    skills: ["Wind Turbine Maintenance"],
    rateType: "DAILY",
    rate: 4_800,
    location: "ONSITE_ONLY",
    created: -2,
    start: null,
    end: null,
  },
  {
    name: "UX Designer",
    description: "Design the customer self-service portal.",
    companyId: "cmp_nordlys",
    status: "REMOVED",
    skills: ["UX Design", "Figma"],
    rateType: "HOURLY",
    rate: [500, 650],
    location: "ONSITE_SOME",
    created: -90,
    start: -60,
    end: 30,
  },
  {
    name: "Project Manager",
    description: "Run the store roll-out programme.",
    companyId: "cmp_harbor",
    status: "COMPLETED",
    skills: ["Project Management", "Agile"],
    rateType: "HOURLY",
    rate: [85, 110],
    location: "ONSITE_SOME",
    created: -80,
    start: -60,
    end: 120,
    candidates: [
      {
        worker: "Liam O'Connor",
        step: "HIRING",
        bid: { status: "ACCEPTED", rate: 95 },
        hireId: "hire_002",
      },
    ],
  },
  {
    name: "Cloud Architect",
    description: "Plan the migration to managed infrastructure.",
    companyId: "cmp_harbor",
    status: "ACTIVE",
    skills: ["AWS", "Kubernetes"],
    rateType: "HOURLY",
    rate: [120, 160],
    location: "REMOTE_ONLY",
    created: -9,
    start: 25,
    end: 180,
  },
  {
    name: "Data Analyst",
    description: "Forecast stock and supplier lead times.",
    companyId: "cmp_harbor",
    status: "ACTIVE",
    skills: ["Data Analysis", "Python"],
    rateType: "HOURLY",
    rate: [70, 95],
    location: "ONSITE_SOME",
    created: -15,
    start: 14,
    end: 150,
    candidates: [
      { worker: "Emily Carter", step: "INVITED_TO_APPLY" },
      { worker: "Marcus Bell", step: "SHORTLISTED" },
    ],
  },
  {
    name: "QA Engineer",
    description: "Automate regression tests for the mobile apps.",
    companyId: "cmp_harbor",
    status: "DRAFT",
    skills: ["Test Automation"],
    rateType: "HOURLY",
    rate: 80,
    location: null,
    created: -1,
    start: null,
    end: null,
  },
  {
    name: "Frontend Developer (checkout)",
    description: "Build the web shop's checkout flow.",
    companyId: "cmp_castell",
    status: "ACTIVE",
    skills: ["React", "JavaScript"],
    rateType: "HOURLY",
    rate: [75, 95],
    location: "REMOTE_ONLY",
    created: -25,
    start: 10,
    end: 190,
    candidates: [
      { worker: "Felix Braun", step: "APPLIED", bid: { status: "OPEN", rate: 85 } },
      { worker: "Mikkel Andersen", step: "APPLIED", bid: { status: "OPEN", rate: 90 } },
      { worker: "Marta Wiśniewska", step: "SHORTLISTED" },
    ],
  },
  {
    name: "Copywriter (German and English)",
    description: "Product and campaign copy in English and German.",
    companyId: "cmp_castell",
    status: "ACTIVE",
    skills: ["Copywriting", "German"],
    rateType: "DAILY",
    rate: [400, 520],
    location: "REMOTE_ONLY",
    created: -30,
    start: 7,
    end: 97,
    candidates: [{ worker: "Lena Hoffmann", step: "APPLIED", bid: { status: "OPEN", rate: 480 } }],
  },
];

const pad = (n: number) => String(n).padStart(3, "0");

export function seedJobs(data: SandboxData, rand: () => number): void {
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const talent = talentOf(data);
  const store: JobsData = {
    jobs: new Map(),
    candidates: new Map(),
    bids: new Map(),
    hireJobs: new Map(),
    hireOnlyJobs: new Map(),
    counters: { job: 0, candidate: 0, bid: 0 },
  };
  data.jobs = store;

  const skillByName = new Map([...talent.skills.values()].map((s) => [s.name, s.id]));
  const workerByName = new Map<string, WorkerRecord>();
  for (const w of data.workers.values()) workerByName.set(`${w.firstName} ${w.lastName}`, w);
  const currencyOf = (id: string) => data.companies.find((c) => c.id === id)?.currency ?? "EUR";

  for (const spec of JOB_SPECS) {
    store.counters.job += 1;
    const id = `job_${pad(store.counters.job)}`;
    const created = addDays(data.today, spec.created);
    const published = spec.status === "DRAFT" ? null : addDays(created, int(0, 2));
    const [min, max] = Array.isArray(spec.rate) ? spec.rate : [null, null];
    const job: JobRecord = {
      id,
      number: 1_000 + store.counters.job,
      name: spec.name,
      description: spec.description,
      companyId: spec.companyId,
      status: spec.status,
      paused: false,
      skillIds: spec.skills.map((name) => {
        const skill = skillByName.get(name);
        if (!skill) throw new Error(`Jobs seed: no skill ${name}`);
        return skill;
      }),
      currency: currencyOf(spec.companyId),
      rateType: spec.rateType,
      rate: Array.isArray(spec.rate) ? null : spec.rate,
      minimumRate: min,
      maximumRate: max,
      locationPreference: spec.location,
      startDate: spec.start === null ? null : addDays(data.today, spec.start),
      endDate: spec.end === null ? null : addDays(data.today, spec.end),
      requiredWorkers: 1,
      createdAt: dateTime(created),
      updatedAt: dateTime(published ?? created, 14),
      publishedAt: published ? dateTime(published, 10) : null,
      externalIdentifier:
        spec.companyId === "cmp_nordlys" ? `REQ-${2_400 + store.counters.job}` : null,
    };
    store.jobs.set(id, job);

    for (const c of spec.candidates ?? []) {
      const worker = workerByName.get(c.worker);
      if (!worker) throw new Error(`Jobs seed: no worker ${c.worker}`);
      const added = addDays(published ?? created, int(1, 4));
      let bidId: string | null = null;
      if (c.bid) {
        store.counters.bid += 1;
        bidId = `bid_${pad(store.counters.bid)}`;
        store.bids.set(bidId, {
          id: bidId,
          jobId: id,
          workerId: worker.id,
          supplierId: c.bid.supplierId ?? null,
          status: c.bid.status,
          rate: c.bid.rate,
          rateType: spec.rateType,
          currency: job.currency,
          brief: c.bid.brief ?? null,
          createdAt: dateTime(addDays(added, 1), 11),
        });
      }
      store.counters.candidate += 1;
      const candidateId = `jc_${pad(store.counters.candidate)}`;
      store.candidates.set(candidateId, {
        id: candidateId,
        jobId: id,
        workerId: worker.id,
        step: c.step,
        status: c.status ?? "ELIGIBLE",
        statusReason: c.statusReason ?? null,
        statusComment: null,
        isPreferred: c.preferred ?? false,
        sourcingChannel: c.channel ?? "TRUSTED_CONTACT",
        bidId,
        hireId: c.hireId && data.hires.has(c.hireId) ? c.hireId : null,
        createdAt: dateTime(added, 12),
        updatedAt: dateTime(bidId ? addDays(added, 1) : added, 15),
      });
    }
  }
  // After the specified jobs, so they keep their ids; no random numbers, so later seeds keep theirs.
  for (const hire of data.hires.values()) jobOfHire(data, hire);
  seedJobAndContactValues(data, allJobs(data), [...talent.contacts.values()]);
}

/** A job by id, whether listed by `jobs` or made only for a hire (`job_h…`). */
export function jobById(data: SandboxData, id: string): JobRecord | undefined {
  const store = jobsOf(data);
  return store.jobs.get(id) ?? store.hireOnlyJobs.get(id);
}

/** Every job: those `jobs` lists, then those made only for hires. */
const allJobs = (data: SandboxData) => {
  const store = jobsOf(data);
  return [...store.jobs.values(), ...store.hireOnlyJobs.values()];
};

/**
 * The job a hire is on (the schema has Hire.job non-null): the job its candidacy was on, else the
 * company's job of the contract's job name, made once as a finished or running job when the seed
 * has none (the core's hires were not made through jobs). A hire created later gets its job the
 * first time it is asked for, as the platform gives every hire one.
 */
export function jobOfHire(data: SandboxData, hire: HireRecord): JobRecord {
  const store = jobsOf(data);
  const linked =
    store.hireJobs.get(hire.id) ??
    [...store.candidates.values()].find((c) => c.hireId === hire.id)?.jobId;
  if (linked) {
    const job = jobById(data, linked);
    if (!job) throw new Error(`The sandbox's data has no job ${linked}.`);
    return job;
  }
  const contract = referenced(data.contracts, hire.contractIds[0]);
  let job = allJobs(data).find(
    (j) => j.companyId === hire.companyId && j.name === contract.jobName && j.status !== "DRAFT",
  );
  if (!job) {
    const n = store.hireOnlyJobs.size + 1;
    const id = `job_h${pad(n)}`;
    const created = hire.createdAt.slice(0, 10);
    const running =
      hire.status === "ACTIVE" || hire.status === "READY" || hire.status === "OFFERED";
    job = {
      id,
      number: 5_000 + n,
      name: contract.jobName,
      description: `${contract.jobName}.`,
      companyId: hire.companyId,
      status: running ? "ACTIVE" : "COMPLETED",
      paused: false,
      skillIds: [],
      currency: contract.currency,
      rateType: contract.rateType,
      rate: contract.rate,
      minimumRate: null,
      maximumRate: null,
      locationPreference: contract.locationPreference,
      startDate: hire.startDate,
      endDate: hire.endDate,
      requiredWorkers: 1,
      createdAt: dateTime(created),
      updatedAt: dateTime(created, 14),
      publishedAt: dateTime(created, 10),
      externalIdentifier: null,
    };
    store.hireOnlyJobs.set(id, job);
  }
  store.hireJobs.set(hire.id, job.id);
  return job;
}
