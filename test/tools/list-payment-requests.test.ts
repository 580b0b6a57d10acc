// list_payment_requests through a real MCP client against the sandbox (today 2026-11-22, a Sunday).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentsState } from "../../src/sandbox/domains/payments/store.js";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";
import { gql } from "../sandbox/helpers.js";

interface RequestOut {
  id: string;
  number: string;
  hireId: string | null;
  worker: { id: string; name: string };
  company: { id: string; name: string };
  startDate: string | null;
  endDate: string | null;
  status: string;
  submittedOn: string;
  approvedOn: string | null;
  currency: string;
  amount: number;
  rate: number | null;
  rateType: string | null;
  quantity: number;
  hours: number | null;
  registrations: { date: string; duration: number; unit: string; billable: boolean }[] | null;
}
interface Out {
  paymentRequests: RequestOut[];
  totals: {
    currency: string;
    payable: number;
    approved: number;
    awaitingApproval: number;
    rejected: number;
    cancelled: number;
    count: number;
  }[];
  totalHours: number;
  hoursInPeriod: number | null;
  totalsCover: { requests: number; of: number };
  page: { page: number; total: number; hasMore: boolean; summary: string };
  hiddenFields: string[];
}

type Result = Awaited<ReturnType<Harness["client"]["callTool"]>>;
const text = (r: Result) => (r.content as { text: string }[]).map((c) => c.text).join("\n");
const cents = (n: number) => Math.round(n * 100) / 100;
const LAST_WEEK = { from: "2026-11-09", to: "2026-11-15" };

