import type { Config } from "../config.js";
import { exposes } from "./catalog.js";
import type { AnyTool } from "./define-tool.js";
import { tools } from "./registry.generated.js";

/** @deprecated Use AnyTool from define-tool.js; this name stays for test/helpers/mcp-harness.ts. */
export type AnyToolDefinition = AnyTool;

/**
 * Every tool, in the order `tools/list` gives them (those listed at first: src/tools/reach.ts): the
 * one list of tools, written by `npm run generate:tools` from the tools in src/tools/<toolset>/
 * (./registry.generated.ts). The catalog the bundle embeds is built from it, and the same command
 * writes the README's tool table and manifest.json's tools from it (docs/adding-tools.md).
 */
export { tools };

/**
 * The tools this configuration exposes: those of the chosen toolsets, and with `--read-only` only
 * those that change nothing.
 */
export function selectTools(
  config: Pick<Config, "readOnly" | "toolsets">,
  all: readonly AnyTool[] = tools,
): AnyTool[] {
  return all.filter((tool) =>
    exposes(config, { toolset: tool.toolset, readOnly: tool.annotations.readOnlyHint }),
  );
}
