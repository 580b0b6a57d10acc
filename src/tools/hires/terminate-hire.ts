import * as z from "zod";
import type {
  ContractTerminationReason,
  HireForTerminationQuery,
} from "../../client/operation-types.generated.js";
import { hireForTerminationQuery, terminateHireMutation } from "../../client/operations/index.js";
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
import { dateSchema, period, requestOptions, upperCaseEnum } from "../format.js";
import { sentTextSchema, sentTextShown } from "../sent-text.js";
import { contractBriefOutput, toContractBrief } from "../shapes/contract.js";
import { hireChangeFields, toHireChange } from "../shapes/hire.js";

const TERMINATION_REASONS = [
  "WORKER_UNAVAILABILITY",
  "PROJECT_COMPLETED_EARLY",
  "MUTUAL_AGREEMENT_TO_TERMINATE",
  "BUDGET_CONSTRAINTS",
  "CHANGE_IN_PROJECT_SCOPE",
  "PERFORMANCE_ISSUES",
  "COMMUNICATION_ISSUES",
  "PERSONAL_REASONS",
  "LEGAL_OR_COMPLIANCE_ISSUES",
  "VIOLATION_OF_CONTRACT_TERMS",
  "UNFORESEEN_CIRCUMSTANCES",
  "DISSATISFACTION_WITH_QUALITY_OF_WORK",
  "CONFLICT_OF_INTEREST",
  "OTHER",
] as const satisfies readonly ContractTerminationReason[];

const previewOutput = z.object({
  ...hireChangeFields(),
  canTerminateContract: z.boolean(),
  contract: contractBriefOutput.nullable(),
});
type Preview = z.infer<typeof previewOutput>;

/** Hire statuses after which nothing is left to terminate. */
const FINAL_STATUSES = new Set(["TERMINATED", "ENDED", "CANCELLED"]);

const TOOL = "terminate_hire";

export const terminateHireTool = defineTool({
  name: TOOL,
  title: "Terminate hire",
  toolset: "hires",
  instruction:
    "terminate_hire ends a hire on a date with a reason. It needs the person's explicit confirmation and cannot be undone.",
  readme: {
    does: "Ends an active hire on a date (preview, then the person confirms)",
    changes: "yes, cannot be undone",
  },
  description: [
    "End an active hire early. IRREVERSIBLE; the worker is told.",
    "Use when: the person explicitly asks to terminate a worker's active hire on a date, with a reason.",
    "Do not use for: hires not started yet (use cancel_hire).",
    "The first call only previews and returns a confirmationToken (single use, 5 minutes); once the person agrees, repeat the call with it.",
    'Example: {"hireId": "48213", "reason": "PROJECT_COMPLETED_EARLY", "date": "2026-12-31"}',
  ].join("\n"),
  inputSchema: {
    hireId: z.string().min(1).describe("Hire id (from search_hires)."),
    reason: upperCaseEnum(TERMINATION_REASONS).describe("OTHER if none fits; explain in comments."),
    date: dateSchema("Last day, YYYY-MM-DD."),
    comments: sentTextSchema(1, 2000).optional().describe("Internal note."),
    message: sentTextSchema(1, 2000).optional().describe("To the worker, with the notice."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum(["preview", "changed", "terminated", "declined", "outcome-unknown"]),
    hireId: z.string(),
    reason: z.string(),
    date: z.string(),
    preview: previewOutput.optional(),
    ...previewTokenOutput,
    terminationDate: z.string().nullable().optional(),
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
      propose: () => propose(ctx, args),
      fields: (preview) => ({ hireId: args.hireId, reason: args.reason, date: args.date, preview }),
      declined: (preview) => ({
        text: `Hire ${oneLine(args.hireId)} is still ${oneLine(preview.hireStatus)}.`,
      }),
      apply: ({ preview }, send) => terminate(ctx, args, preview, send),
    });
  },
});

const checkFor = (hireId: string) => `get_hire (hireId ${oneLine(hireId)})`;

