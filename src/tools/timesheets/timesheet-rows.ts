// The rows of a submit_timesheets call, checked locally before anything is read or sent: each row
// against the platform's published payload schema (draft 2020-12), real dates, at most 24 hours a
// day per hire, unique externalIds, bounded meta, and free text that is sent as the preview shows it.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { TIMESHEET_PAYLOAD_SCHEMA_URI } from "../../client/schema/uris.js";
import { timesheetPayloadSchema } from "../../client/timesheet-payload-schema.js";
import { ToolInputError } from "../define-tool.js";
import { isRealDate } from "../format.js";
import { deeperThan } from "../nesting.js";
import { hiddenCharacters, holdsHidden, REMOVE_HIDDEN } from "../sent-text.js";

/** A row that cannot be submitted as it is, and what to change. */
export interface InvalidRow {
  index: number;
  externalId: string | null;
  field: string;
  problem: string;
  fix: string;
}

const MAX_HOURS_PER_DAY = 24;
/**
 * Limits on each row's meta, checked before anything is sent: deeper data overflowed the stack
 * on the way to the platform. A full submission at these limits stays well inside one stdio
 * message (docs/performance.md).
 */
export const MAX_META_DEPTH = 10;
export const MAX_META_BYTES = 2048;
/** A reference is shown whole in the preview: longer ones are refused, never cut. */
const MAX_REFERENCE_LENGTH = 500;

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

// Compiled on first use: compiling the 2020-12 meta-schema would slow every start noticeably.
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

/**
 * The schema offers meta as JSON text (some model APIs refuse a free-form object); a row whose meta
 * is JSON object text gets the object. Anything else is left for validation to name.
 */
export function metaFromText(row: unknown): unknown {
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

/** Refuses the call when a row's meta is too deep or too large; nothing is read or sent. */
export function checkMetaLimits(raw: unknown[]): void {
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

export function validateRows(raw: unknown[]): InvalidRow[] {
  const problems: InvalidRow[] = [];
  const firstIndexOf = new Map<string, number>();
  const hoursOn = new Map<string, number>();
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
    if (typeof row.reference === "string") {
      const hidden = hiddenCharacters(row.reference);
      if (row.reference.length > MAX_REFERENCE_LENGTH) {
        add(
          "reference",
          `is ${row.reference.length} characters, more than ${MAX_REFERENCE_LENGTH}`,
          "Shorten it: the preview shows every reference whole.",
        );
      } else if (hidden.length > 0) {
        add("reference", holdsHidden(hidden), REMOVE_HIDDEN);
      }
    }
    if (row.meta !== null && typeof row.meta === "object") {
      const hidden = hiddenCharacters(JSON.stringify(row.meta));
      if (hidden.length > 0) {
        add("meta", holdsHidden(hidden), REMOVE_HIDDEN);
      }
    }
    // Several rows may share a day (two projects, say), but not more than a day's hours.
    if (
      typeof row.hireId === "string" &&
      typeof row.reportedDate === "string" &&
      typeof row.hours === "number"
    ) {
      const day = `${row.hireId}\n${row.reportedDate}`;
      const before = hoursOn.get(day) ?? 0;
      hoursOn.set(day, before + row.hours);
      if (before > 0 && before + row.hours > MAX_HOURS_PER_DAY) {
        add(
          "hours",
          `with the rows before it, hire ${row.hireId} has ${before + row.hours} hours on ${row.reportedDate}, more than ${MAX_HOURS_PER_DAY}`,
          "Check the rows for that day: one of them may be there twice.",
        );
      }
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
