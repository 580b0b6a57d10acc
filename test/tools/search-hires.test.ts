// search_hires through a real MCP client against the sandbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";
import { gql } from "../sandbox/helpers.js";

interface Terms {
  id: string;
  status: string;
  jobName: string;
  startDate: string | null;
  endDate: string | null;
  rate: number | null;
  rateType: string | null;
  currency: string;
}
interface HireOut {
  id: string;
  status: string;
  worker: { id: string; name: string; email: string | null };
  company: { id: string; name: string };
  startDate: string | null;
  endDate: string | null;
  activeContract: Terms | null;
  draftContract: Terms | null;
  latestContract: Terms | null;
}
interface Out {
  hires: HireOut[];
  page: {
    page: number;
    total: number;
    lastPage: number;
    from: number;
    to: number;
    hasMore: boolean;
    summary: string;
  };
  hiddenFields: string[];
}

const text = (r: Awaited<ReturnType<Harness["client"]["callTool"]>>) =>
  (r.content as { type: string; text: string }[]).map((c) => c.text).join("\n");

describe("search_hires", () => {
  let h: Harness;
  const call = (args: Record<string, unknown>) =>
    h.client.callTool({ name: "search_hires", arguments: args });
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("finds Ana's hire with company, dates, worker id and the active contract's terms", async () => {
    const r = await call({ search: "Ana Costa" });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as unknown as Out;
    const ana = out.hires.find((x) => x.id === "hire_001");
    expect(ana).toMatchObject({
      status: "ACTIVE",
      worker: { id: "wrk_001", name: "Ana Costa" },
      company: { id: "cmp_nordlys" },
      activeContract: { id: "ctr_002", status: "ACTIVE", rate: 725, currency: "DKK" },
    });
    expect(ana?.startDate).toBe("2026-07-25");
    expect(text(r)).toContain("hire_001");
    expect(text(r)).toContain("ctr_002");
    expect(text(r)).toContain("(worker wrk_001;");
    expect(out.hiddenFields).toEqual([]);
  });

  it("answers Ana's rate with the active terms and names the unsigned change apart", async () => {
    const r = await call({ search: "Ana Costa" });
    const ana = (r.structuredContent as unknown as Out).hires.find((x) => x.id === "hire_001");
    // The draft is the latest contract, but not the terms in force.
    expect(ana?.activeContract).toMatchObject({
      id: "ctr_002",
      status: "ACTIVE",
      rate: 725,
      rateType: "HOURLY",
      jobName: "Senior Backend Engineer",
    });
    expect(ana?.draftContract).toMatchObject({
      id: "ctr_065",
      status: "DRAFT",
      rate: 780,
      startDate: "2027-01-01",
    });
    expect(ana?.latestContract).toBeNull();
    const line = text(r)
      .split("\n")
      .find((l) => l.startsWith("- hire_001 ")) as string;
    expect(line).toContain(
      'job "Senior Backend Engineer", contract ctr_002 (active), DKK 725.00 hourly;',
    );
    expect(line).toContain(
      "unsigned change pending: contract ctr_065, DKK 780.00 hourly from 2027-01-01, not signed yet",
    );
    // The current rate comes first; the draft's only after "unsigned change pending".
    expect(line.indexOf("725.00")).toBeLessThan(line.indexOf("unsigned change pending"));
    expect(line.indexOf("780.00")).toBeGreaterThan(line.indexOf("unsigned change pending"));
  });

  it("says a draft hire has no active contract and shows its latest with its status", async () => {
    const r = await call({ activeStatus: ["DRAFT"], accounts: ["cmp_nordlys"], first: 100 });
    const out = r.structuredContent as unknown as Out;
    const draft = out.hires.find((x) => x.id === "hire_003");
    expect(draft).toMatchObject({
      activeContract: null,
      draftContract: { id: "ctr_004", status: "DRAFT", rate: 540 },
      latestContract: null,
    });
    const line = text(r)
      .split("\n")
      .find((l) => l.startsWith("- hire_003 ")) as string;
    expect(line).toContain(
      '— no active contract; latest contract ctr_004 (draft, not signed yet): job "Data Analyst", DKK 540.00 hourly',
    );
    const ended = await call({ search: "H-10004" });
    const hire = (ended.structuredContent as unknown as Out).hires[0];
    expect(hire).toMatchObject({
      id: "hire_004",
      activeContract: null,
      draftContract: null,
      latestContract: { id: "ctr_005", status: "ARCHIVED" },
    });
    expect(text(ended)).toContain("no active contract; latest contract ctr_005 (archived):");
  });

  it("filters by worker ids, contract status and external identifiers", async () => {
    const byWorker = (await call({ workers: ["wrk_001"] })).structuredContent as unknown as Out;
    expect(byWorker.hires.map((x) => x.id)).toEqual(["hire_001"]);

    const drafts = (await call({ contractStatus: ["draft"], first: 100 }))
      .structuredContent as unknown as Out;
    const ids = drafts.hires.map((x) => x.id);
    expect(ids).toContain("hire_001");
    expect(ids).toContain("hire_003");
    for (const x of drafts.hires) expect(x.draftContract?.status).toBe("DRAFT");

    const external = (await call({ externalIdentifiers: ["SAP-EMP-1001"] }))
      .structuredContent as unknown as Out;
    expect(external.hires.map((x) => x.id)).toEqual(["hire_001"]);

    const bad = await call({ contractStatus: ["SIGNED"] });
    expect(bad.isError).toBe(true);
  });

  it("filters by owner: a person's own hires, with the user id list_accounts gives", async () => {
    const me = (await h.client.callTool({ name: "list_accounts", arguments: {} }))
      .structuredContent as { viewer: { id: string } };
    const truth = await gql<{ hires: { data: { id: string; owners: { id: string }[] }[] } }>(
      h.sandbox,
      "{ hires(first: 100) { data { id owners { id } } } }",
    );
    const all = truth.data?.hires.data ?? [];
    const owned = all.filter((x) => x.owners.some((o) => o.id === me.viewer.id)).map((x) => x.id);
    expect(owned).toContain("hire_001");
    expect(owned.length).toBeLessThan(all.length);
    const r = await call({ owners: [me.viewer.id], first: 100 });
    expect(r.isError, text(r)).toBeFalsy();
    expect((r.structuredContent as unknown as Out).hires.map((x) => x.id).sort()).toEqual(
      owned.sort(),
    );
  });

  it("filters by status in any letter case and by company", async () => {
    const r = await call({ activeStatus: ["active"], accounts: ["cmp_nordlys"], first: 100 });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as unknown as Out;
    expect(out.hires.length).toBeGreaterThan(0);
    for (const x of out.hires) {
      expect(x.status).toBe("ACTIVE");
      expect(x.company.id).toBe("cmp_nordlys");
    }
    expect(out.hires.some((x) => x.id === "hire_003")).toBe(false);
  });

  it("filters by start date range and sorts", async () => {
    const r = await call({
      startDateRange: { from: "2026-12-01", to: "2027-03-31" },
      orderBy: [{ field: "start_date", order: "desc" }],
      first: 100,
    });
    const out = r.structuredContent as unknown as Out;
    expect(out.hires.length).toBeGreaterThan(0);
    const starts = out.hires.map((x) => x.startDate as string);
    for (const s of starts) expect(s >= "2026-12-01" && s <= "2027-03-31").toBe(true);
    expect([...starts].sort().reverse()).toEqual(starts);
  });

  it("filters by end date range", async () => {
    const r = await call({ endDateRange: { to: "2026-11-05" }, first: 100 });
    const out = r.structuredContent as unknown as Out;
    expect(out.hires.some((x) => x.id === "hire_004")).toBe(true);
    for (const x of out.hires) expect((x.endDate as string) <= "2026-11-05").toBe(true);
  });

  it("pages plainly: first page, page 2, the last page and past the end", async () => {
    const first = (await call({ first: 5 })).structuredContent as unknown as Out;
    expect(first.page).toMatchObject({ page: 1, from: 1, to: 5, hasMore: true });
    expect(first.page.summary).toContain("ask for page 2 for more");
    const second = await call({ first: 5, page: 2 });
    const p2 = second.structuredContent as unknown as Out;
    expect(p2.page).toMatchObject({ page: 2, from: 6, to: 10 });
    expect(p2.hires.map((x) => x.id)).not.toEqual(first.hires.map((x) => x.id));
    expect(text(second)).toContain(`6–10 of ${first.page.total}, page 2 of ${first.page.lastPage}`);
    const last = (await call({ first: 5, page: first.page.lastPage }))
      .structuredContent as unknown as Out;
    expect(last.page.hasMore).toBe(false);
    expect(last.page.summary).not.toContain("ask for page");
    const beyond = (await call({ first: 5, page: first.page.lastPage + 1 }))
      .structuredContent as unknown as Out;
    expect(beyond.hires).toEqual([]);
  });

  it("says so when nothing matches", async () => {
    const r = await call({ search: "nobody-by-this-name-zzz" });
    expect((r.structuredContent as unknown as Out).hires).toEqual([]);
    expect(text(r)).toContain("No results.");
  });

  it("refuses a date that does not exist and a reversed range", async () => {
    const bad = await call({ startDateRange: { from: "2026-02-30" } });
    expect(bad.isError).toBe(true);
    const reversed = await call({ endDateRange: { from: "2026-12-31", to: "2026-01-01" } });
    expect(reversed.isError).toBe(true);
    expect(text(reversed)).toContain("endDateRange");
  });

  it("refuses an unknown status", async () => {
    const r = await call({ activeStatus: ["WORKING"] });
    expect(r.isError).toBe(true);
  });

  it("refuses a misspelled filter, naming the right one, instead of answering every hire", async () => {
    const before = h.sandbox.requests.length;
    const r = await call({ status: ["ACTIVE"] });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain(
      "`status` is not an argument of search_hires; did you mean `activeStatus`?",
    );
    const nested = await call({ startDateRange: { begin: "2026-01-01" } });
    expect(nested.isError).toBe(true);
    expect(text(nested)).toContain(
      "`startDateRange.begin` is not a field of `startDateRange` of search_hires; did you mean `startDateRange.from`?",
    );
    const many = await call(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`x${i}`, 1])));
    expect(text(many).match(/is not an argument of search_hires/g)).toHaveLength(10);
    expect(text(many)).toContain("… and 2 more names it does not have.");
    expect(h.sandbox.requests.length).toBe(before);
  });

  it("turns a platform failure into an error with retry advice", async () => {
    h.sandbox.faults.inject("internal-error", { count: 10, operationName: "SearchHires" });
    try {
      const r = await call({ search: "Ana" });
      expect(r.isError).toBe(true);
      expect(text(r).toLowerCase()).toMatch(/try again/);
    } finally {
      h.sandbox.faults.clear();
    }
  });
});

