import * as z from "zod";
import { runtimeQuery } from "../../client/client.js";
import { describePage, type PaginatorInfo, readPage } from "../../client/pagination.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import { cutAtLine } from "../answer-budget.js";
import { defineTool, readOnlyAnnotations } from "../define-tool.js";
import { hiddenFields, hiddenLine, requestOptions } from "../format.js";
import { checkQuery, checkVariablesSize, OPERATION_NAME, pathText } from "./query-checks.js";

/** Most text one answer carries; a larger answer is cut with a note on how to narrow the query. */
export const MAX_QUERY_ANSWER_BYTES = 24 * 1024;
/** Longest platform string shown in the text (the structured content keeps it whole). */
const MAX_VALUE_CHARS = 500;
/** Errors listed in the text; the JSON has all of them. */
const MAX_ERRORS_SHOWN = 20;
/** Lines longer than this are broken up rather than inlined. */
const MAX_INLINE = 160;
const NARROW =
  "narrow the query: fewer fields, a smaller first, or filters (describe_schema lists a query's arguments)";

export const queryPlatformTool = defineTool({
  name: "query_platform",
  title: "Query the platform",
  toolset: "platform",
  instruction:
    "query_platform runs one read-only GraphQL query for what no other tool covers; find the query and its fields with describe_schema first.",
  readme: {
    does: "Any other read (projects, custom fields, milestones, …), checked before it is sent: no mutations, bounded cost, no secret fields",
  },
  description: [
    "One read-only GraphQL query for what other tools do not read: projects, custom fields, milestones, agencies, or a filter or field they lack.",
    "Use when: describe_schema showed the query and fields.",
    "Do not use for: what search_hires, get_hire, get_contract or list_invoices answer.",
    "Checked first: known names, no mutation, first at most 100, depth 8, 20 aliases, no secret, identity or bank fields. Errors beside partial data; cut at 24 KB.",
    'Example: {"query": "{ projects(first: 5) { data { id name } } }"}',
  ].join("\n"),
  inputSchema: {
    query: z.string().min(1).max(20_000).describe("GraphQL query; fragments allowed."),
    variables: z
      .object({
        first: z.number().int().optional().describe("$first: page size, 1 to 100."),
        page: z.number().int().optional().describe("$page: from 1."),
        id: z.string().optional().describe("$id."),
      })
      .catchall(z.unknown())
      .optional()
      .describe("The query's $variables, by name."),
  },
  outputSchema: {
    data: z.record(z.string(), z.unknown()).nullable(),
    errors: z.array(
      z.object({ message: z.string(), path: z.string().nullable(), kind: z.string() }),
    ),
    hiddenFields: z.array(z.string()),
    cut: z.boolean(),
    /** Lists the JSON keeps only the start of, e.g. "hires.data: 40 of 100". */
    shortenedLists: z.array(z.string()),
  },
  annotations: readOnlyAnnotations,
  async handler(args, ctx) {
    const variables = (args.variables ?? {}) as Record<string, unknown>;
    checkVariablesSize(variables);
    const schema = await ctx.schema();
    const checked = checkQuery(schema, args.query, variables, {
      sandbox: ctx.sandbox,
      reach: ctx.reach,
    });
    const result = await ctx.client.request(
      runtimeQuery(OPERATION_NAME, checked.document),
      checked.variables,
      requestOptions(ctx),
    );
    const data = (result.data ?? null) as Record<string, unknown> | null;
    const errors = result.errors.map((e) => ({
      message: e.message,
      path: pathText(e.path) ?? null,
      kind: e.kind,
    }));
    const hidden = hiddenFields(result.restricted);

    const head: string[] = [];
    if (errors.length > 0) {
      head.push(
        `The platform answered with ${errors.length === 1 ? "an error" : `${errors.length} errors`}; ${data ? "the data below is partial (null where it failed)" : "there is no data"}:`,
        ...errors
          .slice(0, MAX_ERRORS_SHOWN)
          .map((e) => `- ${e.path ? `at ${e.path}: ` : ""}${quoted(e.message, 1000)}`),
      );
      if (errors.length > MAX_ERRORS_SHOWN) {
        head.push(`- and ${errors.length - MAX_ERRORS_SHOWN} more (all of them in the JSON)`);
      }
    }
    const hiddenText = hiddenLine(hidden);
    if (hiddenText) head.push(`${hiddenText} Their values are null in the data.`);
    const body = data ? renderValue(data, 0) : ["No data."];

    let text = [...head, ...body].join("\n");
    let cut = false;
    const textBytes = Buffer.byteLength(text);
    if (textBytes > MAX_QUERY_ANSWER_BYTES) {
      cut = true;
      text = `${cutAtLine(text, MAX_QUERY_ANSWER_BYTES - 400)}\n[Answer cut at ${MAX_QUERY_ANSWER_BYTES / 1024} KB of ${Math.ceil(textBytes / 1024)} KB: ${NARROW}.]`;
    }
    // The JSON gets the same budget; the longest lists lose items from the end.
    const trimmed = trimLists(data, MAX_QUERY_ANSWER_BYTES);
    if (trimmed.shortened.length > 0 && !cut) {
      cut = true;
      text += `\n[The JSON keeps only part of the data (${trimmed.shortened.join("; ")}): ${NARROW}.]`;
    }
    return {
      structured: {
        data: trimmed.value,
        errors,
        hiddenFields: hidden,
        cut,
        shortenedLists: trimmed.shortened,
      },
      text,
    };
  },
});

