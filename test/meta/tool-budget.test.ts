// What the model reads of the tool list costs context on every turn, and some model APIs refuse
// schemas that MCP allows. These checks keep the whole list affordable and portable.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { OPT_IN_TOOLSETS } from "../../src/config/defaults.js";
import { tools } from "../../src/tools/registry.js";
import { listToolsAsClientSees } from "./tool-surface.js";

/** Budgets for every default tool together (bytes of JSON). */
const MODEL_VISIBLE_BUDGET = 20 * 1024;
/**
 * Raised when output schemas began to list the fields of every list's items (issue 23): output
 * schemas, which chat clients do not hand the model (code-mode clients turn them into the types
 * they read), are a large part of the whole (the README gives the figures, checked below); what
 * the model reads stays within its own budget.
 */
const TOOLS_LIST_BUDGET = 42 * 1024;
/**
 * With every opt-in toolset named too (`--toolsets all`): what a person chose to pay for, raised
 * with the records toolset (update_payment_request, update_talent_contact): a person who names it
 * chose to pay for its two writes; the default list's budget above stays as it was.
 */
const MODEL_VISIBLE_BUDGET_ALL = 28 * 1024;
const MAX_DESCRIPTION = 1024;

type JsonSchema = Record<string, unknown>;

/** What a model reads of one tool: its name, its description (as text) and its input schema. */
function modelVisibleBytes(tool: Tool): number {
  return (
    Buffer.byteLength(tool.name) +
    Buffer.byteLength(tool.description ?? "") +
    Buffer.byteLength(JSON.stringify(tool.inputSchema))
  );
}

/** Every schema node below (and including) `schema`, with its path. */
function* nodes(schema: unknown, path: string): Generator<[string, JsonSchema]> {
  if (schema === null || typeof schema !== "object") return;
  const node = schema as JsonSchema;
  yield [path, node];
  for (const [key, value] of Object.entries((node.properties ?? {}) as Record<string, unknown>)) {
    yield* nodes(value, `${path}.${key}`);
  }
  if (node.items) yield* nodes(node.items, `${path}[]`);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = node[key];
    if (Array.isArray(list))
      for (const [i, sub] of list.entries()) yield* nodes(sub, `${path}.${key}[${i}]`);
  }
  if (node.additionalProperties && typeof node.additionalProperties === "object") {
    yield* nodes(node.additionalProperties, `${path}{}`);
  }
}

describe("the tool list every assistant accepts, and can afford", async () => {
  // Every tool, opt-in ones too: the default list is this one without them.
  const listed = await listToolsAsClientSees("all");

  const optIn = new Set(
    tools.filter((t) => OPT_IN_TOOLSETS.includes(t.toolset)).map((t) => t.name),
  );
  const byDefault = listed.filter((tool) => !optIn.has(tool.name));

  it(`costs at most ${MODEL_VISIBLE_BUDGET / 1024} KB of what the model reads, ${TOOLS_LIST_BUDGET / 1024} KB in all`, () => {
    const visible = byDefault.reduce((sum, tool) => sum + modelVisibleBytes(tool), 0);
    const whole = Buffer.byteLength(JSON.stringify({ tools: byDefault }));
    console.log(`tool list: ${visible} bytes the model reads, ${whole} bytes in all`);
    expect(visible).toBeLessThanOrEqual(MODEL_VISIBLE_BUDGET);
    expect(whole).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
  });

  it("is described in the README with its real figures (count, bytes, budgets)", () => {
    // The README's sentence, read back: a tool added, dropped or reworded changes these numbers.
    const readme = readFileSync(join(process.cwd(), "README.md"), "utf8").replace(/\s+/g, " ");
    const figure = (n: number) => n.toLocaleString("en-US");
    const actual = {
      tools: String(byDefault.length),
      visible: figure(byDefault.reduce((sum, tool) => sum + modelVisibleBytes(tool), 0)),
      visibleBudget: figure(MODEL_VISIBLE_BUDGET),
      whole: figure(Buffer.byteLength(JSON.stringify({ tools: byDefault }))),
      wholeBudget: figure(TOOLS_LIST_BUDGET),
      outputSchemas: figure(
        byDefault.reduce(
          (sum, tool) => sum + Buffer.byteLength(JSON.stringify(tool.outputSchema ?? {})),
          0,
        ),
      ),
    };
    const sentence = readme.match(
      /All (\d+) default tools cost ([\d,]+) bytes of what the model reads \(names, descriptions, input schemas; budget ([\d,]+)\) and ([\d,]+) bytes as the whole `tools\/list` answer \(budget ([\d,]+)\)/,
    );
    const outputSchemas = readme.match(/Output schemas \(([\d,]+) of those bytes\)/);
    const written = {
      tools: sentence?.[1],
      visible: sentence?.[2],
      visibleBudget: sentence?.[3],
      whole: sentence?.[4],
      wholeBudget: sentence?.[5],
      outputSchemas: outputSchemas?.[1],
    };
    expect(
      written,
      `README.md, section Tools: write "All ${actual.tools} default tools cost ${actual.visible} bytes of what the model reads (names, descriptions, input schemas; budget ${actual.visibleBudget}) and ${actual.whole} bytes as the whole \`tools/list\` answer (budget ${actual.wholeBudget})" and "Output schemas (${actual.outputSchemas} of those bytes)"`,
    ).toEqual(actual);
  });

  it(`costs at most ${MODEL_VISIBLE_BUDGET_ALL / 1024} KB of what the model reads with every opt-in toolset`, () => {
    const visible = listed.reduce((sum, tool) => sum + modelVisibleBytes(tool), 0);
    expect(visible).toBeLessThanOrEqual(MODEL_VISIBLE_BUDGET_ALL);
  });

  describe.each(listed.map((tool): [string, Tool] => [tool.name, tool]))("%s", (_name, tool) => {
    it(`has descriptions of at most ${MAX_DESCRIPTION} characters, its own and every property's`, () => {
      expect((tool.description ?? "").length).toBeLessThanOrEqual(MAX_DESCRIPTION);
      for (const [path, node] of nodes(tool.inputSchema, "input")) {
        const description = node.description;
        if (typeof description === "string") {
          expect(description.length, path).toBeLessThanOrEqual(MAX_DESCRIPTION);
        }
      }
    });

    it("uses no JSON Schema format but date-time, and no object without properties", () => {
      for (const [path, node] of nodes(tool.inputSchema, "input")) {
        if (node.format !== undefined) expect(node.format, path).toBe("date-time");
        if (node.type === "object") {
          expect(
            Object.keys((node.properties ?? {}) as object).length,
            `${path} has no properties`,
          ).toBeGreaterThan(0);
        }
      }
    });

    it("has no anyOf, oneOf or allOf at the top of its input schema", () => {
      for (const key of ["anyOf", "oneOf", "allOf"])
        expect(tool.inputSchema).not.toHaveProperty(key);
    });
  });
});
