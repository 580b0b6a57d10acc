import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import * as z from "zod";
import { mostTelling } from "../../client/classify.js";
import { isPlatformError, type PlatformError } from "../../client/errors.js";
import {
  CHECK_HIRES_BATCH_SIZE,
  type CheckedHire,
  type CheckHiresVariables,
  checkHireAlias,
  checkHiresQuery,
  checkHireVariable,
  submitTimesheetsMutation,
} from "../../client/operations.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import { TIMESHEET_PAYLOAD_SCHEMA_URI } from "../../client/schema/uris.js";
import { timesheetPayloadSchema } from "../../client/timesheet-payload-schema.js";
import { defineTool, type ToolContext, ToolInputError } from "../define-tool.js";
import { isRealDate, period, requestOptions } from "../format.js";

export const MAX_REGISTRATIONS = 1000;
const MAX_HOURS_PER_DAY = 24;
/**
 * Limits on each row's meta, checked before anything is sent: deeper data overflowed the stack
 * on the way to the platform. 1,000 rows at 2 KB stay well inside one 4 MiB stdio message.
 */
export const MAX_META_DEPTH = 10;
export const MAX_META_BYTES = 2048;
/** Rows listed one by one in the text; the structured result always has all of them. */
const TEXT_ROW_LIMIT = 30;

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

// Compiled on first use: compiling the 2020-12 meta-schema costs ~50 ms, too much for every start.
let compiledRegistration: ValidateFunction | undefined;
function registrationValidator(): ValidateFunction {
  if (!compiledRegistration) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    ajv.addSchema(timesheetPayloadSchema);
    const validate = ajv.getSchema(`${TIMESHEET_PAYLOAD_SCHEMA_URI}#/$defs/registration`);
    if (!validate) throw new Error("The timesheet payload schema has no registration definition.");
    compiledRegistration = validate;
  }
  return compiledRegistration;
}

const REQUIRED = ["hireId", "reportedDate", "hours", "externalId"] as const;

