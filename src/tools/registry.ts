import type { z } from "zod";
import type { Config } from "../config.js";
import type { ToolDefinition } from "./define-tool.js";
import { getContractTool } from "./get-contract.js";
import { listInvoicesTool } from "./list-invoices.js";
import { searchHiresTool } from "./search-hires.js";
import { submitTimesheetsTool } from "./submit-timesheets.js";
import { terminateHireTool } from "./terminate-hire.js";

/** Any tool, whatever its schemas; `handler` is a method, so specific tools are assignable. */
export type AnyToolDefinition = ToolDefinition<z.ZodRawShape, z.ZodRawShape>;

// Keys are the tool names the assistant sees (a test checks they equal each tool's `name`).
export const tools: Record<string, AnyToolDefinition> = {
  search_hires: searchHiresTool as unknown as AnyToolDefinition,
  get_contract: getContractTool as unknown as AnyToolDefinition,
  list_invoices: listInvoicesTool as unknown as AnyToolDefinition,
  submit_timesheets: submitTimesheetsTool as unknown as AnyToolDefinition,
  terminate_hire: terminateHireTool as unknown as AnyToolDefinition,
};

/**
 * The tools this configuration exposes: those of the chosen toolsets, and with `--read-only` only
 * those that change nothing.
 */
export function selectTools(
  config: Pick<Config, "readOnly" | "toolsets">,
  all: Record<string, AnyToolDefinition> = tools,
): AnyToolDefinition[] {
  return Object.values(all).filter(
    (tool) =>
      config.toolsets.includes(tool.toolset) && (!config.readOnly || tool.annotations.readOnlyHint),
  );
}
