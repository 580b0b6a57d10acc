import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type GqlResponse, gql, onlyError, TODAY } from "./helpers.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ today: TODAY, rateLimitPerMinute: 0, maxRegistrationsPerCall: 5 });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.reset();
});

function expectValidation(r: GqlResponse<unknown>, field: string, keys: string[]) {
  const e = onlyError(r);
  expect(e.message).toBe(`Validation failed for the field [${field}].`);
  expect(e.path).toEqual([field]);
  expect(e.extensions.code).toBe("DOWNSTREAM_SERVICE_ERROR");
  expect(e.extensions.serviceName).toBe("platform");
  expect(e.extensions.guards).toBeUndefined();
  expect(Object.keys(e.extensions.validation ?? {}).sort()).toEqual([...keys].sort());
  for (const messages of Object.values(e.extensions.validation ?? {})) {
    expect(messages.length).toBeGreaterThan(0);
  }
  expect(r.data).toBeNull();
}

function expectUnauthorized(r: GqlResponse<unknown>, field: string) {
  const e = onlyError(r);
  expect(e.message).toBe("You are not authorized to perform this action.");
  expect(e.path).toEqual([field]);
  expect(e.extensions).toEqual({ code: "DOWNSTREAM_SERVICE_ERROR", serviceName: "platform" });
  expect(r.data).toBeNull();
}

