// Written by `npm run generate:tools` from the tools exported in src/tools/<toolset>/
// (test/meta/generated-tool-files.test.ts): a new tool goes after the last of its toolset. The
// order is that of `tools/list` and the server instructions: move a line here to move a tool.
import { listAccountsTool } from "./accounts/list-accounts.js";
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