describe("list_payment_requests", () => {
  let h: Harness;
  const call = (name: string, args: Record<string, unknown>) =>
    h.client.callTool({ name, arguments: args });
  const list = (args: Record<string, unknown>) => call("list_payment_requests", args);
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("answers what hours Ana logged last week in two calls, day by day", async () => {
    const found = await call("search_hires", { search: "Ana Costa" });
    const hireId = (found.structuredContent as { hires: { id: string }[] }).hires[0]?.id;
    expect(hireId).toBe("hire_001");

    const r = await list({ hires: [hireId], period: LAST_WEEK, includeHours: true });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as unknown as Out;
    expect(out.paymentRequests).toHaveLength(1);
    const week = out.paymentRequests[0] as RequestOut;
    expect(week).toMatchObject({
      hireId: "hire_001",
      worker: { name: "Ana Costa" },
      startDate: LAST_WEEK.from,
      endDate: LAST_WEEK.to,
      currency: "DKK",
      rate: 725,
    });
    const days = week.registrations ?? [];
    expect(days.length).toBeGreaterThanOrEqual(3);
    const logged = cents(days.reduce((s, d) => s + d.duration, 0));
    expect(week.hours).toBe(logged);
    expect(out.hoursInPeriod).toBe(logged);
    expect(out.totalHours).toBe(logged);
    expect(week.amount).toBe(cents(logged * 725));

    const t = text(r);
    expect(t).toContain('"Ana Costa"');
    expect(t).toContain(`${LAST_WEEK.from} – ${LAST_WEEK.to}`);
    expect(t).toContain("Daily hours:");
    for (const d of days) expect(t).toContain(`${d.date} ${d.duration} h`);
    expect(t).toContain(
      `Hours logged within ${LAST_WEEK.from} – ${LAST_WEEK.to}: ${logged}, from the daily hours of the request shown.`,
    );
  });

  it("keeps daily hours to the period when a request covers more", async () => {
    // Ana's weekly requests: a period of two days falls inside one week.
    const r = await list({
      hires: ["hire_001"],
      period: { from: "2026-11-10", to: "2026-11-11" },
      includeHours: true,
    });
    const out = r.structuredContent as unknown as Out;
    expect(out.paymentRequests).toHaveLength(1);
    const dates = out.paymentRequests[0]?.registrations?.map((d) => d.date) ?? [];
    expect(dates.every((d) => d === "2026-11-10" || d === "2026-11-11")).toBe(true);
    expect(text(r)).toMatch(
      /Daily hours within 2026-11-10 – 2026-11-11: .*; \d+ days logged outside it, left out\./,
    );
  });

  it("says what is logged when a request only overlaps the period, the hours within it first", async () => {
    // Ana's week of 2026-11-09 – 2026-11-15 has hours on weekdays only; the weekend holds none.
    const r = await list({
      hires: ["hire_001"],
      period: { from: "2026-11-14", to: "2026-11-15" },
      includeHours: true,
    });
    const out = r.structuredContent as unknown as Out;
    const week = out.paymentRequests[0] as RequestOut;
    expect(week.startDate).toBe("2026-11-09");
    expect(out.hoursInPeriod).toBe(0);
    const lines = text(r).split("\n");
    expect(lines).toContain(
      "  Daily hours: none within 2026-11-14 – 2026-11-15; 4 days logged outside it.",
    );
    expect(text(r)).not.toContain("none logged on a timesheet");
    const within = lines.findIndex((l) =>
      l.startsWith(
        "Hours logged within 2026-11-14 – 2026-11-15: 0, from the daily hours of the request shown.",
      ),
    );
    const payable = lines.findIndex((l) =>
      l.includes(
        `Payable hours on hourly requests, over their whole billing periods: ${week.hours}.`,
      ),
    );
    expect(within).toBeGreaterThanOrEqual(0);
    expect(payable).toBeGreaterThan(within);
  });

  it("lists the unapproved payment requests in one call", async () => {
    const r = await list({ statuses: ["unapproved"], first: 100 });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as unknown as Out;
    const truth = await gql<{ paymentRequests: { paginatorInfo: { total: number } } }>(
      h.sandbox,
      "{ paymentRequests(statuses: [UNAPPROVED]) { paginatorInfo { total } } }",
    );
    expect(out.page.total).toBe(truth.data?.paymentRequests.paginatorInfo.total);
    expect(out.paymentRequests.length).toBeGreaterThan(3);
    expect(out.paymentRequests.every((p) => p.status === "UNAPPROVED" && !p.approvedOn)).toBe(true);
    const rows = text(r)
      .split("\n")
      .filter((l) => l.startsWith("- "))
      .join("\n");
    expect(rows.match(/awaiting approval/g)?.length).toBe(out.paymentRequests.length);
    expect(rows).not.toMatch(/approved \d{4}-/);
  });

  it("totals every page per currency and status; rejected and cancelled are not payable", async () => {
    const period = { from: "2026-06-01", to: "2026-12-31" };
    const r = await list({ period, first: 20 });
    const out = r.structuredContent as unknown as Out;
    expect(out.page.hasMore).toBe(true);
    // Every matching request, read page by page through the tool itself.
    const all: RequestOut[] = [];
    for (let page = 1; ; page++) {
      const p = (await list({ period, first: 100, page })).structuredContent as unknown as Out;
      all.push(...p.paymentRequests);
      if (!p.page.hasMore) break;
    }
    expect(all.length).toBe(out.page.total);
    expect(out.totalsCover).toEqual({ requests: all.length, of: all.length });
    const sum = (rows: RequestOut[]) => cents(rows.reduce((s, p) => s + p.amount, 0));
    expect(out.totals.map((t) => t.currency)).toEqual(["DKK", "EUR", "USD"]);
    let notPayable = 0;
    for (const t of out.totals) {
      const mine = all.filter((p) => p.currency === t.currency);
      const by = (status: string) => mine.filter((p) => p.status === status);
      expect(t.count).toBe(mine.length);
      expect(t.approved).toBe(sum(by("APPROVED")));
      expect(t.awaitingApproval).toBe(sum(by("UNAPPROVED")));
      expect(t.rejected).toBe(sum(by("REJECTED")));
      expect(t.cancelled).toBe(sum(by("CANCELLED")));
      expect(t.payable).toBe(cents(t.approved + t.awaitingApproval));
      notPayable += by("REJECTED").length + by("CANCELLED").length;
    }
    // The seed has some rejected or cancelled requests in this half year: the split is real.
    expect(notPayable).toBeGreaterThan(0);
    const payableHours = all.filter(
      (p) => p.rateType === "HOURLY" && (p.status === "APPROVED" || p.status === "UNAPPROVED"),
    );
    expect(out.totalHours).toBe(cents(payableHours.reduce((s, p) => s + p.quantity, 0)));
    // The totals come first, before the page and its rows.
    const lines = text(r).split("\n");
    const at = lines.findIndex((l) => l.startsWith("Totals over all "));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at]).toMatch(
      new RegExp(
        `^Totals over all ${all.length} requests: DKK [\\d,]+\\.\\d\\d payable \\(approved [\\d,.]+`,
      ),
    );
    expect(lines[at]).toContain("not counted: ");
    expect(lines.findIndex((l) => l.startsWith("- "))).toBeGreaterThan(at);
    expect(text(r)).toContain("ask for page 2");
  });

  it("gives the totals alone with first: 0, the same totals in a few hundred bytes", async () => {
    const period = { from: "2026-06-01", to: "2026-12-31" };
    const withRows = (await list({ period })).structuredContent as unknown as Out;
    const r = await list({ period, first: 0 });
    expect(r.isError, text(r)).toBeFalsy();
    const out = r.structuredContent as unknown as Out;
    expect(out.paymentRequests).toEqual([]);
    expect(out.totals).toEqual(withRows.totals);
    expect(out.totalHours).toBe(withRows.totalHours);
    expect(out.totalsCover).toEqual(withRows.totalsCover);
    const lines = text(r)
      .split("\n")
      .filter((l) => !l.startsWith("[Sandbox]"));
    expect(lines[0]).toMatch(/^Totals over all \d+ requests: /);
    expect(lines).toContain(`${withRows.page.total} requests match; rows left out (first: 0).`);
    expect(lines.some((l) => l.startsWith("- "))).toBe(false);
    // The payable hours say they cover the requests' whole billing periods, not only the period.
    expect(lines.join("\n")).toContain(
      `Payable hours on hourly requests, over their whole billing periods: ${withRows.totalHours}.`,
    );
    expect(Buffer.byteLength(text(r))).toBeLessThan(700);
  });

  it("says what the totals cover when more than 1,000 requests match", async () => {
    const big = await startHarness();
    try {
      // 800 more requests like the seeded ones, so more than 1,000 match.
      big.sandbox.edit((data) => {
        const state = paymentsState(data);
        const seeded = [...state.seeded];
        for (let i = 0; i < 800; i++) {
          const like = seeded[i % seeded.length] as (typeof seeded)[number];
          state.seeded.push({ ...like, id: `pr_x${i}`, number: `PR-X${i}` });
        }
      });
      const r = await big.client.callTool({
        name: "list_payment_requests",
        arguments: { first: 5 },
      });
      const out = r.structuredContent as unknown as Out;
      expect(out.page.total).toBeGreaterThan(1000);
      expect(out.totalsCover).toEqual({ requests: 1000, of: out.page.total });
      expect(out.totals.reduce((n, t) => n + t.count, 0)).toBe(1000);
      expect(text(r)).toContain(
        `Totals over the newest 1000 of ${out.page.total} requests (the most read): `,
      );
    } finally {
      await big.close();
    }
  });

  it("finds a company's spend for a quarter: every request overlaps it", async () => {
    const r = await list({
      accounts: ["cmp_harbor"],
      period: { from: "2026-10-01", to: "2026-12-31" },
      first: 100,
    });
    const out = r.structuredContent as unknown as Out;
    expect(out.paymentRequests.length).toBeGreaterThan(5);
    for (const p of out.paymentRequests) {
      expect(p.company.id).toBe("cmp_harbor");
      expect((p.startDate as string) <= "2026-12-31" && (p.endDate as string) >= "2026-10-01").toBe(
        true,
      );
    }
    expect(out.totals).toEqual([
      expect.objectContaining({ currency: "USD", count: out.paymentRequests.length }),
    ]);
    expect(text(r)).toContain('"Harbor & Pine Inc."');
    expect(text(r)).toMatch(/^Totals over all \d+ requests: USD [\d,]+\.\d\d payable/m);
  });

  it("refuses a period that ends before it starts", async () => {
    const r = await list({ period: { from: "2026-11-15", to: "2026-11-09" } });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("period");
    const bad = await list({ period: { from: "2026-02-30" } });
    expect(bad.isError).toBe(true);
  });
});

describe("list_payment_requests with the limited token", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ token: "limited" });
  });
  afterAll(async () => {
    await h.close();
  });

  it("shows Nordlys' requests with amounts, the rate hidden, and says so", async () => {
    const r = await h.client.callTool({
      name: "list_payment_requests",
      arguments: { statuses: ["UNAPPROVED"], first: 100 },
    });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as unknown as Out;
    expect(out.paymentRequests.length).toBeGreaterThan(0);
    expect(out.paymentRequests.every((p) => p.company.id === "cmp_nordlys")).toBe(true);
    expect(out.paymentRequests.every((p) => p.rate === null && p.amount > 0)).toBe(true);
    expect(out.hiddenFields).toEqual(["rate"]);
    const t = text(r);
    expect(t).toContain("rate hidden");
    expect(t).toContain("Rates are hidden for your account.");
    expect(t).toMatch(/DKK [\d,]+\.\d\d/);
  });

  it("refuses another company's hire as one it cannot see, not a silent empty list", async () => {
    const r = await h.client.callTool({
      name: "list_payment_requests",
      arguments: { hires: ["hire_002"] },
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('no hire you can see has the id "hire_002"');
    expect(text(r)).not.toContain("No results.");
  });
});
