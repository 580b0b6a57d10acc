import { randomUUID } from "node:crypto";
import { z } from "zod";
import { isOutcomeUnknown, isPlatformError } from "../../client/errors.js";
import {
  type HireForTerminationData,
  hireForTerminationQuery,
  terminateHireMutation,
} from "../../client/operations.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import { defineTool, type ToolContext, ToolInputError } from "../define-tool.js";
import { dateSchema, period, requestOptions, upperCaseEnum } from "../format.js";

export const TERMINATION_REASONS = [
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
] as const;

/** How long a preview's confirmation token stays valid. */
export const CONFIRMATION_TTL_MS = 5 * 60_000;
const STATE_KEY = "terminate_hire.tokens";

interface PendingConfirmation {
  hireId: string;
  reason: string;
  date: string;
  expiresAt: number;
}

const previewOutput = z.object({
  worker: z.string(),
  company: z.string(),
  hireStatus: z.string(),
  canTerminateContract: z.boolean(),
  latestContract: z
    .object({
      id: z.string(),
      jobName: z.string(),
      startDate: z.string().nullable(),
      endDate: z.string().nullable(),
    })
    .nullable(),
});
type Preview = z.infer<typeof previewOutput>;

export const terminateHireTool = defineTool({
  name: "terminate_hire",
  title: "Terminate hire",
  toolset: "hires",
  instruction:
    "terminate_hire ends a hire on a date with a reason. It needs an explicit confirmation and cannot be undone.",
  description: [
    "End an active hire early. IRREVERSIBLE: a terminated hire cannot be restored.",
    "Use when: the person explicitly asks to terminate or end a specific worker's active hire on a date, with a reason.",
    "Do not use for: finding the hire id (use search_hires first); reading contract terms (use get_contract); hires that have not started (they are cancelled, not terminated).",
    "How it works: the first call, without confirmationToken, changes nothing and returns a preview with a confirmationToken valid 5 minutes. Show the preview; only after the person clearly agrees, call again with the same arguments plus the token. Clients with forms ask the person directly instead.",
    'Returns: status "preview" (with confirmationToken), "terminated", "cancelled" (person declined), "not-terminated" or "outcome-unknown", with what to do next.',
    'Examples: {"hireId": "hire_001", "reason": "PROJECT_COMPLETED_EARLY", "date": "2026-12-31"}; then the same plus "confirmationToken": "<token from the preview>".',
  ].join("\n"),
  inputSchema: {
    hireId: z.string().min(1).describe("The hire to terminate, e.g. hire_001 (from search_hires)."),
    reason: upperCaseEnum(TERMINATION_REASONS).describe(
      "Why the hire ends; one of the listed reasons (OTHER if none fits, and explain in comments).",
    ),
    date: dateSchema("Last day of the engagement, YYYY-MM-DD, on or after the hire's start date."),
    comments: z
      .string()
      .max(2000)
      .optional()
      .describe("Optional note stored with the termination."),
    confirmationToken: z
      .string()
      .optional()
      .describe(
        "Leave out on the first call. Pass the token from the preview, with the same hireId, reason and date, only after the person confirmed.",
      ),
  },
  outputSchema: {
    status: z.enum(["preview", "terminated", "cancelled", "not-terminated", "outcome-unknown"]),
    hireId: z.string(),
    reason: z.string(),
    date: z.string(),
    preview: previewOutput.optional(),
    confirmationToken: z.string().optional(),
    expiresAt: z.string().optional(),
    terminationDate: z.string().nullable().optional(),
    note: z.string().optional(),
  },
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  async handler(args, ctx) {
    const { hireId, reason, date } = args;
    const base = { hireId, reason, date };

    if (args.confirmationToken !== undefined) {
      takeToken(ctx, args.confirmationToken, base);
      return terminate(ctx, base, args.comments);
    }

    const hire = await readHire(ctx, hireId);
    if (!hire) {
      throw new ToolInputError(
        `there is no hire ${hireId} visible to you`,
        "hireId",
        "Find the hire's id with search_hires.",
      );
    }
    if (hire.status !== "ACTIVE") {
      throw new ToolInputError(
        `hire ${oneLine(hireId)} is ${oneLine(hire.status)}, and only ACTIVE hires can be terminated`,
        "hireId",
        hire.status === "TERMINATED"
          ? `It was already terminated${hire.terminationDate ? ` on ${oneLine(hire.terminationDate)}` : ""}.`
          : "Nothing was changed.",
      );
    }
    if (!hire.canTerminateContract) {
      throw new ToolInputError(
        `your account may not terminate hire ${hireId}`,
        "hireId",
        "Ask someone with the right to manage hires at this company. Nothing was changed.",
      );
    }
    if (hire.startDate && date < hire.startDate) {
      throw new ToolInputError(
        `${date} is before the hire's start date ${oneLine(hire.startDate)}`,
        "date",
        `Pick a date on or after ${oneLine(hire.startDate)}.`,
      );
    }
    const preview: Preview = {
      worker: hire.worker.name,
      company: hire.company.name,
      hireStatus: hire.status,
      canTerminateContract: hire.canTerminateContract,
      latestContract: hire.latestContract
        ? {
            id: hire.latestContract.id,
            jobName: hire.latestContract.jobName,
            startDate: hire.latestContract.startDate,
            endDate: hire.latestContract.endDate,
          }
        : null,
    };
    const previewText = renderPreview(base, preview, args.comments);

    if (ctx.elicit) {
      const answer = await ctx.elicit(previewText, {
        type: "object",
        properties: { confirm: { type: "boolean", title: "Terminate this hire?" } },
        required: ["confirm"],
      });
      if (answer.action === "accept" && answer.content?.confirm === true) {
        return terminate(ctx, base, args.comments, preview);
      }
      return {
        structured: { status: "cancelled" as const, ...base, preview },
        text: `Not confirmed (${answer.action === "accept" ? "the box was left unticked" : oneLine(answer.action)}): nothing was changed. Hire ${oneLine(hireId)} is still active.`,
      };
    }

    const token = randomUUID();
    const expiresAt = Date.now() + CONFIRMATION_TTL_MS;
    pending(ctx).set(token, { ...base, expiresAt });
    return {
      structured: {
        status: "preview" as const,
        ...base,
        preview,
        confirmationToken: token,
        expiresAt: new Date(expiresAt).toISOString(),
      },
      text: [
        previewText,
        "Nothing has been changed yet. Show this to the person; only if they confirm, call terminate_hire again with the same hireId, reason and date and",
        `confirmationToken: ${token} (single use, valid 5 minutes).`,
      ].join("\n"),
    };
  },
});

