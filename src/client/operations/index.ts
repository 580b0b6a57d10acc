// Every GraphQL document the server sends lives in this folder, as a named operation, by area of the
// platform (declared with ./define.ts). Each domain's file holds the documents its tools need;
// test/client/operations.test.ts checks all of them against the real schema.

import { accountOperations } from "./accounts.js";
import { approvalOperations } from "./approvals.js";
import { changeOperations } from "./changes.js";
import { coreOperations } from "./core.js";
import { hireOperations } from "./hires.js";
import { jobOperations } from "./jobs.js";
import { paymentOperations } from "./payments.js";
import { recordOperations } from "./records.js";
import { talentOperations } from "./talent.js";
import { talentInvitationOperations } from "./talent-invitations.js";
import { webhookOperations } from "./webhooks.js";

export * from "./core.js";

/** All operations, for the validation test, the generated types and anything that lists them. */
export const allOperations = {
  ...coreOperations,
  ...accountOperations,
  ...hireOperations,
  ...paymentOperations,
  ...talentOperations,
  ...talentInvitationOperations,
  ...approvalOperations,
  ...jobOperations,
  ...changeOperations,
  ...webhookOperations,
  ...recordOperations,
};
