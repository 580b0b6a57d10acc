// Approval requests on hires in the sandbox: who sees them, who may decide them, and what a
// decision does to the hire.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { APPROVAL_FIXTURES } from "../../src/sandbox/domains/approvals/seed.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type GqlResponse, gql, onlyError, TODAY } from "./helpers.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ today: TODAY, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.reset();
});

interface Request {
  id: string;
  viewerCanAction: boolean;
  approval: { id: string; name: string; trigger: string; company: { id: string } };
  approvalStates: {
    state: string;
    message: string | null;
    cancellationReason: string | null;
    createdAt: string | null;
    actionedBy: { id: string; name: string };
    approver: { position: number; userGroup: { name: string } };
    approvalApprovable: { id: string };
  }[];
  approvable: { __typename: string; id: string; status: string } | null;
}

const FIELDS = `id viewerCanAction
  approval { id name trigger company { id } }
  approvalStates { state message cancellationReason createdAt actionedBy { id name }
    approver { position userGroup { name } } approvalApprovable { id } }
  approvable { __typename ... on Hire { id status } }`;

async function list(args: string, token: "full" | "limited" = "full") {
  const r = await gql<{
    approvalApprovables: { paginatorInfo: { total: number }; data: Request[] };
  }>(sandbox, `{ approvalApprovables(${args}) { paginatorInfo { total } data { ${FIELDS} } } }`, {
    token,
  });
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data?.approvalApprovables.data ?? [];
}

const one = (id: string, token: "full" | "limited" = "full") =>
  gql<{ approvalApprovable: Request | null }>(
    sandbox,
    `query ($id: ID!) { approvalApprovable(id: $id) { ${FIELDS} } }`,
    { variables: { id }, token },
  );

const decide = (input: Record<string, unknown>, token: "full" | "limited" = "full") =>
  gql<{ actionApprovalApprovable: Request | null }>(
    sandbox,
    `mutation ($input: ActionApprovalApprovableInput!) { actionApprovalApprovable(input: $input) { ${FIELDS} } }`,
    { variables: { input }, token },
  );

async function hire(id: string) {
  const r = await gql<{
    hire: {
      status: string;
      hasPendingApproval: boolean;
      currentApprovalState: { state: string } | null;
    };
  }>(
    sandbox,
    `query ($id: ID!) { hire(id: $id) { status hasPendingApproval currentApprovalState(trigger: HIRE_CREATED) { state } } }`,
    { variables: { id } },
  );
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data?.hire;
}

function expectValidation(r: GqlResponse<unknown>, keys: string[]) {
  const e = onlyError(r);
  expect(e.message).toBe("Validation failed for the field [actionApprovalApprovable].");
  expect(Object.keys(e.extensions.validation ?? {}).sort()).toEqual([...keys].sort());
}

function expectUnauthorized(r: GqlResponse<unknown>) {
  const e = onlyError(r);
  expect(e.message).toBe("You are not authorized to perform this action.");
  expect(e.extensions.validation).toBeUndefined();
}

const { amara, nadia, fatima, approved, rejected } = APPROVAL_FIXTURES;

describe("approvalApprovables", () => {
  it("lists the requests still waiting, and says which the caller may decide", async () => {
    const waiting = await list(
      "requiresAction: true, orderBy: [{ field: CREATED_AT, order: ASC }]",
    );
    expect(waiting.map((r) => r.id).sort()).toEqual(
      [amara.request, "apr_002", nadia.request, fatima.request].sort(),
    );
    const byId = new Map(waiting.map((r) => [r.id, r]));
    expect(byId.get(amara.request)?.viewerCanAction).toBe(true);
    expect(byId.get(nadia.request)?.viewerCanAction).toBe(true);
    // Castell's flow waits for a group Maja is not in.
    expect(byId.get(fatima.request)?.viewerCanAction).toBe(false);
    const amaraRequest = byId.get(amara.request) as Request;
    expect(amaraRequest.approvable).toEqual({
      __typename: "Hire",
      id: amara.hire,
      status: "READY",
    });
    expect(amaraRequest.approvalStates).toHaveLength(1);
    expect(amaraRequest.approvalStates[0]).toMatchObject({
      state: "REQUESTED",
      actionedBy: { name: "Freya Dahl" },
      approver: { position: 1, userGroup: { name: "Nordlys hiring approvers" } },
      approvalApprovable: { id: amara.request },
    });
    // Oldest first.
    const created = waiting.map((r) => r.approvalStates[0]?.createdAt ?? "");
    expect(created).toEqual([...created].sort());
  });

  it("includes decided requests without requiresAction, and filters by hire, flow and user", async () => {
    const all = await list("first: 50");
    expect(all.map((r) => r.id)).toEqual(
      expect.arrayContaining([approved.request, rejected.request]),
    );
    const done = all.find((r) => r.id === rejected.request) as Request;
    expect(done.approvalStates.at(-1)).toMatchObject({
      state: "REJECTED",
      message: "The budget for this role moved to next quarter.",
    });
    expect(done.approvable?.status).toBe("CANCELLED");
    expect((await list(`approvable: "${amara.hire}"`)).map((r) => r.id)).toEqual([amara.request]);
    expect((await list('approvals: ["apf_002"]')).map((r) => r.id)).toEqual([nadia.request]);
    expect((await list('requiresActionUsers: ["usr_007"]')).map((r) => r.id)).toEqual([
      fatima.request,
    ]);
    expect((await list('accounts: ["cmp_castell"]')).map((r) => r.id)).toEqual([fatima.request]);
  });

  it("shows the limited account only its company's requests, none of them its own to decide", async () => {
    const seen = await list("first: 50", "limited");
    expect(seen.length).toBeGreaterThan(0);
    for (const r of seen) {
      expect(r.approval.company.id).toBe("cmp_nordlys");
      expect(r.viewerCanAction).toBe(false);
    }
    expectUnauthorized(await one(nadia.request, "limited"));
    expect((await one("apr_999")).data?.approvalApprovable).toBeNull();
  });
});