type Base = { hireId: string; reason: string; date: string };

function pending(ctx: ToolContext): Map<string, PendingConfirmation> {
  let map = ctx.state.get(STATE_KEY) as Map<string, PendingConfirmation> | undefined;
  if (!map) {
    map = new Map();
    ctx.state.set(STATE_KEY, map);
  }
  return map;
}

/** Checks and uses up a confirmation token; any problem is the caller's to fix with a new preview. */
function takeToken(ctx: ToolContext, token: string, args: Base): void {
  const map = pending(ctx);
  const now = Date.now();
  for (const [key, entry] of map) if (entry.expiresAt <= now) map.delete(key);
  const entry = map.get(token);
  const again = "Call terminate_hire again without confirmationToken for a fresh preview.";
  if (!entry) {
    throw new ToolInputError(
      "the confirmation token is unknown, expired or already used",
      "confirmationToken",
      again,
    );
  }
  const changed = (["hireId", "reason", "date"] as const).filter((k) => entry[k] !== args[k]);
  if (changed.length > 0) {
    throw new ToolInputError(
      `the confirmation token was issued for different ${changed.join(", ")} (${changed.map((k) => entry[k]).join(", ")})`,
      "confirmationToken",
      `Nothing was changed. ${again}`,
    );
  }
  map.delete(token);
}

