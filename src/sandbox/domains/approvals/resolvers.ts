// Approval requests on hires, scoped like the core: a caller sees the requests of its companies and
// may decide one only as a member of the approver group it waits for. Rejecting a request raised
// by a new hire cancels that hire, as the platform's schema says.

import type { AnyRecord, RequestContext, ResolverMap } from "../../context.js";
import { withArgs } from "../../context.js";
import { authorizationError, ValidationCollector } from "../../errors.js";
import { companyOf, listFilter, orderOf, PRE_START, paginate, sortBy } from "../../kit.js";
import { itemAt, referenced } from "../../records.js";
import type {
  ActionApprovalApprovableInput,
  ApprovalApprovableState,
  HireCurrentApprovalStateArgs,
  MutationActionApprovalApprovableArgs,
  QueryApprovalApprovableArgs,
  QueryApprovalApprovablesArgs,
} from "../../resolver-types.generated.js";
import type { HireRecord } from "../../seed/index.js";
import { hireDetailsOf } from "../hire-details/seed.js";
import {
  type ApprovalRequestRecord,
  type ApprovalStateName,
  type ApprovalStateRecord,
  approvalsOf,
  dateTime,
} from "./seed.js";

/** A state as served: the record plus the request it belongs to. */
type ServedState = ApprovalStateRecord & { requestId: string };

const flowOf = (ctx: RequestContext, r: ApprovalRequestRecord) =>
  referenced(approvalsOf(ctx.data).flows, r.approvalId);
const hireOf = (ctx: RequestContext, r: ApprovalRequestRecord) =>
  referenced(ctx.data.hires, r.hireId);
const visible = (ctx: RequestContext, r: ApprovalRequestRecord) =>
  ctx.identity.companyIds.has(flowOf(ctx, r).companyId);

const PENDING: ReadonlySet<ApprovalStateName> = new Set(["REQUESTED", "NEEDS_CHANGE"]);

/**
 * The request's history as the platform would tell it: a pending request whose hire was cancelled
 * or ended since is cancelled automatically (whoever cancelled the hire, by whatever mutation).
 */
function statesOf(ctx: RequestContext, r: ApprovalRequestRecord): ServedState[] {
  const states: ServedState[] = r.states.map((s) => ({ ...s, requestId: r.id }));
  const last = itemAt(states, -1);
  const hire = hireOf(ctx, r);
  if (PENDING.has(last.state) && !PRE_START.has(hire.status) && hire.status !== "ACTIVE") {
    states.push({
      ...last,
      id: `${last.id}-c`,
      state: "CANCELLED",
      message: null,
      cancellationReason: hire.status === "CANCELLED" ? "HIRE_CANCELLED" : "HIRE_ENDED",
      createdAt: "",
    });
  }
  return states;
}

const currentState = (ctx: RequestContext, r: ApprovalRequestRecord) =>
  itemAt(statesOf(ctx, r), -1).state;

/** Members of the group the request waits for (the sandbox's flows have one approver each). */
function approverMembers(ctx: RequestContext, r: ApprovalRequestRecord): string[] {
  const data = approvalsOf(ctx.data);
  const approver = data.approvers.get(flowOf(ctx, r).approverId);
  return approver ? (data.groups.get(approver.userGroupId)?.userIds ?? []) : [];
}

const viewerCanAction = (ctx: RequestContext, r: ApprovalRequestRecord) =>
  visible(ctx, r) &&
  currentState(ctx, r) === "REQUESTED" &&
  approverMembers(ctx, r).includes(ctx.identity.user.id);

function approvalApprovablesQuery(
  ctx: RequestContext,
  args: QueryApprovalApprovablesArgs,
  field: string,
) {
  const accounts = listFilter(args.accounts);
  const users = listFilter(args.requiresActionUsers);
  const flows = listFilter(args.approvals);
  const rules = listFilter(args.approvalRules);
  const approvable = args.approvable ?? null;
  const requests = [...approvalsOf(ctx.data).requests.values()].filter((r) => {
    if (!visible(ctx, r)) return false;
    if (accounts && !accounts.has(flowOf(ctx, r).companyId)) return false;
    if (flows && !flows.has(r.approvalId)) return false;
    if (rules && !rules.has(r.approvalRuleId)) return false;
    if (approvable && r.hireId !== approvable) return false;
    if (args.requiresAction === true && currentState(ctx, r) !== "REQUESTED") return false;
    if (users) {
      if (currentState(ctx, r) !== "REQUESTED") return false;
      if (!approverMembers(ctx, r).some((id) => users.has(id))) return false;
    }
    return true;
  });
  const clauses = orderOf(args.orderBy, (c) => c.field)
    .filter(({ by }) => by === "CREATED_AT")
    .map(({ desc }) => ({ key: (r: ApprovalRequestRecord) => r.createdAt, desc }));
  return paginate(sortBy(requests, clauses), args, field);
}

type Decision = Extract<ApprovalStateName, "APPROVED" | "REJECTED" | "NEEDS_CHANGE">;
const DECISIONS: ReadonlySet<string> = new Set<Decision>(["APPROVED", "REJECTED", "NEEDS_CHANGE"]);
// The schema's state enum also holds UNKNOWN and REQUESTED, which are not decisions.
const isDecision = (value: ApprovalApprovableState | null | undefined): value is Decision =>
  value !== null && value !== undefined && DECISIONS.has(value);

