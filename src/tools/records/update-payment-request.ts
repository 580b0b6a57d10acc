import * as z from "zod";
import {
  type PaymentRequestForUpdate,
  paymentRequestForUpdateQuery,
  updatePaymentRequestMutation,
} from "../../client/operations/records.js";
import { oneLine } from "../../client/platform-text.js";
import {
  type BoundSend,
  confirmationTokenArg,
  confirmedWrite,
  type Proposal,
  previewTokenOutput,
  whole,
} from "../confirmation.js";
import { defineTool, type ToolContext, ToolInputError } from "../define-tool.js";
import { money, period, requestOptions } from "../format.js";
import { refusedAsNotAllowed } from "../not-allowed.js";
import { sentTextSchema, sentTextShown } from "../sent-text.js";
import { paymentRequestBriefOutput, toPaymentRequestBrief } from "../shapes/payment-request.js";

const TOOL = "update_payment_request";
const RIGHTS = "payment request management";
const MAX_PURCHASE_ORDER = 255;
const MAX_COMMENTS = 5000;

/** The two values this tool sets, by argument name, with how a person reads them. */
const FIELDS = {
  purchaseOrderNumber: "purchase-order number",
  comments: "comments",
} as const;
type Field = keyof typeof FIELDS;

const changeOutput = z.object({
  field: z.enum(["purchaseOrderNumber", "comments"]),
  from: z.string().nullable(),
  to: z.string(),
});

const previewOutput = paymentRequestBriefOutput.extend({ changes: z.array(changeOutput) });
type Preview = z.infer<typeof previewOutput>;

