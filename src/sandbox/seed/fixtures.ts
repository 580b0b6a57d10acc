// Fixed values of the sample data that tests and the `sandbox` command name: the two tokens, the
// platform's legal entity, and the ids of the hires, contracts and companies tests rely on.
export const SANDBOX_TOKENS = {
  full: "sandbox-full-4f1c9d2e7b",
  limited: "sandbox-limited-8a3e6b0c51",
} as const;

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
