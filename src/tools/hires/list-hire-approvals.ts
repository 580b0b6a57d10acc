import * as z from "zod";
import { pendingApprovalsQuery } from "../../client/operations/approvals.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import type { RestrictedField } from "../../client/types.js";
import { defineTool, readOnlyAnnotations, type ToolContext } from "../define-tool.js";
import { hiddenFields, hiddenLine, period, rateText, requestOptions } from "../format.js";
import { callOf, reachOf } from "../reach.js";
import { type ApprovalOut, approvalOutput, toApprovalRequest } from "../shapes/approval-request.js";

const TOOL = "list_hire_approvals";
/** The tool that decides a request. */
const DECIDE = "review_hire_approval";
/** Requests listed unless asked for more; the oldest come first, so nothing waits unseen for long. */
const LIST_DEFAULT = 50;

export const listHireApprovalsTool = defineTool({
  name: TOOL,
  title: "List hire approvals",
  toolset: "hires",
  instruction:
    "list_hire_approvals lists the hires waiting for an approval, yours to decide first; review_hire_approval approves or rejects one.",
  readme: { does: '"Which hires await my approval?"' },
  description: [
    "The hires waiting for an approval, oldest first: those you may decide, then those waiting for other approvers.",
    'Use when: "which hires await my approval?", or to find an approval\'s id. Do not use for: approving or rejecting one (review_hire_approval).',
    "Returns: each request's id, flow, who asked and when, and its hire (worker, company, job, period, rate).",
  ].join("\n"),
  inputSchema: {
    first: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe("How many requests, oldest first. Default 50."),
  },
  outputSchema: {
    approvals: z.array(approvalOutput),
    /** Requests waiting in all (the list shows the oldest `first`). */
    total: z.number(),
    hiddenFields: z.array(z.string()),
  },
  annotations: readOnlyAnnotations,
  async handler(args, ctx) {
    const { data, restricted } = await ctx.client.run(
      pendingApprovalsQuery,
      { first: args.first ?? LIST_DEFAULT },
      requestOptions(ctx),
    );
    const page = data.approvalApprovables;
    const approvals = page.data.map(toApprovalRequest);
    const hidden = hiddenFields(restricted as RestrictedField[]);
    const total = page.paginatorInfo.total;
    return {
      structured: { approvals, total, hiddenFields: hidden },
      text: render(ctx, approvals, total, hidden),
    };
  },
});

function render(ctx: ToolContext, approvals: ApprovalOut[], total: number, hidden: string[]) {
  const mine = approvals.filter((a) => a.canDecide);
  const others = approvals.filter((a) => !a.canDecide);
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
    // Said only where the tool that decides is reachable (not with --read-only).
    if (mine.length > 0 && reachOf(ctx.reach, DECIDE) !== undefined) {
      lines.push(
        `To decide one, call ${callOf(ctx, DECIDE)} with approvalId and decision APPROVED or REJECTED (rejecting needs a reason and cancels the hire).`,
      );
    }
  }
  const hiddenText = hiddenLine(hidden);
  if (hiddenText) lines.push(hiddenText);
  return lines.join("\n");
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
