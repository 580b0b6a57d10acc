import type * as z from "zod";
import type { Config } from "../config.js";
import { listAccountsTool } from "./accounts/list-accounts.js";
import { exposes } from "./catalog.js";
import { getContractTool } from "./contracts/get-contract.js";
import type { ToolDefinition } from "./define-tool.js";
import { cancelHireTool } from "./hires/cancel-hire.js";
import { createDraftHireTool } from "./hires/create-draft-hire.js";
import { getHireTool } from "./hires/get-hire.js";
import { reviewHireApprovalTool } from "./hires/review-hire-approval.js";
import { searchHiresTool } from "./hires/search-hires.js";
import { terminateHireTool } from "./hires/terminate-hire.js";
import { listInvoicesTool } from "./invoices/list-invoices.js";
import { listJobsTool } from "./jobs/list-jobs.js";
import { manageCandidateTool } from "./jobs/manage-candidate.js";
import { postJobTool } from "./jobs/post-job.js";
import { describeSchemaTool } from "./platform/describe-schema.js";
import { queryPlatformTool } from "./platform/query-platform.js";
import { inviteToTalentPoolTool } from "./talent/invite-to-talent-pool.js";
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
  create_draft_hire: createDraftHireTool as unknown as AnyToolDefinition,
  cancel_hire: cancelHireTool as unknown as AnyToolDefinition,
  review_hire_approval: reviewHireApprovalTool as unknown as AnyToolDefinition,
  search_talent_pool: searchTalentPoolTool as unknown as AnyToolDefinition,
  invite_to_talent_pool: inviteToTalentPoolTool as unknown as AnyToolDefinition,
  list_jobs: listJobsTool as unknown as AnyToolDefinition,
  post_job: postJobTool as unknown as AnyToolDefinition,
  manage_candidate: manageCandidateTool as unknown as AnyToolDefinition,
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
  return Object.values(all).filter((tool) =>
    exposes(config, { toolset: tool.toolset, readOnly: tool.annotations.readOnlyHint }),
  );
}
