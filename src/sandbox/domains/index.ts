import type { SandboxDomain } from "../domain.js";
import { approvalsDomain } from "./approvals/index.js";
import { hireDetailsDomain } from "./hire-details/index.js";
import { jobsDomain } from "./jobs/index.js";
import { paymentsDomain } from "./payments/index.js";
import { talentDomain } from "./talent/index.js";
import { webhooksDomain } from "./webhooks/index.js";

/** Every domain the sandbox serves beyond its core (accounts, hires, contracts, invoices). */
export const SANDBOX_DOMAINS: readonly SandboxDomain[] = [
  hireDetailsDomain,
  webhooksDomain,
  paymentsDomain,
  // The talent pool before jobs: job candidates are talent-pool workers.
  talentDomain,
  jobsDomain,
  // Last: it draws on the shared seed's random numbers, so the others keep theirs.
  approvalsDomain,
];
