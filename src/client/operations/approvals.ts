// Approval requests on hires, for list_hire_approvals and review_hire_approval: the ones awaiting
// action, one by id, and the decision. Today only hires are approvable (the `Approvable` union has
// Hire alone).
import type { ApprovalRequestQuery } from "../operation-types.generated.js";
import { PAGINATOR_INFO_FIELDS } from "../pagination.js";
import { mutation, query } from "./define.js";

/** A request with its approval, its states (oldest first: the request, then each decision) and the hire. */
export type ApprovalRequest = NonNullable<ApprovalRequestQuery["approvalApprovable"]>;

const APPROVAL_FIELDS = `
  id
  viewerCanAction
  approval {
    id
    name
    trigger
  }
  approvalStates {
    state
    message
    createdAt
    actionedBy {
      name
    }
    approver {
      userGroup {
        name
      }
    }
  }
  approvable {
    ... on Hire {
      id
      status
      startDate
      endDate
      currency
      rate
      rateType
      worker {
        id
        name
      }
      company {
        id
        name
      }
      latestContract {
        jobName
      }
    }
  }
`;

/** Requests still waiting for an approver, oldest first; `viewerCanAction` says whether for us. */
export const pendingApprovalsQuery = query(
  "PendingApprovals",
  /* GraphQL */ `
    query PendingApprovals($first: Int!) {
      approvalApprovables(
        requiresAction: true
        orderBy: [{ field: CREATED_AT, order: ASC }]
        first: $first
      ) {
        ${PAGINATOR_INFO_FIELDS}
        data {${APPROVAL_FIELDS}}
      }
    }
  `,
);

export const approvalRequestQuery = query(
  "ApprovalRequest",
  /* GraphQL */ `
    query ApprovalRequest($id: ID!) {
      approvalApprovable(id: $id) {${APPROVAL_FIELDS}}
    }
  `,
);

export const actionApprovalMutation = mutation(
  "ActionApproval",
  /* GraphQL */ `
    mutation ActionApproval($input: ActionApprovalApprovableInput!) {
      actionApprovalApprovable(input: $input) {${APPROVAL_FIELDS}}
    }
  `,
  // A decision is recorded once; a rejection cancels the hire. Never send it twice.
  "changes",
);
