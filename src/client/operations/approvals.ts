// Approval requests on hires, for review_hire_approval: the ones awaiting action, one by id, and
// the decision. Today only hires are approvable (the `Approvable` union has Hire alone).
import { mutation, query } from "../operations.js";
import { PAGINATOR_INFO_FIELDS, type PaginatorInfo } from "../pagination.js";

export interface ApprovalStateView {
  state: string;
  message: string | null;
  createdAt: string | null;
  actionedBy: { name: string };
  approver: { userGroup: { name: string } };
}

export interface ApprovalHire {
  id: string;
  status: string;
  startDate: string | null;
  endDate: string | null;
  currency: string;
  /** Null when hidden from this caller (restricted) or unset. */
  rate: number | null;
  rateType: string | null;
  worker: { id: string; name: string };
  company: { id: string; name: string };
  latestContract: { jobName: string };
}

export interface ApprovalRequest {
  id: string;
  viewerCanAction: boolean;
  approval: { id: string; name: string; trigger: string };
  /** Oldest first: the request, then each decision. */
  approvalStates: ApprovalStateView[];
  /** Null when the item is not a hire or not visible. */
  approvable: ApprovalHire | null;
}

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

export interface PendingApprovalsData {
  approvalApprovables: { paginatorInfo: PaginatorInfo; data: ApprovalRequest[] };
}

/** Requests still waiting for an approver, oldest first; `viewerCanAction` says whether for us. */
export const pendingApprovalsQuery = query<PendingApprovalsData, { first: number }>(
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

export interface ApprovalRequestData {
  approvalApprovable: ApprovalRequest | null;
}

export const approvalRequestQuery = query<ApprovalRequestData, { id: string }>(
  "ApprovalRequest",
  /* GraphQL */ `
    query ApprovalRequest($id: ID!) {
      approvalApprovable(id: $id) {${APPROVAL_FIELDS}}
    }
  `,
);

export interface ActionApprovalData {
  actionApprovalApprovable: ApprovalRequest | null;
}

export interface ActionApprovalVariables extends Record<string, unknown> {
  input: { id: string; status: "APPROVED" | "REJECTED"; reason?: string };
}

export const actionApprovalMutation = mutation<ActionApprovalData, ActionApprovalVariables>(
  "ActionApproval",
  /* GraphQL */ `
    mutation ActionApproval($input: ActionApprovalApprovableInput!) {
      actionApprovalApprovable(input: $input) {${APPROVAL_FIELDS}}
    }
  `,
  // A decision is recorded once; a rejection cancels the hire. Never send it twice.
  false,
);

export const approvalOperations = {
  pendingApprovalsQuery,
  approvalRequestQuery,
  actionApprovalMutation,
};
