import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AnyToolDefinition } from "./registry.js";

type JsonSchema = Record<string, unknown>;

// One entry per tool definition for the whole process: every HTTP session lists the same tools.
const entries = new WeakMap<AnyToolDefinition, Tool>();

/**
 * The `tools/list` entries, each converted once on first listing. The SDK would convert the zod
 * schemas on every listing and keep what JSON Schema conversion adds but no client needs: `$schema`
 * on every schema, `additionalProperties: false` and `required` on every output object, and ±2^53
 * bounds on every integer. Dropping them takes ~2.6 KB (~650 tokens) off a list the assistant pays
 * for in every conversation. Tool results are still checked against the full zod output schema.
 */
export function buildToolList(tools: readonly AnyToolDefinition[]): Tool[] {
  return tools.map((tool) => {
    let entry = entries.get(tool);
    if (!entry) {
      entry = toListEntry(tool);
      entries.set(tool, entry);
    }
    return entry;
  });
}

function toListEntry(tool: AnyToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: compact(toJsonSchema(tool.inputSchema, "input"), "input") as Tool["inputSchema"],
    outputSchema: compact(
      toJsonSchema(tool.outputSchema, "output"),
      "output",
    ) as Tool["outputSchema"],
    // title twice: clients on the 2025-03-26 protocol read it only from the annotations.
    annotations: { title: tool.title, ...tool.annotations },
  };
}

function toJsonSchema(shape: z.ZodRawShape, io: "input" | "output"): JsonSchema {
  return z.toJSONSchema(z.object(shape), { target: "draft-7", io }) as JsonSchema;
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
