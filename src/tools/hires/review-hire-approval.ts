import * as z from "zod";
import {
  type ApprovalRequest,
  actionApprovalMutation,
  approvalRequestQuery,
} from "../../client/operations/approvals.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import {
  type BoundSend,
  confirmationTokenArg,
  confirmedWrite,
  confirmedWriteAnnotations,
  type Proposal,
  previewTokenOutput,
  whole,
} from "../confirmation.js";
import { defineTool, NotAllowedError, type ToolContext, ToolInputError } from "../define-tool.js";
import { period, rateText, requestOptions, upperCaseEnum } from "../format.js";
import { refusedAsNotAllowed } from "../not-allowed.js";
import { callOf } from "../reach.js";
import { sentTextSchema, sentTextShown } from "../sent-text.js";
import { type ApprovalOut, approvalOutput, toApprovalRequest } from "../shapes/approval-request.js";

const TOOL = "review_hire_approval";
/** The read that lists the requests still waiting. */
const LIST = "list_hire_approvals";
const checkFor = (id: string) => `${LIST} (approval ${oneLine(id)} is listed while it still waits)`;

type Verdict = "APPROVED" | "REJECTED";

export const reviewHireApprovalTool = defineTool({
  name: TOOL,
  title: "Review hire approval",
  toolset: "hires",
  instruction:
    "review_hire_approval approves or rejects a hire waiting for your approval (list_hire_approvals lists them); both need the person's confirmation, and rejecting cancels the hire.",
  readme: {
    does: "Approves, or rejects (which cancels the hire), a hire waiting for your approval, each after confirmation",
    changes: "yes, cannot be withdrawn",
  },
  description: [
    "Approve or reject a hire waiting for your approval.",
    'Use when: "approve Amara\'s hire". Do not use for: which hires await approval (list_hire_approvals); cancelling a hire yourself (cancel_hire).',
    "Both need the person's confirmation: the first call previews and returns a confirmationToken; once they agree, repeat the call with it. Approving lets the hire proceed (any next approver group is asked) and cannot be withdrawn; rejecting needs a reason and cancels the hire.",
    'Example: {"approvalId": "1290", "decision": "APPROVED"}',
  ].join("\n"),
  inputSchema: {
    approvalId: z.string().min(1).describe("Approval id, from list_hire_approvals."),
    decision: upperCaseEnum(["APPROVED", "REJECTED"]).describe("APPROVED or REJECTED."),
    reason: sentTextSchema(1, 2000).optional().describe("Why; required to reject."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum(["preview", "changed", "approved", "rejected", "declined", "outcome-unknown"]),
    approval: approvalOutput.optional(),
    ...previewTokenOutput,
    note: z.string().optional(),
  },
  annotations: confirmedWriteAnnotations,
  async handler(args, ctx) {
    const { confirmationToken, ...call } = args;
    const verdict = args.decision;
    const reason = args.reason;
    if (verdict === "REJECTED" && reason === undefined) {
      throw new ToolInputError(
        "a rejection needs a reason; the platform records it with the decision",
        "reason",
        'Ask the person why, e.g. "Over the team\'s budget". Nothing was changed.',
      );
    }
    const id = args.approvalId;
    // How many states the request had when the person confirmed: a read-back looks past them.
    let seenStates = 0;
    return confirmedWrite(ctx, {
      tool: TOOL,
      args: call,
      token: confirmationToken,
      target: `approval ${id}`,
      check: checkFor(id),
      propose: async () => {
        const proposal = await propose(ctx, id, verdict, reason);
        seenStates = proposal.states;
        return proposal;
      },
      fields: (approval) => ({ approval }),
      declined: () => ({ text: `Approval ${oneLine(id)} still waits for a decision.` }),
      apply: ({ preview }, send) =>
        decide(ctx, send, { id, verdict, reason, before: preview, seenStates }),
    });
  },
});

/** Reads the request and says what deciding it would do; refuses what cannot be done. */
async function propose(
  ctx: ToolContext,
  id: string,
  verdict: Verdict,
  reason: string | undefined,
): Promise<Proposal<ApprovalOut> & { states: number }> {
  const request = await read(ctx, id);
  if (!request) {
    throw new ToolInputError(
      `there is no approval ${oneLine(id)} visible to you`,
      "approvalId",
      `List the approvals awaiting you: call ${callOf(ctx, LIST)}.`,
    );
  }
  const approval = toApprovalRequest(request);
  if (approval.state !== "REQUESTED") {
    const by = approval.decidedBy ? ` by ${whole(approval.decidedBy)}` : "";
    throw new ToolInputError(
      `approval ${oneLine(id)} no longer waits for a decision: it is ${oneLine(approval.state)}${by}`,
      "approvalId",
      "Nothing was changed.",
    );
  }
  if (!request.viewerCanAction) {
    const group = approval.approverGroup ? ` (it waits for ${whole(approval.approverGroup)})` : "";
    throw new NotAllowedError(`decide approval ${oneLine(id)}${group}`, "approver");
  }
  const h = approval.hire;
  return {
    preview: approval,
    states: request.approvalStates.length,
    lines: previewLines(approval, verdict, reason),
    consequence: consequenceOf(verdict, approval.flow.trigger),
    question: verdict === "APPROVED" ? "Approve this hire?" : "Reject this hire?",
    facts: {
      flow: `${approval.flow.name} (${approval.flow.trigger})`,
      hire: h ? `${h.id} (${h.status})` : null,
      worker: h ? h.worker : null,
      company: h ? h.company : null,
      job: h ? h.jobName : null,
      period: h ? period(h.startDate, h.endDate) : null,
      rate: h ? rateText(h.rate, h.currency, h.rateType) : null,
      "requested by": approval.requestedBy,
      "approver group": approval.approverGroup,
    },
  };
}

async function read(ctx: ToolContext, id: string): Promise<ApprovalRequest | null> {
  const { data } = await ctx.client.run(approvalRequestQuery, { id }, requestOptions(ctx));
  return data.approvalApprovable;
}

async function decide(
  ctx: ToolContext,
  send: BoundSend,
  d: {
    id: string;
    verdict: Verdict;
    reason: string | undefined;
    before: ApprovalOut;
    seenStates: number;
  },
) {
  const { id, verdict, reason, before } = d;
  // The platform refused the decision itself: a permission, not a bad argument.
  const action = refusedAsNotAllowed(
    () =>
      ctx.client.run(
        actionApprovalMutation,
        { input: { id, status: verdict, ...(reason ? { reason } : {}) } },
        requestOptions(ctx),
      ),
    `decide approval ${oneLine(id)}`,
    "approver",
  );
  const status = verdict === "APPROVED" ? ("approved" as const) : ("rejected" as const);
  return send({
    what: `${verdict === "APPROVED" ? "Approving" : "Rejecting"} approval ${oneLine(id)}`,
    fields: { approval: before },
    send: action,
    readBack: () => read(ctx, id),
    // A decision taken after the person confirmed: one of the states past those seen then.
    applied: (r) => r?.approvalStates.slice(d.seenStates).some((s) => s.state === verdict) ?? false,
    async done(sent) {
      if (sent.kind === "read-back") {
        const approval = sent.state ? toApprovalRequest(sent.state) : before;
        return {
          structured: { status, approval, note: "Confirmed by reading the approval back." },
          text: `${outcomeText(id, verdict, approval)} (The answer was lost after the request was sent; it was not sent again, and reading the approval back confirmed it.)`,
        };
      }
      const after = sent.data.data.actionApprovalApprovable ?? (await read(ctx, id));
      const approval = after ? toApprovalRequest(after) : before;
      return { structured: { status, approval }, text: outcomeText(id, verdict, approval) };
    },
  });
}

function outcomeText(id: string, decision: Verdict, a: ApprovalOut): string {
  const h = a.hire;
  const who = h
    ? `hire ${oneLine(h.id)} (${quoted(h.worker)} at ${quoted(h.company)})`
    : "the hire";
  if (decision === "REJECTED") {
    const status = h ? ` is now ${oneLine(h.status)}` : " is cancelled";
    return `Approval ${oneLine(id)} is REJECTED: ${who}${status}. This cannot be undone.`;
  }
  const starts =
    h?.status === "READY" && h.startDate ? `; it starts on ${oneLine(h.startDate)}` : "";
  return `Approval ${oneLine(id)} is APPROVED: ${who} can proceed (status ${h ? oneLine(h.status) : "unknown"}${starts}).`;
}

function consequenceOf(decision: Verdict, trigger: string): string {
  if (decision === "APPROVED") return "Approving lets the hire proceed; it cannot be withdrawn.";
  // What a rejection does depends on what raised the request (the platform's Approval type).
  if (trigger === "HIRE_CHANGED") {
    return "Rejecting reverts the pending contract change; this cannot be undone.";
  }
  if (trigger === "CLASSIFICATION_CREATED") {
    return "Rejecting discards the classification result; this cannot be undone.";
  }
  return "Rejecting cancels the hire; this cannot be undone.";
}

// The server's sentences first, every platform value quoted whole or on one line; the consequence
// comes last (the confirmation module adds it), so no name can pose as the server's words.
function previewLines(a: ApprovalOut, decision: Verdict, reason: string | undefined): string[] {
  const verb = decision === "APPROVED" ? "Approve" : "Reject";
  const h = a.hire;
  const requested = a.requestedBy
    ? `Requested by ${whole(a.requestedBy)}${a.requestedOn ? ` on ${oneLine(a.requestedOn)}` : ""}`
    : "Requested";
  return [
    `${verb} approval ${oneLine(a.id)} of flow ${whole(a.flow.name)} (${oneLine(a.flow.trigger)}) for hire ${h ? `${oneLine(h.id)} (status ${oneLine(h.status)})` : "(not visible)"}.`,
    ...(h
      ? [
          `Worker ${whole(h.worker)} at company ${whole(h.company)}; job ${whole(h.jobName)}, ${period(h.startDate, h.endDate)}, ${rateText(h.rate, h.currency, h.rateType)}.`,
        ]
      : []),
    `${requested}${a.approverGroup ? `; it waits for ${whole(a.approverGroup)}` : ""}.`,
    ...(reason ? [`Reason recorded with the decision: ${sentTextShown(reason)}.`] : []),
  ];
}
