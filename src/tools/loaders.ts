// Each tool's module, loaded on its first call: the bundle splits them into chunks of their own.
import type { AnyTool } from "./define-tool.js";

type Loader = () => Promise<AnyTool>;

// Keys are tool names; a test checks they match the registry and load the same definitions.
export const toolLoaders: Record<string, Loader> = {
  search_hires: () => import("./hires/search-hires.js").then((m) => m.searchHiresTool),
  get_hire: () => import("./hires/get-hire.js").then((m) => m.getHireTool),
  list_accounts: () => import("./accounts/list-accounts.js").then((m) => m.listAccountsTool),
  get_contract: () => import("./contracts/get-contract.js").then((m) => m.getContractTool),
  list_invoices: () => import("./invoices/list-invoices.js").then((m) => m.listInvoicesTool),
  submit_timesheets: () =>
    import("./timesheets/submit-timesheets.js").then((m) => m.submitTimesheetsTool),
  list_payment_requests: () =>
    import("./timesheets/list-payment-requests.js").then((m) => m.listPaymentRequestsTool),
  terminate_hire: () => import("./hires/terminate-hire.js").then((m) => m.terminateHireTool),
  create_draft_hire: () =>
    import("./hires/create-draft-hire.js").then((m) => m.createDraftHireTool),
  cancel_hire: () => import("./hires/cancel-hire.js").then((m) => m.cancelHireTool),
  review_hire_approval: () =>
    import("./hires/review-hire-approval.js").then((m) => m.reviewHireApprovalTool),
  search_talent_pool: () =>
    import("./talent/search-talent-pool.js").then((m) => m.searchTalentPoolTool),
  invite_to_talent_pool: () =>
    import("./talent/invite-to-talent-pool.js").then((m) => m.inviteToTalentPoolTool),
  list_jobs: () => import("./jobs/list-jobs.js").then((m) => m.listJobsTool),
  post_job: () => import("./jobs/post-job.js").then((m) => m.postJobTool),
  manage_candidate: () => import("./jobs/manage-candidate.js").then((m) => m.manageCandidateTool),
  describe_schema: () => import("./platform/describe-schema.js").then((m) => m.describeSchemaTool),
  query_platform: () => import("./platform/query-platform.js").then((m) => m.queryPlatformTool),
};
