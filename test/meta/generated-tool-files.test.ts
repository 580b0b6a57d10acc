// The tool registry (src/tools/registry.generated.ts), found in the tool folders, and from it which
// tool makes which change (src/tools/platform/mutation-tools.generated.ts), the README's tool table
// (and its prompt table, from the prompts' registry) and manifest.json's tools and prompts are
// written, never by hand.
// This test builds them in memory and fails when a committed file differs; with UPDATE_TOOL_FILES=1
// it writes them instead. Regenerate: npm run generate:tools
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { DEFAULT_TOOLSETS } from "../../src/config/defaults.js";
import { TOOLSETS } from "../../src/config.js";
import type { PromptDefinition } from "../../src/prompts/define-prompt.js";
import { prompts } from "../../src/prompts/registry.js";
import { exposes } from "../../src/tools/catalog.js";
import type { AnyTool } from "../../src/tools/define-tool.js";
import { LISTED_FIRST } from "../../src/tools/reach.js";
import { committedText } from "../helpers/generated-file.js";
import { operationsOf, rootFields } from "../helpers/tool-operations.js";

const TOOLS_DIR = join(process.cwd(), "src", "tools");
const REGISTRY = join(TOOLS_DIR, "registry.generated.ts");
const MUTATION_TOOLS = join(TOOLS_DIR, "platform", "mutation-tools.generated.ts");
const README = join(process.cwd(), "README.md");
const MANIFEST = join(process.cwd(), "manifest.json");
const START = "<!-- tools:start -->";
const END = "<!-- tools:end -->";
const UPDATE = process.env.UPDATE_TOOL_FILES === "1";
const HOW = "Files written from the tool registry are stale: run `npm run generate:tools`.";

interface Found {
  tool: AnyTool;
  /** Its export name and its module, as the registry imports it. */
  exported: string;
  from: string;
}

function isTool(value: unknown): value is AnyTool {
  if (typeof value !== "object" || value === null) return false;
  const { name, toolset, handler, annotations } = value as Record<string, unknown>;
  return (
    typeof name === "string" &&
    typeof toolset === "string" &&
    typeof handler === "function" &&
    typeof annotations === "object"
  );
}

/**
 * Every tool exported by a module in a folder of src/tools/, in the committed registry's order (so
 * a line moved there stays moved); a tool not in it yet goes after the last of its toolset, or
 * before the discovery tools when it is the first of its toolset.
 */
async function findTools(committed: string): Promise<Found[]> {
  const found: Found[] = [];
  const folders = readdirSync(TOOLS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory());
  for (const folder of folders) {
    for (const file of readdirSync(join(TOOLS_DIR, folder.name)).filter((f) => f.endsWith(".ts"))) {
      const module = (await import(
        pathToFileURL(join(TOOLS_DIR, folder.name, file)).href
      )) as Record<string, unknown>;
      for (const [exported, value] of Object.entries(module)) {
        if (isTool(value))
          found.push({
            tool: value,
            exported,
            from: `./${folder.name}/${file.replace(/\.ts$/, ".js")}`,
          });
      }
    }
  }
  const order = [...committed.matchAll(/^ {2}(\w+),$/gm)].map((m) => m[1]);
  const ordered = order.flatMap((name) => found.filter((f) => f.exported === name));
  for (const f of found.filter((f) => !order.includes(f.exported))) {
    const same = ordered.findLastIndex((o) => o.tool.toolset === f.tool.toolset);
    const discovery = ordered.findIndex((o) => o.tool.toolset === "discovery");
    const at = same >= 0 ? same + 1 : discovery >= 0 ? discovery : ordered.length;
    ordered.splice(at, 0, f);
  }
  return ordered;
}

/** src/tools/registry.generated.ts: the found tools' imports (as biome orders them) and the list. */
function registrySource(found: readonly Found[]): string {
  const byModule = new Map<string, string[]>([["./define-tool.js", []]]);
  for (const f of found) byModule.set(f.from, [...(byModule.get(f.from) ?? []), f.exported]);
  const imports = [...byModule.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([from, names]) =>
      names.length === 0
        ? `import type { AnyTool } from "${from}";`
        : `import { ${[...names].sort().join(", ")} } from "${from}";`,
    );
  return [
    "// Written by `npm run generate:tools` from the tools exported in src/tools/<toolset>/",
    "// (test/meta/generated-tool-files.test.ts): a new tool goes after the last of its toolset. The",
    "// order is that of `tools/list` and the server instructions: move a line here to move a tool.",
    ...imports,
    "",
    "export const tools = [",
    ...found.map((f) => `  ${f.exported},`),
    "] satisfies readonly AnyTool[];",
    "",
  ].join("\n");
}

/**
 * src/tools/platform/mutation-tools.generated.ts: each change (a root mutation field) the tools'
 * operations make, and the tool that makes it, followed through each tool module's imports.
 */
function mutationToolsSource(found: readonly Found[]): string {
  const makers = new Map<string, string>();
  for (const f of found) {
    const file = join(TOOLS_DIR, f.from.replace(/\.js$/, ".ts"));
    for (const operation of operationsOf(file)) {
      if (operation.type !== "mutation") continue;
      for (const field of rootFields(operation)) {
        const other = makers.get(field);
        if (other !== undefined && other !== f.tool.name) {
          throw new Error(
            `${field} is sent by ${other} and ${f.tool.name}: one tool makes a change.`,
          );
        }
        makers.set(field, f.tool.name);
      }
    }
  }
  return [
    "// Written by `npm run generate:tools` (test/meta/generated-tool-files.test.ts): each change the",
    "// platform's API offers as a mutation that a tool's operations send, and that tool.",
    "",
    "/** Root mutation field → the tool that sends it. */",
    "export const MUTATION_TOOLS: Readonly<Record<string, string>> = {",
    ...[...makers].map(([field, tool]) => `  ${field}: "${tool}",`),
    "};",
    "",
  ].join("\n");
}

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

describe("files written from the tool registry", async () => {
  const registry = committedText(REGISTRY);
  const found = await findTools(registry);
  const tools = found.map((f) => f.tool);
  const expectedRegistry = registrySource(found);
  const mutationTools = committedText(MUTATION_TOOLS);
  const expectedMutationTools = mutationToolsSource(found);
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
      writeFileSync(REGISTRY, expectedRegistry);
      writeFileSync(MUTATION_TOOLS, expectedMutationTools);
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

  it("are up to date: the tool registry, which tool makes which change, the README's tool and prompt tables and manifest.json's tools and prompts", () => {
    const stale = [
      ...(registry === expectedRegistry ? [] : ["src/tools/registry.generated.ts"]),
      ...(mutationTools === expectedMutationTools
        ? []
        : ["src/tools/platform/mutation-tools.generated.ts"]),
      ...(readme === expectedReadme ? [] : ["README.md"]),
      ...(isDeepStrictEqual(manifest.tools, expectedTools) ? [] : ["manifest.json tools"]),
      ...(isDeepStrictEqual(manifest.prompts, expectedPrompts) ? [] : ["manifest.json prompts"]),
    ];
    expect(stale, HOW).toEqual([]);
  });
});
