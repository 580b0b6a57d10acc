import { formatBytes } from "../client/format-bytes.js";

// One tool answer (text + structured content) is kept under WORKFORCE_MAX_ANSWER_BYTES: a large
// answer once made an MCP message over the SDK client's message limit, and the client dropped the
// connection (docs/performance.md). An answer under the budget is returned untouched.

/** Room kept for the note that says the answer was cut. */
const NOTE_RESERVE = 512;
/** Strings shorter than this are never cut (ids, dates, statuses). */
const MIN_CUT_STRING = 200;

export interface FittedAnswer {
  text: string;
  /** The structured content to send (the parsed JSON, possibly with arrays shortened). */
  structured: unknown;
  cut: boolean;
  /** Bytes before and after, text and structured JSON together. */
  originalBytes: number;
  finalBytes: number;
}

/**
 * Fits `text` plus `json` (the structured content, serialized) into `budget` bytes. Structured
 * content must keep validating against the tool's output schema (the SDK refuses a result of a
 * tool with an output schema that has none), so it is shortened, never dropped: the longest arrays
 * lose items from the end (then overlong strings are cut), and `validate` decides whether that
 * result may be used. Text is cut at a line boundary and ends with a note saying what to do.
 */
export function fitAnswer(
  text: string,
  json: string | undefined,
  budget: number,
  options: {
    /** Whether shortened structured content still fits the tool's output schema. */
    validate?: (value: unknown) => boolean;
    /** `json` already parsed, when the caller has it: used as is when nothing is cut. */
    parsed?: unknown;
    /** What the note tells the assistant to do. */
    advice?: string;
  } = {},
): FittedAnswer {
  const validate = options.validate ?? (() => true);
  const advice =
    options.advice ?? "ask for fewer results (first), a later page, or a narrower filter";
  const textBytes = Buffer.byteLength(text);
  const jsonBytes = json === undefined ? 0 : Buffer.byteLength(json);
  const originalBytes = textBytes + jsonBytes;
  if (originalBytes <= budget) {
    return {
      text,
      structured: json === undefined ? undefined : (options.parsed ?? JSON.parse(json)),
      cut: false,
      originalBytes,
      finalBytes: originalBytes,
    };
  }

  const room = Math.max(0, budget - NOTE_RESERVE);
  let structured: unknown;
  let structuredBytes = 0;
  let shortened: Shortening[] = [];
  let structuredFits = true;
  if (json !== undefined) {
    // Structured content gets at least half, and all the text does not need.
    const structuredBudget = Math.max(Math.floor(room / 2), room - textBytes);
    const shrunk =
      jsonBytes > structuredBudget
        ? shrinkStructured(json, structuredBudget, validate)
        : { value: JSON.parse(json), bytes: jsonBytes, shortened: [] };
    structured = shrunk.value;
    structuredBytes = shrunk.bytes;
    shortened = shrunk.shortened;
    structuredFits = structuredBytes <= structuredBudget;
  }
  // If the structured content could not be made small enough, the text still keeps a quarter.
  const textBudget = Math.max(room - structuredBytes, structuredFits ? 0 : Math.floor(room / 4));
  const cutText = textBytes > textBudget ? cutAtLine(text, textBudget) : text;
  const details = [
    ...(cutText !== text ? ["the text ends early"] : []),
    ...shortened.map((s) =>
      s.kind === "array"
        ? `\`${s.path}\` keeps ${s.kept} of ${s.of} items`
        : `\`${s.path}\` is cut to ${s.kept} of ${s.of} characters`,
    ),
  ];
  const note = (size: number) =>
    `[Answer cut at ${formatBytes(size)} of ${formatBytes(originalBytes)}${details.length > 0 ? ` (${details.join("; ")})` : ""}: ${advice}.]`;
  const withoutNote = Buffer.byteLength(cutText) + 1 + structuredBytes;
  const finalText = `${cutText}${cutText ? "\n" : ""}${note(withoutNote + Buffer.byteLength(note(withoutNote)))}`;
  return {
    text: finalText,
    structured,
    cut: true,
    originalBytes,
    finalBytes: Buffer.byteLength(finalText) + structuredBytes,
  };
}

/** The longest head of `text` within `maxBytes` that ends at a line break (or, failing that, a character). */
export function cutAtLine(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return "";
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Step back off UTF-8 continuation bytes so no character is split.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  const head = bytes.subarray(0, end).toString("utf8");
  const lineEnd = head.lastIndexOf("\n");
  if (lineEnd > 0) return head.slice(0, lineEnd).replace(/\s+$/, "");
  // One very long line: cut inside it, and say so with "…".
  return `${Array.from(head).slice(0, -1).join("")}…`;
}

interface Shortening {
  kind: "array" | "string";
  path: string;
  kept: number;
  of: number;
}

interface Candidate {
  path: string;
  bytes: number;
  array?: unknown[];
  parent?: Record<string, unknown> | unknown[];
  key?: string | number;
}

