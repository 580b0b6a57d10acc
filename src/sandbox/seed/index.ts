// Deterministic sample data for the sandbox. Dates are relative to `today`, so tests pin it and
// the data reads naturally whatever day it runs. A seeded PRNG keeps every run identical: the
// parts below draw from it in a fixed order.
import { startOfNextMonth } from "../dates.js";
import { SANDBOX_DOMAINS } from "../domains/index.js";
import { SANDBOX_FIXTURES } from "./fixtures.js";
import { addPendingChange, type HireSeeding, seedFixedHires, seedGeneratedHires } from "./hires.js";
import { seedInvoices } from "./invoices.js";
import { seedOrganizations } from "./organizations.js";
import { seedRandom } from "./random.js";
import type { SandboxData } from "./types.js";
import { nameQueue } from "./workers.js";

export * from "./fixtures.js";
export type * from "./types.js";

export function createSeed(today: string): SandboxData {
  const random = seedRandom(0x5eed_2026);
  const { companies, organisations, recruiters } = seedOrganizations();
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
  const hires: HireSeeding = {
    data,
    random,
    companyById: new Map(companies.map((c) => [c.id, c])),
    nextName: nameQueue(data),
  };
  seedFixedHires(hires);
  seedGeneratedHires(hires);
  seedInvoices(data, today, random.int);
  for (const domain of SANDBOX_DOMAINS) domain.seed?.(data, random.rand);
  // Last of all, so every other contract keeps its id and nothing seeded above sees this draft.
  addPendingChange(data, SANDBOX_FIXTURES.anaHireId, {
    rate: 780,
    startDate: startOfNextMonth(startOfNextMonth(today)),
  });
  return data;
}
