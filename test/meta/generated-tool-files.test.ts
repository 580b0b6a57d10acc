// The README's tool table (and its prompt table, from the prompts' registry) and manifest.json's
// tools and prompts are written from the registries, never by hand.
// This test builds them in memory and fails when a committed file differs; with UPDATE_TOOL_FILES=1
// it writes them instead. Regenerate: npm run generate:tools
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { DEFAULT_TOOLSETS } from "../../src/config/defaults.js";
import { TOOLSETS } from "../../src/config.js";
import type { PromptDefinition } from "../../src/prompts/define-prompt.js";
import { prompts } from "../../src/prompts/registry.js";
import { exposes } from "../../src/tools/catalog.js";
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

/**
 * manifest.json's prompts: those a start with no settings offers (every tool each needs reached),
 * as the MCPB manifest describes a prompt. The server writes each message when it is asked for,
 * from the arguments and what the configuration reaches; `text` is the gist of that message as a
 * template, in mcpb's `${arguments.name}` form. The list itself is fixed: no `prompts_generated`.
 */
function manifestPrompts(all: readonly PromptDefinition[], allTools: readonly AnyTool[]) {
  const config = { toolsets: [...DEFAULT_TOOLSETS], readOnly: false };
  const reached = new Set(
    allTools
      .filter((tool) =>
        exposes(config, {
          toolset: tool.toolset,
          readOnly: tool.annotations.readOnlyHint === true,
        }),
      )
      .map((tool) => tool.name),
  );
  return all
    .filter((prompt) => prompt.needs.every((tool) => reached.has(tool)))
    .map((prompt) => {
      const names = prompt.arguments.map((a) => a.name);
      const given = names.map((name) => `${name}: \${arguments.${name}}`).join("; ");
      return {
        name: prompt.name,
        description: prompt.description,
        ...(names.length > 0 ? { arguments: names } : {}),
        text: `${prompt.title}${given ? ` (${given})` : ""}. ${prompt.description}`,
      };
    });
}

describe("files written from the tool registry", () => {
  const readme = readFileSync(README, "utf8");
  const manifest = JSON.parse(readFileSync(MANIFEST, "utf8"));
  const expectedReadme = withTable(withTable(readme, readmeTable(tools)), promptTable(prompts), [
    "<!-- prompts:start -->",
    "<!-- prompts:end -->",
  ]);
  const expectedTools = manifestTools(tools);
  const expectedPrompts = manifestPrompts(prompts, tools);

  if (UPDATE) {
    it("are rewritten", () => {
      writeFileSync(README, expectedReadme);
      // Whole-file layout is biome's: the npm script formats manifest.json after this.
      writeFileSync(
        MANIFEST,
        `${JSON.stringify({ ...manifest, tools: expectedTools, prompts: expectedPrompts }, null, 2)}\n`,
      );
      const written = JSON.parse(readFileSync(MANIFEST, "utf8"));
      expect([written.tools, written.prompts]).toEqual([expectedTools, expectedPrompts]);
    });
    return;
  }

  it("are up to date: the README's tool and prompt tables and manifest.json's tools and prompts", () => {
    const stale = [
      ...(readme === expectedReadme ? [] : ["README.md"]),
      ...(isDeepStrictEqual(manifest.tools, expectedTools) ? [] : ["manifest.json tools"]),
      ...(isDeepStrictEqual(manifest.prompts, expectedPrompts) ? [] : ["manifest.json prompts"]),
    ];
    expect(stale, HOW).toEqual([]);
  });
});
