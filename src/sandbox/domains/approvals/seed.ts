// Approval flows, their approver groups and the approval requests on hires. A few hires wait for
// a decision (Amara Okafor's at Nordlys among them); one was approved and one rejected before.
import { addDays } from "../../dates.js";
import { referenced } from "../../records.js";
import type { SandboxData } from "../../seed/index.js";

export type ApprovalStateName =
  | "UNKNOWN"
  | "REQUESTED"
  | "APPROVED"
  | "REJECTED"
  | "NEEDS_CHANGE"
  | "CANCELLED";
type ApprovalTriggerName = "NONE" | "HIRE_CREATED" | "HIRE_CHANGED" | "CLASSIFICATION_CREATED";

interface UserGroupRecord {
  id: string;
  name: string;
  description: string | null;
  companyId: string;
  /** Members: the users who may act for this group. */
  userIds: string[];
}
interface ApproverRecord {
  id: string;
  userGroupId: string;
  position: number;
}
interface ApprovalFlowRecord {
  id: string;
  name: string;
  status: "ACTIVE" | "INACTIVE" | "ARCHIVED";
  trigger: ApprovalTriggerName;
  description: string | null;
  companyId: string;
  /** One approver group per flow in the sandbox: the request waits for it alone. */
  approverId: string;
}
export interface ApprovalStateRecord {
  id: string;
  state: ApprovalStateName;
  actionedByUserId: string;
  message: string | null;
  cancellationReason: string | null;
  approverId: string;
  createdAt: string;
}
export interface ApprovalRequestRecord {
  id: string;
  approvalId: string;
  /** Rule ids are not served; kept so `approvalApprovables(approvalRules:)` can filter. */
  approvalRuleId: string;
  hireId: string;
  createdAt: string;
  /** Oldest first; the first is always REQUESTED. */
  states: ApprovalStateRecord[];
}
export interface ApprovalsData {
  groups: Map<string, UserGroupRecord>;
  approvers: Map<string, ApproverRecord>;
  flows: Map<string, ApprovalFlowRecord>;
  requests: Map<string, ApprovalRequestRecord>;
  counters: { state: number };
}

declare module "../../seed/types.js" {
  interface SandboxData {
    /** Set by the approvals domain's seed. */
    approvals?: ApprovalsData;
  }
}

export function approvalsOf(data: SandboxData): ApprovalsData {
  if (!data.approvals) throw new Error("The approvals domain has not been seeded.");
  return data.approvals;
}

/** What tests and examples refer to. */
export const APPROVAL_FIXTURES = {
  /** Amara Okafor's READY hire at Nordlys, waiting for Maja's group. */
  amara: { request: "apr_001", hire: "hire_005" },
  /** Nadia Haddad's READY hire at Harbor Pine, waiting for Maja's group there. */
  nadia: { request: "apr_003", hire: "hire_022" },
  /** Fatima Al-Sayed's draft at Castell: waits for a group Maja is not in. */
  fatima: { request: "apr_004", hire: "hire_009" },
  /** Decided before: approved (Beatriz Santos) and rejected (Elena Popescu). */
  approved: { request: "apr_005", hire: "hire_048" },
  rejected: { request: "apr_006", hire: "hire_018" },
} as const;

/** "2026-11-06" → "2026-11-06T09:00:00.000000Z", the platform's DateTime format. */
export const dateTime = (date: string, time = "09:00:00") => `${date}T${time}.000000Z`;

interface RequestSpec {
  id: string;
  hire: string;
  flow: string;
  requestedBy: string;
  decided?: { state: "APPROVED" | "REJECTED"; by: string; message: string | null; after: number };
}

