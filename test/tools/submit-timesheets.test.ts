// submit_timesheets through a real MCP client against the sandbox: local validation, the preview
// (hours and money per hire and day, refusals), chunked submission after confirmation, progress,
// and the honest outcome of a write whose answer was lost.
import { describe, expect, it } from "vitest";
import { PlatformFailureError } from "../../src/client/errors.js";
import { CHECK_HIRES_BATCH_SIZE } from "../../src/client/operations/index.js";
import type { PlatformClient } from "../../src/client/types.js";
import { SANDBOX_FIXTURES } from "../../src/sandbox/index.js";
import { createSeed } from "../../src/sandbox/seed/index.js";
import { MAX_META_BYTES, MAX_META_DEPTH } from "../../src/tools/timesheets/submit-timesheets.js";
import type { Harness } from "../helpers/mcp-harness.js";
import { callTool, textOf, useHarness } from "../helpers/tool-calls.js";

interface Out {
  status: string;
  provided: number;
  invalidRows?: {
    index: number;
    externalId: string | null;
    field: string;
    problem: string;
    fix: string;
  }[];
  preview?: {
    hires: {
      hireId: string;
      worker: string;
      currency: string;
      rate: number | null;
      hours: number;
      amount: number | null;
    }[];
    totals: { currency: string; hours: number; amount: number; hoursNotPriced: number }[];
    daysAlreadyLogged: { index: number; reportedDate: string; paymentRequests: string[] }[];
    replacedRegistrations: { index: number; unchanged: boolean }[];
  };
  confirmationToken?: string;
  accepted?: number;
  rejected?: number;
  unknown?: number;
  notSent?: number;
  rows?: { index: number; externalId: string; outcome: string; reason?: string; fix?: string }[];
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

/** Preview, then confirm with the token: what a person agreeing to the preview does. */
async function submit(h: Harness, args: Record<string, unknown>) {
  const preview = await call(h, args);
  expect(preview.out?.status, preview.text).toBe("preview");
  return call(h, { ...args, confirmationToken: preview.out.confirmationToken });
}

describe("submit_timesheets local validation", () => {
  it("reports every bad row by index and field, and reads and sends nothing", async () => {
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
    expect(r.isError).toBe(true);
    expect(out.status).toBe("invalid");
    const problems = (out.invalidRows ?? []).map((p) => `${p.index}:${p.field}`);
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
    for (const p of out.invalidRows ?? []) expect(p.fix.length).toBeGreaterThan(5);
    expect(out.invalidRows?.find((p) => p.index === 6)?.problem).toContain("row 1");
    expect(t).toContain("Nothing was sent");
    expect(t).toContain("row 4");
    expect(h.sandbox.countRequests()).toBe(0);
  });

  it("refuses an empty batch and more than 1,000 rows", async () => {
    const h = await harness();
    expect((await call(h, { registrations: [] })).r.isError).toBe(true);
    const many = Array.from({ length: 1001 }, (_, i) => ({ ...ana(1), externalId: `x${i}` }));
    expect((await call(h, { registrations: many })).r.isError).toBe(true);
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
  });

  it("refuses a reference the person could not read as sent, and more than 24 hours on one day", async () => {
    const h = await harness();
    const { r, out } = await call(h, {
      registrations: [
        ana(16, { reference: "PO-1\u202e7-OP" }),
        ana(17, { hours: 16, externalId: "a" }),
        ana(17, { hours: 10, externalId: "b" }),
      ],
    });
    expect(r.isError).toBe(true);
    expect(out.invalidRows?.map((p) => [p.index, p.field])).toEqual([
      [0, "reference"],
      [2, "hours"],
    ]);
    expect(out.invalidRows?.[0]?.problem).toContain("U+202E RIGHT-TO-LEFT OVERRIDE");
    expect(out.invalidRows?.[1]?.problem).toContain("26 hours on 2026-11-17");
    expect(h.sandbox.countRequests()).toBe(0);
  });
});

describe("submit_timesheets preview", () => {
  it("shows each hire's days with hours and money at the active rate, totals per currency, and sends nothing", async () => {
    const h = await harness();
    const registrations = [
      ana(17),
      ana(16, { hours: 8 }),
      ana(18, { hours: 2, isPayable: false, reference: "Internal training" }),
      ana(16, { hireId: "hire_002", hours: 6, externalId: "harbor-16" }),
    ];
    const first = await call(h, { registrations });
    expect(first.r.isError, first.text).toBeFalsy();
    expect(first.out.status).toBe("preview");
    expect(first.out.preview?.hires).toMatchObject([
      { hireId: "hire_001", worker: "Ana Costa", currency: "DKK", rate: 725, hours: 15.5 },
      { hireId: "hire_002", currency: "USD", rate: 95, hours: 6, amount: 570 },
    ]);
    expect(first.out.preview?.hires[0]?.amount).toBe(11_237.5);
    expect(first.out.preview?.totals).toEqual([
      { currency: "DKK", hours: 15.5, amount: 11_237.5, hoursNotPriced: 0 },
      { currency: "USD", hours: 6, amount: 570, hoursNotPriced: 0 },
    ]);
    const lines = first.text.split("\n");
    // Ana's days in date order, each with its money; the rate is the active contract's (725),
    // not the archived one's (650) nor the unsigned change's.
    const ana16 = lines.findIndex((l) => l.startsWith("- 2026-11-16: 8 h, DKK 5,800.00"));
    expect(ana16).toBeGreaterThan(0);
    expect(lines[ana16 - 1]).toContain('worker "Ana Costa"');
    expect(lines[ana16 - 1]).toContain("active contract ctr_002");
    expect(lines[ana16 - 1]).toContain("rate DKK 725.00 hourly");
    expect(lines[ana16 + 1]).toBe("- 2026-11-17: 7.5 h, DKK 5,437.50");
    expect(lines[ana16 + 2]).toBe('- 2026-11-18: 2 h, not payable; reference "Internal training"');
    expect(first.text).toContain("- 2026-11-16: 6 h, USD 570.00");
    expect(first.text).toContain("Total payable: DKK 11,237.50 for 15.5 h; USD 570.00 for 6 h.");
    expect(first.text.trim().split("\n").at(-1)).toMatch(/^Money moves: /);
    expect(first.out.confirmationToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
    expect(h.sandbox.timesheets.size).toBe(0);
    // Both hires in one aliased query.
    expect(h.sandbox.countRequests("CheckHires")).toBe(1);

    const second = await call(h, {
      registrations,
      confirmationToken: first.out.confirmationToken,
    });
    expect(second.r.isError, second.text).toBeFalsy();
    expect(second.out).toMatchObject({ status: "submitted", accepted: 4, rejected: 0 });
    expect(second.text).toContain("payment requests");
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(1);
    expect(h.sandbox.timesheets.size).toBe(4);

    // Single use: the same token again is refused, and nothing more is sent.
    const reuse = await call(h, { registrations, confirmationToken: first.out.confirmationToken });
    expect(reuse.r.isError).toBe(true);
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(1);
  });

  it("binds the token to the rows and to includeDaysAlreadyLogged", async () => {
    const h = await harness();
    const registrations = [ana(16), ana(17)];
    for (const changed of [
      { registrations: [ana(16), ana(17, { hours: 8 })] },
      { registrations: [ana(17), ana(16)] },
      { includeDaysAlreadyLogged: true },
    ]) {
      const { out } = await call(h, { registrations });
      const r = await call(h, {
        registrations,
        ...changed,
        confirmationToken: out.confirmationToken,
      });
      expect(r.r.isError).toBe(true);
      expect(r.text).toContain("different now");
    }
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
  });

  it("refuses a preview too large to show whole, asking for smaller calls", async () => {
    const h = await harness({ config: { maxAnswerBytes: 9 * 1024 } });
    const registrations = Array.from({ length: 60 }, (_, i) =>
      ana(16 + (i % 6), { hours: 0.25, externalId: `row-${i}`, reference: `PO-${i}`.repeat(4) }),
    );
    const r = await call(h, { registrations });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("more than an answer may hold whole");
    expect(r.text).toContain("smaller calls");
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
  });

  it("refuses rows outside the active contract's period and unknown hires, naming each", async () => {
    const seed = createSeed(TODAY);
    const previous = seed.contracts.get(SANDBOX_FIXTURES.anaPreviousContractId);
    const active = seed.contracts.get(SANDBOX_FIXTURES.anaContractId);
    // A day the archived contract covered but the active one does not.
    const date = previous?.startDate as string;
    expect(date < (active?.startDate as string)).toBe(true);
    const h = await harness();
    const {
      r,
      out,
      text: t,
    } = await call(h, {
      registrations: [
        ana(20),
        ana(21, { reportedDate: date, externalId: "old-terms" }),
        ana(22, { hireId: "hire_999999", externalId: "ghost" }),
      ],
    });
    expect(r.isError).toBe(true);
    expect(out.status).toBe("invalid");
    expect(out.invalidRows?.map((p) => [p.index, p.field])).toEqual([
      [1, "reportedDate"],
      [2, "hireId"],
    ]);
    expect(t).toContain("outside the active contract's period");
    expect(t).toContain("get_contract");
    expect(t).toContain("search_hires");
    expect(out.confirmationToken).toBeUndefined();
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
  });

  it("refuses days that have not begun yet", async () => {
    // The platform's today is the real date; the test pins it to the sandbox's.
    const h = await harness({
      clock: { now: () => Date.parse(`${TODAY}T12:00:00Z`), sleep: async () => {} },
    });
    const {
      r,
      out,
      text: t,
    } = await call(h, {
      registrations: [ana(21), ana(23), ana(24), ana(30)],
    });
    expect(r.isError).toBe(true);
    // The 23rd has begun east of UTC already; the 24th has begun nowhere.
    expect(out.invalidRows?.map((p) => [p.index, p.field])).toEqual([
      [2, "reportedDate"],
      [3, "reportedDate"],
    ]);
    expect(t).toContain(
      "2026-11-24 has not begun yet anywhere (the latest date on Earth now is 2026-11-23)",
    );
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
  });

  it("treats another company's hire as not found, and says when rates are hidden", async () => {
    const h = await harness({ token: "limited" });
    const harbor = await call(h, {
      registrations: [ana(20), ana(20, { hireId: "hire_002", externalId: "harbor" })],
    });
    expect(harbor.out.invalidRows).toMatchObject([{ index: 1, field: "hireId" }]);
    const own = await call(h, { registrations: [ana(20)] });
    expect(own.out.status, own.text).toBe("preview");
    expect(own.out.preview?.hires[0]).toMatchObject({ rate: null, amount: null });
    expect(own.text).toContain("rate not visible to your account (DKK)");
    expect(own.text).toContain("- 2026-11-20: 7.5 h, amount not visible to your account");
    expect(own.out.preview?.totals).toEqual([
      { currency: "DKK", hours: 7.5, amount: 0, hoursNotPriced: 7.5 },
    ]);
  });

  it("checks 200 distinct hires in a few aliased requests and refuses each unknown hire's row", async () => {
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
      { name: "submit_timesheets", arguments: { registrations } },
      { onprogress: (p) => progress.push(p.progress) },
    );
    const out = r.structuredContent as unknown as Out;
    const batches = Math.ceil(200 / CHECK_HIRES_BATCH_SIZE);
    expect(h.sandbox.countRequests("CheckHires")).toBe(batches);
    expect(progress.at(-1)).toBe(200);
    expect(out.status).toBe("invalid");
    expect(out.invalidRows?.map((p) => p.index)).toEqual(
      Array.from({ length: 198 }, (_, i) => i + 2),
    );
    expect(textOf(r)).toContain("… and 168 more problems");
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
  });

  it("refuses the rows of a hire the platform failed to read, and only those", async () => {
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
    const { out } = await call(h, {
      registrations: [
        ana(20),
        ana(20, { hireId: "hire_002", externalId: "harbor" }),
        ana(21, { hireId: "hire_002", externalId: "harbor-2" }),
      ],
    });
    expect(out.invalidRows?.map((p) => [p.index, p.field])).toEqual([
      [1, "hireId"],
      [2, "hireId"],
    ]);
    expect(out.invalidRows?.[0]?.problem).toContain(
      "the platform failed while reading hire hire_002",
    );
    expect(out.invalidRows?.[0]?.fix).toMatch(/again/);
  });
});

/** A weekday of last week on which Ana's seeded payment request logged hours, and its number. */
async function loggedDay(h: Harness) {
  const r = await callTool<{
    paymentRequests: { number: string; registrations: { date: string; hours: number }[] }[];
  }>(h, "list_payment_requests", {
    hires: ["hire_001"],
    period: { from: "2026-11-09", to: "2026-11-15" },
    includeHours: true,
  });
  const request = r.out.paymentRequests[0];
  const date = request?.registrations[0]?.date;
  if (!request || !date) throw new Error("the seed has no hours for Ana last week");
  return { date, number: request.number };
}

describe("submit_timesheets over days already logged", () => {
  it("refuses them without includeDaysAlreadyLogged, naming the payment request; nothing is sent", async () => {
    const h = await harness();
    const logged = await loggedDay(h);
    const registrations = [ana(16), ana(0, { reportedDate: logged.date, externalId: "again" })];
    const r = await call(h, { registrations });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("`registrations[1].reportedDate`");
    expect(r.text).toContain(`1 row is for days already logged for their hire`);
    expect(r.text).toContain(
      `row 1 (hire hire_001, ${logged.date}: payment request "${logged.number}")`,
    );
    expect(r.text).toContain("includeDaysAlreadyLogged: true");
    expect(r.out).toBeUndefined();
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
  });

  it("flags them in the preview with includeDaysAlreadyLogged, and sends them once confirmed", async () => {
    const h = await harness();
    const logged = await loggedDay(h);
    const args = {
      registrations: [ana(16), ana(0, { reportedDate: logged.date, externalId: "again" })],
      includeDaysAlreadyLogged: true,
    };
    const first = await call(h, args);
    expect(first.out.status, first.text).toBe("preview");
    expect(first.out.preview?.daysAlreadyLogged).toEqual([
      { index: 1, hireId: "hire_001", reportedDate: logged.date, paymentRequests: [logged.number] },
    ]);
    const line = first.text.split("\n").find((l) => l.startsWith(`- ${logged.date}: 7.5 h`));
    expect(line).toContain(`ALREADY LOGGED: ${logged.date}: "${logged.number}" (`);
    expect(first.text).toContain("may be paid twice");
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
    const second = await call(h, { ...args, confirmationToken: first.out.confirmationToken });
    expect(second.out).toMatchObject({ status: "submitted", accepted: 2 });
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(1);
  });

  it("counts hours an earlier submission logged under another externalId, not the row's own", async () => {
    const h = await harness();
    await submit(h, { registrations: [ana(16)] });
    const other = await call(h, { registrations: [ana(16, { externalId: "other-system" })] });
    expect(other.r.isError).toBe(true);
    expect(other.text).toContain("already logged");
    // The same externalId replaces its registration: no second payment for the day.
    const same = await call(h, { registrations: [ana(16, { hours: 6 })] });
    expect(same.out.status, same.text).toBe("preview");
    expect(same.out.preview?.replacedRegistrations).toMatchObject([{ index: 0, unchanged: false }]);
    expect(same.text).toContain("replaces the registration under this externalId (2026-11-16:");
    expect(same.text).toContain("they are not added");
  });

  it("refuses at confirmation when a payment request appeared for a previewed day", async () => {
    const h = await harness();
    const registrations = [ana(16), ana(17)];
    const first = await call(h, { registrations });
    h.sandbox.edit((data) => {
      data.timesheets.set("elsewhere", {
        hireId: "hire_001",
        reportedDate: day(17),
        hours: 8,
        externalId: "elsewhere",
        isPayable: true,
      });
    });
    const second = await call(h, { registrations, confirmationToken: first.out.confirmationToken });
    expect(second.r.isError).toBe(true);
    expect(second.text).toContain("already logged");
    expect(second.text).toContain(`${day(17)}: payment request "PR-`);
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
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

  it("refuses a 5,000-deep meta as an argument error, sending nothing", async () => {
    const h = await harness();
    const { r, text: t } = await call(h, {
      registrations: [ana(20), ana(21, { meta: nested(5000) })],
    });
    expect(r.isError).toBe(true);
    expect(t).toContain("`registrations[1].meta`");
    expect(t).toContain(`more than ${MAX_META_DEPTH} levels`);
    expect(t).not.toMatch(/unexpected problem/);
    expect(h.sandbox.countRequests()).toBe(0);
  });

  it("refuses a meta over the size limit, naming every such row", async () => {
    const h = await harness();
    const big = { note: "x".repeat(MAX_META_BYTES) };
    const { r, text: t } = await call(h, {
      registrations: [ana(20), ana(21, { meta: big }), ana(19, { meta: big })],
    });
    expect(r.isError).toBe(true);
    expect(t).toContain("`registrations[1].meta`");
    expect(t).toContain(`more than ${MAX_META_BYTES}`);
    expect(t).toContain("registrations[2]");
    expect(h.sandbox.countRequests()).toBe(0);
  });

  it("takes meta as JSON object text, shows it in the preview and stores the object", async () => {
    const h = await harness();
    const args = { registrations: [ana(20, { meta: '{"costCenter": "CC-12"}' })] };
    const first = await call(h, args);
    expect(first.text).toContain('meta "{\\"costCenter\\":\\"CC-12\\"}"');
    const r = await call(h, { ...args, confirmationToken: first.out.confirmationToken });
    expect(r.r.isError, r.text).toBeFalsy();
    expect(r.out.accepted).toBe(1);
    expect(h.sandbox.timesheets.get(`ana-${day(20)}`)?.meta).toEqual({ costCenter: "CC-12" });
  });

  it("accepts a meta at the limits", async () => {
    const h = await harness();
    const r = await submit(h, { registrations: [ana(20, { meta: nested(MAX_META_DEPTH) })] });
    expect(r.r.isError, r.text).toBeFalsy();
    expect(r.out.accepted).toBe(1);
  });
});

describe("submit_timesheets submission", () => {
  it("sends chunks after confirmation, reports each row and progress; the same rows again replace", async () => {
    const h = await harness({ config: { timesheetChunkSize: 2 } });
    const registrations = [
      ana(16),
      ana(17),
      ana(18, { hireId: "hire_002", externalId: "harbor-18" }),
      ana(19),
      ana(20, { reference: "PO-1", isPayable: false, meta: { source: "erp" } }),
    ];
    const first = await call(h, { registrations });
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const r = await h.client.callTool(
      {
        name: "submit_timesheets",
        arguments: { registrations, confirmationToken: first.out.confirmationToken },
      },
      { onprogress: (p) => progress.push(p) },
    );
    const out = r.structuredContent as unknown as Out;
    expect(out).toMatchObject({ status: "submitted", accepted: 5, rejected: 0, notSent: 0 });
    expect(textOf(r)).toContain("payment requests");
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(3);
    const sent = progress.filter((p) => p.message?.startsWith("sent "));
    expect(sent.map((p) => p.progress)).toEqual([2, 4, 5]);
    expect(sent.every((p) => p.total === 5)).toBe(true);
    expect(h.sandbox.timesheets.size).toBe(5);
    expect(h.sandbox.timesheets.get(`ana-${day(20)}`)).toMatchObject({
      reference: "PO-1",
      isPayable: false,
    });

    // The same rows again: each replaces its own registration, flagged as unchanged.
    const again = await call(h, { registrations });
    expect(again.out.preview?.replacedRegistrations.every((x) => x.unchanged)).toBe(true);
    expect(again.text).toContain("registered exactly so already under this externalId");
    const done = await call(h, { registrations, confirmationToken: again.out.confirmationToken });
    expect(done.out.accepted).toBe(5);
    expect(h.sandbox.timesheets.size).toBe(5);
  });

  it("keeps the accepted rows when the platform refuses a later chunk, and says which were not sent", async () => {
    const h = await harness({ config: { timesheetChunkSize: 2, maxRetries: 0 } });
    const registrations = [ana(16), ana(17), ana(18), ana(19), ana(20)];
    const first = await call(h, { registrations });
    // Let the first chunk through, then refuse the next one (the rate limit: not carried out).
    let calls = 0;
    const original = h.platform.run.bind(h.platform);
    h.platform.run = (async (op: { name: string }, vars: never, opts: never) => {
      if (op.name === "SubmitTimesheets" && ++calls === 2) {
        h.sandbox.faults.inject("rate-limit", { count: 1, operationName: "SubmitTimesheets" });
      }
      return original(op as never, vars, opts);
    }) as typeof h.platform.run;
    const {
      r,
      out,
      text: t,
    } = await call(h, {
      registrations,
      confirmationToken: first.out.confirmationToken,
    });
    expect(r.isError).toBe(true);
    expect(out).toMatchObject({ status: "stopped", accepted: 2, notSent: 3, unknown: 0 });
    expect(out.rows?.filter((x) => x.outcome === "not-sent").map((x) => x.index)).toEqual([
      2, 3, 4,
    ]);
    expect(t).toContain("3 rows were not sent; the rows before them were");
    expect(h.sandbox.timesheets.size).toBe(2);
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(2);
  });

  it("says the outcome is unknown when the first chunk's answer is an internal failure", async () => {
    const h = await harness();
    const registrations = [ana(16)];
    const first = await call(h, { registrations });
    h.sandbox.faults.inject("internal-error", { count: 50, operationName: "SubmitTimesheets" });
    const {
      r,
      out,
      text: t,
    } = await call(h, {
      registrations,
      confirmationToken: first.out.confirmationToken,
    });
    expect(r.isError).toBe(true);
    expect(out).toMatchObject({ status: "outcome-unknown", unknown: 1, accepted: 0 });
    expect(t).toContain("UNKNOWN");
    expect(t).not.toMatch(/try again|safe to|call \w+ again/i);
    // Sent once, never replayed.
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(1);
  });
});
