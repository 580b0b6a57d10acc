// The README's tool table (and its prompt table, from the prompts' registry) and manifest.json's
// tools are written from the registry, never by hand.
// This test builds them in memory and fails when a committed file differs; with UPDATE_TOOL_FILES=1
// it writes them instead. Regenerate: npm run generate:tools
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { TOOLSETS } from "../../src/config.js";
import type { PromptDefinition } from "../../src/prompts/define-prompt.js";
import { prompts } from "../../src/prompts/registry.js";
import type { AnyTool } from "../../src/tools/define-tool.js";
import { LISTED_FIRST } from "../../src/tools/reach.js";
import { tools } from "../../src/tools/registry.js";

const README = join(process.cwd(), "README.md");
const MANIFEST = join(process.cwd(), "manifest.json");
const START = "<!-- tools:start -->";
const END = "<!-- tools:end -->";
const UPDATE = process.env.UPDATE_TOOL_FILES === "1";
const HOW = "Files written from the tool registry are stale: run `npm run generate:tools`.";

/**
 * The README's tool table: by toolset, as `--toolsets` lists them; in each, the tools that change
 * nothing first, otherwise in the registry's order; then the discovery tools. A tool listed at
 * first says so; every other one is reached through discovery.
 */
function readmeTable(all: readonly AnyTool[]): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const inToolset = (toolset: string) =>
    all
      .filter((tool) => tool.toolset === toolset)
      .sort((a, b) => Number(b.annotations.readOnlyHint) - Number(a.annotations.readOnlyHint));
  const rows = [...TOOLSETS, "discovery"].flatMap(inToolset).map((tool) => {
    const { readOnlyHint } = tool.annotations;
    if (readOnlyHint && tool.readme.changes !== undefined) {
      throw new Error(
        `${tool.name} is read-only, so its README row says "no": drop readme.changes.`,
      );
    }
    const changes = readOnlyHint ? "no" : (tool.readme.changes ?? "yes");
    const toolset = LISTED_FIRST.includes(tool.name) ? `${tool.toolset} (listed)` : tool.toolset;
    return `| \`${tool.name}\` | ${toolset} | ${cell(tool.readme.does)} | ${cell(changes)} |`;
  });
  return [
    "<!-- Written by `npm run generate:tools` from each tool's `readme`: edit those, not this table. -->",
    "",
    "| Tool | Toolset | Answers or does | Changes anything? |",
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

/** The README's prompt table: each prompt with its arguments, in the registry's order. */
function promptTable(all: readonly PromptDefinition[]): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const rows = all.map((prompt) => {
    const args = prompt.arguments
      .map((a) => `\`${a.name}\`${a.required ? " (required)" : ""}: ${a.description}`)
      .join("<br>");
    return `| \`${prompt.name}\` | **${cell(prompt.title)}.** ${cell(prompt.description)} | ${cell(args)} |`;
  });
  return [
    "<!-- Written by `npm run generate:tools` from src/prompts/: edit those, not this table. -->",
    "",
    "| Prompt | What it does | Arguments |",
    "|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

/** The README with `table` between the markers. */
function withTable(readme: string, table: string, [open, close] = [START, END]): string {
  const start = readme.indexOf(open);
  const end = readme.indexOf(close);
  if (start < 0 || end < start)
    throw new Error(`README.md has lost its ${open} … ${close} markers.`);
  return `${readme.slice(0, start + open.length)}\n${table}\n${readme.slice(end)}`;
}

/** manifest.json's tools: each name with the first line of its description (its summary). */
function manifestTools(all: readonly AnyTool[]): { name: string; description: string }[] {
  return all.map((tool) => ({
    name: tool.name,
    description: (tool.description.trim().split("\n")[0] ?? "").trim(),
  }));
}

describe("files written from the tool registry", () => {
  const readme = readFileSync(README, "utf8");
  const manifest = JSON.parse(readFileSync(MANIFEST, "utf8"));
  const expectedReadme = withTable(withTable(readme, readmeTable(tools)), promptTable(prompts), [
    "<!-- prompts:start -->",
    "<!-- prompts:end -->",
  ]);
  const expectedTools = manifestTools(tools);

  if (UPDATE) {
    it("are rewritten", () => {
      writeFileSync(README, expectedReadme);
      // Whole-file layout is biome's: the npm script formats manifest.json after this.
      writeFileSync(
        MANIFEST,
        `${JSON.stringify({ ...manifest, tools: expectedTools }, null, 2)}\n`,
      );
      expect(JSON.parse(readFileSync(MANIFEST, "utf8")).tools).toEqual(expectedTools);
    });
    return;
  }

  it("are up to date: the README's tool and prompt tables and manifest.json's tools", () => {
    const stale = [
      ...(readme === expectedReadme ? [] : ["README.md"]),
      ...(isDeepStrictEqual(manifest.tools, expectedTools) ? [] : ["manifest.json"]),
    ];
    expect(stale, HOW).toEqual([]);
  });
});