/** Longest string the JSON keeps whole once its lists alone could not make it fit. */
const MAX_JSON_STRING = 2000;

/**
 * The data within `budget` bytes of JSON: the largest lists lose items from the end (at most half
 * of them a round, so several lists share the cut), then very long strings are cut.
 */
function trimLists(
  data: Record<string, unknown> | null,
  budget: number,
): { value: Record<string, unknown> | null; shortened: string[] } {
  const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
  if (data === null || size(data) <= budget) return { value: data, shortened: [] };
  const value = JSON.parse(JSON.stringify(data)) as Record<string, Json>;
  const lengths = new Map<string, { kept: number; of: number }>();
  let bytes = size(value);
  for (let round = 0; bytes > budget && round < 500; round++) {
    const lists: { path: string; list: Json[]; bytes: number }[] = [];
    const collect = (v: Json, path: string) => {
      if (Array.isArray(v)) {
        if (v.length > 0) lists.push({ path, list: v, bytes: size(v) });
        for (const item of v) collect(item, `${path}[]`);
      } else if (v !== null && typeof v === "object") {
        for (const [k, item] of Object.entries(v)) collect(item, path ? `${path}.${k}` : k);
      }
    };
    collect(value, "");
    const largest = lists.sort((a, b) => b.bytes - a.bytes)[0];
    if (!largest) break;
    const perItem = largest.bytes / largest.list.length;
    const remove = Math.min(
      Math.ceil(largest.list.length / 2),
      Math.max(1, Math.ceil((bytes - budget) / perItem)),
    );
    const entry = lengths.get(largest.path) ?? {
      kept: largest.list.length,
      of: largest.list.length,
    };
    largest.list.splice(largest.list.length - remove, remove);
    entry.kept = largest.list.length;
    lengths.set(largest.path, entry);
    bytes = size(value);
  }
  const shortened = [...lengths].map(([path, l]) => `${path}: ${l.kept} of ${l.of}`);
  if (bytes > budget) {
    const cutStrings = (v: Json): Json => {
      if (typeof v === "string" && v.length > MAX_JSON_STRING) {
        return `${Array.from(v).slice(0, MAX_JSON_STRING).join("")}…`;
      }
      if (Array.isArray(v)) return v.map(cutStrings);
      if (v !== null && typeof v === "object") {
        return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, cutStrings(item)]));
      }
      return v;
    };
    shortened.push(`strings over ${MAX_JSON_STRING} characters: cut`);
    return { value: cutStrings(value) as Record<string, unknown>, shortened };
  }
  return { value, shortened };
}

