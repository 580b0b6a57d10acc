// list_invoices through a real MCP client against the sandbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";

interface Invoice {
  number: string | null;
  date: string;
  dueDate: string;
  currency: string;
  grossAmount: number;
  netAmount: number;
  openAmount: number;
  overdue: boolean;
  payer: string;
  payee: string;
  type: string;
  company: { id: string; name: string };
}
interface Details {
  taxAmount: number;
  pdfUrl: string;
  rows: {
    id: string;
    text: string | null;
    worker: { id: string; name: string } | null;
    billed: {
      paymentRequest: string;
      startDate: string | null;
      endDate: string | null;
      quantity: number;
      rateType: string | null;
      rate: number | null;
      currency: string;
      amount: number;
    } | null;
  }[];
  rowsPage: { page: number; total: number; hasMore: boolean; summary: string };
}
interface Out {
  invoice: Details | null;
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

  it("shows one invoice by its number, with its rows and the PDF link", async () => {
    const { r, out } = await call({ search: "Ana Costa", first: 100 });
    expect(r.isError).toBeFalsy();
    const number = out.invoices[0]?.number as string;
    const one = await call({ number });
    expect(one.r.isError).toBeFalsy();
    const invoice = one.out.invoice as Details;
    const [entry] = one.out.invoices as [Invoice];
    expect(one.out.invoices).toHaveLength(1);
    expect(entry).toMatchObject({ number, currency: "DKK", company: { id: "cmp_nordlys" } });
    expect(invoice.pdfUrl).toMatch(/^https?:\/\/\S+\.pdf\?expires=\d+&signature=/);
    expect(entry.netAmount + invoice.taxAmount).toBeCloseTo(entry.grossAmount, 2);
    expect(invoice.rows.length).toBeGreaterThan(0);
    expect(invoice.rowsPage.total).toBe(invoice.rows.length);
    for (const row of invoice.rows) {
      expect(row.worker).toEqual({ id: "wrk_001", name: "Ana Costa" });
      expect(row.text).toMatch(/hours × DKK [\d,]+\.\d\d = DKK [\d,]+\.\d\d/);
    }
    const lines = text(one.r).split("\n");
    expect(lines.find((l) => l.startsWith("Invoice "))).toContain(`Invoice ${number} `);
    expect(lines).toContain(
      `Invoice document (PDF; the link expires, ask again for a fresh one): ${invoice.pdfUrl}`,
    );
    expect(lines).toContain(`Rows: ${invoice.rowsPage.summary}`);
    for (const row of invoice.rows) {
      const line = lines.find((l) => l.startsWith(`- ${row.id} "Ana Costa" (wrk_001): `));
      expect(line).toContain(`; text ${JSON.stringify(row.text)}`);
    }
  });

  it("shows each row's worker, hours, rate and amount, from the row's payment request", async () => {
    const { out } = await call({ search: "Ana Costa", first: 100 });
    const number = out.invoices.find((i) => i.type === "INVOICE")?.number as string;
    const one = await call({ number });
    const invoice = one.out.invoice as Details;
    const lines = text(one.r).split("\n");
    let billed = 0;
    for (const row of invoice.rows) {
      const b = row.billed;
      expect(b).not.toBeNull();
      if (!b) continue;
      billed += b.amount;
      expect(b).toMatchObject({ currency: "DKK", rateType: "HOURLY" });
      expect(b.paymentRequest).toMatch(/^PR-\d+$/);
      expect(b.quantity * (b.rate as number)).toBeCloseTo(b.amount, 0);
      // The sandbox's row text says the same hours: the two agree.
      expect(row.text).toContain(`${b.startDate} – ${b.endDate}: ${b.quantity} hours`);
      const line = lines.find((l) => l.startsWith(`- ${row.id} `)) ?? "";
      expect(line).toContain(
        `${b.startDate} – ${b.endDate}, ${b.quantity} hours at DKK ${(b.rate as number).toFixed(2)} hourly = DKK `,
      );
      expect(line).toContain(`(${b.paymentRequest})`);
    }
    expect(round2(billed)).toBe((one.out.invoices[0] as Invoice).netAmount);
  });

  it("finds an invoice by a short number: its last digits, with or without its letters", async () => {
    const all = await call({ first: 100 });
    const numbers = all.out.invoices.map((i) => i.number as string);
    const last = (n: string) => Number(n.split("-").at(-1));
    // An invoice whose last digits no other number shares, and one whose digits a credit note shares.
    const unique = numbers.find(
      (n) => n.startsWith("INV-") && numbers.filter((m) => last(m) === last(n)).length === 1,
    ) as string;
    const shared = numbers.find(
      (n) =>
        n.startsWith("CN-") && numbers.some((m) => m.startsWith("INV-") && last(m) === last(n)),
    ) as string;
    expect(unique).toBeDefined();
    expect(shared).toBeDefined();

    const digits = String(last(unique));
    for (const given of [digits, `INV-${digits.padStart(4, "0")}`, `inv ${digits}`]) {
      const found = await call({ number: given });
      expect(found.r.isError, given).toBeFalsy();
      expect(found.out.invoices[0]?.number).toBe(unique);
      expect(found.out.invoice?.rows.length).toBeGreaterThan(0);
      expect(text(found.r).split("\n")).toContain(
        `${given} is not a whole invoice number; the one invoice ending so is ${unique}.`,
      );
    }
    // Letters choose between an invoice and a credit note with the same digits.
    const n = last(shared);
    const credit = await call({ number: `CN-${n}` });
    expect(credit.out.invoices[0]?.number).toBe(shared);
    const both = await call({ number: String(n) });
    expect(both.r.isError).toBe(true);
    expect(text(both.r)).toContain(shared);
    expect(text(both.r)).toContain(`INV-${shared.split("-")[1]}-${shared.split("-")[2]}`);
    expect(text(both.r)).toContain("Give the whole number");
  });