describe("createCustomTimesheet", () => {
  const SUBMIT = `mutation Submit($input: CreateCustomTimesheetInput!) {
    createCustomTimesheet(input: $input) {
      providedRegistrations successfulRegistrations
      rejectedRegistrations { externalId reason message }
    } }`;
  type Result = {
    createCustomTimesheet: {
      providedRegistrations: number;
      successfulRegistrations: number;
      rejectedRegistrations: Array<{ externalId: string | null; reason: string; message: string }>;
    };
  };
  const submit = (data: unknown, options: { schema?: string; token?: "full" | "limited" } = {}) =>
    gql<Result>(sandbox, SUBMIT, {
      token: options.token,
      variables: {
        input: {
          schema: options.schema ?? "default-json",
          data: typeof data === "string" ? data : JSON.stringify(data),
        },
      },
    });

  it("accepts one registration object and stores it with isPayable defaulting to true", async () => {
    const r = await submit({
      hireId: "hire_001",
      reportedDate: "2026-11-20",
      hours: 7.5,
      externalId: "ts-1",
      reference: "PRJ-42",
      meta: { source: "erp" },
    });
    expect(r.body).toEqual({
      data: {
        createCustomTimesheet: {
          providedRegistrations: 1,
          successfulRegistrations: 1,
          rejectedRegistrations: [],
        },
      },
    });
    expect(sandbox.timesheets.get("ts-1")).toEqual({
      hireId: "hire_001",
      reportedDate: "2026-11-20",
      hours: 7.5,
      externalId: "ts-1",
      reference: "PRJ-42",
      isPayable: true,
      meta: { source: "erp" },
    });
  });

  it("reports row failures in rejectedRegistrations, never in errors", async () => {
    const r = await submit([
      { hireId: "hire_001", reportedDate: "2026-11-19", hours: 8, externalId: "ok-1" },
      { reportedDate: "2026-11-19", hours: 8, externalId: "no-hire" },
      { hireId: "hire_001", reportedDate: "2026-11-19", hours: 8, externalId: "" },
      { hireId: "hire_001", hours: 8, externalId: "no-date" },
      { hireId: "hire_001", reportedDate: "2026-11-19", externalId: "no-hours" },
      { hireId: "hire_999", reportedDate: "2026-11-19", hours: 8, externalId: "unknown" },
      { hireId: "hire_001", reportedDate: "2026-07-01", hours: 8, externalId: "too-early" },
      { hireId: "hire_002", reportedDate: "2026-11-19", hours: 8, externalId: "harbor" },
    ]);
    // maxRegistrationsPerCall is 5 in this file: 8 rows are too many.
    expect(onlyError(r).extensions.validation).toHaveProperty("input.data");

    const first = await submit([
      { hireId: "hire_001", reportedDate: "2026-11-19", hours: 8, externalId: "ok-1" },
      { reportedDate: "2026-11-19", hours: 8, externalId: "no-hire" },
      { hireId: "hire_001", reportedDate: "2026-11-19", hours: 8, externalId: "" },
      { hireId: "hire_001", hours: 8, externalId: "no-date" },
      { hireId: "hire_001", reportedDate: "2026-11-19", externalId: "no-hours" },
    ]);
    expect(first.errors).toBeUndefined();
    expect(first.data?.createCustomTimesheet).toMatchObject({
      providedRegistrations: 5,
      successfulRegistrations: 1,
    });
    expect(
      first.data?.createCustomTimesheet.rejectedRegistrations.map((x) => [x.externalId, x.reason]),
    ).toEqual([
      ["no-hire", "MISSING_REQUIRED_FIELD"],
      [null, "MISSING_REQUIRED_FIELD"],
      ["no-date", "MISSING_REQUIRED_FIELD"],
      ["no-hours", "MISSING_REQUIRED_FIELD"],
    ]);

    const second = await submit([
      { hireId: "hire_999", reportedDate: "2026-11-19", hours: 8, externalId: "unknown" },
      { hireId: "hire_001", reportedDate: "2026-07-01", hours: 8, externalId: "too-early" },
      { hireId: "hire_001", reportedDate: "2027-08-01", hours: 8, externalId: "too-late" },
      { hireId: "hire_002", reportedDate: "2026-11-19", hours: 8, externalId: "harbor" },
    ]);
    expect(second.errors).toBeUndefined();
    const rejected = second.data?.createCustomTimesheet.rejectedRegistrations ?? [];
    expect(rejected.map((x) => [x.externalId, x.reason])).toEqual([
      ["unknown", "HIRE_NOT_FOUND"],
      ["too-early", "DATE_OUTSIDE_CONTRACT_PERIOD"],
      ["too-late", "DATE_OUTSIDE_CONTRACT_PERIOD"],
    ]);
    expect(rejected.every((x) => x.message.length > 0)).toBe(true);
    expect([...sandbox.timesheets.keys()].sort()).toEqual(["harbor", "ok-1"]);
  });

  it("names each missing or invalid field, and leaves out optional fields not of their type", async () => {
    const r = await submit([
      7,
      ["hire_001", "2026-11-18", 8, "a-list"],
      { hireId: "", reportedDate: "2026-02-30", hours: -1, externalId: "bad-all" },
      { hireId: "hire_001", reportedDate: "2026-11-18", hours: "8", externalId: "bad-hours" },
      {
        hireId: "hire_001",
        reportedDate: "2026-11-18",
        hours: 0,
        externalId: "loose",
        isPayable: "no",
        reference: 42,
        meta: ["erp"],
      },
    ]);
    expect(r.data?.createCustomTimesheet.rejectedRegistrations).toEqual([
      {
        externalId: null,
        reason: "MISSING_REQUIRED_FIELD",
        message: "Missing or invalid required field(s): hireId, reportedDate, hours, externalId.",
      },
      {
        externalId: null,
        reason: "MISSING_REQUIRED_FIELD",
        message: "Missing or invalid required field(s): hireId, reportedDate, hours, externalId.",
      },
      {
        externalId: "bad-all",
        reason: "MISSING_REQUIRED_FIELD",
        message: "Missing or invalid required field(s): hireId, reportedDate, hours.",
      },
      {
        externalId: "bad-hours",
        reason: "MISSING_REQUIRED_FIELD",
        message: "Missing or invalid required field(s): hours.",
      },
    ]);
    expect(sandbox.timesheets.get("loose")).toEqual({
      hireId: "hire_001",
      reportedDate: "2026-11-18",
      hours: 0,
      externalId: "loose",
      isPayable: true,
    });
  });

  it("treats another company's hire as not found for the limited identity, but accepts Nordlys", async () => {
    const r = await submit(
      [
        { hireId: "hire_002", reportedDate: "2026-11-19", hours: 8, externalId: "harbor" },
        { hireId: "hire_001", reportedDate: "2026-11-19", hours: 6, externalId: "nordlys" },
      ],
      { token: "limited" },
    );
    expect(r.data?.createCustomTimesheet.successfulRegistrations).toBe(1);
    expect(r.data?.createCustomTimesheet.rejectedRegistrations).toEqual([
      expect.objectContaining({ externalId: "harbor", reason: "HIRE_NOT_FOUND" }),
    ]);
    expect(sandbox.timesheets.has("nordlys")).toBe(true);
  });

  it("rejects dates covered only by the archived contract of a revised hire", async () => {
    // ctr_001 covers the whole hire; the revision ctr_002, the terms in force, starts later.
    const r = await submit({
      hireId: "hire_001",
      reportedDate: "2026-08-03",
      hours: 8,
      externalId: "old",
    });
    expect(r.data?.createCustomTimesheet.successfulRegistrations).toBe(0);
    expect(r.data?.createCustomTimesheet.rejectedRegistrations[0]).toMatchObject({
      externalId: "old",
      reason: "DATE_OUTSIDE_CONTRACT_PERIOD",
    });
  });

  it("upserts by externalId", async () => {
    const row = { hireId: "hire_001", reportedDate: "2026-11-18", hours: 4, externalId: "same" };
    await submit(row);
    const r = await submit({ ...row, hours: 6, isPayable: false });
    expect(r.data?.createCustomTimesheet.successfulRegistrations).toBe(1);
    expect(sandbox.timesheets.size).toBe(1);
    expect(sandbox.timesheets.get("same")).toMatchObject({ hours: 6, isPayable: false });
  });

  it.each([
    ["an unknown schema", { hireId: "hire_001" }, "csv", ["input.schema"]],
    ["data that is not JSON", "{hireId: hire_001", "default-json", ["input.data"]],
    ["a JSON scalar", "42", "default-json", ["input.data"]],
    ["an empty array", [], "default-json", ["input.data"]],
    ["both wrong", "nope", "xml", ["input.schema", "input.data"]],
  ])("rejects %s with a validation error", async (_label, data, schema, keys) => {
    expectValidation(await submit(data, { schema }), "createCustomTimesheet", keys);
    expect(sandbox.timesheets.size).toBe(0);
  });

  it("rejects more rows than the per-call maximum", async () => {
    const rows = Array.from({ length: 6 }, (_, i) => ({
      hireId: "hire_001",
      reportedDate: "2026-11-02",
      hours: 1,
      externalId: `bulk-${i}`,
    }));
    expectValidation(await submit(rows), "createCustomTimesheet", ["input.data"]);
    expect(sandbox.timesheets.size).toBe(0);
  });
});