// ---- rendering -------------------------------------------------------------------------------
// The answer's shape is the caller's query, so it is rendered generically: one `key: value` a
// line, scalars side by side when short, lists as "- " items. Every string is quoted: any of them
// may be platform text. Keys are the query's names and aliases, except in JSON scalars.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function renderValue(value: Record<string, unknown>, indent: number): string[] {
  return objectLines(value as { [key: string]: Json }, indent);
}

function keyText(key: string): string {
  return /^[_A-Za-z][_A-Za-z0-9]*$/.test(key) ? key : quoted(key, 60);
}

function scalarText(value: Json): string {
  if (typeof value === "string") return quoted(value, MAX_VALUE_CHARS);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "null";
}

function isScalar(value: Json): value is null | boolean | number | string {
  return value === null || typeof value !== "object";
}

/** The value on one line (`{ a: 1, b: "x" }`, `[1, 2]`), or undefined when it would not fit. */
function inline(value: Json, budget = MAX_INLINE): string | undefined {
  if (isScalar(value)) return scalarText(value);
  const parts: string[] = [];
  let length = 0;
  const entries: [string | undefined, Json][] = Array.isArray(value)
    ? value.map((v) => [undefined, v])
    : Object.entries(value);
  for (const [key, item] of entries) {
    const text = inline(item, budget - length);
    if (text === undefined) return undefined;
    const part = key === undefined ? text : `${keyText(key)}: ${text}`;
    length += part.length + 2;
    if (length > budget) return undefined;
    parts.push(part);
  }
  return Array.isArray(value) ? `[${parts.join(", ")}]` : `{ ${parts.join(", ")} }`;
}

function objectLines(value: { [key: string]: Json }, indent: number): string[] {
  const pad = "  ".repeat(indent);
  const lines: string[] = [];
  let scalars: string[] = [];
  const flush = () => {
    if (scalars.length === 0) return;
    const joined = scalars.join(", ");
    if (joined.length <= MAX_INLINE) lines.push(`${pad}${joined}`);
    else for (const s of scalars) lines.push(`${pad}${s}`);
    scalars = [];
  };
  for (const [key, item] of Object.entries(value)) {
    if (isScalar(item)) {
      scalars.push(`${keyText(key)}: ${scalarText(item)}`);
      continue;
    }
    flush();
    const page = key === "paginatorInfo" ? pageLine(item) : undefined;
    if (page) {
      lines.push(`${pad}${keyText(key)}: ${page}`);
      continue;
    }
    if (Array.isArray(item)) {
      lines.push(...arrayLines(keyText(key), item, indent));
      continue;
    }
    const short = inline(item);
    if (short !== undefined) lines.push(`${pad}${keyText(key)}: ${short}`);
    else lines.push(`${pad}${keyText(key)}:`, ...objectLines(item, indent + 1));
  }
  flush();
  return lines;
}

function arrayLines(label: string, items: Json[], indent: number): string[] {
  const pad = "  ".repeat(indent);
  if (items.length === 0) return [`${pad}${label}: none`];
  const short = inline(items);
  if (short !== undefined && items.every(isScalar)) return [`${pad}${label}: ${short}`];
  const lines = [`${pad}${label} (${items.length}):`];
  for (const item of items) {
    const one = isScalar(item)
      ? scalarText(item)
      : Array.isArray(item)
        ? inline(item)
        : inline(item)?.replace(/^\{ (.*) \}$/, "$1");
    if (one !== undefined) {
      lines.push(`${pad}- ${one}`);
      continue;
    }
    const nested = Array.isArray(item)
      ? arrayLines("list", item, indent + 1)
      : objectLines(item as { [key: string]: Json }, indent + 1);
    // The first line carries the "- " marker in place of its indentation.
    const [first, ...rest] = nested;
    lines.push(`${pad}- ${(first ?? "").trimStart()}`, ...rest);
  }
  return lines;
}

/** "1–25 of 143, page 1 of 6; ask for page 2 for more", when the query asked for enough of it. */
function pageLine(value: Json): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const needed = ["count", "currentPage", "firstItem", "lastItem", "lastPage", "perPage", "total"];
  if (!needed.every((k) => k in value) || !("hasMorePages" in value)) return undefined;
  return oneLine(describePage(readPage(value as unknown as PaginatorInfo)));
}
