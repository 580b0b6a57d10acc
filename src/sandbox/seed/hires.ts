// The sample hires and their contracts: four fixed ones that tests rely on, then a fixed mix of
// statuses with generated dates, rates and workers. Every draw of the seeded sequence is in a fixed
// order, so the data is the same on every run.
import { addDays, endOfMonth, startOfNextMonth } from "../dates.js";
import { itemAt, referenced } from "../records.js";
import { dayDiff, pad, round2, type SeedRandom } from "./random.js";
import type {
  CompanyRecord,
  ContractRecord,
  ContractStatus,
  FileRecord,
  HireRecord,
  HireStatus,
  LocationPreference,
  SandboxData,
  WorkerRecord,
} from "./types.js";
import { newWorker } from "./workers.js";

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

/** What seeding hires works with: the data so far, the seeded sequence, the next worker name. */
export interface HireSeeding {
  data: SandboxData;
  random: SeedRandom;
  companyById: Map<string, CompanyRecord>;
  nextName: () => [string, string];
}

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

function newFiles(s: HireSeeding, count: number): FileRecord[] {
  // Attachments only: the contract document itself is Contract.pdfUrl.
  const names = ["Statement of work.pdf", "NDA.pdf", "Supporting documents.pdf"];
  return names.slice(0, count).map((name) => {
    s.data.counters.file += 1;
    return {
      id: `file_${pad(s.data.counters.file)}`,
      name,
      mimeType: "application/pdf",
      size: s.random.int(40_000, 400_000),
    };
  });
}

function addHire(s: HireSeeding, spec: HireSpec): HireRecord {
  s.data.counters.hire += 1;
  const n = s.data.counters.hire;
  const company = referenced(s.companyById, spec.companyId);
  const term: Array<["NET" | "END_OF_MONTH", number]> = [
    ["NET", 30],
    ["END_OF_MONTH", 30],
    ["NET", 14],
  ];
  const [method, days] = itemAt(term, n % term.length);
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
    s.data.counters.contract += 1;
    const contract: ContractRecord = {
      id: `ctr_${pad(s.data.counters.contract)}`,
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
      files: newFiles(s, c.files),
    };
    s.data.contracts.set(contract.id, contract);
    hire.contractIds.push(contract.id);
  }
  s.data.hires.set(hire.id, hire);
  return hire;
}

function rateFor(s: HireSeeding, currency: string, rateType: string): number {
  const [lo, hi] = HOURLY_RATE[currency] ?? [50, 150];
  const hourly = s.random.int(lo, hi);
  if (rateType === "DAILY") return hourly * 8;
  if (rateType === "MONTHLY") return hourly * 160;
  return hourly;
}

