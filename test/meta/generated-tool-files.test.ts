// The README's tool table and manifest.json's tools are written from the registry, never by hand.
// This test builds them in memory and fails when a committed file differs; with UPDATE_TOOL_FILES=1
// it writes them instead. Regenerate: npm run generate:tools
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { DEFAULT_TOOLSETS, OPT_IN_TOOLSETS } from "../../src/config/defaults.js";
import { TOOLSETS } from "../../src/config.js";
import type { AnyTool } from "../../src/tools/define-tool.js";
import { tools } from "../../src/tools/registry.js";

const README = join(process.cwd(), "README.md");
const MANIFEST = join(process.cwd(), "manifest.json");
const START = "<!-- tools:start -->";
const END = "<!-- tools:end -->";
const UPDATE = process.env.UPDATE_TOOL_FILES === "1";
const HOW = "Files written from the tool registry are stale: run `npm run generate:tools`.";

/**
 * The README's tool table: by toolset, as `--toolsets` lists them; in each, the tools that change
 * nothing first, otherwise in the registry's order. An opt-in toolset's tools say so.
 */
function readmeTable(all: readonly AnyTool[]): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const inToolset = (toolset: string) =>
    all
      .filter((tool) => tool.toolset === toolset)
      .sort((a, b) => Number(b.annotations.readOnlyHint) - Number(a.annotations.readOnlyHint));
  const rows = TOOLSETS.flatMap(inToolset).map((tool) => {
    const { readOnlyHint } = tool.annotations;
    if (readOnlyHint && tool.readme.changes !== undefined) {
      throw new Error(
        `${tool.name} is read-only, so its README row says "no": drop readme.changes.`,
      );
    }
    const changes = readOnlyHint ? "no" : (tool.readme.changes ?? "yes");
    const toolset = OPT_IN_TOOLSETS.includes(tool.toolset)
      ? `${tool.toolset} (opt-in)`
      : tool.toolset;
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

/** The README with `table` between the markers. */
function withTable(readme: string, table: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start)
    throw new Error(`README.md has lost its ${START} … ${END} markers.`);
  return `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`;
}

/**
 * manifest.json's tools: those a start with no settings serves (not the opt-in toolsets', which the
 * manifest's `toolsets` setting adds), each with the first line of its description (its summary).
 */
function manifestTools(all: readonly AnyTool[]): { name: string; description: string }[] {
  return all
    .filter((tool) => DEFAULT_TOOLSETS.includes(tool.toolset))
    .map((tool) => ({
      name: tool.name,
      description: (tool.description.trim().split("\n")[0] ?? "").trim(),
    }));
}

describe("files written from the tool registry", () => {
  const readme = readFileSync(README, "utf8");
  const manifest = JSON.parse(readFileSync(MANIFEST, "utf8"));
  const expectedReadme = withTable(readme, readmeTable(tools));
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

  it("are up to date: the README's tool table and manifest.json's tools", () => {
    const stale = [
      ...(readme === expectedReadme ? [] : ["README.md"]),
      ...(isDeepStrictEqual(manifest.tools, expectedTools) ? [] : ["manifest.json"]),
    ];
    expect(stale, HOW).toEqual([]);
  });
});
