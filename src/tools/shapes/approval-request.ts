// An approval request on a hire as list_hire_approvals shows it and review_hire_approval decides it:
// the output schema and the mapping, for the selection in src/client/operations/approvals.ts. The
// hire it is about is shown as hire.ts's approval variant.
import * as z from "zod";
import type { ApprovalRequest } from "../../client/operations/approvals.js";
import { approvalHireOutput, toApprovalHire } from "./hire.js";

export const approvalOutput = z.object({
  id: z.string(),
  /** The request's state now: REQUESTED while it waits. */
  state: z.string(),
  /** Whether the caller may decide it now (the platform's viewerCanAction). */
  canDecide: z.boolean(),
  flow: z.object({ id: z.string(), name: z.string(), trigger: z.string() }),
  requestedBy: z.string().nullable(),
  requestedOn: z.string().nullable(),
  /** The approver group it waits for (or waited for). */
  approverGroup: z.string().nullable(),
  /** Who took the latest decision and their message, once decided. */
  decidedBy: z.string().nullable(),
  decisionMessage: z.string().nullable(),
  hire: approvalHireOutput.nullable(),
});
export type ApprovalOut = z.infer<typeof approvalOutput>;

export function toApprovalRequest(r: ApprovalRequest): ApprovalOut {
  const states = r.approvalStates;
  const latest = states.at(-1);
  const request = states.find((s) => s.state === "REQUESTED");
  const decided = latest && latest.state !== "REQUESTED" ? latest : undefined;
  const h = r.approvable;
  return {
    id: r.id,
    state: latest?.state ?? "UNKNOWN",
    canDecide: r.viewerCanAction,
    flow: { id: r.approval.id, name: r.approval.name, trigger: r.approval.trigger },
    requestedBy: request?.actionedBy.name ?? null,
    requestedOn: request?.createdAt ? request.createdAt.slice(0, 10) : null,
    approverGroup: (latest ?? request)?.approver.userGroup.name ?? null,
    decidedBy: decided?.actionedBy.name ?? null,
    decisionMessage: decided?.message ?? null,
    hire: h && "id" in h ? toApprovalHire(h) : null,
  };
}
