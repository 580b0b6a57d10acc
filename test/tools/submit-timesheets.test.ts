// submit_timesheets through a real MCP client against the sandbox: local validation, dry run,
// chunked submission, progress, idempotency and a failure part-way through.
import { describe, expect, it } from "vitest";
import { PlatformFailureError } from "../../src/client/errors.js";
import { CHECK_HIRES_BATCH_SIZE } from "../../src/client/operations.js";
import type { PlatformClient } from "../../src/client/types.js";
import { SANDBOX_FIXTURES } from "../../src/sandbox/index.js";
import { createSeed } from "../../src/sandbox/seed.js";
import { MAX_META_BYTES, MAX_META_DEPTH } from "../../src/tools/timesheets/submit-timesheets.js";
import type { Harness } from "../helpers/mcp-harness.js";
import { callTool, textOf, useHarness } from "../helpers/tool-calls.js";

interface Out {
  submitted: boolean;
  dryRun: boolean;
  provided: number;
  accepted: number;
  rejected: number;
  notSent: number;
  invalidRows: {
    index: number;
    externalId: string | null;
    field: string;
    problem: string;
    fix: string;
  }[];
  rows: { index: number; externalId: string; outcome: string; reason?: string; fix?: string }[];
  note?: string;
}

const TODAY = "2026-11-22";
const day = (n: number) => `2026-11-${String(n).padStart(2, "0")}`;
const ana = (n: number, extra: Record<string, unknown> = {}) => ({
  hireId: "hire_001",
  reportedDate: day(n),
  hours: 7.5,
  externalId: `ana-${day(n)}`,
  ...extra,
});

const harness = useHarness();
const call = (h: Harness, args: Record<string, unknown>) =>
  callTool<Out>(h, "submit_timesheets", args);

