// What the server needs to list tools and write its instructions, without loading any tool: the
// bundle embeds it, built from the registry at build time (scripts/bundle.mjs), so a start costs
// neither the tools' zod schemas nor their conversion to JSON Schema. Tools load on first call.
import type { Tool } from "@modelcontextprotocol/server";
import type { Config, Toolset } from "../config.js";

export interface CatalogEntry {
  name: string;
  toolset: Toolset | "discovery";
  readOnly: boolean;
  /** The tool's line of the server instructions. */
  instruction: string;
  /** Its `tools/list` entry, exactly as sent. */
  listEntry: Tool;
}

// Replaced by the bundle with the catalog built from the registry, as JSON text (V8 reads JSON
// faster than the same object written as code); absent when running from src.
declare const __WORKFORCE_TOOL_CATALOG__: string | undefined;

let embedded: CatalogEntry[] | undefined;

/** The catalog the bundle carries, or undefined when running unbundled (tests, tsc output). */
export function embeddedCatalog(): CatalogEntry[] | undefined {
  if (typeof __WORKFORCE_TOOL_CATALOG__ === "undefined") return undefined;
  embedded ??= JSON.parse(__WORKFORCE_TOOL_CATALOG__) as CatalogEntry[];
  return embedded;
}

/**
 * Every tool's entry: the bundle's own, or (running from the TypeScript output, as tests and the
 * bundler do) built from the registry, which loads every tool.
 */
export async function loadCatalog(): Promise<CatalogEntry[]> {
  const embedded = embeddedCatalog();
  if (embedded) return embedded;
  const [{ tools }, { catalogOf }] = await Promise.all([
    import("./registry.js"),
    import("./tool-list.js"),
  ]);
  return catalogOf(tools);
}

/** Whether this configuration exposes a tool: one of the chosen toolsets, and a read with --read-only. */
export function exposes(
  config: Pick<Config, "readOnly" | "toolsets">,
  tool: { toolset: Toolset | "discovery"; readOnly: boolean },
): boolean {
  const inForce = (config.toolsets as readonly string[]).includes(tool.toolset);
  return inForce && (!config.readOnly || tool.readOnly);
}
