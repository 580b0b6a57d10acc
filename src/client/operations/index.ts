// Every operation the server sends, by area of the platform. Each domain's file holds the documents
// its tools need; test/client/operations.test.ts checks all of them against the real schema.
import { operations as coreOperations } from "../operations.js";
import { accountOperations } from "./accounts.js";
import { approvalOperations } from "./approvals.js";
import { hireOperations } from "./hires.js";
import { jobOperations } from "./jobs.js";
import { paymentOperations } from "./payments.js";
import { talentOperations } from "./talent.js";
import { talentInvitationOperations } from "./talent-invitations.js";

export const allOperations = {
  ...coreOperations,
  ...accountOperations,
  ...hireOperations,
  ...paymentOperations,
  ...talentOperations,
  ...talentInvitationOperations,
  ...approvalOperations,
  ...jobOperations,
};
