// Rules every tool must follow, checked over the whole registry so a new tool cannot skip them.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { tools } from "../../src/tools/registry.js";
import { everyToolAsListed } from "./tool-surface.js";

const ANNOTATIONS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;
// Leading verbs an assistant reads as an action; extend deliberately when a tool needs another.
const VERBS = [
  "search",
  "get",
  "list",
  "describe",
  "query",
  "submit",
  "terminate",
  "create",
  "update",
  "cancel",
  "review",
  "invite",
  "post",
  "manage",
  // The discovery tools (issue 31): find the tools not listed, and run one.
  "find",
  "run",
];
const REJECTED_TOP_LEVEL = ["anyOf", "oneOf", "allOf", "not", "$ref"];

const kebab = (name: string) => name.replaceAll("_", "-");

type JsonSchema = Record<string, unknown>;

/** Dot paths of properties, at any depth, that carry no description. */
function undescribed(schema: JsonSchema, path = ""): string[] {
  const missing: string[] = [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [key, property] of Object.entries(properties)) {
    const here = path ? `${path}.${key}` : key;
    if (typeof property.description !== "string" || property.description.trim() === "") {
      missing.push(here);
    }
    missing.push(...undescribed(property, here));
    const items = property.items as JsonSchema | undefined;
    if (items && typeof items === "object") missing.push(...undescribed(items, `${here}[]`));
  }
  return missing;
}

describe("tool registry", async () => {
  const listed = await everyToolAsListed();
  const names = tools.map((tool) => tool.name);

  it("names every tool once, and lists them all in the registry's order", () => {
    expect(new Set(names).size, "two tools share a name").toBe(names.length);
    expect(listed.map((tool) => tool.name)).toEqual(names);
  });

  describe.each(listed.map((tool): [string, Tool] => [tool.name, tool]))("%s", (name, tool) => {
    const definition = tools.find((t) => t.name === name);

    it("is named snake_case verb_noun", () => {
      expect(name).toMatch(/^[a-z]+(_[a-z]+)+$/);
      expect(VERBS, `${name} should start with an action verb`).toContain(name.split("_")[0]);
    });

    it("sets all four annotations explicitly, as booleans", () => {
      for (const key of ANNOTATIONS) {
        expect(typeof definition?.annotations[key], `${name}.${key}`).toBe("boolean");
        expect(typeof tool.annotations?.[key], `${name}.${key} as listed`).toBe("boolean");
      }
    });

    it("is never destructive when it is read-only", () => {
      if (tool.annotations?.readOnlyHint) expect(tool.annotations.destructiveHint).toBe(false);
    });

    it("has a title", () => {
      expect(tool.title?.trim()).toBeTruthy();
    });

    it("describes when to use it, when not, and names another tool", () => {
      const description = tool.description ?? "";
      expect(description.length).toBeLessThanOrEqual(2048);
      expect(description).toContain("Use when");
      expect(description).toContain("Do not use");
      const others = names.filter((other) => other !== name);
      if (others.length > 0) {
        expect(
          others.some((other) => description.includes(other)),
          `${name}'s description should point to one of: ${others.join(", ")}`,
        ).toBe(true);
      }
    });

    it("describes every input property", () => {
      expect(undescribed(tool.inputSchema as JsonSchema)).toEqual([]);
    });

    it("has an input schema common clients accept", () => {
      const schema = tool.inputSchema as JsonSchema;
      expect(schema.type).toBe("object");
      for (const key of REJECTED_TOP_LEVEL)
        expect(schema, `top-level ${key}`).not.toHaveProperty(key);
    });

    it("has an output schema for its structured content", () => {
      expect(tool.outputSchema?.type).toBe("object");
    });

    it("has its own test file", () => {
      const file = join("test", "tools", `${kebab(name)}.test.ts`);
      expect(existsSync(join(process.cwd(), file)), `${file} is missing`).toBe(true);
    });
  });
});
