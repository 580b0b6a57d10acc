// An id in a filter that matches nothing is an argument error that says so and how to find the
// right one, never a silent empty list; a name where an id belongs is read as that id when exactly
// one thing has it. Through a real MCP client against the sandbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";

type Result = Awaited<ReturnType<Harness["client"]["callTool"]>>;
const text = (r: Result) =>
  (r.content as { type: string; text: string }[]).map((c) => c.text).join("\n");

describe("ids in filters", () => {
  let full: Harness;
  let limited: Harness;
  const call = (h: Harness, name: string, args: Record<string, unknown>) =>
    h.client.callTool({ name, arguments: args });
  beforeAll(async () => {
    full = await startHarness();
    limited = await startHarness({ token: "limited" });
  });
  afterAll(async () => {
    await full.close();
    await limited.close();
  });

  it("search_hires: a company id the account cannot see is refused, naming it and the right ids", async () => {
    const r = await call(limited, "search_hires", { accounts: ["cmp_harbor"] });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("argument `accounts`");
    expect(text(r)).toContain(
      '"cmp_harbor" is neither the id nor the name of a company you can see',
    );
    expect(text(r)).toContain('"Nordlys Energi A/S" (cmp_nordlys)');
    expect(text(r)).not.toContain("No results");
  });

  it("search_hires: a company name in accounts is read as its id, and says so", async () => {
    const r = await call(full, "search_hires", { accounts: ["nordlys"] });
    expect(r.isError, text(r)).toBeFalsy();
    expect(text(r)).toContain('accounts: read "nordlys" as "Nordlys Energi A/S" (cmp_nordlys).');
    const hires = (r.structuredContent as { hires: { company: { id: string } }[] }).hires;
    expect(hires.length).toBeGreaterThan(0);
    expect(new Set(hires.map((h) => h.company.id))).toEqual(new Set(["cmp_nordlys"]));
  });

  it("a name several accounts share is refused with each one's id", async () => {
    const r = await call(full, "list_invoices", { accounts: ["a"] });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("several match it as a name");
    expect(text(r)).toContain("(cmp_harbor)");
    expect(text(r)).toContain("(cmp_castell)");
  });

  it("list_invoices and list_jobs refuse an unknown company id too", async () => {
    for (const tool of ["list_invoices", "list_jobs"]) {
      const r = await call(full, tool, { accounts: ["cmp_nowhere"] });
      expect(r.isError, tool).toBe(true);
      expect(text(r), tool).toContain('"cmp_nowhere" is neither the id nor the name');
    }
  });

  it("list_payment_requests: a worker id in hires is named as one, with that worker's hires", async () => {
    const r = await call(full, "list_payment_requests", { hires: ["wrk_001"] });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("argument `hires`");
    expect(text(r)).toContain("\"wrk_001\" is a worker's id, not a hire's");
    expect(text(r)).toContain('hire_001 ("Ana Costa" at "Nordlys Energi A/S")');
  });

  it("list_payment_requests: a hire id that does not exist is refused, saying how to find one", async () => {
    const r = await call(full, "list_payment_requests", { hires: ["hire_001", "hire_999"] });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('no hire you can see has the id "hire_999"');
    expect(text(r)).toContain("search_hires");
  });

  it("list_payment_requests: another company's hire is not visible, so it is refused", async () => {
    const theirs = await call(full, "search_hires", { accounts: ["cmp_harbor"], first: 1 });
    const id = (theirs.structuredContent as { hires: { id: string }[] }).hires[0]?.id;
    expect(id).toBeDefined();
    const r = await call(limited, "list_payment_requests", { hires: [id] });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain(`no hire you can see has the id "${id}"`);
  });

  it("list_payment_requests: the hire ids it knows still answer", async () => {
    const r = await call(full, "list_payment_requests", { hires: ["hire_001"] });
    expect(r.isError, text(r)).toBeFalsy();
    expect(text(r)).toContain("hire_001");
  });

  it("search_hires: a worker's name in workers is read as their id; an unknown one is refused", async () => {
    const named = await call(full, "search_hires", { workers: ["Ana Costa"] });
    expect(named.isError, text(named)).toBeFalsy();
    expect(text(named)).toContain('workers: read "Ana Costa" as "Ana Costa" (wrk_001).');
    const r = await call(full, "search_hires", { workers: ["wrk_nobody"] });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('no worker on a hire you can see has the id or name "wrk_nobody"');
  });

  it("search_hires: a real worker id is accepted beside a worker with more hires than one lookup reads", async () => {
    // wrk_001 gets 120 more hires, so one lookup of both workers fills its page with hers alone.
    let otherWorker = "";
    const busy = await startHarness({
      seedPatch: (data) => {
        const hire = data.hires.get("hire_001");
        if (!hire) throw new Error("seed has no hire_001");
        otherWorker =
          [...data.hires.values()].find((h) => h.workerId !== "wrk_001")?.workerId ?? "";
        // Ids that sort first (the platform's order is by id), so a lookup's page is all hers.
        for (let i = 100; i < 220; i++) {
          data.hires.set(`hire_000_${i}`, { ...hire, id: `hire_000_${i}` });
        }
      },
    });
    try {
      await call(busy, "list_accounts", {}); // the sandbox seeds on its first request
      const r = await call(busy, "search_hires", { workers: ["wrk_001", otherWorker] });
      expect(r.isError, text(r)).toBeFalsy();
      // Her 121 hires fill the page shown; the other worker's are counted in the total.
      const page = (r.structuredContent as { page: { total: number } }).page;
      expect(page.total).toBeGreaterThan(121);
    } finally {
      await busy.close();
    }
  });
});