/**
 * Shortens the largest arrays (from the end), then, only if that is not enough, the longest
 * strings, until the JSON fits. Keeps the first version `validate` accepts: both, arrays only, or
 * the original.
 */
function shrinkStructured(
  json: string,
  budget: number,
  validate: (value: unknown) => boolean,
): { value: unknown; bytes: number; shortened: Shortening[] } {
  const arraysOnly = shrink(JSON.parse(json), budget, false);
  if (arraysOnly.bytes > budget) {
    const withStrings = shrink(JSON.parse(json), budget, true);
    if (validate(withStrings.value)) return withStrings;
  }
  if (validate(arraysOnly.value)) return arraysOnly;
  return { value: JSON.parse(json), bytes: Buffer.byteLength(json), shortened: [] };
}

function shrink(
  value: unknown,
  budget: number,
  strings: boolean,
): { value: unknown; bytes: number; shortened: Shortening[] } {
  const shortened = new Map<string, Shortening>();
  let bytes = Buffer.byteLength(JSON.stringify(value));
  // Each round removes at least one item or characters, so this ends; the cap is a safeguard.
  for (let round = 0; bytes > budget && round < 1000; round++) {
    const candidates: Candidate[] = [];
    collect(value, "", undefined, undefined, candidates, strings);
    const largest = candidates.sort((a, b) => b.bytes - a.bytes)[0];
    if (!largest) break;
    const excess = bytes - budget;
    if (largest.array) {
      const array = largest.array;
      const entry = shortened.get(largest.path) ?? {
        kind: "array" as const,
        path: largest.path,
        kept: array.length,
        of: array.length,
      };
      let removed = 0;
      while (array.length > 0 && removed < excess) {
        removed += Buffer.byteLength(JSON.stringify(array.pop())) + 1;
      }
      entry.kept = array.length;
      shortened.set(largest.path, entry);
    } else if (largest.parent !== undefined && largest.key !== undefined) {
      const parent = largest.parent as Record<string | number, unknown>;
      const chars = Array.from(parent[largest.key] as string);
      const entry = shortened.get(largest.path) ?? {
        kind: "string" as const,
        path: largest.path,
        kept: chars.length,
        of: chars.length,
      };
      // Characters are 1 to 4 bytes, so dropping excess + 4 (room for "…") is enough.
      const keep = Math.max(MIN_CUT_STRING, chars.length - excess - 4);
      if (keep >= chars.length) break;
      parent[largest.key] = `${chars.slice(0, keep).join("")}…`;
      entry.kept = keep;
      shortened.set(largest.path, entry);
    }
    bytes = Buffer.byteLength(JSON.stringify(value));
  }
  return { value, bytes, shortened: [...shortened.values()] };
}

function collect(
  value: unknown,
  path: string,
  parent: Record<string, unknown> | unknown[] | undefined,
  key: string | number | undefined,
  out: Candidate[],
  strings: boolean,
): void {
  if (Array.isArray(value)) {
    if (value.length > 0) {
      out.push({
        path: path || "(root)",
        bytes: Buffer.byteLength(JSON.stringify(value)),
        array: value,
      });
    }
    value.forEach((item, index) => {
      collect(item, `${path}[${index}]`, value, index, out, strings);
    });
  } else if (value !== null && typeof value === "object") {
    for (const [name, item] of Object.entries(value)) {
      collect(
        item,
        path ? `${path}.${name}` : name,
        value as Record<string, unknown>,
        name,
        out,
        strings,
      );
    }
  } else if (strings && typeof value === "string" && value.length > MIN_CUT_STRING + 1) {
    out.push({ path, bytes: Buffer.byteLength(value), parent, key });
  }
}

/**
 * Whether `value` as JSON certainly takes at most `limit` bytes and `clean` accepts every string
 * in it, keys included: found by walking it instead of serializing it, which is what most answers
 * need (small, nothing to redact). A string costs at most its quotes plus 6 bytes a UTF-16 unit
 * (`\uXXXX`). False means "serialize it and see"; anything but plain data answers false.
 */
export function smallAndClean(
  value: unknown,
  limit: number,
  clean: (text: string) => boolean,
): boolean {
  let room = limit;
  const visit = (item: unknown): boolean => {
    if (typeof item === "string") {
      room -= 2 + 6 * item.length;
      return room >= 0 && clean(item);
    }
    if (item === null || typeof item !== "object") {
      // Numbers, booleans, null: at most 24 characters ("-1.7976931348623157e+308").
      room -= 24;
      return room >= 0;
    }
    if (Array.isArray(item)) {
      room -= 2 + item.length;
      return item.every(visit) && room >= 0;
    }
    const prototype = Object.getPrototypeOf(item);
    if (prototype !== Object.prototype && prototype !== null) return false;
    for (const [key, child] of Object.entries(item)) {
      room -= 2;
      if (!visit(key) || !visit(child)) return false;
    }
    return room >= 0;
  };
  return visit(value);
}