describe("search_hires with the limited token", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ token: "limited" });
  });
  afterAll(async () => {
    await h.close();
  });

  it("shows the hires but names the hidden rate", async () => {
    const r = await h.client.callTool({ name: "search_hires", arguments: { search: "Ana" } });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as unknown as Out;
    const ana = out.hires.find((x) => x.id === "hire_001");
    expect(ana?.activeContract?.rate).toBeNull();
    expect(ana?.draftContract?.rate).toBeNull();
    expect(out.hiddenFields).toEqual(["rate"]);
    expect(text(r)).toContain("Rates are hidden for your account.");
  });

  it("does not see Harbor's hire", async () => {
    const r = await h.client.callTool({
      name: "search_hires",
      arguments: { first: 100, activeStatus: ["ACTIVE"] },
    });
    const out = r.structuredContent as unknown as Out;
    expect(out.hires.some((x) => x.id === "hire_002")).toBe(false);
  });
});

describe("search_hires: the dates, number and match people ask about", () => {
  let h: Harness;
  type Row = HireOut & { number: string; terminationDate: string | null };
  const search = async (args: Record<string, unknown>) => {
    const r = await h.client.callTool({ name: "search_hires", arguments: args });
    expect(r.isError, text(r)).toBeFalsy();
    return { r, hires: (r.structuredContent as unknown as { hires: Row[] }).hires };
  };
  const lineOf = (r: Parameters<typeof text>[0], id: string) =>
    text(r)
      .split("\n")
      .find((l) => l.startsWith(`- ${id} `)) ?? "";
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("shows a terminated hire's termination date, with the planned end apart", async () => {
    const { r, hires } = await search({ activeStatus: ["TERMINATED"], first: 1 });
    const t = hires[0] as Row;
    expect(t.terminationDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(t.terminationDate).not.toBe(t.endDate);
    const line = lineOf(r, t.id);
    expect(line).toContain(`terminated ${t.terminationDate} (planned end ${t.endDate})`);
    // The planned end is not shown as when it ended.
    expect(line).not.toContain(`– ${t.endDate}`);
  });

  it("shows the hire number, and finds the hire by it", async () => {
    const { hires } = await search({ search: "Ana Costa" });
    const ana = hires.find((x) => x.id === "hire_001") as Row;
    expect(ana.number).toMatch(/^H-\d+$/);
    const { r, hires: byNumber } = await search({ search: ana.number });
    expect(byNumber.map((x) => x.id)).toContain("hire_001");
    expect(lineOf(r, "hire_001")).toContain(`(no. ${ana.number})`);
    expect(lineOf(r, "hire_001")).not.toContain("matched the job title");
  });

  it("says when a hire matched on its job title rather than the worker", async () => {
    const { hires } = await search({ search: "Ana Costa" });
    const job = hires.find((x) => x.id === "hire_001")?.activeContract?.jobName as string;
    const { r, hires: byJob } = await search({ search: job, first: 100 });
    expect(byJob.length).toBeGreaterThan(0);
    expect(lineOf(r, "hire_001")).toContain("; matched the job title");
    const byName = await search({ search: "Ana Costa" });
    expect(lineOf(byName.r, "hire_001")).not.toContain("matched the job title");
  });
});
