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
  askForConfirmation,
  confirmationTokenArg,
  confirmedWriteAnnotations,
  previewResult,
  previewTokenOutput,
  redeemConfirmation,
  sendOnce,
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

const TOOL = "review_hire_approval";
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

type Decision = "APPROVED" | "REJECTED";

export const reviewHireApprovalTool = defineTool({
  name: TOOL,
  title: "Review hire approval",
  toolset: "hires",
  instruction:
    "review_hire_approval lists the hires waiting for your approval and approves or rejects one; rejecting cancels the hire and needs the person's confirmation.",
  description: [
    "Approve or reject a hire waiting for your approval; without approvalId, list those awaiting you (ids, hire, worker, company).",
    'Use when: "approve Amara\'s hire". Do not use for: cancelling a hire yourself (cancel_hire).',
    "Rejecting needs a reason and cancels the hire for good: the first call previews and returns a confirmationToken; once the person agrees, repeat the call with it. Approving lets the hire proceed (any next approver group is asked), cannot be withdrawn, and is done at once unless the client shows a form.",
    'Example: {"approvalId": "apr_001", "decision": "APPROVED"}',
  ].join("\n"),
  inputSchema: {
    approvalId: z.string().min(1).optional().describe("Approval id, from the listing."),
    decision: upperCaseEnum(["APPROVED", "REJECTED"]).optional().describe("With approvalId."),
    reason: z.string().max(2000).optional().describe("Why; required to reject."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum([
      "list",
      "preview",
      "approved",
      "rejected",
      "declined",
      "not-changed",
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
    const decision = args.decision;
    if (decision === undefined) {
      throw new ToolInputError(
        "say what to decide: APPROVED or REJECTED",
        "decision",
        "Nothing was changed.",
      );
    }
    const reason = args.reason?.trim() || undefined;
    if (decision === "REJECTED" && reason === undefined) {
      throw new ToolInputError(
        "a rejection needs a reason; the platform records it with the decision",
        "reason",
        'Ask the person why, e.g. "Over the team\'s budget". Nothing was changed.',
      );
    }
    const id = args.approvalId;

    if (confirmationToken !== undefined) {
      await redeemConfirmation(ctx, TOOL, confirmationToken, call);
      return decide(ctx, id, decision, reason);
    }

    const request = await read(ctx, id);
    if (!request) {
      throw new ToolInputError(
        `there is no approval ${oneLine(id)} visible to you`,
        "approvalId",
        `List the approvals awaiting you: call ${TOOL} without arguments.`,
      );
    }
    const approval = toOutput(request);
    if (approval.state !== "REQUESTED") {
      const by = approval.decidedBy ? ` by ${quoted(approval.decidedBy)}` : "";
      throw new ToolInputError(
        `approval ${oneLine(id)} no longer waits for a decision: it is ${oneLine(approval.state)}${by}`,
        "approvalId",
        "Nothing was changed.",
      );
    }
    if (!request.viewerCanAction) {
      const group = approval.approverGroup
        ? ` (it waits for ${quoted(approval.approverGroup)})`
        : "";
      throw new NotAllowedError(`decide approval ${oneLine(id)}${group}`, "approver");
    }
    const lines = previewLines(approval, decision, reason);
    // Approving without a form goes ahead at once: the description says so, and it only lets a
    // hire proceed that someone already set up.
    if (decision === "APPROVED" && !ctx.elicit) return decide(ctx, id, decision, reason, approval);
    const answer = await askForConfirmation(ctx, {
      tool: TOOL,
      args: call,
      lines,
      consequence: consequenceOf(decision, approval.flow.trigger),
      question: decision === "APPROVED" ? "Approve this hire?" : "Reject this hire?",
    });
    if (answer.kind === "confirmed") return decide(ctx, id, decision, reason, approval);
    if (answer.kind === "declined") {
      return {
        structured: { status: "declined" as const, approval },
        text: `${answer.text} Approval ${oneLine(id)} still waits for a decision.`,
      };
    }
    return previewResult(answer, { approval });
  },
});

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
        `To decide one, call ${TOOL} with approvalId and decision APPROVED or REJECTED (rejecting needs a reason and cancels the hire).`,
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
  id: string,
  decision: Decision,
  reason: string | undefined,
  before?: ApprovalOut,
) {
  const send = () =>
    sendOnce(
      () =>
        ctx.client.run(
          actionApprovalMutation,
          { input: { id, status: decision, ...(reason ? { reason } : {}) } },
          requestOptions(ctx),
        ),
      () => read(ctx, id),
    );
  // The platform refused the decision itself: a permission, not a bad argument.
  const sent = await refusedAsNotAllowed(send, `decide approval ${oneLine(id)}`, "approver")();

  if (sent.kind === "unknown") {
    return {
      isError: true,
      structured: {
        status: "outcome-unknown" as const,
        ...(before ? { approval: before } : {}),
        note: "The connection failed after the request was sent, and reading the approval back failed too.",
      },
      text: `The decision on approval ${oneLine(id)} may or may not have been recorded: the connection failed after it was sent, and the approval could not be read back. Do not send it again yet; call ${TOOL} without arguments in a minute to see whether it still waits.`,
    };
  }
  const dropped = sent.kind === "read-back";
  const after =
    sent.kind === "read-back"
      ? sent.state
      : (sent.data.data.actionApprovalApprovable ?? (await read(ctx, id)));
  const approval = after ? toOutput(after) : before;
  if (approval?.state === decision) {
    const note = dropped
      ? " (The connection dropped after the request was sent; reading the approval back confirmed it.)"
      : "";
    return {
      structured: {
        status: decision === "APPROVED" ? ("approved" as const) : ("rejected" as const),
        approval,
        ...(dropped ? { note: "Confirmed by reading the approval back." } : {}),
      },
      text: `${outcomeText(id, decision, approval)}${note}`,
    };
  }
  const now = approval ? oneLine(approval.state) : "not visible";
  return {
    isError: true,
    structured: {
      status: "not-changed" as const,
      ...(approval ? { approval } : {}),
      note: `The request failed and the approval is ${now}.`,
    },
    text: `Approval ${oneLine(id)} was NOT ${decision === "APPROVED" ? "approved" : "rejected"}: the request failed and reading it back shows it is ${now}. Nothing changed; to try again, call ${TOOL} again${decision === "REJECTED" ? " without a token for a fresh preview" : ""}.`,
  };
}

function outcomeText(id: string, decision: Decision, a: ApprovalOut): string {
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

function consequenceOf(decision: Decision, trigger: string): string {
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

// The server's sentences first, every platform value quoted or on one line; the consequence comes
// last (the confirmation module adds it), so no name can pose as the server's words.
function previewLines(a: ApprovalOut, decision: Decision, reason: string | undefined): string[] {
  const verb = decision === "APPROVED" ? "Approve" : "Reject";
  const h = a.hire;
  const requested = a.requestedBy
    ? `Requested by ${quoted(a.requestedBy)}${a.requestedOn ? ` on ${oneLine(a.requestedOn)}` : ""}`
    : "Requested";
  return [
    `${verb} approval ${oneLine(a.id)} of flow ${quoted(a.flow.name)} (${oneLine(a.flow.trigger)}) for hire ${h ? `${oneLine(h.id)} (status ${oneLine(h.status)})` : "(not visible)"}.`,
    ...(h
      ? [
          `Worker ${quoted(h.worker)} at company ${quoted(h.company)}; job ${quoted(h.jobName)}, ${period(h.startDate, h.endDate)}, ${rateText(h.rate, h.currency, h.rateType)}.`,
        ]
      : []),
    `${requested}${a.approverGroup ? `; it waits for ${quoted(a.approverGroup)}` : ""}.`,
    ...(reason ? [`Reason recorded with the decision: ${quoted(reason, 2000)}.`] : []),
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