describe("submit_timesheets local validation", () => {
  it("reports every bad row by index and field, and sends nothing", async () => {
    const h = await harness();
    const registrations = [
      ana(2),
      { hireId: "hire_001", reportedDate: "2026-02-30", hours: 8, externalId: "a" },
      { hireId: "hire_001", reportedDate: day(3), hours: -1, externalId: "b" },
      { hireId: "hire_001", reportedDate: day(4), hours: 30, externalId: "c" },
      { reportedDate: day(5), hours: 8, externalId: "d" },
      { hireId: "hire_001", reportedDate: "20/11/2026", hours: "8", externalId: "e" },
      { hireId: "hire_001", reportedDate: day(6), hours: 8, externalId: "a" },
      { hireId: "hire_001", reportedDate: day(7), hours: 8, externalId: "f", project: "x" },
    ];
    const { r, out, text: t } = await call(h, { registrations });
    expect(r.isError).toBeFalsy();
    expect(out.submitted).toBe(false);
    const problems = out.invalidRows.map((p) => `${p.index}:${p.field}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        "1:reportedDate",
        "2:hours",
        "3:hours",
        "4:hireId",
        "5:reportedDate",
        "5:hours",
        "6:externalId",
        "7:project",
      ]),
    );
    expect(problems.some((p) => p.startsWith("0:"))).toBe(false);
    for (const p of out.invalidRows) expect(p.fix.length).toBeGreaterThan(5);
    expect(out.invalidRows.find((p) => p.index === 6)?.problem).toContain("row 1");
    expect(t).toContain("Nothing was sent");
    expect(t).toContain("row 4");
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
    expect(h.sandbox.timesheets.size).toBe(0);
  });

  it("refuses an empty batch and more than 1,000 rows", async () => {
    const h = await harness();
    expect((await call(h, { registrations: [] })).r.isError).toBe(true);
    const many = Array.from({ length: 1001 }, (_, i) => ({ ...ana(1), externalId: `x${i}` }));
    expect((await call(h, { registrations: many })).r.isError).toBe(true);
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
  });
});

describe("submit_timesheets dry run", () => {
  it("checks hires and contract dates with queries only", async () => {
    const h = await harness();
    const { out, text: t } = await call(h, {
      dryRun: true,
      registrations: [
        ana(20),
        ana(21, { reportedDate: "2026-01-05", externalId: "early" }),
        ana(22, { hireId: "hire_999999", externalId: "ghost" }),
      ],
    });
    expect(out.submitted).toBe(false);
    expect(out.dryRun).toBe(true);
    expect(out.rows.map((r) => [r.outcome, r.reason])).toEqual([
      ["would-accept", undefined],
      ["would-reject", "DATE_OUTSIDE_CONTRACT_PERIOD"],
      ["would-reject", "HIRE_NOT_FOUND"],
    ]);
    expect(t).toContain("nothing sent");
    expect(t).toContain("get_contract");
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
    // Both hires in one aliased query.
    expect(h.sandbox.countRequests("CheckHires")).toBe(1);
    expect(h.sandbox.timesheets.size).toBe(0);
  });

  it("counts only the active contract's period, not an earlier contract's", async () => {
    const seed = createSeed(TODAY);
    const previous = seed.contracts.get(SANDBOX_FIXTURES.anaPreviousContractId);
    const active = seed.contracts.get(SANDBOX_FIXTURES.anaContractId);
    // A day the archived contract covered but the active one does not.
    const date = previous?.startDate as string;
    expect(date < (active?.startDate as string)).toBe(true);
    const h = await harness();
    const registrations = [ana(20, { reportedDate: date, externalId: "old-terms" })];
    const dry = await call(h, { dryRun: true, registrations });
    expect(dry.out.rows[0]).toMatchObject({
      outcome: "would-reject",
      reason: "DATE_OUTSIDE_CONTRACT_PERIOD",
    });
    expect(dry.text).toContain("outside the active contract's period");
    // The platform applies the same rule when the row is really sent.
    const real = await call(h, { registrations });
    expect(real.out.rows[0]).toMatchObject({
      outcome: "rejected",
      reason: "DATE_OUTSIDE_CONTRACT_PERIOD",
    });
  });

  it("treats another company's hire as not found for the limited token", async () => {
    const h = await harness({ token: "limited" });
    const { out } = await call(h, {
      dryRun: true,
      registrations: [ana(20, { hireId: "hire_002", externalId: "harbor" })],
    });
    expect(out.rows[0]).toMatchObject({ outcome: "would-reject", reason: "HIRE_NOT_FOUND" });
  });
});

describe("submit_timesheets dry run over many hires", () => {
  it("checks 200 distinct hires in a few aliased requests and reports each hire's rows", async () => {
    const h = await harness();
    const registrations = [
      ana(20),
      ana(21, { hireId: "hire_002", externalId: "harbor" }),
      ...Array.from({ length: 198 }, (_, i) =>
        ana(20, { hireId: `hire_unknown_${i}`, externalId: `ghost-${i}` }),
      ),
    ];
    const progress: number[] = [];
    const r = await h.client.callTool(
      { name: "submit_timesheets", arguments: { registrations, dryRun: true } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    const out = r.structuredContent as unknown as Out;
    const batches = Math.ceil(200 / CHECK_HIRES_BATCH_SIZE);
    // One CheckHire request per hire before: 200.
    expect(h.sandbox.countRequests("CheckHires")).toBeLessThanOrEqual(batches);
    expect(h.sandbox.countRequests("CheckHires")).toBe(batches);
    expect(progress.at(-1)).toBe(200);
    expect(out.rows).toHaveLength(200);
    expect(out.rows[0]).toMatchObject({ externalId: `ana-${day(20)}`, outcome: "would-accept" });
    expect(out.rows[1]).toMatchObject({ externalId: "harbor", outcome: "would-accept" });
    for (const row of out.rows.slice(2)) {
      expect(row).toMatchObject({ outcome: "would-reject", reason: "HIRE_NOT_FOUND" });
    }
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
  });

  it("reports a forbidden and an unknown hire for their rows only, within one request", async () => {
    const h = await harness({ token: "limited" });
    const { out } = await call(h, {
      dryRun: true,
      registrations: [
        ana(20),
        ana(20, { hireId: "hire_002", externalId: "harbor" }),
        ana(21),
        ana(20, { hireId: "hire_999999", externalId: "ghost" }),
        ana(22, { reportedDate: "2026-01-05", externalId: "early" }),
      ],
    });
    expect(out.rows.map((r) => [r.externalId, r.outcome, r.reason])).toEqual([
      [`ana-${day(20)}`, "would-accept", undefined],
      ["harbor", "would-reject", "HIRE_NOT_FOUND"],
      [`ana-${day(21)}`, "would-accept", undefined],
      ["ghost", "would-reject", "HIRE_NOT_FOUND"],
      ["early", "would-reject", "DATE_OUTSIDE_CONTRACT_PERIOD"],
    ]);
    expect(h.sandbox.countRequests("CheckHires")).toBe(1);
  });

  it("maps a partial error to the hire whose alias its path names", async () => {
    const h = await harness();
    // The platform fails inside the second alias only: its field is null, its error has a path.
    const original = h.platform.request.bind(h.platform);
    h.platform.request = (async (op, vars, opts) => {
      const result = await original(op, vars, opts);
      if (op.name !== "CheckHires") return result;
      const data = result.data as Record<string, unknown>;
      data.h1 = null;
      const failure = new PlatformFailureError("The platform failed while handling CheckHires.", {
        operation: "CheckHires",
        path: ["h1"],
      });
      return { ...result, errors: [...result.errors, failure] };
    }) as PlatformClient["request"];
    const { r, out } = await call(h, {
      dryRun: true,
      registrations: [
        ana(20),
        ana(20, { hireId: "hire_002", externalId: "harbor" }),
        ana(20, { hireId: "hire_999999", externalId: "ghost" }),
        ana(21, { hireId: "hire_002", externalId: "harbor-2" }),
      ],
    });
    expect(r.isError).toBeFalsy();
    expect(out.rows.map((x) => [x.externalId, x.outcome, x.reason])).toEqual([
      [`ana-${day(20)}`, "would-accept", undefined],
      ["harbor", "would-reject", "HIRE_NOT_CHECKED"],
      ["ghost", "would-reject", "HIRE_NOT_FOUND"],
      ["harbor-2", "would-reject", "HIRE_NOT_CHECKED"],
    ]);
    expect(out.rows[1]?.fix).toMatch(/again/);
  });
});

describe("submit_timesheets meta limits", () => {
  const nested = (levels: number) => {
    const root: Record<string, unknown> = {};
    let node = root;
    for (let i = 1; i < levels; i++) {
      const child: Record<string, unknown> = {};
      node.next = child;
      node = child;
    }
    return root;
  };

  it.each([
    ["a real submit", false],
    ["a dry run", true],
  ])("refuses a 5,000-deep meta in %s as an argument error, sending nothing", async (_, dryRun) => {
    const h = await harness();
    const before = h.sandbox.countRequests();
    const { r, text: t } = await call(h, {
      dryRun,
      registrations: [ana(20), ana(21, { meta: nested(5000) })],
    });
    expect(r.isError).toBe(true);
    expect(t).toContain("`registrations[1].meta`");
    expect(t).toContain(`more than ${MAX_META_DEPTH} levels`);
    expect(t).not.toMatch(/unexpected problem/);
    expect(h.sandbox.countRequests()).toBe(before);
    expect(h.sandbox.timesheets.size).toBe(0);
  });

  it.each([
    ["a real submit", false],
    ["a dry run", true],
  ])("refuses a meta over the size limit in %s, naming every such row", async (_, dryRun) => {
    const h = await harness();
    const before = h.sandbox.countRequests();
    const big = { note: "x".repeat(MAX_META_BYTES) };
    const { r, text: t } = await call(h, {
      dryRun,
      registrations: [ana(20), ana(21, { meta: big }), ana(22, { meta: big })],
    });
    expect(r.isError).toBe(true);
    expect(t).toContain("`registrations[1].meta`");
    expect(t).toContain(`more than ${MAX_META_BYTES}`);
    expect(t).toContain("registrations[2]");
    expect(h.sandbox.countRequests()).toBe(before);
  });

  it("takes meta as JSON object text, as its schema offers it, and stores the object", async () => {
    const h = await harness();
    const { r, out } = await call(h, {
      registrations: [ana(20, { meta: '{"costCenter": "CC-12"}' })],
    });
    expect(r.isError).toBeFalsy();
    expect(out.accepted).toBe(1);
    expect(h.sandbox.timesheets.get(`ana-${day(20)}`)?.meta).toEqual({ costCenter: "CC-12" });
  });

  it("accepts a meta at the limits", async () => {
    const h = await harness();
    const { r, out } = await call(h, {
      registrations: [ana(20, { meta: nested(MAX_META_DEPTH) })],
    });
    expect(r.isError).toBeFalsy();
    expect(out.accepted).toBe(1);
  });
});

describe("submit_timesheets submission", () => {
  it("sends chunks, reports each row, notifies progress and is idempotent", async () => {
    const h = await harness({ config: { timesheetChunkSize: 2 } });
    const registrations = [
      ana(16),
      ana(17),
      ana(18, { reportedDate: "2026-01-05", externalId: "early" }),
      ana(19, { hireId: "hire_999999", externalId: "ghost" }),
      ana(20, { reference: "PO-1", isPayable: false, meta: { source: "erp" } }),
    ];
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const r = await h.client.callTool(
      { name: "submit_timesheets", arguments: { registrations } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    const out = r.structuredContent as unknown as Out;
    expect(out).toMatchObject({ submitted: true, accepted: 3, rejected: 2, notSent: 0 });
    expect(out.rows.find((x) => x.externalId === "early")).toMatchObject({
      outcome: "rejected",
      reason: "DATE_OUTSIDE_CONTRACT_PERIOD",
    });
    expect(out.rows.find((x) => x.externalId === "ghost")?.fix).toContain("search_hires");
    expect(textOf(r)).toContain("payment requests");
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(3);
    expect(progress.map((p) => p.progress)).toEqual([2, 4, 5]);
    expect(progress.every((p) => p.total === 5)).toBe(true);
    expect(h.sandbox.timesheets.size).toBe(3);
    expect(h.sandbox.timesheets.get(`ana-${day(20)}`)).toMatchObject({
      reference: "PO-1",
      isPayable: false,
    });

    const again = await call(h, { registrations });
    expect(again.out.accepted).toBe(3);
    expect(h.sandbox.timesheets.size).toBe(3);
  });

  it("keeps the accepted rows when a later chunk fails, and says re-sending is safe", async () => {
    const h = await harness({ config: { timesheetChunkSize: 2, maxRetries: 0 } });
    const registrations = [ana(10), ana(11), ana(12), ana(13), ana(14)];
    // Let the first chunk through, then fail every later one.
    let calls = 0;
    const original = h.platform.run.bind(h.platform);
    h.platform.run = (async (op: { name: string }, vars: never, opts: never) => {
      if (op.name === "SubmitTimesheets" && ++calls === 2) {
        h.sandbox.faults.inject("internal-error", { count: 50, operationName: "SubmitTimesheets" });
      }
      return original(op as never, vars, opts);
    }) as typeof h.platform.run;
    const { r, out, text: t } = await call(h, { registrations });
    h.sandbox.faults.clear();
    expect(r.isError).toBeFalsy();
    expect(out).toMatchObject({ submitted: true, accepted: 2, notSent: 3 });
    expect(out.rows.filter((x) => x.outcome === "not-sent").map((x) => x.index)).toEqual([2, 3, 4]);
    expect(t).toContain("safe");
    expect(h.sandbox.timesheets.size).toBe(2);
  });

  it("reports a failure of the first chunk as an error", async () => {
    const h = await harness();
    h.sandbox.faults.inject("internal-error", { count: 50, operationName: "SubmitTimesheets" });
    const { r, text: t } = await call(h, { registrations: [ana(10)] });
    expect(r.isError).toBe(true);
    expect(t.toLowerCase()).toContain("try again");
  });
});
