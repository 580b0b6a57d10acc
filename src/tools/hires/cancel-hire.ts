import * as z from "zod";
import {
  cancelHireMutation,
  type HireForCancelData,
  hireForCancelQuery,
} from "../../client/operations/hires.js";
import { oneLine, quoted } from "../../client/platform-text.js";
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
import { period, requestOptions } from "../format.js";
import { refusedAsNotAllowed } from "../not-allowed.js";
import { hireOutcomeUnknown } from "./hire-writes.js";

const MESSAGE_MAX = 2000;
const CONSEQUENCE = "This cannot be undone; the worker is told.";

/** Statuses before a hire is active: the only ones the platform cancels. */
const NOT_STARTED = new Set(["DRAFT", "OFFERED", "READY"]);

const previewOutput = z.object({
  worker: z.string(),
  company: z.string(),
  hireStatus: z.string(),
  contract: z.object({
    id: z.string(),
    status: z.string(),
    jobName: z.string(),
    startDate: z.string().nullable(),
    endDate: z.string().nullable(),
  }),
});
type Preview = z.infer<typeof previewOutput>;
type CancelArgs = { hireId: string; message: string };

export const cancelHireTool = defineTool({
  name: "cancel_hire",
  title: "Cancel hire",
  toolset: "hires",
  instruction:
    "cancel_hire cancels a hire that has not started, with a message to the worker. It needs the person's explicit confirmation and cannot be undone.",
  description: [
    "Cancel a hire that has not started (DRAFT, OFFERED or READY). IRREVERSIBLE; the worker gets your message.",
    "Use when: the person explicitly asks to cancel a hire before it starts.",
    "Do not use for: active hires (use terminate_hire).",
    "How it works: the first call only previews and returns a confirmationToken; after the person agrees, call again with the same arguments plus the token.",
    "Returns: status preview, cancelled, declined, not-cancelled or outcome-unknown.",
    'Example: {"hireId":"hire_003","message":"The project is postponed, sorry."}',
  ].join("\n"),
  inputSchema: {
    hireId: z.string().min(1).describe("Hire id (from search_hires)."),
    message: z
      .string()
      .trim()
      .min(1)
      .max(MESSAGE_MAX)
      .describe("Sent to the worker: why it is cancelled."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum(["preview", "cancelled", "declined", "not-cancelled", "outcome-unknown"]),
    hireId: z.string(),
    preview: previewOutput.optional(),
    ...previewTokenOutput,
    hireStatus: z.string().optional(),
    note: z.string().optional(),
  },
  annotations: confirmedWriteAnnotations,
  async handler(args, ctx) {
    const { confirmationToken, ...call } = args;
    if (confirmationToken !== undefined) {
      await redeemConfirmation(ctx, "cancel_hire", confirmationToken, call);
      return cancel(ctx, call);
    }

    const hire = await readHire(ctx, args.hireId);
    if (!hire) {
      throw new ToolInputError(
        `there is no hire ${oneLine(args.hireId)} visible to you`,
        "hireId",
        "Find the hire's id with search_hires.",
      );
    }
    if (!hire.canCancelContract) {
      if (hire.status === "ACTIVE") {
        throw new ToolInputError(
          `hire ${oneLine(args.hireId)} is ACTIVE: it has started, so it cannot be cancelled`,
          "hireId",
          "End an active hire with terminate_hire. Nothing was changed.",
        );
      }
      if (!NOT_STARTED.has(hire.status)) {
        throw new ToolInputError(
          `hire ${oneLine(args.hireId)} is ${oneLine(hire.status)}, and the platform does not let it be cancelled`,
          "hireId",
          "Nothing was changed.",
        );
      }
      throw new NotAllowedError(`cancel hire ${oneLine(args.hireId)}`, "hire management");
    }
    const c = hire.latestContract;
    const preview: Preview = {
      worker: hire.worker.name,
      company: hire.company.name,
      hireStatus: hire.status,
      contract: {
        id: c.id,
        status: c.status,
        jobName: c.jobName,
        startDate: c.startDate,
        endDate: c.endDate,
      },
    };
    const answer = await askForConfirmation(ctx, {
      tool: "cancel_hire",
      args: call,
      lines: previewLines(call, preview),
      consequence: CONSEQUENCE,
      question: "Cancel this hire?",
    });
    if (answer.kind === "confirmed") return cancel(ctx, call, preview);
    if (answer.kind === "declined") {
      return {
        structured: {
          status: "declined" as const,
          hireId: args.hireId,
          preview,
          hireStatus: hire.status,
        },
        text: `${answer.text} Hire ${oneLine(args.hireId)} is still ${oneLine(hire.status)}; the worker was not told anything.`,
      };
    }
    return previewResult(answer, { hireId: args.hireId, preview });
  },
});

async function readHire(
  ctx: ToolContext,
  id: string,
): Promise<NonNullable<HireForCancelData["hire"]> | null> {
  const { data } = await ctx.client.run(hireForCancelQuery, { id }, requestOptions(ctx));
  return data.hire;
}

async function cancel(ctx: ToolContext, args: CancelArgs, preview?: Preview) {
  const base = { hireId: args.hireId, ...(preview ? { preview } : {}) };
  const sent = await refusedAsNotAllowed(
    () => sendCancel(ctx, args),
    `cancel hire ${oneLine(args.hireId)}`,
    "hire management",
  )();
  if (sent.kind === "sent") {
    const status = sent.data.data.cancelHire.status;
    return {
      structured: { status: "cancelled" as const, ...base, hireStatus: status },
      text: `Hire ${oneLine(args.hireId)} is cancelled (status ${oneLine(status)}). The worker was sent your message: ${quoted(args.message, MESSAGE_MAX)}. This cannot be undone.`,
    };
  }
  if (sent.kind === "unknown") return hireOutcomeUnknown("cancellation", args.hireId, base);
  const hire = sent.state;
  if (hire?.status === "CANCELLED") {
    return {
      structured: {
        status: "cancelled" as const,
        ...base,
        hireStatus: hire.status,
        note: "The connection failed after sending, but reading the hire back shows it cancelled.",
      },
      text: `Hire ${oneLine(args.hireId)} is cancelled (status CANCELLED). The connection dropped after the request was sent; it was not sent again, and reading the hire back confirmed it. The worker was sent your message: ${quoted(args.message, MESSAGE_MAX)}. This cannot be undone.`,
    };
  }
  const now = hire ? oneLine(hire.status) : "not visible";
  return {
    isError: true,
    structured: {
      status: "not-cancelled" as const,
      ...base,
      ...(hire ? { hireStatus: hire.status } : {}),
      note: `The request failed and the hire is still ${now}.`,
    },
    text: `Hire ${oneLine(args.hireId)} was NOT cancelled: the request failed and reading the hire back shows it is still ${now}. Nothing changed and the worker was not told; to try again, call cancel_hire without a token for a fresh preview.`,
  };
}

function sendCancel(ctx: ToolContext, args: CancelArgs) {
  return sendOnce(
    () =>
      ctx.client.run(
        cancelHireMutation,
        { input: { hire: args.hireId, message: args.message } },
        requestOptions(ctx),
      ),
    () => readHire(ctx, args.hireId),
  );
}

// The server's sentences first, platform values quoted on one line; the consequence comes last
// (added by the confirmation module), so no name can pose as the server's words.
function previewLines(args: CancelArgs, p: Preview): string[] {
  const c = p.contract;
  return [
    `Cancel hire ${oneLine(args.hireId)} (status ${oneLine(p.hireStatus)}) before it starts.`,
    `Worker ${quoted(p.worker)} at company ${quoted(p.company)}; contract ${oneLine(c.id)} (${oneLine(c.status)}), job ${quoted(c.jobName)}, ${period(c.startDate, c.endDate)}.`,
    `The worker gets this message: ${quoted(args.message, MESSAGE_MAX)}.`,
  ];
}
