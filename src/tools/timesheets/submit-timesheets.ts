import * as z from "zod";
import { isPlatformError, type PlatformError } from "../../client/errors.js";
import { submitTimesheetsMutation } from "../../client/operations/index.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import {
  confirmationTokenArg,
  confirmedWrite,
  confirmedWriteAnnotations,
  contentDigest,
  previewTokenOutput,
  refuseWhileUnknown,
  sendWrite,
} from "../confirmation.js";
import { defineTool, type ToolContext } from "../define-tool.js";
import { period, requestOptions } from "../format.js";
import { previewOutput, proposeRows, RowsRefusedError } from "./timesheet-preview.js";
import { isRegistered, type Row, readLogged } from "./timesheet-reads.js";
import {
  checkMetaLimits,
  type InvalidRow,
  MAX_META_BYTES,
  MAX_META_DEPTH,
  metaFromText,
  validateRows,
} from "./timesheet-rows.js";

export { MAX_META_BYTES, MAX_META_DEPTH } from "./timesheet-rows.js";

const MAX_REGISTRATIONS = 1000;
/** Rows listed one by one in the text; the structured result always has all of them. */
const TEXT_ROW_LIMIT = 30;
const TOOL = "submit_timesheets";

// Loose on purpose: every row reaches our own validator, which reports all bad rows by index.
// The metadata still tells the model each field's type.
const registration = z
  .object({
    hireId: z
      .unknown()
      .optional()
      .meta({ type: "string", minLength: 1 })
      .describe("Hire id, e.g. 48213."),
    reportedDate: z
      .unknown()
      .optional()
      .meta({ type: "string" })
      .describe("Day worked, YYYY-MM-DD, in the active contract."),
    hours: z
      .unknown()
      .optional()
      .meta({ type: "number", minimum: 0, maximum: 24 })
      .describe("Hours that day, 0–24."),
    externalId: z
      .unknown()
      .optional()
      .meta({ type: "string", minLength: 1 })
      .describe("Your unique row id; the same id again replaces the row."),
    reference: z
      .unknown()
      .optional()
      .meta({ type: "string" })
      .describe("Free text, e.g. a project code or PO."),
    isPayable: z
      .unknown()
      .optional()
      .meta({ type: "boolean" })
      .describe("false: recorded but not paid. Default true."),
    meta: z
      .unknown()
      .optional()
      .meta({ type: "string" })
      .describe(
        `Key-value JSON object (or its text) stored with the row; at most ${MAX_META_DEPTH} levels, ${MAX_META_BYTES} bytes.`,
      ),
  })
  .passthrough()
  .meta({
    required: ["hireId", "reportedDate", "hours", "externalId"],
    additionalProperties: false,
  })
  .describe("One day of hours for one hire.");

const invalidRow = z.object({
  index: z.number(),
  externalId: z.string().nullable(),
  field: z.string(),
  problem: z.string(),
  fix: z.string(),
});

const rowResult = z.object({
  index: z.number(),
  externalId: z.string(),
  outcome: z.enum(["accepted", "rejected", "unknown", "not-sent"]),
  reason: z.string().optional(),
  message: z.string().optional(),
  fix: z.string().optional(),
});
type RowResult = z.infer<typeof rowResult>;

