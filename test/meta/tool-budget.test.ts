// What the model reads of the tool list costs context on every turn, and some model APIs refuse
// schemas that MCP allows. These checks keep the whole list affordable and portable.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { everyToolAsListed, listToolsAsClientSees } from "./tool-surface.js";

/**
 * Budgets for the list a default start gives at first (bytes of JSON): the core and the discovery
 * tools (issue 31). Every other tool is found with find_tools, whose answer stays within 4 KB
 * (test/tools/find-tools.test.ts), so a new tool costs the list nothing unless it joins the core.
 */
const MODEL_VISIBLE_BUDGET = 14 * 1024;
/** The whole answer, output schemas too (chat clients do not hand those to the model). */
const TOOLS_LIST_BUDGET = 28 * 1024;
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
  // Every tool, as each is listed once find_tools has added it.
  const listed = await everyToolAsListed();
  const atFirst = await listToolsAsClientSees();

  it(`costs at most ${MODEL_VISIBLE_BUDGET / 1024} KB of what the model reads at first, ${TOOLS_LIST_BUDGET / 1024} KB in all`, () => {
    const visible = atFirst.reduce((sum, tool) => sum + modelVisibleBytes(tool), 0);
    const whole = Buffer.byteLength(JSON.stringify({ tools: atFirst }));
    console.log(`tool list: ${visible} bytes the model reads, ${whole} bytes in all`);
    expect(visible).toBeLessThanOrEqual(MODEL_VISIBLE_BUDGET);
    expect(whole).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
  });

  it("lists at first only a part of every tool (a check that cannot fail is no check)", () => {
    expect(atFirst.length).toBeLessThan(listed.length);
  });

  it("is described in the README with its real figures (count, bytes, budgets, room left)", () => {
    // The README's sentence, read back: a tool added, dropped or reworded changes these numbers.
    const readme = readFileSync(join(process.cwd(), "README.md"), "utf8").replace(/\s+/g, " ");
    const figure = (n: number) => n.toLocaleString("en-US");
    const visible = atFirst.reduce((sum, tool) => sum + modelVisibleBytes(tool), 0);
    const actual = {
      tools: String(atFirst.length),
      visible: figure(visible),
      visibleBudget: figure(MODEL_VISIBLE_BUDGET),
      room: figure(MODEL_VISIBLE_BUDGET - visible),
      whole: figure(Buffer.byteLength(JSON.stringify({ tools: atFirst }))),
      wholeBudget: figure(TOOLS_LIST_BUDGET),
    };
    const sentence = readme.match(
      /(\d+) tools cost ([\d,]+) bytes of what the model reads \(names, descriptions, input schemas; budget ([\d,]+), so \*\*([\d,]+) bytes of room\*\*\) and ([\d,]+) bytes as the whole `tools\/list` answer \(budget ([\d,]+)\)/,
    );
    const written = {
      tools: sentence?.[1],
      visible: sentence?.[2],
      visibleBudget: sentence?.[3],
      room: sentence?.[4],
      whole: sentence?.[5],
      wholeBudget: sentence?.[6],
    };
    expect(
      written,
      `README.md, section Tools: write "${actual.tools} tools cost ${actual.visible} bytes of what the model reads (names, descriptions, input schemas; budget ${actual.visibleBudget}, so **${actual.room} bytes of room**) and ${actual.whole} bytes as the whole \`tools/list\` answer (budget ${actual.wholeBudget})"`,
    ).toEqual(actual);
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
