import type { SandboxDomain } from "../../domain.js";
import { approvalsResolvers } from "./resolvers.js";
import { approvalsTypeDefs } from "./schema.js";
import { seedApprovals } from "./seed.js";

/** Approval requests on hires: listing those awaiting the caller, approving and rejecting them. */
export const approvalsDomain: SandboxDomain = {
  name: "approvals",
  typeDefs: approvalsTypeDefs,
  resolvers: approvalsResolvers,
  seed: seedApprovals,
};
