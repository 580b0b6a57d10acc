import type { Config } from "../config.js";
import { listAccountsTool } from "./accounts/list-accounts.js";
import { exposes } from "./catalog.js";
import { getContractTool } from "./contracts/get-contract.js";
import type { AnyTool } from "./define-tool.js";
import { findToolsTool } from "./discovery/find-tools.js";
import { runReadToolTool, runWriteToolTool } from "./discovery/run-tool.js";
import { cancelHireTool } from "./hires/cancel-hire.js";
import { createDraftHireTool } from "./hires/create-draft-hire.js";
import { getHireTool } from "./hires/get-hire.js";
import { listHireApprovalsTool } from "./hires/list-hire-approvals.js";
import { reviewHireApprovalTool } from "./hires/review-hire-approval.js";
import { searchHiresTool } from "./hires/search-hires.js";
import { terminateHireTool } from "./hires/terminate-hire.js";
import { listInvoicesTool } from "./invoices/list-invoices.js";
import { listJobsTool } from "./jobs/list-jobs.js";
import { manageCandidateTool } from "./jobs/manage-candidate.js";
import { postJobTool } from "./jobs/post-job.js";
import { listChangesTool } from "./live/list-changes.js";
import { listWebhooksTool } from "./live/list-webhooks.js";
import { manageWebhooksTool } from "./live/manage-webhooks.js";
import { describeSchemaTool } from "./platform/describe-schema.js";
import { queryPlatformTool } from "./platform/query-platform.js";
import { updatePaymentRequestTool } from "./records/update-payment-request.js";
import { updateTalentContactTool } from "./records/update-talent-contact.js";
import { inviteToTalentPoolTool } from "./talent/invite-to-talent-pool.js";
import { searchTalentPoolTool } from "./talent/search-talent-pool.js";
import { listPaymentRequestsTool } from "./timesheets/list-payment-requests.js";
import { submitTimesheetsTool } from "./timesheets/submit-timesheets.js";

/** @deprecated Use AnyTool from define-tool.js; this name stays for test/helpers/mcp-harness.ts. */
export type AnyToolDefinition = AnyTool;

/**
 * Every tool, in the order `tools/list` gives them (those listed at first: src/tools/reach.ts): the
 * one list of tools. The catalog the bundle
 * embeds is built from it, and `npm run generate:tools` writes the README's tool table and
 * manifest.json's tools from it (docs/adding-tools.md).
 */
export const tools = [
  searchHiresTool,
  getHireTool,
  listAccountsTool,
  getContractTool,
  listInvoicesTool,
  submitTimesheetsTool,
  listPaymentRequestsTool,
  terminateHireTool,
  createDraftHireTool,
  cancelHireTool,
  listHireApprovalsTool,
  reviewHireApprovalTool,
  searchTalentPoolTool,
  inviteToTalentPoolTool,
  listJobsTool,
  postJobTool,
  manageCandidateTool,
  describeSchemaTool,
  queryPlatformTool,
  listChangesTool,
  listWebhooksTool,
  manageWebhooksTool,
  updatePaymentRequestTool,
  updateTalentContactTool,
  findToolsTool,
  runReadToolTool,
  runWriteToolTool,
] satisfies readonly AnyTool[];

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