function actionApprovalApprovable(
  ctx: RequestContext,
  input: ActionApprovalApprovableInput,
  field: string,
) {
  const v = new ValidationCollector();
  const request = approvalsOf(ctx.data).requests.get(input.id);
  if (!request) v.add("input.id", "The selected input.id is invalid.");
  else if (!visible(ctx, request)) throw authorizationError();
  const status = isDecision(input.status) ? input.status : null;
  if (!status) {
    v.add("input.status", "The input.status must be one of APPROVED, REJECTED or NEEDS_CHANGE.");
  }
  const reason = typeof input.reason === "string" ? input.reason.trim() : "";
  if ((status === "REJECTED" || status === "NEEDS_CHANGE") && reason === "") {
    v.add(
      "input.reason",
      "The input.reason field is required when rejecting or requesting changes.",
    );
  }
  if (request) {
    const now = currentState(ctx, request);
    if (now !== "REQUESTED") {
      v.add("input.id", `This approval request is not awaiting action; it is ${now}.`);
    } else if (!approverMembers(ctx, request).includes(ctx.identity.user.id)) {
      // Awaiting someone else's decision: not this caller's to take.
      throw authorizationError();
    }
  }
  const r = v.passed(field, request);
  const decision = v.passed(field, status);
  const data = approvalsOf(ctx.data);
  data.counters.state += 1;
  r.states.push({
    id: `aps_${String(data.counters.state).padStart(3, "0")}`,
    state: decision,
    actionedByUserId: ctx.identity.user.id,
    message: reason === "" ? null : reason,
    cancellationReason: null,
    approverId: flowOf(ctx, r).approverId,
    createdAt: dateTime(ctx.data.today, new Date().toISOString().slice(11, 19)),
  });
  // "For hires, this results in the hire being cancelled" (a new hire's request); approving lets
  // the hire proceed as it was (a ready hire starts on its start date).
  const hire = hireOf(ctx, r);
  if (status === "REJECTED" && flowOf(ctx, r).trigger === "HIRE_CREATED") {
    if (PRE_START.has(hire.status)) {
      hire.status = "CANCELLED";
      ctx.events.hire("HIRE_CANCELLED", hire.id);
    }
  }
  return r;
}

function user(ctx: RequestContext, id: string) {
  const found = hireDetailsOf(ctx.data).users.get(id);
  if (!found) throw new Error(`Approvals: no user ${id}`);
  return found;
}

function hireRequests(ctx: RequestContext, hire: HireRecord): ApprovalRequestRecord[] {
  return [...approvalsOf(ctx.data).requests.values()].filter((r) => r.hireId === hire.id);
}

export const approvalsResolvers: ResolverMap = {
  Query: {
    approvalApprovable: withArgs<QueryApprovalApprovableArgs>((_p, { id }, ctx) => {
      const request = approvalsOf(ctx.data).requests.get(id);
      if (!request) return null;
      if (!visible(ctx, request)) throw authorizationError();
      return request;
    }),
    approvalApprovables: withArgs<QueryApprovalApprovablesArgs>((_p, args, ctx, info) =>
      approvalApprovablesQuery(ctx, args, info.fieldName),
    ),
  },
  Mutation: {
    actionApprovalApprovable: withArgs<MutationActionApprovalApprovableArgs>(
      (_p, { input }, ctx, info) => actionApprovalApprovable(ctx, input, info.fieldName),
    ),
  },
  ApprovalApprovable: {
    approval: (r: AnyRecord, _a, ctx) => flowOf(ctx, r),
    approvalStates: (r: AnyRecord, _a, ctx) => statesOf(ctx, r),
    // The union needs the concrete type; a copy of the hire record carries it.
    approvable: (r: AnyRecord, _a, ctx) => ({ __typename: "Hire", ...hireOf(ctx, r) }),
    viewerCanAction: (r: AnyRecord, _a, ctx) => viewerCanAction(ctx, r),
  },
  ApprovalState: {
    actionedBy: (s: AnyRecord, _a, ctx) => user(ctx, s.actionedByUserId),
    approver: (s: AnyRecord, _a, ctx) => approvalsOf(ctx.data).approvers.get(s.approverId),
    approvalApprovable: (s: AnyRecord, _a, ctx) => approvalsOf(ctx.data).requests.get(s.requestId),
    createdAt: (s: AnyRecord) => (s.createdAt === "" ? null : s.createdAt),
  },
  Approver: {
    userGroup: (a: AnyRecord, _a, ctx) => approvalsOf(ctx.data).groups.get(a.userGroupId),
  },
  UserGroup: {
    company: (g: AnyRecord, _a, ctx) => companyOf(ctx, g.companyId),
  },
  Approval: {
    company: (f: AnyRecord, _a, ctx) => companyOf(ctx, f.companyId),
  },
  Hire: {
    currentApprovalState: withArgs<HireCurrentApprovalStateArgs>((h: AnyRecord, args, ctx) => {
      const trigger = args.trigger ?? null;
      const requests = hireRequests(ctx, h).filter(
        (r) => trigger === null || flowOf(ctx, r).trigger === trigger,
      );
      const latest = requests.sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1)).at(-1);
      return latest ? (statesOf(ctx, latest).at(-1) ?? null) : null;
    }),
    hasPendingApproval: (h: AnyRecord, _a, ctx) =>
      hireRequests(ctx, h).some((r) => PENDING.has(currentState(ctx, r))),
  },
};