  it("lists newest first when no order is given, as its description says", async () => {
    const tools = await h.client.listTools();
    const described = tools.tools.find((t) => t.name === "list_invoices");
    expect(JSON.stringify(described?.inputSchema)).toContain("default newest DATE first");
    const first = await call({ first: 10 });
    const second = await call({ first: 10, page: 2 });
    const dates = [...first.out.invoices, ...second.out.invoices].map((i) => i.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(new Set(dates).size).toBeGreaterThan(1);
  });

  it("pages an invoice's rows with first and page", async () => {
    const { out } = await call({ first: 100 });
    let found: Details | undefined;
    let number = "";
    for (const i of out.invoices) {
      const one = await call({ number: i.number as string });
      if ((one.out.invoice?.rows.length ?? 0) > 1) {
        found = one.out.invoice as Details;
        number = i.number as string;
        break;
      }
    }
    expect(found).toBeDefined();
    const second = await call({ number, first: 1, page: 2 });
    expect(second.out.invoice?.rows.map((r) => r.id)).toEqual([found?.rows[1]?.id]);
    expect(second.out.invoice?.rowsPage).toMatchObject({ page: 2, total: found?.rows.length });
  });

  it("says an unknown number is unknown, and refuses number with list filters", async () => {
    const unknown = await call({ number: "INV-1999-0001" });
    expect(unknown.r.isError).toBe(true);
    expect(text(unknown.r)).toContain("INV-1999-0001");
    const mixed = await call({ number: "INV-2026-0001", status: ["PAID"], search: "x" });
    expect(mixed.r.isError).toBe(true);
    expect(text(mixed.r)).toContain("status, search");
  });

  it("searches as the platform does: by PO number, worker name or amount", async () => {
    const byWorker = await call({ search: "ana costa", first: 100 });
    expect(byWorker.out.invoices.length).toBeGreaterThan(0);
    for (const i of byWorker.out.invoices) {
      const one = await call({ number: i.number as string });
      expect(one.out.invoice?.rows.some((r) => r.worker?.name === "Ana Costa")).toBe(true);
    }

    // A PO number, read from an invoice row that carries one.
    const { out: all } = await call({ first: 100 });
    let po: string | undefined;
    for (const i of all.invoices) {
      const one = await call({ number: i.number as string });
      po = one.out.invoice?.rows
        .map((r) => r.text?.match(/\(PO (PO-[A-Z]+-\d+)\)/)?.[1])
        .find(Boolean);
      if (po) break;
    }
    expect(po).toBeDefined();
    const byPo = await call({ search: po as string, first: 100 });
    expect(byPo.out.invoices.length).toBeGreaterThan(0);
    for (const i of byPo.out.invoices) {
      const one = await call({ number: i.number as string });
      expect(one.out.invoice?.rows.some((r) => r.text?.includes(`(PO ${po})`))).toBe(true);
    }

    const target = all.invoices[3] as Invoice;
    const amount = target.grossAmount.toLocaleString("en-US", { minimumFractionDigits: 2 });
    const byAmount = await call({ search: amount, first: 100 });
    expect(byAmount.out.invoices.map((i) => i.number)).toContain(target.number);
    for (const i of byAmount.out.invoices) {
      expect([Math.abs(i.grossAmount), Math.abs(i.netAmount)]).toContain(
        Math.abs(target.grossAmount),
      );
    }
  });

  it("filters by transaction type: credit notes", async () => {
    const { r, out } = await call({ transactionTypes: ["credit_note"], first: 100 });
    expect(r.isError).toBeFalsy();
    expect(out.invoices.length).toBeGreaterThan(0);
    for (const i of out.invoices) {
      expect(i.type).toBe("CREDIT_NOTE");
      expect(i.grossAmount).toBeLessThan(0);
    }
    for (const line of text(r)
      .split("\n")
      .filter((l) => l.startsWith("- "))) {
      expect(line).toMatch(/^- CN-\d{4}-\d{4} \(credit note\) /);
    }
  });

  it("orders by TOTAL_AMOUNT as the net total and says so", async () => {
    const { out } = await call({
      orderBy: [{ column: "TOTAL_AMOUNT", order: "DESC" }],
      first: 100,
    });
    const net = out.invoices.map((i) => i.netAmount);
    expect(net).toEqual([...net].sort((a, b) => b - a));
    const tools = await h.client.listTools();
    const tool = tools.tools.find((t) => t.name === "list_invoices");
    expect(JSON.stringify(tool?.inputSchema)).toContain("TOTAL_AMOUNT is the net total");
  });

  it("says there is no date filter and how to get to a period", async () => {
    const tools = await h.client.listTools();
    const description = tools.tools.find((t) => t.name === "list_invoices")?.description ?? "";
    expect(description).toContain("No date filter exists");
    expect(description).toContain("order by DATE");
    expect(description.length).toBeLessThanOrEqual(1024);
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
