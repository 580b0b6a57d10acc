import * as z from "zod";
import {
  type ApprovalRequest,
  actionApprovalMutation,
  approvalRequestQuery,
  pendingApprovalsQuery,
} from "../../client/operations/approvals.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import type { RestrictedField } from "../../client/types.js";
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
import {
  hiddenFields,
  hiddenLine,
  period,
  rateText,
  requestOptions,
  upperCaseEnum,
} from "../format.js";
import { refusedAsNotAllowed } from "../not-allowed.js";
import { callOf } from "../reach.js";
import { sentTextSchema, sentTextShown } from "../sent-text.js";

const TOOL = "review_hire_approval";
const checkFor = (id: string) =>
  `${TOOL} without arguments (approval ${oneLine(id)} is listed while it still waits)`;
/** Requests listed at most; the oldest come first, so nothing waits unseen for long. */
const LIST_MAX = 50;

const approvalOutput = z.object({
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
  hire: z
    .object({
      id: z.string(),
      status: z.string(),
      workerId: z.string(),
      worker: z.string(),
      companyId: z.string(),
      company: z.string(),
      jobName: z.string(),
      startDate: z.string().nullable(),
      endDate: z.string().nullable(),
      currency: z.string(),
      /** Null when hidden for this account. */
      rate: z.number().nullable(),
      rateType: z.string().nullable(),
    })
    .nullable(),
});
type ApprovalOut = z.infer<typeof approvalOutput>;

type Verdict = "APPROVED" | "REJECTED";

export const reviewHireApprovalTool = defineTool({
  name: TOOL,
  title: "Review hire approval",
  toolset: "hires",
  instruction:
    "review_hire_approval lists the hires waiting for your approval and approves or rejects one; both need the person's confirmation, and rejecting cancels the hire.",
  readme: {
    does: "Lists hires waiting for your approval; approves, or rejects (which cancels the hire), each after confirmation",
    changes: "yes, cannot be withdrawn",
  },
  description: [
    "Approve or reject a hire waiting for your approval; without approvalId, list those awaiting you (ids, hire, worker, company).",
    'Use when: "approve Amara\'s hire". Do not use for: cancelling a hire yourself (cancel_hire).',
    "Both need the person's confirmation: the first call previews and returns a confirmationToken; once they agree, repeat the call with it. Approving lets the hire proceed (any next approver group is asked) and cannot be withdrawn; rejecting needs a reason and cancels the hire.",
    'Example: {"approvalId": "1290", "decision": "APPROVED"}',
  ].join("\n"),
  inputSchema: {
    approvalId: z.string().min(1).optional().describe("Approval id, from the listing."),
    decision: upperCaseEnum(["APPROVED", "REJECTED"]).optional().describe("With approvalId."),
    reason: sentTextSchema(1, 2000).optional().describe("Why; required to reject."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum([
      "list",
      "preview",
      "changed",
      "approved",
      "rejected",
      "declined",
      "outcome-unknown",
    ]),
    approvals: z.array(approvalOutput).optional(),
    /** Requests waiting in all (the listing shows the oldest LIST_MAX). */
    total: z.number().optional(),
    approval: approvalOutput.optional(),
    ...previewTokenOutput,
    hiddenFields: z.array(z.string()).optional(),
    note: z.string().optional(),
  },
  annotations: confirmedWriteAnnotations,
  async handler(args, ctx) {
    const { confirmationToken, ...call } = args;
    if (args.approvalId === undefined) {
      if (args.decision !== undefined || args.reason !== undefined || confirmationToken) {
        throw new ToolInputError(
          "a decision needs the approval's id",
          "approvalId",
          `Call ${TOOL} without arguments to list the approvals awaiting you, with their ids.`,
        );
      }
      return list(ctx);
    }
    const verdict = args.decision;
    if (verdict === undefined) {
      throw new ToolInputError(
        "say what to decide: APPROVED or REJECTED",
        "decision",
        "Nothing was changed.",
      );
    }
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
      `List the approvals awaiting you: call ${callOf(ctx, TOOL)} without arguments.`,
    );
  }
  const approval = toOutput(request);
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

async function list(ctx: ToolContext) {
  const { data, restricted } = await ctx.client.run(
    pendingApprovalsQuery,
    { first: LIST_MAX },
    requestOptions(ctx),
  );
  const page = data.approvalApprovables;
  const approvals = page.data.map(toOutput);
  const mine = approvals.filter((a) => a.canDecide);
  const others = approvals.filter((a) => !a.canDecide);
  const hidden = hiddenFields(restricted as RestrictedField[]);
  const total = page.paginatorInfo.total;
  const lines: string[] = [];
  if (approvals.length === 0) lines.push("No hire approvals are waiting for anyone.");
  else {
    lines.push(
      mine.length > 0
        ? `${mine.length} hire approval${mine.length === 1 ? "" : "s"} await${mine.length === 1 ? "s" : ""} your decision (oldest first):`
        : "None of the waiting hire approvals is yours to decide.",
    );
    lines.push(...mine.map(listLine));
    if (others.length > 0) {
      lines.push(
        `${others.length} more wait${others.length === 1 ? "s" : ""} for other approvers (you cannot decide ${others.length === 1 ? "it" : "them"}):`,
      );
      lines.push(...others.map(listLine));
    }
    if (total > approvals.length) {
      lines.push(`Shown: the oldest ${approvals.length} of ${total} waiting requests.`);
    }
    if (mine.length > 0) {
      lines.push(
        `To decide one, call ${callOf(ctx, TOOL)} with approvalId and decision APPROVED or REJECTED (rejecting needs a reason and cancels the hire).`,
      );
    }
  }
  const hiddenText = hiddenLine(hidden);
  if (hiddenText) lines.push(hiddenText);
  return {
    structured: { status: "list" as const, approvals, total, hiddenFields: hidden },
    text: lines.join("\n"),
  };
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
        const approval = sent.state ? toOutput(sent.state) : before;
        return {
          structured: { status, approval, note: "Confirmed by reading the approval back." },
          text: `${outcomeText(id, verdict, approval)} (The answer was lost after the request was sent; it was not sent again, and reading the approval back confirmed it.)`,
        };
      }
      const after = sent.data.data.actionApprovalApprovable ?? (await read(ctx, id));
      const approval = after ? toOutput(after) : before;
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

function listLine(a: ApprovalOut): string {
  const h = a.hire;
  const hire = h
    ? `hire ${oneLine(h.id)} (${oneLine(h.status)}) ${quoted(h.worker)} at ${quoted(h.company)}, job ${quoted(h.jobName)}, ${period(h.startDate, h.endDate)}, ${rateText(h.rate, h.currency, h.rateType)}`
    : "an item that is not a visible hire";
  const requested = a.requestedBy
    ? `; requested by ${quoted(a.requestedBy)}${a.requestedOn ? ` on ${oneLine(a.requestedOn)}` : ""}`
    : "";
  const waits = a.canDecide || !a.approverGroup ? "" : `; waits for ${quoted(a.approverGroup)}`;
  return `- ${oneLine(a.id)}: ${hire}; flow ${quoted(a.flow.name)}${requested}${waits}.`;
}

function toOutput(r: ApprovalRequest): ApprovalOut {
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
    hire:
      h && "id" in h
        ? {
            id: h.id,
            status: h.status,
            workerId: h.worker.id,
            worker: h.worker.name,
            companyId: h.company.id,
            company: h.company.name,
            jobName: h.latestContract.jobName,
            startDate: h.startDate,
            endDate: h.endDate,
            currency: h.currency,
            rate: h.rate,
            rateType: h.rateType,
          }
        : null,
  };
}