// Loose on purpose: every row reaches our own validator, which reports all bad rows by index.
// The metadata still tells the model each field's type.
const registration = z
  .object({
    hireId: z
      .unknown()
      .optional()
      .meta({ type: "string", minLength: 1 })
      .describe("Hire id, e.g. hire_001."),
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
  .meta({ required: [...REQUIRED], additionalProperties: false })
  .describe("One day of hours for one hire.");

const invalidRow = z.object({
  index: z.number(),
  externalId: z.string().nullable(),
  field: z.string(),
  problem: z.string(),
  fix: z.string(),
});
type InvalidRow = z.infer<typeof invalidRow>;

const rowResult = z.object({
  index: z.number(),
  externalId: z.string(),
  outcome: z.enum(["accepted", "rejected", "would-accept", "would-reject", "not-sent"]),
  reason: z.string().optional(),
  message: z.string().optional(),
  fix: z.string().optional(),
});
type RowResult = z.infer<typeof rowResult>;

interface Row {
  hireId: string;
  reportedDate: string;
  hours: number;
  externalId: string;
  reference?: string;
  isPayable?: boolean;
  meta?: Record<string, unknown>;
}

export const submitTimesheetsTool = defineTool({
  name: "submit_timesheets",
  title: "Submit timesheets",
  toolset: "timesheets",
  instruction:
    "submit_timesheets registers hours worked. Accepted registrations are queued and become payment requests that may be approved automatically, so it moves money. It is idempotent by externalId (the same externalId replaces that registration, so retrying is safe). Call it with dryRun: true first, show the preview, then submit.",
  description: [
    "Register hours worked, one row per hire and day, up to 1,000 rows a call.",
    "MONEY MOVES: accepted rows become payment requests, which may be approved automatically. Run with dryRun: true first and show the result.",
    "Use when: log 7.5 hours for Ana Monday to Friday; upload these timesheets.",
    "Do not use for: hours already logged (use list_payment_requests).",
    "Safe to repeat: a row's externalId is its key. Invalid rows stop the call before anything is sent; dryRun also checks each hire and the active contract's period.",
    'Example: {"registrations": [{"hireId": "hire_001", "reportedDate": "2026-11-20", "hours": 7.5, "externalId": "ana-2026-11-20"}], "dryRun": true}',
  ].join("\n"),
  inputSchema: {
    registrations: z
      .array(registration)
      .min(1)
      .max(MAX_REGISTRATIONS)
      .describe("1 to 1,000 rows, each externalId unique."),
    dryRun: z.boolean().optional().describe("true: only check the rows and send nothing."),
  },
  outputSchema: {
    submitted: z.boolean(),
    dryRun: z.boolean(),
    provided: z.number(),
    accepted: z.number(),
    rejected: z.number(),
    notSent: z.number(),
    invalidRows: z.array(invalidRow),
    rows: z.array(rowResult),
    note: z.string().optional(),
  },
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  async handler(args, ctx) {
    const raw = (args.registrations as unknown[]).map(metaFromText);
    const dryRun = args.dryRun ?? false;
    checkMetaLimits(raw);
    const invalidRows = validateRows(raw);
    const empty = { accepted: 0, rejected: 0, notSent: raw.length, rows: [] as RowResult[] };
    if (invalidRows.length > 0) {
      const badIndexes = new Set(invalidRows.map((r) => r.index));
      return {
        structured: {
          submitted: false,
          dryRun,
          provided: raw.length,
          ...empty,
          invalidRows,
        },
        text: [
          `Nothing was sent: ${badIndexes.size} of ${raw.length} rows are invalid. Fix them and call again.`,
          ...invalidRows
            .slice(0, TEXT_ROW_LIMIT)
            .map(
              (r) =>
                `- row ${r.index}${r.externalId ? ` (${oneLine(r.externalId)})` : ""}: ${oneLine(r.field)} ${oneLine(r.problem, 1000)}. ${r.fix}`,
            ),
          invalidRows.length > TEXT_ROW_LIMIT
            ? `… and ${invalidRows.length - TEXT_ROW_LIMIT} more problems (see invalidRows).`
            : undefined,
        ]
          .filter(Boolean)
          .join("\n"),
      };
    }
    const rows = raw as Row[];
    return dryRun ? checkRows(ctx, rows) : sendRows(ctx, rows);
  },
});

/**
 * The schema offers meta as JSON text (some model APIs refuse a free-form object); a row whose meta
 * is JSON object text gets the object. Anything else is left for validation to name.
 */
function metaFromText(row: unknown): unknown {
  const meta = (row as { meta?: unknown } | null)?.meta;
  if (typeof meta !== "string" || !meta.trim().startsWith("{")) return row;
  try {
    const parsed: unknown = JSON.parse(meta);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? { ...(row as object), meta: parsed }
      : row;
  } catch {
    return row;
  }
}

/** Refuses the call when a row's meta is too deep or too large; nothing is sent in either mode. */
function checkMetaLimits(raw: unknown[]): void {
  const bad: { index: number; problem: string }[] = [];
  raw.forEach((value, index) => {
    const meta = (value as { meta?: unknown } | null)?.meta;
    if (typeof meta !== "object" || meta === null) return;
    if (deeperThan(meta, MAX_META_DEPTH)) {
      bad.push({ index, problem: `is nested more than ${MAX_META_DEPTH} levels deep` });
      return;
    }
    const bytes = Buffer.byteLength(JSON.stringify(meta), "utf8");
    if (bytes > MAX_META_BYTES) {
      bad.push({ index, problem: `is ${bytes} bytes as JSON, more than ${MAX_META_BYTES}` });
    }
  });
  const [first, ...others] = bad;
  if (!first) return;
  const more =
    others.length > 0
      ? ` (so is the meta of ${others.length} more row${others.length === 1 ? "" : "s"}: ${others
          .slice(0, 10)
          .map((b) => `registrations[${b.index}]`)
          .join(", ")}${others.length > 10 ? ", …" : ""})`
      : "";
  throw new ToolInputError(
    `meta ${first.problem}${more}`,
    `registrations[${first.index}].meta`,
    `Keep meta to at most ${MAX_META_DEPTH} levels and ${MAX_META_BYTES} bytes as JSON per row, or leave it out. Nothing was sent.`,
  );
}

/** Iterative, so a meta thousands of levels deep cannot overflow the stack while being measured. */
function deeperThan(root: object, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (depth > limit) return true;
    for (const child of Object.values(value as object)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

function validateRows(raw: unknown[]): InvalidRow[] {
  const problems: InvalidRow[] = [];
  const firstIndexOf = new Map<string, number>();
  const validateRegistration = registrationValidator();
  raw.forEach((value, index) => {
    const row = (value ?? {}) as Record<string, unknown>;
    const externalId =
      typeof row.externalId === "string" && row.externalId !== "" ? row.externalId : null;
    const seen = new Set<string>();
    const add = (field: string, problem: string, fix: string) => {
      if (seen.has(field)) return;
      seen.add(field);
      problems.push({ index, externalId, field, problem, fix });
    };
    if (!validateRegistration(row)) {
      for (const error of validateRegistration.errors ?? []) {
        const [field, problem, fix] = explain(error);
        add(field, problem, fix);
      }
    }
    if (typeof row.reportedDate === "string" && !isRealDate(row.reportedDate)) {
      add(
        "reportedDate",
        `"${row.reportedDate}" is not a real date`,
        "Use a real day, YYYY-MM-DD.",
      );
    }
    if (typeof row.hours === "number" && row.hours > MAX_HOURS_PER_DAY) {
      add(
        "hours",
        `${row.hours} is more than ${MAX_HOURS_PER_DAY} hours in one day`,
        "Split the hours over the days worked, at most 24 each.",
      );
    }
    if (externalId !== null) {
      const first = firstIndexOf.get(externalId);
      if (first === undefined) firstIndexOf.set(externalId, index);
      else {
        add(
          "externalId",
          `"${externalId}" is also used by row ${first}`,
          "Give every row its own externalId (one per hire and day).",
        );
      }
    }
  });
  return problems.sort((a, b) => a.index - b.index);
}

function explain(error: ErrorObject): [string, string, string] {
  const field = error.instancePath.split("/").filter(Boolean)[0];
  if (error.keyword === "required") {
    const missing = String((error.params as { missingProperty?: string }).missingProperty);
    return [missing, "is missing", `Add ${missing} (${fieldHelp(missing)}).`];
  }
  if (error.keyword === "additionalProperties") {
    const extra = String((error.params as { additionalProperty?: string }).additionalProperty);
    return [
      extra,
      "is not an allowed field",
      "Remove it, or put it inside meta. Allowed: hireId, reportedDate, hours, externalId, reference, isPayable, meta.",
    ];
  }
  const name = field ?? "row";
  if (name === "row") return ["row", "is not an object", "Send each row as an object."];
  if (error.keyword === "minimum") return [name, "is negative", "Use 0 or more hours."];
  if (error.keyword === "minLength")
    return [name, "is empty", `Fill in ${name} (${fieldHelp(name)}).`];
  if (error.keyword === "format" || error.keyword === "pattern") {
    return [
      name,
      "is not a date written YYYY-MM-DD",
      "Write the day as YYYY-MM-DD, e.g. 2026-11-20.",
    ];
  }
  if (error.keyword === "type") {
    const expected = String((error.params as { type?: string }).type);
    return [name, `must be a ${expected}`, `Send ${name} as a ${expected} (${fieldHelp(name)}).`];
  }
  return [name, error.message ?? "is invalid", `Correct ${name} (${fieldHelp(name)}).`];
}

function fieldHelp(field: string): string {
  switch (field) {
    case "hireId":
      return "the hire's id from search_hires";
    case "reportedDate":
      return "the day worked, YYYY-MM-DD";
    case "hours":
      return "a number from 0 to 24";
    case "externalId":
      return "your unique id for this row";
    case "meta":
      return "a JSON object, or its JSON text";
    case "isPayable":
      return "true or false";
    default:
      return "see the field's description";
  }
}

const REJECTION_FIX: Record<string, string> = {
  HIRE_NOT_FOUND:
    "Check the hire id with search_hires; you may also not be allowed to submit hours for this hire.",
  DATE_OUTSIDE_CONTRACT_PERIOD:
    "Check the contract's dates with get_contract and fix reportedDate.",
  MISSING_REQUIRED_FIELD: "Fill in the field named in the message and send the row again.",
};

type HireCheck =
  | { kind: "found"; hire: CheckedHire }
  | { kind: "missing" }
  | { kind: "unchecked"; hidden: boolean };

/** Checks the hires CHECK_HIRES_BATCH_SIZE at a time, one aliased query per batch. */
async function checkHires(ctx: ToolContext, ids: string[]): Promise<Map<string, HireCheck>> {
  const checks = new Map<string, HireCheck>();
  for (let start = 0; start < ids.length; start += CHECK_HIRES_BATCH_SIZE) {
    const batch = ids.slice(start, start + CHECK_HIRES_BATCH_SIZE);
    const variables: CheckHiresVariables = {};
    batch.forEach((id, i) => {
      variables[checkHireVariable(i)] = id;
    });
    // request, not run: one hire's error must not hide the others' answers.
    const { data, errors } = await ctx.client.request(
      checkHiresQuery(batch.length),
      variables,
      requestOptions(ctx),
    );
    // An error whose path starts with an alias belongs to that hire alone.
    const byAlias = new Map<string, PlatformError>();
    const unplaced: PlatformError[] = [];
    for (const error of errors) {
      const alias = error.path?.[0];
      const index = typeof alias === "string" ? /^h(\d+)$/.exec(alias)?.[1] : undefined;
      if (alias !== undefined && index !== undefined && Number(index) < batch.length) {
        if (!byAlias.has(alias as string)) byAlias.set(alias as string, error);
      } else unplaced.push(error);
    }
    const whole = mostTelling(unplaced);
    if (whole) throw whole;
    batch.forEach((id, i) => {
      const alias = checkHireAlias(i);
      const error = byAlias.get(alias);
      const hire = data?.[alias];
      if (error) {
        // Another company's hire reads as "not authorised": for the dry run that is "not found".
        const refused = error.kind === "authorization" || error.kind === "field-restricted";
        if (refused && error.path?.length === 1) checks.set(id, { kind: "missing" });
        else checks.set(id, { kind: "unchecked", hidden: refused });
      } else if (hire === null) {
        checks.set(id, { kind: "missing" });
      } else if (hire === undefined) {
        checks.set(id, { kind: "unchecked", hidden: false });
      } else if (!hire.latestContract) {
        // Restricted contracts come back null with no error of their own (see client.request).
        checks.set(id, { kind: "unchecked", hidden: true });
      } else {
        checks.set(id, { kind: "found", hire });
      }
    });
    const done = start + batch.length;
    await ctx.reportProgress(done, ids.length, `checked ${done} of ${ids.length} hires`);
  }
  return checks;
}

async function checkRows(ctx: ToolContext, rows: Row[]) {
  const checks = await checkHires(ctx, [...new Set(rows.map((r) => r.hireId))]);
  const results: RowResult[] = rows.map((row, index) => {
    const check = checks.get(row.hireId) ?? { kind: "missing" };
    const base = { index, externalId: row.externalId };
    if (check.kind === "unchecked") {
      return {
        ...base,
        outcome: "would-reject" as const,
        reason: "HIRE_NOT_CHECKED",
        message: check.hidden
          ? `Hire ${row.hireId}'s contract periods are not visible to your account, so the row could not be checked.`
          : `The platform failed while checking hire ${row.hireId}, so the row could not be checked.`,
        fix: check.hidden
          ? "Ask an administrator to check the contract dates, or submit without dryRun and read the per-row result."
          : "Run the dry run again; the failure is usually temporary.",
      };
    }
    if (check.kind === "missing") {
      return {
        ...base,
        outcome: "would-reject" as const,
        reason: "HIRE_NOT_FOUND",
        message: `Hire ${row.hireId} was not found or is not visible to you.`,
        fix: REJECTION_FIX.HIRE_NOT_FOUND,
      };
    }
    // Hours count against the terms in force: the active contract, or the last one once it ended.
    const terms = check.hire.activeContract ?? check.hire.latestContract;
    const covered =
      terms !== null &&
      (terms.startDate === null || terms.startDate <= row.reportedDate) &&
      (terms.endDate === null || row.reportedDate <= terms.endDate);
    if (!covered) {
      const which = check.hire.activeContract ? "active" : "latest";
      return {
        ...base,
        outcome: "would-reject" as const,
        reason: "DATE_OUTSIDE_CONTRACT_PERIOD",
        message: `${row.reportedDate} is outside the ${which} contract's period (${period(terms?.startDate ?? null, terms?.endDate ?? null)}) of hire ${row.hireId}.`,
        fix: REJECTION_FIX.DATE_OUTSIDE_CONTRACT_PERIOD,
      };
    }
    return { ...base, outcome: "would-accept" as const };
  });
  const ok = results.filter((r) => r.outcome === "would-accept").length;
  const bad = results.length - ok;
  return {
    structured: {
      submitted: false,
      dryRun: true,
      provided: rows.length,
      accepted: 0,
      rejected: 0,
      notSent: rows.length,
      invalidRows: [],
      rows: results,
      note: "Dry run: nothing was sent.",
    },
    text: [
      `Dry run, nothing sent: ${ok} of ${rows.length} rows would be accepted, ${bad} would be rejected.`,
      ...rejectionLines(results),
      ok > 0
        ? "Accepted hours become automatically approved payment requests once submitted."
        : undefined,
    ]
      .filter(Boolean)
      .join("\n"),
  };
}

async function sendRows(ctx: ToolContext, rows: Row[]) {
  const size = Math.max(1, ctx.config.timesheetChunkSize);
  const chunks: { start: number; rows: Row[] }[] = [];
  for (let start = 0; start < rows.length; start += size) {
    chunks.push({ start, rows: rows.slice(start, start + size) });
  }
  const results: RowResult[] = [];
  let failure: PlatformError | undefined;
  let unmatched = 0;
  for (const [n, chunk] of chunks.entries()) {
    try {
      const { data } = await ctx.client.run(
        submitTimesheetsMutation,
        { input: { schema: "default-json", data: JSON.stringify(chunk.rows) } },
        requestOptions(ctx),
      );
      const rejections = new Map<string, { reason: string; message: string }>();
      for (const r of data.createCustomTimesheet.rejectedRegistrations) {
        if (r.externalId === null) unmatched += 1;
        else rejections.set(r.externalId, r);
      }
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
                fix: REJECTION_FIX[rejection.reason] ?? "Correct the row and send it again.",
              }
            : { ...base, outcome: "accepted" },
        );
      });
    } catch (error) {
      // Nothing sent yet: let the server describe the failure. Otherwise keep what succeeded.
      if (n === 0 || !isPlatformError(error)) throw error;
      failure = error;
      for (const later of chunks.slice(n)) {
        later.rows.forEach((row, i) => {
          results.push({ index: later.start + i, externalId: row.externalId, outcome: "not-sent" });
        });
      }
      break;
    }
    const done = Math.min(rows.length, chunk.start + chunk.rows.length);
    await ctx.reportProgress(done, rows.length, `sent ${done} of ${rows.length} registrations`);
  }
  const accepted = results.filter((r) => r.outcome === "accepted").length;
  const rejected = results.filter((r) => r.outcome === "rejected").length;
  const notSent = results.filter((r) => r.outcome === "not-sent").length;
  const notes: string[] = [];
  if (failure) {
    notes.push(
      `Stopped after ${rows.length - notSent} rows: ${oneLine(failure.message, 1000)} ${notSent} rows were not sent (or their outcome is unknown). Sending all the rows again is safe: rows are matched by externalId, so nothing is counted twice.`,
    );
  }
  if (unmatched > 0) {
    notes.push(
      `${unmatched} rejection(s) came back without an externalId and could not be matched to a row.`,
    );
  }
  const note = notes.join(" ") || undefined;
  return {
    structured: {
      submitted: true,
      dryRun: false,
      provided: rows.length,
      accepted,
      rejected,
      notSent,
      invalidRows: [],
      rows: results,
      ...(note ? { note } : {}),
    },
    text: [
      `Submitted: ${accepted} of ${rows.length} rows accepted${rejected > 0 ? `, ${rejected} rejected` : ""}${notSent > 0 ? `, ${notSent} not sent` : ""}.`,
      accepted > 0 ? "Accepted hours become automatically approved payment requests." : undefined,
      ...rejectionLines(results),
      note,
    ]
      .filter(Boolean)
      .join("\n"),
  };
}

function rejectionLines(results: RowResult[]): string[] {
  const bad = results.filter((r) => r.outcome === "rejected" || r.outcome === "would-reject");
  const lines = bad.slice(0, TEXT_ROW_LIMIT).map((r) => {
    // A rejection's message is the platform's text, so quoted; a dry run's is our own.
    const message = r.outcome === "rejected" ? quoted(r.message) : oneLine(r.message, 1000);
    return `- row ${r.index} (${oneLine(r.externalId)}): ${oneLine(r.reason)}: ${message} ${r.fix}`;
  });
  if (bad.length > TEXT_ROW_LIMIT)
    lines.push(`… and ${bad.length - TEXT_ROW_LIMIT} more (see rows).`);
  return lines;
}
