import * as z from "zod";
import type { HireForCancelQuery } from "../../client/operation-types.generated.js";
import { cancelHireMutation, hireForCancelQuery } from "../../client/operations/hires.js";
import { oneLine } from "../../client/platform-text.js";
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
import { period, requestOptions } from "../format.js";
import { refusedAsNotAllowed } from "../not-allowed.js";
import { sentTextSchema, sentTextShown } from "../sent-text.js";
import { contractBriefOutput, toContractBrief } from "../shapes/contract.js";
import { hireChangeFields, toHireChange } from "../shapes/hire.js";

const TOOL = "cancel_hire";
const CONSEQUENCE = "This cannot be undone; the worker is told.";
const checkFor = (hireId: string) => `get_hire (hireId ${oneLine(hireId)})`;

/** Statuses before a hire is active: the only ones the platform cancels. */
const NOT_STARTED = new Set(["DRAFT", "OFFERED", "READY"]);

const previewOutput = z.object({
  ...hireChangeFields(),
  contract: contractBriefOutput,
});
type Preview = z.infer<typeof previewOutput>;
type CancelArgs = { hireId: string; message: string };

export const cancelHireTool = defineTool({
  name: TOOL,
  title: "Cancel hire",
  toolset: "hires",
  instruction:
    "cancel_hire cancels a hire that has not started, with a message to the worker. It needs the person's explicit confirmation and cannot be undone.",
  readme: {
    does: "Cancels a hire that has not started; the worker gets your message (preview, then the person confirms)",
    changes: "yes, cannot be undone",
  },
  description: [
    "Cancel a hire that has not started (DRAFT, OFFERED or READY). IRREVERSIBLE; the worker gets your message.",
    "Use when: the person explicitly asks to cancel a hire before it starts.",
    "Do not use for: active hires (use terminate_hire).",
    "The first call only previews and returns a confirmationToken; once the person agrees, repeat the call with it.",
    "Returns: status preview, changed, cancelled, declined or outcome-unknown.",
    'Example: {"hireId":"48215","message":"The project is postponed, sorry."}',
  ].join("\n"),
  inputSchema: {
    hireId: z.string().min(1).describe("Hire id (from search_hires)."),
    message: sentTextSchema(1, 2000).describe("Sent to the worker: why it is cancelled."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum(["preview", "changed", "cancelled", "declined", "outcome-unknown"]),
    hireId: z.string(),
    preview: previewOutput.optional(),
    ...previewTokenOutput,
    hireStatus: z.string().optional(),
    note: z.string().optional(),
  },
  annotations: confirmedWriteAnnotations,
  async handler(args, ctx) {
    const { confirmationToken, ...call } = args;
    return confirmedWrite(ctx, {
      tool: TOOL,
      args: call,
      token: confirmationToken,
      target: `hire ${args.hireId}`,
      check: checkFor(args.hireId),
      propose: () => propose(ctx, call),
      fields: (preview) => ({ hireId: args.hireId, preview }),
      declined: (preview) => ({
        text: `Hire ${oneLine(args.hireId)} is still ${oneLine(preview.hireStatus)}; the worker was not told anything.`,
        fields: { hireStatus: preview.hireStatus },
      }),
      apply: ({ preview }, send) => cancel(ctx, call, preview, send),
    });
  },
});

/** Reads the hire and says what cancelling it would do; refuses what cannot be done. */
async function propose(ctx: ToolContext, args: CancelArgs): Promise<Proposal<Preview>> {
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
    if (hire.status === "CANCELLED") {
      throw new ToolInputError(
        `hire ${oneLine(args.hireId)} is already CANCELLED`,
        "hireId",
        "Nothing was changed.",
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
    ...toHireChange(hire),
    contract: toContractBrief(c),
  };
  return {
    preview,
    lines: previewLines(args, preview),
    consequence: CONSEQUENCE,
    question: "Cancel this hire?",
    facts: {
      worker: preview.worker,
      company: preview.company,
      "hire status": preview.hireStatus,
      contract: `${c.id} (${c.status})`,
      job: c.jobName,
      "contract period": period(c.startDate, c.endDate),
    },
  };
}

async function readHire(ctx: ToolContext, id: string): Promise<HireForCancelQuery["hire"]> {
  const { data } = await ctx.client.run(hireForCancelQuery, { id }, requestOptions(ctx));
  return data.hire;
}

async function cancel(ctx: ToolContext, args: CancelArgs, preview: Preview, send: BoundSend) {
  const base = { hireId: args.hireId, preview };
  const told = `The worker was sent your message: ${sentTextShown(args.message)}. This cannot be undone.`;
  const cancelHire = refusedAsNotAllowed(
    () =>
      ctx.client.run(
        cancelHireMutation,
        { input: { hire: args.hireId, message: args.message } },
        requestOptions(ctx),
      ),
    `cancel hire ${oneLine(args.hireId)}`,
    "hire management",
  );
  return send({
    what: `Cancellation of hire ${oneLine(args.hireId)}`,
    fields: base,
    send: cancelHire,
    readBack: () => readHire(ctx, args.hireId),
    applied: (hire) => hire?.status === "CANCELLED",
    done(sent) {
      if (sent.kind === "sent") {
        const status = sent.data.data.cancelHire.status;
        return {
          structured: { status: "cancelled" as const, ...base, hireStatus: status },
          text: `Hire ${oneLine(args.hireId)} is cancelled (status ${oneLine(status)}). ${told}`,
        };
      }
      return {
        structured: {
          status: "cancelled" as const,
          ...base,
          hireStatus: "CANCELLED",
          note: "The answer was lost after sending, but reading the hire back shows it cancelled.",
        },
        text: `Hire ${oneLine(args.hireId)} is cancelled (status CANCELLED). The answer was lost after the request was sent; it was not sent again, and reading the hire back confirmed it. ${told}`,
      };
    },
  });
}

// The server's sentences first, platform values quoted whole on one line; the consequence comes
// last (added by the confirmation module), so no name can pose as the server's words.
function previewLines(args: CancelArgs, p: Preview): string[] {
  const c = p.contract;
  return [
    `Cancel hire ${oneLine(args.hireId)} (status ${oneLine(p.hireStatus)}) before it starts.`,
    `Worker ${whole(p.worker)} at company ${whole(p.company)}; contract ${oneLine(c.id)} (${oneLine(c.status)}), job ${whole(c.jobName)}, ${period(c.startDate, c.endDate)}.`,
    `The worker gets this message: ${sentTextShown(args.message)}.`,
  ];
}
