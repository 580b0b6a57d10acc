// Written by `npm run generate:tools` (test/meta/generated-tool-files.test.ts): each change the
// platform's API offers as a mutation that a tool's operations send, and that tool.

/** Root mutation field → the tool that sends it. */
export const MUTATION_TOOLS: Readonly<Record<string, string>> = {
  createCustomTimesheet: "submit_timesheets",
  terminateHire: "terminate_hire",
  createDraftHire: "create_draft_hire",
  cancelHire: "cancel_hire",
  actionApprovalApprovable: "review_hire_approval",
  createTrustedContact: "invite_to_talent_pool",
  reinviteTrustedContact: "invite_to_talent_pool",
  createJob: "post_job",
  updateJob: "post_job",
  acceptBid: "manage_candidate",
  updateJobCandidateStatus: "manage_candidate",
  updateJobCandidateStep: "manage_candidate",
  createWebhook: "manage_webhooks",
  deleteWebhook: "manage_webhooks",
  retryWebhookEvent: "manage_webhooks",
  updatePaymentRequest: "update_payment_request",
  updateTrustedContact: "update_talent_contact",
};