export const updatePaymentRequestTool = defineTool({
  name: TOOL,
  title: "Update payment request",
  toolset: "records",
  instruction:
    "update_payment_request sets the purchase-order number or comments of a payment request; it needs the person's confirmation.",
  readme: {
    does: "Sets a payment request's purchase-order number and/or comments (preview, then the person confirms)",
    changes: "yes, overwrites the values shown",
  },
  description: [
    "Set the purchase-order number and/or comments of a payment request (hours or money a worker submitted).",
    'Use when: "put PO 4500012345 on payment request PR-20417". Do not use for: finding payment requests or their ids (list_payment_requests).',
    "Returns: a preview (current → new values) and a confirmationToken; once the person agrees, repeat the call with it. Values are replaced, not appended.",
    'Example: {"paymentRequestId": "88412", "purchaseOrderNumber": "PO-4500012345"}',
  ].join("\n"),
  inputSchema: {
    paymentRequestId: z.string().min(1).describe("From list_payment_requests."),
    purchaseOrderNumber: sentTextSchema(1, MAX_PURCHASE_ORDER)
      .optional()
      .describe("New PO number."),
    comments: sentTextSchema(1, MAX_COMMENTS)
      .optional()
      .describe("New comments (replace the old)."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum(["preview", "changed", "updated", "declined", "outcome-unknown"]),
    paymentRequestId: z.string(),
    preview: previewOutput.optional(),
    ...previewTokenOutput,
    purchaseOrderNumber: z.string().nullable().optional(),
    comments: z.string().nullable().optional(),
    note: z.string().optional(),
  },
  // The old values are overwritten (the preview shows them); setting the same values again
  // changes nothing more.
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  async handler(args, ctx) {
    const { confirmationToken, ...call } = args;
    const asked = askedValues(args);
    const id = args.paymentRequestId;
    return confirmedWrite(ctx, {
      tool: TOOL,
      args: call,
      token: confirmationToken,
      target: `payment request ${id}`,
      check: checkFor(id),
      propose: () => propose(ctx, id, asked),
      fields: (preview) => ({ paymentRequestId: id, preview }),
      declined: (preview) => ({
        text: `Payment request ${oneLine(preview.number)} keeps its values.`,
      }),
      apply: ({ preview }, send) => update(ctx, send, id, preview),
    });
  },
});

const checkFor = (id: string) =>
  `query_platform ({ paymentRequest(id: "${oneLine(id)}") { purchaseOrderNumber comments } })`;

/** The values asked for; at least one. */
function askedValues(args: { purchaseOrderNumber?: string; comments?: string }) {
  const asked: Partial<Record<Field, string>> = {};
  for (const field of Object.keys(FIELDS) as Field[]) {
    if (args[field] !== undefined) asked[field] = args[field];
  }
  if (Object.keys(asked).length === 0) {
    throw new ToolInputError(
      "nothing to set: give purchaseOrderNumber, comments or both",
      "purchaseOrderNumber",
    );
  }
  return asked;
}

/** Statuses in which the platform no longer changes a payment request. */
const CLOSED: Record<string, string> = {
  CANCELLED: "cancelled",
  REJECTED: "rejected",
};

async function readRequest(ctx: ToolContext, id: string): Promise<PaymentRequestForUpdate | null> {
  const { data } = await ctx.client.run(paymentRequestForUpdateQuery, { id }, requestOptions(ctx));
  return data.paymentRequest;
}

/** Reads the request and says what would change; refuses what cannot or need not be done. */
async function propose(
  ctx: ToolContext,
  id: string,
  asked: Partial<Record<Field, string>>,
): Promise<Proposal<Preview>> {
  const r = await readRequest(ctx, id);
  if (!r) {
    throw new ToolInputError(
      `there is no payment request ${oneLine(id)} visible to you`,
      "paymentRequestId",
      "Find its id with list_payment_requests (by hire, company or period); the id is not the PR number.",
    );
  }
  const closed = CLOSED[r.status];
  if (closed || r.paidAt) {
    throw new ToolInputError(
      closed
        ? `payment request ${oneLine(r.number)} is ${closed} (${oneLine(r.status)}), and the platform does not change a ${closed} payment request`
        : `payment request ${oneLine(r.number)} was paid on ${oneLine(r.paidAt)}, and the platform does not change a paid payment request`,
      "paymentRequestId",
      "Nothing was changed.",
    );
  }
  const fields = Object.keys(asked) as Field[];
  const changes = fields
    .map((field) => ({ field, from: r[field], to: asked[field] as string }))
    .filter((c) => c.from !== c.to);
  const unchanged = fields.filter((f) => r[f] === asked[f]);
  if (changes.length === 0) {
    const same = unchanged.map((f) => `${FIELDS[f]} ${whole(r[f])}`);
    throw new ToolInputError(
      `nothing would change: payment request ${oneLine(r.number)} already has ${same.join(" and ")}`,
      fields[0],
      "Nothing was changed.",
    );
  }
  const preview: Preview = { ...toPaymentRequestBrief(r), changes };
  return {
    preview,
    lines: [
      `Update payment request ${oneLine(r.number)} (id ${oneLine(r.id)}, status ${oneLine(r.status)}): ${whole(r.worker.name)} at ${whole(r.company.name)}${r.hire ? `, hire ${oneLine(r.hire.number)} (${oneLine(r.hire.id)})` : ""}; period ${period(r.startDate, r.endDate)}; ${oneLine(r.currency)} ${money(r.netAmount)} excluding taxes.`,
      ...changes.map(
        (c) =>
          `${capital(FIELDS[c.field])}: ${c.from === null ? "none" : whole(c.from)} → ${sentTextShown(c.to)}.`,
      ),
      ...unchanged.map((f) => `${capital(FIELDS[f])} stays ${whole(r[f])} (already so).`),
    ],
    consequence: `The ${changes.map((c) => FIELDS[c.field]).join(" and ")} shown as current ${changes.length > 1 ? "are" : "is"} overwritten; the platform keeps no earlier value to go back to.`,
    question: "Update this payment request?",
    facts: {
      "payment request": r.number,
      status: r.status,
      worker: r.worker.name,
      company: r.company.name,
      hire: r.hire ? r.hire.number : null,
      period: period(r.startDate, r.endDate),
      amount: `${r.currency} ${money(r.netAmount)}`,
      "current purchase-order number": r.purchaseOrderNumber,
      "current comments": r.comments,
    },
  };
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

async function update(ctx: ToolContext, send: BoundSend, id: string, preview: Preview) {
  const base = { paymentRequestId: id, preview };
  const input = Object.fromEntries(preview.changes.map((c) => [c.field, c.to]));
  const shows = (r: PaymentRequestForUpdate | null) =>
    r !== null && preview.changes.every((c) => r[c.field] === c.to);
  const updateRequest = refusedAsNotAllowed(
    async () =>
      (
        await ctx.client.run(
          updatePaymentRequestMutation,
          { input: { id, ...input } },
          requestOptions(ctx),
        )
      ).data.updatePaymentRequest,
    `update payment request ${oneLine(preview.number)}`,
    RIGHTS,
  );
  return send({
    what: `Update of payment request ${oneLine(preview.number)}`,
    fields: base,
    send: updateRequest,
    readBack: () => readRequest(ctx, id),
    applied: shows,
    done(sent) {
      const r = sent.kind === "sent" ? sent.data : (sent.state as PaymentRequestForUpdate);
      const now = preview.changes
        .map((c) => `${FIELDS[c.field]} ${r[c.field] === null ? "none" : whole(r[c.field])}`)
        .join(", ");
      const late =
        sent.kind === "read-back"
          ? " (The answer was lost after the request was sent; it was not sent again, and reading the payment request back shows the new values.)"
          : "";
      return {
        structured: {
          status: "updated" as const,
          ...base,
          purchaseOrderNumber: r.purchaseOrderNumber,
          comments: r.comments,
          ...(late ? { note: late.trim() } : {}),
        },
        text: `Payment request ${oneLine(r.number)} updated: ${now}.${late}`,
      };
    },
  });
}