/** Reads the hire and says what terminating it would do; refuses what cannot be done. */
async function propose(ctx: ToolContext, args: TerminateArgs): Promise<Proposal<Preview>> {
  const hire = await readHire(ctx, args.hireId);
  if (!hire) {
    throw new ToolInputError(
      `there is no hire ${oneLine(args.hireId)} visible to you`,
      "hireId",
      "Find the hire's id with search_hires.",
    );
  }
  if (!hire.canTerminateContract) {
    // An active hire the account may not terminate is a permission refusal; any other is state.
    if (hire.status !== "ACTIVE") {
      throw new ToolInputError(
        `hire ${oneLine(args.hireId)} is ${oneLine(hire.status)}, and the platform does not let it be terminated now`,
        "hireId",
        hire.status === "TERMINATED"
          ? `It was already terminated${hire.terminationDate ? ` on ${oneLine(hire.terminationDate)}` : ""}. Nothing was changed.`
          : FINAL_STATUSES.has(hire.status)
            ? "Nothing was changed."
            : "A hire that has not started is cancelled instead (cancel_hire). Nothing was changed.",
      );
    }
    throw new NotAllowedError(`terminate hire ${oneLine(args.hireId)}`, "hire management");
  }
  if (hire.startDate && args.date < hire.startDate) {
    throw new ToolInputError(
      `${args.date} is before the hire's start date ${oneLine(hire.startDate)}`,
      "date",
      `Pick a date on or after ${oneLine(hire.startDate)}.`,
    );
  }
  const terms = hire.activeContract ?? hire.latestContract;
  const preview: Preview = {
    ...toHireChange(hire),
    canTerminateContract: hire.canTerminateContract,
    contract: terms ? toContractBrief(terms) : null,
  };
  const c = preview.contract;
  return {
    preview,
    lines: previewLines(args, preview),
    consequence: "This cannot be undone.",
    question: "Terminate this hire?",
    facts: {
      worker: preview.worker,
      company: preview.company,
      "hire status": preview.hireStatus,
      contract: c ? `${c.id} (${c.status})` : null,
      job: c ? c.jobName : null,
      "contract period": c ? period(c.startDate, c.endDate) : null,
    },
  };
}

interface TerminateArgs {
  hireId: string;
  reason: ContractTerminationReason;
  date: string;
  comments?: string;
  message?: string;
}

async function readHire(
  ctx: ToolContext,
  id: string,
): Promise<NonNullable<HireForTerminationQuery["hire"]> | null> {
  const { data } = await ctx.client.run(hireForTerminationQuery, { id }, requestOptions(ctx));
  return data.hire;
}

async function terminate(ctx: ToolContext, args: TerminateArgs, preview: Preview, send: BoundSend) {
  return send({
    what: `Termination of hire ${oneLine(args.hireId)}`,
    fields: { hireId: args.hireId, reason: args.reason, date: args.date, preview },
    send: () =>
      ctx.client.run(
        terminateHireMutation,
        {
          input: {
            hire: args.hireId,
            reason: args.reason,
            date: args.date,
            ...(args.comments ? { comments: args.comments } : {}),
            ...(args.message ? { message: args.message } : {}),
          },
        },
        requestOptions(ctx),
      ),
    readBack: () => readHire(ctx, args.hireId),
    applied: (hire) => hire?.status === "TERMINATED",
    done(sent) {
      const base = { hireId: args.hireId, reason: args.reason, date: args.date, preview };
      if (sent.kind === "sent") {
        const on = sent.data.data.terminateHire.terminationDate ?? args.date;
        return {
          structured: {
            status: "terminated" as const,
            ...base,
            terminationDate: sent.data.data.terminateHire.terminationDate,
          },
          text: `Hire ${oneLine(args.hireId)} is terminated as of ${oneLine(on)} (reason ${args.reason}). This cannot be undone.`,
        };
      }
      const hire = sent.state;
      return {
        structured: {
          status: "terminated" as const,
          ...base,
          terminationDate: hire?.terminationDate ?? null,
          note: "The answer was lost after sending, but reading the hire back shows it terminated.",
        },
        text: `Hire ${oneLine(args.hireId)} is terminated as of ${oneLine(hire?.terminationDate ?? args.date)}. (The answer was lost after the request was sent; it was not sent again, and reading the hire back confirmed it.) This cannot be undone.`,
      };
    },
  });
}

// The server's sentences first, platform values quoted on one line; the consequence comes last
// (added by the confirmation module), so no name can pose as the server's words.
function previewLines(args: TerminateArgs, p: Preview): string[] {
  const c = p.contract;
  const contract = c
    ? `; ${c.status === "ACTIVE" ? "active" : "latest"} contract ${oneLine(c.id)}, job ${whole(c.jobName)}, ${period(c.startDate, c.endDate)}`
    : "; no contract";
  return [
    `Terminate hire ${oneLine(args.hireId)} (status ${oneLine(p.hireStatus)}) with reason ${args.reason}; last day ${args.date}. The worker is notified.`,
    `Worker ${whole(p.worker)} at company ${whole(p.company)}${contract}.`,
    ...(args.comments ? [`Internal comments: ${sentTextShown(args.comments)}.`] : []),
    ...(args.message ? [`Message to the worker: ${sentTextShown(args.message)}.`] : []),
  ];
}
