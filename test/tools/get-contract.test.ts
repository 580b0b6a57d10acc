// get_contract through a real MCP client against the sandbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";

interface Out {
  id: string;
  status: string;
  jobName: string;
  startDate: string | null;
  endDate: string | null;
  currency: string;
  rate: number | null;
  rateType: string | null;
  paymentTerms: string;
  hireId: string | null;
  isLatest: boolean | null;
  worker: { name: string } | null;
  company: { id: string; name: string };
  files: { name: string; url: string }[];
  otherContracts: { id: string; status: string }[];
  hiddenFields: string[];
}

type Result = Awaited<ReturnType<Harness["client"]["callTool"]>>;
const text = (r: Result) => (r.content as { text: string }[]).map((c) => c.text).join("\n");

describe("get_contract", () => {
  let h: Harness;
  const call = (args: Record<string, unknown>) =>
    h.client.callTool({ name: "get_contract", arguments: args });
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("returns a hire's latest contract with terms, files and the earlier contract", async () => {
    const r = await call({ hireId: "hire_001" });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as unknown as Out;
    expect(out).toMatchObject({
      id: "ctr_002",
      status: "ACTIVE",
      hireId: "hire_001",
      isLatest: true,
      rate: 725,
      currency: "DKK",
      rateType: "HOURLY",
      worker: { name: "Ana Costa" },
      company: { id: "cmp_nordlys" },
      hiddenFields: [],
    });
    expect(out.paymentTerms).toMatch(/^(Net \d+ days|End of month \+ \d+ days)$/);
    expect(out.files).toHaveLength(2);
    expect(out.files[0]?.url).toMatch(/^https?:\/\//);
    expect(out.otherContracts).toEqual([
      expect.objectContaining({ id: "ctr_001", status: "ARCHIVED" }),
    ]);
    const t = text(r);
    expect(t).toContain("expire");
    expect(t).toContain("ctr_001 (archived)");
    expect(t).toContain("new contract id; the hire keeps its id");
  });

  it("finds the hire of a contract id, including an archived one", async () => {
    const latest = (await call({ contractId: "ctr_002" })).structuredContent as unknown as Out;
    expect(latest).toMatchObject({ id: "ctr_002", hireId: "hire_001", isLatest: true });
    const old = await call({ contractId: "ctr_001" });
    const out = old.structuredContent as unknown as Out;
    expect(out).toMatchObject({ id: "ctr_001", status: "ARCHIVED", hireId: "hire_001" });
    expect(out.isLatest).toBe(false);
    expect(out.otherContracts.map((c) => c.id)).toEqual(["ctr_002"]);
    expect(text(old)).toContain("not the latest");
  });

  it("needs exactly one of contractId and hireId", async () => {
    for (const args of [{}, { contractId: "ctr_002", hireId: "hire_001" }]) {
      const r = await call(args);
      expect(r.isError).toBe(true);
      expect(text(r)).toContain("contractId");
      expect(text(r)).toContain("hireId");
    }
  });

  it("says an unknown contract id is unknown and points to search_hires", async () => {
    const r = await call({ contractId: "ctr_999999" });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("ctr_999999");
    expect(text(r)).toContain("search_hires");
    const hire = await call({ hireId: "hire_999999" });
    expect(hire.isError).toBe(true);
    expect(text(hire)).toContain("search_hires");
  });

  it("reports a platform failure as an error after the retries", async () => {
    h.sandbox.faults.inject("internal-error", { count: 10, operationName: "HireContract" });
    try {
      const r = await call({ hireId: "hire_001" });
      expect(r.isError).toBe(true);
      expect(text(r).toLowerCase()).toContain("try again");
    } finally {
      h.sandbox.faults.clear();
    }
  });
});

describe("get_contract with the limited token", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ token: "limited" });
  });
  afterAll(async () => {
    await h.close();
  });

  it("shows the contract with the rate hidden and says so", async () => {
    const r = await h.client.callTool({ name: "get_contract", arguments: { hireId: "hire_001" } });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as unknown as Out;
    expect(out.id).toBe("ctr_002");
    expect(out.rate).toBeNull();
    expect(out.hiddenFields).toEqual(["rate"]);
    expect(text(r)).toContain("Rates are hidden for your account.");
  });

  it("refuses another company's hire as not authorised", async () => {
    const r = await h.client.callTool({ name: "get_contract", arguments: { hireId: "hire_002" } });
    expect(r.isError).toBe(true);
    expect(text(r).toLowerCase()).toMatch(/not (be )?(allowed|authori[sz]ed)|may not/);
  });
});
