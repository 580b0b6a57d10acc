import type { Tool } from "@modelcontextprotocol/server";
import * as z from "zod";
import { viewOf } from "../web/app-links.js";
import type { CatalogEntry } from "./catalog.js";
import type { AnyTool } from "./define-tool.js";
import { RUN_WRITE_TOOL } from "./reach.js";

type JsonSchema = Record<string, unknown>;

// One entry per tool definition for the whole process: every HTTP session lists the same tools.
const entries = new WeakMap<AnyTool, Tool>();

/**
 * The `tools/list` entries, each converted once on first listing. The SDK would convert the zod
 * schemas on every listing and keep what JSON Schema conversion adds but no client needs: `$schema`
 * on every schema, `additionalProperties: false` and `required` on every output object, and ±2^53
 * bounds on every integer. Dropping them shortens a list the assistant pays for in every
 * conversation (docs/performance.md, "Figures behind choices in the code"). Tool results are still
 * checked against the full zod output schema.
 */
export function buildToolList(tools: readonly AnyTool[]): Tool[] {
  return tools.map((tool) => {
    let entry = entries.get(tool);
    if (!entry) {
      entry = toListEntry(tool);
      entries.set(tool, entry);
    }
    return entry;
  });
}

function toListEntry(tool: AnyTool): Tool {
  // run_write_tool answers with the preview of the change it runs: the card shows it there too.
  const confirmed = "confirmationToken" in tool.inputSchema || tool.name === RUN_WRITE_TOOL;
  const view = viewOf({ name: tool.name, confirmed });
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: compact(toJsonSchema(tool.inputSchema, "input"), "input") as Tool["inputSchema"],
    outputSchema: outputSchemaOf(tool) as Tool["outputSchema"],
    // title twice: clients on the 2025-03-26 protocol read it only from the annotations.
    annotations: { title: tool.title, ...tool.annotations },
    // The MCP Apps view a client that renders Apps shows with the answer; others ignore it.
    ...(view ? { _meta: { ui: { resourceUri: view } } } : {}),
  };
}

function toJsonSchema(shape: z.ZodRawShape, io: "input" | "output"): JsonSchema {
  return z.toJSONSchema(z.object(shape), {
    target: "draft-7",
    io,
    reused: "inline",
  }) as JsonSchema;
}

function compact(schema: unknown, io: "input" | "output"): unknown {
  if (Array.isArray(schema)) return schema.map((item) => compact(item, io));
  if (schema === null || typeof schema !== "object") return schema;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$schema") continue;
    if (key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === "minimum" && value === Number.MIN_SAFE_INTEGER) continue;
    if (io === "output" && (key === "required" || key === "additionalProperties")) continue;
    // "Not empty" goes without saying for an id or a name; the server still refuses an empty one.
    if (key === "minLength" && value === 1) continue;
    // Property names are data, not keywords: a property called "required" stays.
    result[key] = key === "properties" ? mapValues(value, io) : compact(value, io);
  }
  return result;
}

function mapValues(properties: unknown, io: "input" | "output"): JsonSchema {
  return Object.fromEntries(
    Object.entries(properties as JsonSchema).map(([name, value]) => [name, compact(value, io)]),
  );
}

/**
 * Bytes a tool's output schema may take in `tools/list` for objects that are not list items; a
 * tool not named here lists its result's own fields and its records' fields only. Output schemas
 * are for clients that validate results or program against them (code-mode clients turn them into
 * types the model reads); the chat model reads the text answer. Always listed, whatever they cost:
 * the result's own fields and the fields of the records in its lists (with the objects that hold
 * them). Then, as long as the schema fits its budget here: the fields of its other objects,
 * shallowest first. An object left out is listed as `{"type":"object"}`; output descriptions are
 * left out. The server itself still checks every result against the whole zod schema. The whole
 * list's budget is held by test/meta/tool-budget.test.ts; what listing every object's fields would
 * cost is in docs/performance.md.
 */
const OUTPUT_SCHEMA_BUDGETS: Readonly<Partial<Record<string, number>>> = {
  list_changes: 680,
  list_webhooks: 1000,
  manage_webhooks: 1000,
};

function outputSchemaOf(tool: AnyTool): JsonSchema {
  return listedOutputSchema(tool.outputSchema, OUTPUT_SCHEMA_BUDGETS[tool.name] ?? 0);
}

/**
 * An output schema as `tools/list` shows it: its own fields and its records' fields always, its
 * other objects' fields within `budget` bytes in all.
 */
export function listedOutputSchema(shape: z.ZodRawShape, budget: number): JsonSchema {
  const full = foldNull(compact(toJsonSchema(shape, "output"), "output") as JsonSchema);
  return outlineWithin(full, budget);
}

function isSchema(value: unknown): value is JsonSchema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isJustNull(schema: unknown): boolean {
  return isSchema(schema) && schema.type === "null" && Object.keys(schema).length === 1;
}