export const submitTimesheetsTool = defineTool({
  name: TOOL,
  title: "Submit timesheets",
  toolset: "timesheets",
  instruction:
    "submit_timesheets registers hours; accepted ones become payment requests that may be approved and paid automatically, so it moves money. It previews hours and money per hire and day and needs the person's confirmation; days already logged are refused unless the person includes them.",
  readme: {
    does: "Registers hours: previews hours and money per hire and day at the contract's rate, flags days already logged (refused unless the person includes them), then the person confirms; accepted rows become payment requests",
    changes: "yes, money moves",
  },
  description: [
    "Register hours worked, one row per hire and day, up to 1,000 rows a call.",
    "MONEY MOVES: accepted rows become payment requests, which may be approved and paid automatically.",
    "Use when: log 7.5 hours for Ana Monday to Friday; upload these timesheets.",
    "Do not use for: reading hours logged (use list_payment_requests).",
    "The first call only previews hours and money per hire and day, flagging days already logged, and returns a confirmationToken (single use, 5 minutes); once the person agrees, repeat the call with it.",
    'Example: {"registrations": [{"hireId": "48213", "reportedDate": "2026-11-20", "hours": 7.5, "externalId": "ana-2026-11-20"}]}',
  ].join("\n"),
  inputSchema: {
    registrations: z
      .array(registration)
      .min(1)
      .max(MAX_REGISTRATIONS)
      .describe("1 to 1,000 rows, each externalId unique."),
    includeDaysAlreadyLogged: z
      .boolean()
      .optional()
      .describe("true only if the person wants days already logged paid again."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum([
      "invalid",
      "preview",
      "changed",
      "declined",
      "submitted",
      "stopped",
      "outcome-unknown",
    ]),
    provided: z.number(),
    invalidRows: z.array(invalidRow).optional(),
    preview: previewOutput.optional(),
    ...previewTokenOutput,
    accepted: z.number().optional(),
    rejected: z.number().optional(),
    unknown: z.number().optional(),
    notSent: z.number().optional(),
    rows: z.array(rowResult).optional(),
    note: z.string().optional(),
  },
  annotations: confirmedWriteAnnotations,
  async handler(args, ctx) {
    const { confirmationToken, ...call } = args;
    const raw = (args.registrations as unknown[]).map(metaFromText);
    checkMetaLimits(raw);
    const invalid = validateRows(raw);
    if (invalid.length > 0) return refused(raw.length, invalid);
    const rows = raw as Row[];
    const target = `${rows.length} timesheet row${rows.length === 1 ? "" : "s"} (set ${digestOf(rows)})`;
    // Hours for a day whose earlier submission has an unknown outcome wait, whatever their
    // externalIds: the platform may still register the first ones, and pay both.
    for (const day of new Set(rows.map(dayTarget))) {
      await refuseWhileUnknown(ctx, { tool: TOOL, target: day, check: checkFor(rows) });
    }
    try {
      return await confirmedWrite(ctx, {
        tool: TOOL,
        args: call,
        token: confirmationToken,
        target,
        check: checkFor(rows),
        propose: () => proposeRows(ctx, rows, args.includeDaysAlreadyLogged === true),
        fields: (preview) => ({ provided: rows.length, preview: preview.out }),
        apply: () => sendRows(ctx, rows, target),
      });
    } catch (error) {
      if (error instanceof RowsRefusedError) return refused(rows.length, error.invalidRows);
      throw error;
    }
  },
});

/** A hire's day, as the unknown-outcome hold names it. */
const dayTarget = (row: Row) => `hours of hire ${row.hireId} on ${row.reportedDate}`;

/**
 * The rows as a short digest, in externalId order: the same rows are the same change, whatever
 * their order or the other arguments.
 */
function digestOf(rows: Row[]): string {
  const sorted = [...rows].sort((a, b) => (a.externalId < b.externalId ? -1 : 1));
  return contentDigest(sorted).slice(0, 16);
}

/** Rows that cannot be submitted as they are: each named with what to change; nothing sent. */
function refused(provided: number, invalidRows: InvalidRow[]) {
  const bad = new Set(invalidRows.map((r) => r.index)).size;
  return {
    isError: true,
    structured: { status: "invalid" as const, provided, invalidRows },
    text: [
      `Nothing was sent: ${bad} of ${provided} rows cannot be submitted as they are. Fix or remove them, then call again for a preview.`,
      ...invalidRows
        .slice(0, TEXT_ROW_LIMIT)
        .map(
          (r) =>
            `- row ${r.index}${r.externalId ? ` (${oneLine(r.externalId)})` : ""}: ${oneLine(r.field)} ${oneLine(r.problem, 1000)}. ${r.fix}`,
        ),
      ...(invalidRows.length > TEXT_ROW_LIMIT
        ? [`… and ${invalidRows.length - TEXT_ROW_LIMIT} more problems (see invalidRows).`]
        : []),
    ].join("\n"),
  };
}

const REJECTION_FIX: Record<string, string> = {
  HIRE_NOT_FOUND:
    "Check the hire id with search_hires; you may also not be allowed to submit hours for this hire.",
  DATE_OUTSIDE_CONTRACT_PERIOD:
    "Check the contract's dates with get_contract and fix reportedDate.",
  MISSING_REQUIRED_FIELD: "Fill in the field named in the message and submit the row again.",
};

/** The read that shows what happened to some rows: their hires' payment requests, day by day. */
function checkFor(rows: Row[]): string {
  const hires = [...new Set(rows.map((r) => oneLine(r.hireId)))];
  const dates = rows.map((r) => r.reportedDate).sort();
  const shown = hires.length > 3 ? `${hires.slice(0, 3).join(", ")}, …` : hires.join(", ");
  const [from, to] = [dates[0] as string, dates.at(-1) as string];
  return `list_payment_requests (hires ${shown}, period ${from === to ? from : period(from, to)}, includeHours)`;
}

/**
 * Sends the confirmed rows in chunks, each once. A chunk whose answer was lost is read back; when
 * no read shows its rows, the outcome is unknown and nothing more is sent.
 */
async function sendRows(ctx: ToolContext, rows: Row[], target: string) {
  const size = Math.max(1, ctx.config.timesheetChunkSize);
  const chunks: { start: number; rows: Row[] }[] = [];
  for (let start = 0; start < rows.length; start += size) {
    chunks.push({ start, rows: rows.slice(start, start + size) });
  }
  const results: RowResult[] = [];
  const mark = (from: number, outcome: "unknown" | "not-sent") => {
    for (const later of chunks.slice(from)) {
      later.rows.forEach((row, i) => {
        const base = { index: later.start + i, externalId: row.externalId };
        // Only the chunk that was sent is unknown; the ones after it were never sent.
        results.push({ ...base, outcome: later === chunks[from] ? outcome : "not-sent" });
      });
    }
  };
  let refusal: PlatformError | undefined;
  let unknown: { text: string } | undefined;
  let readBack = false;
  let unmatched = 0;
  for (const [n, chunk] of chunks.entries()) {
    let sent: Awaited<ReturnType<typeof sendChunk>>;
    try {
      sent = await sendChunk(ctx, chunk.rows, target);
    } catch (error) {
      // Nothing sent yet: let the server describe the refusal. Otherwise keep what succeeded.
      if (n === 0 || !isPlatformError(error)) throw error;
      refusal = error;
      mark(n, "not-sent");
      break;
    }
    if (sent.kind === "unknown") {
      unknown = sent;
      mark(n, "unknown");
      break;
    }
    const rejections = new Map<string, { reason: string; message: string }>();
    if (sent.kind === "sent") {
      for (const r of sent.data.data.createCustomTimesheet.rejectedRegistrations) {
        if (r.externalId === null) unmatched += 1;
        else rejections.set(r.externalId, r);
      }
    } else readBack = true;
    chunk.rows.forEach((row, i) => {
      const rejection = rejections.get(row.externalId);
      const base = { index: chunk.start + i, externalId: row.externalId };
      results.push(
        rejection
          ? {
              ...base,
              outcome: "rejected",
              reason: rejection.reason,
              message: rejection.message,
              fix: REJECTION_FIX[rejection.reason] ?? "Correct the row and submit it again.",
            }
          : { ...base, outcome: "accepted" },
      );
    });
    const done = chunk.start + chunk.rows.length;
    await ctx.reportProgress(done, rows.length, `sent ${done} of ${rows.length} registrations`);
  }
  const count = (outcome: RowResult["outcome"]) =>
    results.filter((r) => r.outcome === outcome).length;
  const counts = {
    accepted: count("accepted"),
    rejected: count("rejected"),
    unknown: count("unknown"),
    notSent: count("not-sent"),
  };
  const summary = [
    `${counts.accepted} of ${rows.length} rows accepted`,
    ...(counts.rejected > 0 ? [`${counts.rejected} rejected`] : []),
    ...(counts.unknown > 0 ? [`${counts.unknown} with an UNKNOWN outcome`] : []),
    ...(counts.notSent > 0 ? [`${counts.notSent} not sent`] : []),
  ].join(", ");
  const notes: string[] = [];
  if (readBack) {
    notes.push(
      "An answer was lost after sending; nothing was sent again, and reading the payment requests back shows those rows registered.",
    );
  }
  if (unmatched > 0) {
    notes.push(
      `${unmatched} rejection(s) came back without an externalId and could not be matched to a row.`,
    );
  }
  const structured = { provided: rows.length, ...counts, rows: results };
  if (unknown) {
    const note = unknown.text;
    return {
      isError: true,
      structured: { status: "outcome-unknown" as const, ...structured, note },
      text: [`Submitting timesheets: ${summary}.`, note, ...notes, ...rejectionLines(results)].join(
        "\n",
      ),
    };
  }
  if (refusal) {
    const note = `Stopped: the platform refused a later request (${oneLine(refusal.message, 1000)}), so ${counts.notSent} rows were not sent; the rows before them were. To register the rows not sent, submit them in a new call, which previews them first.`;
    return {
      isError: true,
      structured: { status: "stopped" as const, ...structured, note },
      text: [`Submitted in part: ${summary}.`, note, ...notes, ...rejectionLines(results)].join(
        "\n",
      ),
    };
  }
  const note = notes.join(" ") || undefined;
  return {
    structured: { status: "submitted" as const, ...structured, ...(note ? { note } : {}) },
    text: [
      `Submitted: ${summary}.`,
      ...(counts.accepted > 0
        ? ["Accepted hours become payment requests, which may be approved and paid automatically."]
        : []),
      ...rejectionLines(results),
      ...(note ? [note] : []),
    ].join("\n"),
  };
}

/** One chunk, sent once; a lost answer is read back (the rows registered as sent, or unknown). */
function sendChunk(ctx: ToolContext, rows: Row[], target: string) {
  return sendWrite(ctx, {
    tool: TOOL,
    target,
    alsoHolds: [...new Set(rows.map(dayTarget))],
    check: checkFor(rows),
    // The rows exactly as previewed and confirmed: the fields the payload schema allows.
    send: () =>
      ctx.client.run(
        submitTimesheetsMutation,
        { input: { schema: "default-json", data: JSON.stringify(rows) } },
        requestOptions(ctx),
      ),
    readBack: () => readLogged(ctx, rows),
    applied: (logged) => rows.every((row) => isRegistered(row, logged)),
  });
}

function rejectionLines(results: RowResult[]): string[] {
  const bad = results.filter((r) => r.outcome === "rejected");
  // A rejection's message is the platform's text, so quoted.
  const lines = bad
    .slice(0, TEXT_ROW_LIMIT)
    .map(
      (r) =>
        `- row ${r.index} (${oneLine(r.externalId)}): ${oneLine(r.reason)}: ${quoted(r.message)} ${r.fix}`,
    );
  if (bad.length > TEXT_ROW_LIMIT)
    lines.push(`… and ${bad.length - TEXT_ROW_LIMIT} more (see rows).`);
  return lines;
}