describe("actionApprovalApprovable", () => {
  it("approves: the request is APPROVED and the hire goes on as it was", async () => {
    expect(await hire(amara.hire)).toEqual({
      status: "READY",
      hasPendingApproval: true,
      currentApprovalState: { state: "REQUESTED" },
    });
    const r = await decide({ id: amara.request, status: "APPROVED" });
    expect(r.errors).toBeUndefined();
    const after = r.data?.actionApprovalApprovable as Request;
    expect(after.viewerCanAction).toBe(false);
    expect(after.approvalStates.map((s) => s.state)).toEqual(["REQUESTED", "APPROVED"]);
    expect(after.approvalStates[1]?.actionedBy.name).toBe("Maja Lindqvist");
    expect(after.approvalStates[1]?.createdAt).toMatch(new RegExp(`^${TODAY}T`));
    expect(await hire(amara.hire)).toEqual({
      status: "READY",
      hasPendingApproval: false,
      currentApprovalState: { state: "APPROVED" },
    });
    // Decided: it no longer waits, and cannot be decided again.
    const waiting = await list("requiresAction: true");
    expect(waiting.map((x) => x.id)).not.toContain(amara.request);
    expectValidation(await decide({ id: amara.request, status: "REJECTED", reason: "No" }), [
      "input.id",
    ]);
  });

  it("rejects with a reason: the request is REJECTED and the hire CANCELLED", async () => {
    expectValidation(await decide({ id: amara.request, status: "REJECTED" }), ["input.reason"]);
    expectValidation(await decide({ id: amara.request, status: "REJECTED", reason: "  " }), [
      "input.reason",
    ]);
    expect((await hire(amara.hire))?.status).toBe("READY");
    const r = await decide({ id: amara.request, status: "REJECTED", reason: "Over budget." });
    expect(r.errors).toBeUndefined();
    expect(r.data?.actionApprovalApprovable?.approvalStates.at(-1)).toMatchObject({
      state: "REJECTED",
      message: "Over budget.",
    });
    expect(r.data?.actionApprovalApprovable?.approvable?.status).toBe("CANCELLED");
    expect(await hire(amara.hire)).toEqual({
      status: "CANCELLED",
      hasPendingApproval: false,
      currentApprovalState: { state: "REJECTED" },
    });
  });

  it("refuses callers outside the approver group, and other companies' requests", async () => {
    expectUnauthorized(await decide({ id: amara.request, status: "APPROVED" }, "limited"));
    expectUnauthorized(await decide({ id: nadia.request, status: "APPROVED" }, "limited"));
    expectUnauthorized(await decide({ id: fatima.request, status: "APPROVED" }));
    expect((await hire(amara.hire))?.hasPendingApproval).toBe(true);
  });

  it("reports unknown requests and decisions that are not actions", async () => {
    expectValidation(await decide({ id: "apr_999", status: "APPROVED" }), ["input.id"]);
    expectValidation(await decide({ id: amara.request, status: "CANCELLED" }), ["input.status"]);
    expectValidation(await decide({ id: amara.request }), ["input.status"]);
    expectValidation(await decide({ id: approved.request, status: "APPROVED" }), ["input.id"]);
  });

  it("cancels a pending request automatically when its hire is cancelled", async () => {
    const r = await gql(
      sandbox,
      `mutation { cancelHire(input: { hire: "${amara.hire}", message: "Plans changed." }) { id status } }`,
    );
    expect(r.errors).toBeUndefined();
    const request = (await one(amara.request)).data?.approvalApprovable as Request;
    expect(request.approvalStates.at(-1)).toMatchObject({
      state: "CANCELLED",
      cancellationReason: "HIRE_CANCELLED",
    });
    expect(request.viewerCanAction).toBe(false);
    expect((await list("requiresAction: true")).map((x) => x.id)).not.toContain(amara.request);
    expectValidation(await decide({ id: amara.request, status: "APPROVED" }), ["input.id"]);
  });
});