/** A copy of `schema` with `map` applied to its properties' schemas, its items and its anyOf/oneOf branches. */
function mapSubschemas(schema: JsonSchema, map: (sub: JsonSchema) => JsonSchema): JsonSchema {
  const result: JsonSchema = { ...schema };
  if (isSchema(result.properties)) {
    result.properties = Object.fromEntries(
      Object.entries(result.properties).map(([name, value]) => [name, map(value as JsonSchema)]),
    );
  }
  if (isSchema(result.items)) result.items = map(result.items);
  for (const key of ["anyOf", "oneOf"]) {
    const list = result[key];
    if (Array.isArray(list)) result[key] = list.map((sub) => map(sub as JsonSchema));
  }
  return result;
}

/**
 * The same schema, written shorter: `{"anyOf": [X, {"type": "null"}]}` (what zod writes for a
 * nullable X) becomes X with "null" among its types (and in its enum), shorter for each nullable
 * field; a record's `propertyNames: {"type": "string"}` goes (JSON keys are strings).
 */
function foldNull(schema: JsonSchema): JsonSchema {
  const result = mapSubschemas(schema, foldNull);
  if (isSchema(result.propertyNames) && Object.keys(result.propertyNames).length === 1) {
    if (result.propertyNames.type === "string") delete result.propertyNames;
  }
  const { anyOf, ...outer } = result;
  if (!Array.isArray(anyOf) || anyOf.length !== 2 || !anyOf.some(isJustNull)) return result;
  const other = anyOf.find((sub) => !isJustNull(sub)) as JsonSchema | undefined;
  const plain =
    other !== undefined &&
    (typeof other.type === "string" || Array.isArray(other.type)) &&
    !["anyOf", "oneOf", "allOf", "not", "const", "$ref"].some((key) => key in other) &&
    !Object.keys(outer).some((key) => key !== "description");
  if (!plain) return result;
  const types = [other.type].flat();
  const folded: JsonSchema = {
    ...other,
    type: types.includes("null") ? types : [...types, "null"],
  };
  if (Array.isArray(other.enum) && !other.enum.includes(null)) folded.enum = [...other.enum, null];
  return { ...folded, ...outer };
}

/** An object whose fields may be listed: the schema, the object that holds it, whether in a list. */
interface ObjectNode {
  schema: JsonSchema;
  holder: ObjectNode | undefined;
  /** An item of a list (a record), as opposed to a field's value. */
  record: boolean;
}

/** Every object with properties in `root`, shallowest first (root first). */
function objectNodes(root: JsonSchema): ObjectNode[] {
  const found: ObjectNode[] = [{ schema: root, holder: undefined, record: false }];
  const below = (schema: JsonSchema, holder: ObjectNode, record: boolean): void => {
    if (isSchema(schema.properties) && schema !== holder.schema) {
      found.push({ schema, holder, record });
      return;
    }
    if (isSchema(schema.properties)) {
      for (const value of Object.values(schema.properties))
        below(value as JsonSchema, holder, false);
    }
    if (isSchema(schema.items)) below(schema.items, holder, true);
    for (const key of ["anyOf", "oneOf"]) {
      const list = schema[key];
      if (Array.isArray(list)) for (const sub of list) below(sub as JsonSchema, holder, record);
    }
  };
  for (let i = 0; i < found.length; i++) {
    const node = found[i] as ObjectNode;
    below(node.schema, node, false);
  }
  return found;
}

function outlineWithin(schema: JsonSchema, budget: number): JsonSchema {
  const nodes = objectNodes(schema);
  const open = new Set<JsonSchema>([schema]);
  /** Opens `node` and the objects that hold it; returns what it opened. */
  const openUpTo = (node: ObjectNode): JsonSchema[] => {
    const opened: JsonSchema[] = [];
    for (let n: ObjectNode | undefined = node; n && !open.has(n.schema); n = n.holder) {
      open.add(n.schema);
      opened.push(n.schema);
    }
    return opened;
  };
  for (const node of nodes) if (node.record) openUpTo(node);
  for (const node of nodes) {
    const opened = openUpTo(node);
    if (opened.length === 0) continue;
    if (Buffer.byteLength(JSON.stringify(outline(schema, open))) > budget) {
      for (const opening of opened) open.delete(opening);
    }
  }
  return outline(schema, open);
}

/**
 * The schema without descriptions, and with the objects not in `open` as plain objects. Every
 * object keeps `"type": "object"`: clients that compile schemas strictly (ajv's default) warn
 * about `properties` without it.
 */
function outline(schema: JsonSchema, open: ReadonlySet<JsonSchema>): JsonSchema {
  if (isSchema(schema.properties) && !open.has(schema)) return { type: schema.type ?? "object" };
  const { description: _description, ...rest } = schema;
  return mapSubschemas(rest, (sub) => outline(sub, open));
}

/** Catalog entries of tool definitions already loaded. */
export function catalogOf(tools: readonly AnyTool[]): CatalogEntry[] {
  const listed = buildToolList(tools);
  return tools.map((tool, i) => ({
    name: tool.name,
    toolset: tool.toolset,
    readOnly: tool.annotations.readOnlyHint,
    instruction: tool.instruction,
    listEntry: listed[i] as Tool,
  }));
}