/** The hires other tests rely on (SANDBOX_FIXTURES): Ana's, Harbor's, a draft and an ended one. */
export function seedFixedHires(s: HireSeeding): void {
  const { today } = s.data;
  const [anaFirst, anaLast] = s.nextName();
  const ana = newWorker(s.data, s.random.int, anaFirst, anaLast, "Backend Engineer");
  const anaStart = addDays(today, -120);
  const anaEnd = addDays(today, 240);
  addHire(s, {
    worker: ana,
    companyId: "cmp_nordlys",
    status: "ACTIVE",
    startDate: anaStart,
    endDate: anaEnd,
    createdAt: addDays(today, -140),
    job: itemAt(JOBS, 0),
    rateType: "HOURLY",
    location: "REMOTE_ONLY",
    externalIdentifier: "SAP-EMP-1001",
    contracts: [
      { status: "ARCHIVED", startDate: anaStart, endDate: anaEnd, rate: 650, files: 1 },
      { status: "ACTIVE", startDate: addDays(today, -30), endDate: anaEnd, rate: 725, files: 2 },
    ],
  });
  const [hf, hl] = s.nextName();
  const harborStart = addDays(today, -60);
  addHire(s, {
    worker: newWorker(s.data, s.random.int, hf, hl, "Project Manager"),
    companyId: "cmp_harbor",
    status: "ACTIVE",
    startDate: harborStart,
    endDate: addDays(today, 120),
    createdAt: addDays(today, -75),
    job: itemAt(JOBS, 4),
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
  const [df, dl] = s.nextName();
  const draftStart = addDays(startOfNextMonth(today), 14);
  addHire(s, {
    worker: newWorker(s.data, s.random.int, df, dl, "Data Analyst"),
    companyId: "cmp_nordlys",
    status: "DRAFT",
    startDate: draftStart,
    endDate: addDays(draftStart, 90),
    createdAt: addDays(today, -2),
    job: itemAt(JOBS, 2),
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
  const [ef, el] = s.nextName();
  const endedStart = addDays(today, -200);
  const endedEnd = addDays(today, -20);
  addHire(s, {
    worker: newWorker(s.data, s.random.int, ef, el, "Wind Turbine Technician"),
    companyId: "cmp_nordlys",
    status: "ENDED",
    startDate: endedStart,
    endDate: endedEnd,
    createdAt: addDays(today, -215),
    job: itemAt(JOBS, 1),
    rateType: "DAILY",
    location: "ONSITE_ONLY",
    recruiterId: "rec_brightpath",
    contracts: [
      { status: "ARCHIVED", startDate: endedStart, endDate: endedEnd, rate: 4_800, files: 1 },
    ],
  });
}

/** The generated hires: a fixed status mix, shuffled deterministically. */
export function seedGeneratedHires(s: HireSeeding): void {
  const { int, pick } = s.random;
  const { today } = s.data;
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
    [mix[i], mix[j]] = [itemAt(mix, j), itemAt(mix, i)];
  }
  const companyCycle = ["cmp_nordlys", "cmp_nordlys", "cmp_harbor", "cmp_nordlys", "cmp_castell"];
  const calendar: Calendar = {
    today,
    monthEnd: endOfMonth(today),
    nextMonth: startOfNextMonth(today),
    endingThisMonth: 0,
  };
  const reusedWorkers: WorkerRecord[] = [];

  mix.forEach((status, i) => {
    const companyId = itemAt(companyCycle, i % companyCycle.length);
    const company = referenced(s.companyById, companyId);
    const job = pick(JOBS);
    // A few workers come back for a second engagement, so Worker.hires has more than one.
    const reused = i % 13 === 12 ? reusedWorkers.shift() : undefined;
    const worker =
      reused ??
      (() => {
        const [f, l] = s.nextName();
        const w = newWorker(s.data, int, f, l, job.name);
        if (i % 6 === 0) reusedWorkers.push(w);
        return w;
      })();
    const rateType = i % 7 === 3 ? "DAILY" : i % 11 === 5 ? "MONTHLY" : "HOURLY";
    const rate = rateFor(s, company.currency, rateType);
    const location = i % 9 === 4 ? null : itemAt(LOCATIONS, i % LOCATIONS.length);
    addHire(s, {
      worker,
      companyId,
      status,
      recruiterId: companyId !== "cmp_castell" && i % 5 === 1 ? "rec_brightpath" : null,
      ...termsFor(int, calendar, status, i, rate),
      job,
      rateType,
      location,
      externalIdentifier: i % 4 === 1 ? `SAP-EMP-${1_100 + i}` : null,
    });
  });
}

/** The dates the generated hires are placed around; five active hires end this month. */
interface Calendar {
  today: string;
  monthEnd: string;
  nextMonth: string;
  endingThisMonth: number;
}

/** A generated hire's dates and contracts, by its status. */
function termsFor(
  int: SeedRandom["int"],
  calendar: Calendar,
  status: HireStatus,
  i: number,
  rate: number,
): Pick<HireSpec, "startDate" | "endDate" | "terminationDate" | "createdAt" | "contracts"> {
  const { today, monthEnd, nextMonth } = calendar;
  let startDate: string | null;
  let endDate: string | null;
  let terminationDate: string | null = null;
  let createdAt: string;
  const contracts: ContractSpec[] = [];
  switch (status) {
    case "ACTIVE": {
      startDate = addDays(today, -int(10, 300));
      if (calendar.endingThisMonth < 5) {
        calendar.endingThisMonth += 1;
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
  return { startDate, endDate, terminationDate, createdAt, contracts };
}
/**
 * A change to a hire's active contract that nobody has signed: a DRAFT copy with new terms, which
 * becomes the hire's latest contract while the active one stays in force. Uses no randomness.
 */
export function addPendingChange(
  data: SandboxData,
  hireId: string,
  change: { rate: number; startDate: string },
): void {
  const hire = referenced(data.hires, hireId);
  const active = [...hire.contractIds]
    .reverse()
    .map((id) => referenced(data.contracts, id))
    .find((c) => c.status === "ACTIVE");
  if (!active) throw new Error(`The sandbox's hire ${hireId} has no active contract to change.`);
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