async function readHire(
  ctx: ToolContext,
  id: string,
): Promise<NonNullable<HireForTerminationData["hire"]> | null> {
  const { data } = await ctx.client.run(hireForTerminationQuery, { id }, requestOptions(ctx));
  return data.hire;
}

async function terminate(ctx: ToolContext, base: Base, comments?: string, preview?: Preview) {
  try {
    const { data } = await ctx.client.run(
      terminateHireMutation,
      {
        input: {
          hire: base.hireId,
          reason: base.reason,
          date: base.date,
          ...(comments ? { comments } : {}),
        },
      },
      requestOptions(ctx),
    );
    return {
      structured: {
        status: "terminated" as const,
        ...base,
        ...(preview ? { preview } : {}),
        terminationDate: data.terminateHire.terminationDate,
      },
      text: `Hire ${oneLine(base.hireId)} is terminated as of ${oneLine(data.terminateHire.terminationDate ?? base.date)} (reason ${base.reason}). This cannot be undone.`,
    };
  } catch (error) {
    if (!isPlatformError(error) || !isOutcomeUnknown(error)) throw error;
    return readBack(ctx, base, preview);
  }
}

// The request may have reached the platform: never resend blindly, look at the hire instead.
async function readBack(ctx: ToolContext, base: Base, preview?: Preview) {
  let hire: Awaited<ReturnType<typeof readHire>>;
  try {
    hire = await readHire(ctx, base.hireId);
  } catch {
    return {
      structured: {
        status: "outcome-unknown" as const,
        ...base,
        ...(preview ? { preview } : {}),
        note: "The connection failed after the request was sent, and reading the hire back failed too.",
      },
      text: `The termination of hire ${oneLine(base.hireId)} may or may not have happened: the connection failed after it was sent, and the hire could not be read back. Do not send it again yet; check the hire's status with search_hires (search for ${oneLine(base.hireId)}) in a minute.`,
    };
  }
  if (hire?.status === "TERMINATED") {
    return {
      structured: {
        status: "terminated" as const,
        ...base,
        ...(preview ? { preview } : {}),
        terminationDate: hire.terminationDate,
        note: "The connection failed after sending, but reading the hire back shows it terminated.",
      },
      text: `Hire ${oneLine(base.hireId)} is terminated as of ${oneLine(hire.terminationDate ?? base.date)}. (The connection dropped after the request was sent; reading the hire back confirmed it.) This cannot be undone.`,
    };
  }
  return {
    structured: {
      status: "not-terminated" as const,
      ...base,
      ...(preview ? { preview } : {}),
      note: `The request failed and the hire is still ${hire?.status ?? "not visible"}.`,
    },
    text: `Hire ${oneLine(base.hireId)} was NOT terminated: the request failed and the hire is still ${hire ? oneLine(hire.status) : "not visible"}. It is safe to try again (call terminate_hire without a token for a fresh preview).`,
  };
}

// Also the elicitation dialog's text: the server's sentence first, then every platform value quoted
// on one line of its own, then the consequence last, so no name can pose as the server's words.
function renderPreview(base: Base, p: Preview, comments?: string): string {
  const c = p.latestContract;
  const contract = c
    ? `; latest contract ${oneLine(c.id)}, job ${quoted(c.jobName)}, ${period(c.startDate, c.endDate)}`
    : "; no contract";
  return [
    `Terminate hire ${oneLine(base.hireId)} (status ${oneLine(p.hireStatus)}) with reason ${base.reason}; last day ${base.date}.`,
    `Worker ${quoted(p.worker)} at company ${quoted(p.company)}${contract}${comments ? `; comments ${quoted(comments, 2000)}` : ""}.`,
    "This cannot be undone.",
  ].join("\n");
}
