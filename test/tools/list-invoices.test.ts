// list_invoices through a real MCP client against the sandbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";

interface Invoice {
  number: string | null;
  date: string;
  dueDate: string;
  currency: string;
  grossAmount: number;
  openAmount: number;
  overdue: boolean;
  payer: string;
  payee: string;
  company: { id: string; name: string };
}
interface Out {
  invoices: Invoice[];
  totals: { currency: string; gross: number; open: number; count: number }[];
  totalsCoverOnlyThisPage: boolean;
  page: { page: number; total: number; lastPage: number; hasMore: boolean; summary: string };
  hiddenFields: string[];
}

type Result = Awaited<ReturnType<Harness["client"]["callTool"]>>;
const text = (r: Result) => (r.content as { text: string }[]).map((c) => c.text).join("\n");
const round2 = (n: number) => Math.round(n * 100) / 100;

describe("list_invoices", () => {
  let h: Harness;
  const call = async (args: Record<string, unknown>) => {
    const r = await h.client.callTool({ name: "list_invoices", arguments: args });
    return { r, out: r.structuredContent as unknown as Out };
  };
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("answers 'what do we owe in EUR?' with open invoices and totals", async () => {
    const { r, out } = await call({ status: ["unpaid", "Overdue"], currency: ["eur"], first: 100 });
    expect(r.isError).toBeFalsy();
    expect(out.invoices.length).toBeGreaterThan(0);
    for (const i of out.invoices) {
      expect(i.currency).toBe("EUR");
      expect(i.openAmount).toBeGreaterThan(0);
    }
    expect(out.totals).toHaveLength(1);
    const eur = out.totals[0];
    expect(eur?.currency).toBe("EUR");
    expect(eur?.open).toBe(round2(out.invoices.reduce((s, i) => s + i.openAmount, 0)));
    expect(eur?.gross).toBe(round2(out.invoices.reduce((s, i) => s + i.grossAmount, 0)));
    expect(out.totalsCoverOnlyThisPage).toBe(false);
    expect(text(r)).toMatch(/Totals: EUR [\d,]+\.\d\d gross, [\d,]+\.\d\d open/);
  });

  it("marks overdue invoices", async () => {
    const { r, out } = await call({ status: ["OVERDUE"], first: 100 });
    expect(out.invoices.length).toBeGreaterThan(0);
    for (const i of out.invoices) expect(i.overdue).toBe(true);
    expect(text(r)).toContain("OVERDUE");
    const paid = await call({ status: ["PAID"], first: 10 });
    for (const i of paid.out.invoices) {
      expect(i.overdue).toBe(false);
      expect(i.openAmount).toBe(0);
    }
  });

  it("says totals cover only this page when there are more pages, and pages on", async () => {
    const { r, out } = await call({ first: 5 });
    expect(out.page.hasMore).toBe(true);
    expect(out.totalsCoverOnlyThisPage).toBe(true);
    expect(text(r)).toContain("Totals for this page only");
    expect(out.page.summary).toContain("ask for page 2 for more");
    const next = await call({ first: 5, page: 2 });
    expect(next.out.page.page).toBe(2);
    expect(next.out.invoices.map((i) => i.number)).not.toEqual(out.invoices.map((i) => i.number));
    const last = await call({ first: 5, page: out.page.lastPage });
    expect(last.out.page.hasMore).toBe(false);
    const beyond = await call({ first: 5, page: out.page.lastPage + 1 });
    expect(beyond.out.invoices).toEqual([]);
    expect(beyond.out.totals).toEqual([]);
  });

  it("searches by number and filters by company", async () => {
    const { out: some } = await call({ first: 1 });
    const number = some.invoices[0]?.number as string;
    const { out } = await call({ search: number });
    expect(out.invoices.map((i) => i.number)).toContain(number);
    const castell = await call({ accounts: ["cmp_castell"], first: 100 });
    expect(castell.out.invoices.length).toBeGreaterThan(0);
    for (const i of castell.out.invoices) expect(i.company.id).toBe("cmp_castell");
  });

  it("sorts by due date", async () => {
    const { out } = await call({ orderBy: [{ column: "due_date", order: "asc" }], first: 20 });
    const due = out.invoices.map((i) => i.dueDate);
    expect(due).toEqual([...due].sort());
  });

  it("says so when nothing matches", async () => {
    const { r, out } = await call({ search: "no-such-invoice-zzz" });
    expect(out.invoices).toEqual([]);
    expect(text(r)).toContain("No results.");
  });

  it("refuses an unknown currency and a page size over 100", async () => {
    expect((await call({ currency: ["XYZ"] })).r.isError).toBe(true);
    expect((await call({ first: 500 })).r.isError).toBe(true);
  });

  it("reports a rate limit that outlasts the retries as an error saying to wait", async () => {
    h.sandbox.faults.inject("rate-limit", { count: 10, operationName: "ListInvoices" });
    try {
      const { r } = await call({});
      expect(r.isError).toBe(true);
      expect(text(r).toLowerCase()).toContain("wait");
    } finally {
      h.sandbox.faults.clear();
    }
  });
});

describe("list_invoices with the limited token", () => {
  it("sees only its own companies' invoices", async () => {
    const h = await startHarness({ token: "limited" });
    try {
      const r = await h.client.callTool({ name: "list_invoices", arguments: { first: 100 } });
      expect(r.isError).toBeFalsy();
      const out = r.structuredContent as unknown as Out;
      for (const i of out.invoices) expect(i.company.id).not.toBe("cmp_harbor");
    } finally {
      await h.close();
    }
  });
});