describe("terminateHire", () => {
  const TERMINATE = `mutation Terminate($input: TerminateHireInput!) {
    terminateHire(input: $input) { id status activeStatus terminationDate canTerminateContract } }`;
  const terminate = (input: Record<string, unknown>, token?: "full" | "limited") =>
    gql<{ terminateHire: Record<string, unknown> }>(sandbox, TERMINATE, {
      token,
      variables: { input: { reason: "PROJECT_COMPLETED_EARLY", ...input } },
    });

  it("terminates an active hire", async () => {
    const r = await terminate({ hire: "hire_001", date: "2026-12-15", comments: "Done early" });
    expect(r.body).toEqual({
      data: {
        terminateHire: {
          id: "hire_001",
          status: "TERMINATED",
          activeStatus: "TERMINATED",
          terminationDate: "2026-12-15",
          canTerminateContract: false,
        },
      },
    });
    const again = await terminate({ hire: "hire_001", date: "2026-12-15" });
    expectValidation(again, "terminateHire", ["input.hire"]);
  });

  it.each([
    ["an impossible date", { hire: "hire_001", date: "2026-02-30" }, ["input.date"]],
    ["a date in another format", { hire: "hire_001", date: "15/12/2026" }, ["input.date"]],
    ["a date before the start", { hire: "hire_001", date: "2026-07-24" }, ["input.date"]],
    ["a hire that is not active", { hire: "hire_004", date: "2026-12-15" }, ["input.hire"]],
    ["an unknown hire", { hire: "hire_999", date: "2026-12-15" }, ["input.hire"]],
  ])("rejects %s with a validation error", async (_label, input, keys) => {
    expectValidation(await terminate(input), "terminateHire", keys);
  });

  it("refuses the limited identity, even for a Nordlys hire", async () => {
    expectUnauthorized(
      await terminate({ hire: "hire_001", date: "2026-12-15" }, "limited"),
      "terminateHire",
    );
    expectUnauthorized(
      await terminate({ hire: "hire_002", date: "2026-12-15" }, "limited"),
      "terminateHire",
    );
    const hire = await gql<{ hire: { activeStatus: string } }>(
      sandbox,
      '{ hire(id: "hire_001") { activeStatus } }',
    );
    expect(hire.data?.hire.activeStatus).toBe("ACTIVE");
  });

  it("rejects an unknown reason at the gateway", async () => {
    const r = await gql(
      sandbox,
      'mutation { terminateHire(input: { hire: "hire_001", reason: BORED, date: "2026-12-15" }) { id } }',
    );
    expect(onlyError(r).extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });
});

describe("createDraftHire", () => {
  const CREATE = `mutation Create($input: HireInput!) {
    createDraftHire(input: $input) {
      id activeStatus startDate endDate company { id } worker { id name }
      latestContract { status jobName currency rateType } } }`;
  const create = (input: Record<string, unknown>, token?: "full" | "limited") =>
    gql<{ createDraftHire: { id: string } & Record<string, unknown> }>(sandbox, CREATE, {
      token,
      variables: { input },
    });

  it("creates a draft hire with a draft contract and a placeholder worker", async () => {
    const r = await create({
      company: "cmp_castell",
      name: "Store Planner",
      startDate: "2027-01-04",
      endDate: "2027-06-30",
      rateType: "DAILY",
      rate: 640,
    });
    expect(r.errors).toBeUndefined();
    expect(r.data?.createDraftHire).toMatchObject({
      activeStatus: "DRAFT",
      startDate: "2027-01-04",
      endDate: "2027-06-30",
      company: { id: "cmp_castell" },
      worker: { name: "Unassigned Worker" },
      latestContract: {
        status: "DRAFT",
        jobName: "Store Planner",
        currency: "EUR",
        rateType: "DAILY",
      },
    });
    const id = r.data?.createDraftHire.id as string;
    expect(id).toMatch(/^hire_\d{3}$/);
    const drafts = await gql<{ hires: { data: Array<{ id: string }> } }>(
      sandbox,
      '{ hires(first: 100, activeStatus: [DRAFT], companies: ["cmp_castell"]) { data { id } } }',
    );
    expect(drafts.data?.hires.data.map((h) => h.id)).toContain(id);
  });

  it.each([
    ["a missing name", { company: "cmp_nordlys", startDate: "2027-01-04" }, ["input.name"]],
    [
      "a blank name",
      { company: "cmp_nordlys", name: "  ", startDate: "2027-01-04" },
      ["input.name"],
    ],
    ["a missing start date", { company: "cmp_nordlys", name: "X" }, ["input.startDate"]],
    [
      "an impossible start date",
      { company: "cmp_nordlys", name: "X", startDate: "2027-13-01" },
      ["input.startDate"],
    ],
    [
      "an end before the start",
      { company: "cmp_nordlys", name: "X", startDate: "2027-02-01", endDate: "2027-01-01" },
      ["input.endDate"],
    ],
    [
      "an unknown company",
      { company: "cmp_nowhere", name: "X", startDate: "2027-01-04" },
      ["input.company"],
    ],
  ])("rejects %s with a validation error", async (_label, input, keys) => {
    expectValidation(await create(input), "createDraftHire", keys);
  });

  it("refuses the limited identity", async () => {
    expectUnauthorized(
      await create({ company: "cmp_nordlys", name: "X" }, "limited"),
      "createDraftHire",
    );
  });

  it("refuses a company the caller cannot see", async () => {
    expectUnauthorized(
      await create({ company: "cmp_harbor", name: "X" }, "limited"),
      "createDraftHire",
    );
  });
});

describe("cancelHire", () => {
  const CANCEL = `mutation Cancel($input: CancelHireInput!) {
    cancelHire(input: $input) { id activeStatus canCancelContract } }`;
  const cancel = (input: Record<string, unknown>, token?: "full" | "limited") =>
    gql<{ cancelHire: Record<string, unknown> }>(sandbox, CANCEL, { token, variables: { input } });

  it("cancels a draft hire", async () => {
    const r = await cancel({ hire: "hire_003", message: "Budget moved to next year." });
    expect(r.body).toEqual({
      data: { cancelHire: { id: "hire_003", activeStatus: "CANCELLED", canCancelContract: false } },
    });
  });

  it.each([
    ["an active hire", { hire: "hire_001", message: "No" }, ["input.hire"]],
    ["an empty message", { hire: "hire_003", message: "" }, ["input.message"]],
    ["an unknown hire", { hire: "hire_999", message: "No" }, ["input.hire"]],
  ])("rejects %s with a validation error", async (_label, input, keys) => {
    expectValidation(await cancel(input), "cancelHire", keys);
  });

  it("refuses the limited identity", async () => {
    expectUnauthorized(await cancel({ hire: "hire_003", message: "No" }, "limited"), "cancelHire");
  });
});

describe("reset", () => {
  it("reseeds the data and clears the log", async () => {
    await gql(sandbox, 'mutation { cancelHire(input: { hire: "hire_003", message: "x" }) { id } }');
    sandbox.reset();
    expect(sandbox.requests).toHaveLength(0);
    const r = await gql<{ hire: { activeStatus: string } }>(
      sandbox,
      '{ hire(id: "hire_003") { activeStatus } }',
    );
    expect(r.data?.hire.activeStatus).toBe("DRAFT");
  });
});
