import type { Tool } from "@modelcontextprotocol/server";
import * as z from "zod";
import type { CatalogEntry } from "./catalog.js";
import type { AnyTool } from "./define-tool.js";

type JsonSchema = Record<string, unknown>;

// One entry per tool definition for the whole process: every HTTP session lists the same tools.
const entries = new WeakMap<AnyTool, Tool>();

/**
 * The `tools/list` entries, each converted once on first listing. The SDK would convert the zod
 * schemas on every listing and keep what JSON Schema conversion adds but no client needs: `$schema`
 * on every schema, `additionalProperties: false` and `required` on every output object, and ±2^53
 * bounds on every integer. Dropping them takes ~2.6 KB (~650 tokens) off a list the assistant pays
 * for in every conversation. Tool results are still checked against the full zod output schema.
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
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: compact(toJsonSchema(tool.inputSchema, "input"), "input") as Tool["inputSchema"],
    outputSchema: outlineWithin(
      compact(toJsonSchema(tool.outputSchema, "output"), "output") as JsonSchema,
    ) as Tool["outputSchema"],
    // title twice: clients on the 2025-03-26 protocol read it only from the annotations.
    annotations: { title: tool.title, ...tool.annotations },
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
 * Bytes an output schema may take in `tools/list`. Output schemas are for clients that validate
 * the shape; the model reads the text answer. The listing spells out as many object levels as fit
 * (the result's fields, then the fields of the records in it, …; lists do not count as a level),
 * lists deeper objects as plain objects, and leaves out output descriptions. The server itself
 * still checks every result against the whole zod schema. Without this, output schemas alone
 * would take more than the whole list's 32 KB budget.
 */
const OUTPUT_SCHEMA_BUDGET = 400;

function outlineWithin(schema: JsonSchema): JsonSchema {
  for (const depth of [4, 3, 2]) {
    const candidate = outline(schema, depth);
    if (Buffer.byteLength(JSON.stringify(candidate)) <= OUTPUT_SCHEMA_BUDGET) return candidate;
  }
  // The result's own fields are always listed, whatever they cost.
  return outline(schema, 1);
}

function outline(schema: JsonSchema, depth: number): JsonSchema {
  const { description: _description, ...rest } = schema;
  if (rest.type === "object" || rest.properties) {
    if (depth <= 0) return { type: "object" };
    if (rest.properties) {
      rest.properties = Object.fromEntries(
        Object.entries(rest.properties as Record<string, JsonSchema>).map(([name, value]) => [
          name,
          outline(value, depth - 1),
        ]),
      );
    }
  }
  if (rest.items && typeof rest.items === "object") {
    rest.items = outline(rest.items as JsonSchema, depth);
  }
  for (const key of ["anyOf", "oneOf"]) {
    const list = rest[key];
    if (Array.isArray(list)) rest[key] = list.map((sub) => outline(sub as JsonSchema, depth));
  }
  return rest;
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