export function seedApprovals(data: SandboxData, rand: () => number): void {
  const approvals: ApprovalsData = {
    groups: new Map(),
    approvers: new Map(),
    flows: new Map(),
    requests: new Map(),
    counters: { state: 0 },
  };
  data.approvals = approvals;

  const groups: UserGroupRecord[] = [
    {
      id: "grp_001",
      name: "Nordlys hiring approvers",
      description: "Approve new hires above the team's rate budget.",
      companyId: "cmp_nordlys",
      userIds: ["usr_001", "usr_004"],
    },
    {
      id: "grp_002",
      name: "Harbor Pine finance",
      description: null,
      companyId: "cmp_harbor",
      userIds: ["usr_001", "usr_005"],
    },
    {
      id: "grp_003",
      name: "Castell legal",
      description: "Signs off every new engagement.",
      companyId: "cmp_castell",
      userIds: ["usr_007"],
    },
  ];
  for (const g of groups) approvals.groups.set(g.id, g);
  groups.forEach((g, i) => {
    const id = `apv_00${i + 1}`;
    approvals.approvers.set(id, { id, userGroupId: g.id, position: 1 });
  });

  const flows: ApprovalFlowRecord[] = [
    {
      id: "apf_001",
      name: "Rate above budget",
      status: "ACTIVE",
      trigger: "HIRE_CREATED",
      description: "New hires above the team's rate budget need sign-off.",
      companyId: "cmp_nordlys",
      approverId: "apv_001",
    },
    {
      id: "apf_002",
      name: "New hire sign-off",
      status: "ACTIVE",
      trigger: "HIRE_CREATED",
      description: null,
      companyId: "cmp_harbor",
      approverId: "apv_002",
    },
    {
      id: "apf_003",
      name: "Legal review of new engagements",
      status: "ACTIVE",
      trigger: "HIRE_CREATED",
      description: null,
      companyId: "cmp_castell",
      approverId: "apv_003",
    },
  ];
  for (const f of flows) approvals.flows.set(f.id, f);

  const specs: RequestSpec[] = [
    { id: "apr_001", hire: "hire_005", flow: "apf_001", requestedBy: "usr_003" },
    { id: "apr_002", hire: "hire_036", flow: "apf_001", requestedBy: "usr_004" },
    { id: "apr_003", hire: "hire_022", flow: "apf_002", requestedBy: "usr_005" },
    { id: "apr_004", hire: "hire_009", flow: "apf_003", requestedBy: "usr_008" },
    {
      id: "apr_005",
      hire: "hire_048",
      flow: "apf_001",
      requestedBy: "usr_003",
      decided: { state: "APPROVED", by: "usr_001", message: null, after: 0 },
    },
    {
      id: "apr_006",
      hire: "hire_018",
      flow: "apf_001",
      requestedBy: "usr_004",
      decided: {
        state: "REJECTED",
        by: "usr_001",
        message: "The budget for this role moved to next quarter.",
        after: 2,
      },
    },
  ];
  const nextStateId = () => {
    approvals.counters.state += 1;
    return `aps_${String(approvals.counters.state).padStart(3, "0")}`;
  };
  for (const spec of specs) {
    const hire = data.hires.get(spec.hire);
    const flow = referenced(approvals.flows, spec.flow);
    if (!hire || hire.companyId !== flow.companyId) {
      throw new Error(`Approvals seed: ${spec.hire} is not a hire of ${flow.companyId}`);
    }
    const minutes = 8 * 60 + Math.floor(rand() * 9 * 60);
    const time = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}:00`;
    const createdAt = dateTime(hire.createdAt, time);
    const states: ApprovalStateRecord[] = [
      {
        id: nextStateId(),
        state: "REQUESTED",
        actionedByUserId: spec.requestedBy,
        message: null,
        cancellationReason: null,
        approverId: flow.approverId,
        createdAt,
      },
    ];
    if (spec.decided) {
      const on = addDays(hire.createdAt, spec.decided.after);
      states.push({
        id: nextStateId(),
        state: spec.decided.state,
        actionedByUserId: spec.decided.by,
        message: spec.decided.message,
        cancellationReason: null,
        approverId: flow.approverId,
        createdAt: dateTime(on > data.today ? data.today : on, "16:30:00"),
      });
    }
    approvals.requests.set(spec.id, {
      id: spec.id,
      approvalId: flow.id,
      approvalRuleId: `apl_${flow.id.slice(4)}`,
      hireId: hire.id,
      createdAt,
      states,
    });
  }
}
