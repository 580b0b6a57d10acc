// Approval requests on hires: the flows that ask for them, who may decide them, what was decided.
// Names, arguments and types as in the platform's schema; today only hires are approvable.
export const approvalsTypeDefs = /* GraphQL */ `
"The state of an approval request or an action taken by an approver."
enum ApprovalApprovableState {
  UNKNOWN
  "The approval has been requested and is waiting for an approver to act. The item (e.g. hire) is blocked until reviewed."
  REQUESTED
  "The approver has approved the request. If all approvers in the sequence have approved, the item proceeds."
  APPROVED
  "The approver has rejected the request. For hires, this results in the hire being cancelled."
  REJECTED
  NEEDS_CHANGE
  CANCELLED
}

enum ApprovalCancellationReason {
  HIRE_ENDED
  HIRE_CANCELLED
  JOB_CLOSED
  APPROVAL_REJECTED
  CLASSIFICATION_RETRIGGERED
  WORKFLOW_RETRIGGERED
  APPROVABLE_REMOVED
}

enum ApprovalStatus {
  ACTIVE
  INACTIVE
  ARCHIVED
}

enum ApprovalTrigger {
  NONE
  HIRE_CREATED
  HIRE_CHANGED
  CLASSIFICATION_CREATED
}

enum ApprovalApprovableOrderByColumn {
  CREATED_AT
}

"An approval flow: the event that triggers it and who must approve."
type Approval {
  id: ID!
  name: String!
  status: ApprovalStatus!
  trigger: ApprovalTrigger!
  description: String
  company: Company!
}

"A named group of company team members; approvers are user groups."
type UserGroup {
  id: ID!
  name: String!
  description: String
  company: Company!
}

type Approver {
  id: ID!
  userGroup: UserGroup!
  position: Int!
}

"A recorded action on an approval request."
type ApprovalState {
  id: ID!
  state: ApprovalApprovableState!
  actionedBy: User!
  message: String
  cancellationReason: ApprovalCancellationReason
  approver: Approver!
  approvalApprovable: ApprovalApprovable!
  createdAt: DateTime
}

union Approvable = Hire

"An approval request: a hire waiting for its approvers."
type ApprovalApprovable {
  id: ID!
  approval: Approval!
  "The history of actions taken on this request, in chronological order."
  approvalStates: [ApprovalState!]!
  approvable: Approvable
  "Whether the authenticated user can take action on this approval request."
  viewerCanAction: Boolean!
}

type ApprovalApprovablePaginator {
  paginatorInfo: PaginatorInfo!
  data: [ApprovalApprovable!]!
}

input ApprovalApprovablesOrderByClauseInput {
  field: ApprovalApprovableOrderByColumn
  order: SortOrder
}

"The input for taking action on an approval request."
input ActionApprovalApprovableInput {
  id: ID!
  "The action to take: APPROVED, REJECTED, or NEEDS_CHANGE."
  status: ApprovalApprovableState
  "An optional message explaining the decision (required when rejecting or requesting changes)."
  reason: String
}

extend type Hire {
  "The overall state for approvals on the hire with a given trigger."
  currentApprovalState(trigger: ApprovalTrigger): ApprovalState
  "Whether the hire has any pending approval request across all triggers."
  hasPendingApproval: Boolean!
}

extend type Query {
  approvalApprovable(id: ID!): ApprovalApprovable
  approvalApprovables(
    accounts: [ID!]
    "When true, only approval requests that still need action from any approver."
    requiresAction: Boolean
    requiresActionUsers: [ID!]
    approvals: [ID!]
    approvable: ID
    approvalRules: [ID!]
    orderBy: [ApprovalApprovablesOrderByClauseInput!]
    first: Int! = 10
    page: Int
  ): ApprovalApprovablePaginator!
}

extend type Mutation {
  "Take action on a pending approval request: approve, reject, or request changes."
  actionApprovalApprovable(input: ActionApprovalApprovableInput!): ApprovalApprovable
}
`;
