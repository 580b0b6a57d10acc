// What the server needs to list tools and write its instructions, without loading any tool: the
// bundle embeds it, built from the registry at build time (scripts/bundle.mjs), so a start costs
// neither the tools' zod schemas nor their conversion to JSON Schema. Tools load on first call.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Config, Toolset } from "../config.js";
import type { AnyToolDefinition } from "./registry.js";
import { buildToolList } from "./tool-list.js";

export interface CatalogEntry {
  name: string;
  toolset: Toolset;
  readOnly: boolean;
  /** The tool's line of the server instructions. */
  instruction: string;
  /** Its `tools/list` entry, exactly as sent. */
  listEntry: Tool;
}

// Replaced by the bundle with the catalog built from the registry; absent when running from src.
declare const __WORKFORCE_TOOL_CATALOG__: CatalogEntry[] | undefined;

/** The catalog the bundle carries, or undefined when running unbundled (tests, tsc output). */
export function embeddedCatalog(): CatalogEntry[] | undefined {
  return typeof __WORKFORCE_TOOL_CATALOG__ === "undefined" ? undefined : __WORKFORCE_TOOL_CATALOG__;
}

/**
 * Every tool's entry: the bundle's own, or (running from the TypeScript output, as tests and the
 * bundler do) built from the registry, which loads every tool.
 */
export async function loadCatalog(): Promise<CatalogEntry[]> {
  const embedded = embeddedCatalog();
  if (embedded) return embedded;
  const { tools } = await import("./registry.js");
  return catalogOf(Object.values(tools));
}

/** Catalog entries of tool definitions already loaded. */
export function catalogOf(tools: readonly AnyToolDefinition[]): CatalogEntry[] {
  const listed = buildToolList(tools);
  return tools.map((tool, i) => ({
    name: tool.name,
    toolset: tool.toolset,
    readOnly: tool.annotations.readOnlyHint,
    instruction: tool.instruction,
    listEntry: listed[i] as Tool,
  }));
}

/** Whether this configuration exposes a tool: one of the chosen toolsets, and a read with --read-only. */
export function exposes(
  config: Pick<Config, "readOnly" | "toolsets">,
  tool: { toolset: Toolset; readOnly: boolean },
): boolean {
  return config.toolsets.includes(tool.toolset) && (!config.readOnly || tool.readOnly);
}

/** The entries this configuration exposes. */
export function selectEntries(
  entries: readonly CatalogEntry[],
  config: Pick<Config, "readOnly" | "toolsets">,
): CatalogEntry[] {
  return entries.filter((entry) => exposes(config, entry));
}
