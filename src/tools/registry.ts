import type { z } from "zod";
import type { Config } from "../config.js";
import { listAccountsTool } from "./accounts/list-accounts.js";
import { getContractTool } from "./contracts/get-contract.js";
import type { ToolDefinition } from "./define-tool.js";
import { getHireTool } from "./hires/get-hire.js";
import { searchHiresTool } from "./hires/search-hires.js";
import { terminateHireTool } from "./hires/terminate-hire.js";
import { listInvoicesTool } from "./invoices/list-invoices.js";
import { listJobsTool } from "./jobs/list-jobs.js";
import { describeSchemaTool } from "./platform/describe-schema.js";
import { queryPlatformTool } from "./platform/query-platform.js";
import { searchTalentPoolTool } from "./talent/search-talent-pool.js";
import { listPaymentRequestsTool } from "./timesheets/list-payment-requests.js";
import { submitTimesheetsTool } from "./timesheets/submit-timesheets.js";

/** Any tool, whatever its schemas; `handler` is a method, so specific tools are assignable. */
export type AnyToolDefinition = ToolDefinition<z.ZodRawShape, z.ZodRawShape>;

// Keys are the tool names the assistant sees (a test checks they equal each tool's `name`).
export const tools: Record<string, AnyToolDefinition> = {
  search_hires: searchHiresTool as unknown as AnyToolDefinition,
  get_hire: getHireTool as unknown as AnyToolDefinition,
  list_accounts: listAccountsTool as unknown as AnyToolDefinition,
  get_contract: getContractTool as unknown as AnyToolDefinition,
  list_invoices: listInvoicesTool as unknown as AnyToolDefinition,
  submit_timesheets: submitTimesheetsTool as unknown as AnyToolDefinition,
  list_payment_requests: listPaymentRequestsTool as unknown as AnyToolDefinition,
  terminate_hire: terminateHireTool as unknown as AnyToolDefinition,
  search_talent_pool: searchTalentPoolTool as unknown as AnyToolDefinition,
  list_jobs: listJobsTool as unknown as AnyToolDefinition,
  describe_schema: describeSchemaTool as unknown as AnyToolDefinition,
  query_platform: queryPlatformTool as unknown as AnyToolDefinition,
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
