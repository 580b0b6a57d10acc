// get_contract through a real MCP client against the sandbox.
import { describe, expect, it } from "vitest";
import { textOf, useSharedHarness } from "../helpers/tool-calls.js";

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
  activeContractId: string | null;
  pendingContractChanges: boolean | null;
  worker: { name: string } | null;
  company: { id: string; name: string };
  pdfUrl: string | null;
  files: { name: string; url: string }[];
  draftContract: {
    id: string;
    status: string;
    rate: number | null;
    startDate: string | null;
    pdfUrl: string | null;
  } | null;
  otherContracts: { id: string; status: string }[];
  hiddenFields: string[];
}

describe("get_contract", () => {
  const harness = useSharedHarness();
  const call = (args: Record<string, unknown>) =>
    harness().client.callTool({ name: "get_contract", arguments: args });

  it("returns a hire's active contract with terms, files and the other contracts", async () => {
    const r = await call({ hireId: "hire_001" });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as unknown as Out;
    expect(out).toMatchObject({
      id: "ctr_002",
      status: "ACTIVE",
      hireId: "hire_001",
      // The unsigned draft is the latest contract now; the active one holds the terms in force.
      isLatest: false,
      activeContractId: "ctr_002",
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
      expect.objectContaining({ id: "ctr_065", status: "DRAFT" }),
    ]);
    const t = textOf(r);
    expect(t).toContain("expire");
    expect(t).toContain("ctr_001 (archived)");
    expect(t).toContain("new contract id; the hire keeps its id");
  });

  it("answers Ana's rate with the active terms and names the unsigned change apart", async () => {
    const r = await call({ hireId: "hire_001" });
    const out = r.structuredContent as unknown as Out;
    expect(out).toMatchObject({ id: "ctr_002", rate: 725, pendingContractChanges: true });
    expect(out.draftContract).toMatchObject({
      id: "ctr_065",
      status: "DRAFT",
      rate: 780,
      startDate: "2027-01-01",
    });
    const lines = textOf(r).split("\n");
    const first = lines.findIndex((l) => l.startsWith("Contract "));
    expect(lines[first]).toBe(
      'Contract ctr_002 (active: the terms in force): job "Senior Backend Engineer"',
    );
    expect(lines).toContain("Rate: DKK 725.00 hourly; payment terms: End of month + 30 days");
    expect(lines).toContain(
      "Unsigned change pending: contract ctr_065 (draft), DKK 780.00 hourly, 2027-01-01 – 2027-07-20; not signed yet. The terms above stay in force until it is accepted.",
    );
    // The draft's rate never appears as the current one.
    const rateLine = lines.find((l) => l.startsWith("Rate: ")) as string;
    expect(rateLine).not.toContain("780");
  });

  it("gives the contract document (pdfUrl) beside the attachments, and says the links expire", async () => {
    const r = await call({ hireId: "hire_001" });
    const out = r.structuredContent as unknown as Out;
    expect(out.pdfUrl).toMatch(
      /^https?:\/\/\S+\/files\/contracts\/ctr_002\.pdf\?expires=\d+&signature=/,
    );
    expect(out.files.map((f) => f.name)).toEqual(["Statement of work.pdf", "NDA.pdf"]);
    expect(out.files.map((f) => f.url)).not.toContain(out.pdfUrl);
    expect(out.draftContract?.pdfUrl).toMatch(/\/files\/contracts\/ctr_065\.pdf\?/);
    const lines = textOf(r).split("\n");
    expect(lines).toContain(
      `Contract document (PDF; the link expires, ask again for a fresh one): ${out.pdfUrl}`,
    );
    expect(lines).toContain("Attachments (download links expire; ask again for fresh ones):");
    expect(lines).toContain(
      `Its document (not signed; the link expires): ${out.draftContract?.pdfUrl}`,
    );
  });

  it("says plainly when a hire has no active contract and shows the latest with its status", async () => {
    const r = await call({ hireId: "hire_003" });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as unknown as Out;
    expect(out).toMatchObject({
      id: "ctr_004",
      status: "DRAFT",
      hireId: "hire_003",
      isLatest: true,
      activeContractId: null,
      pendingContractChanges: false,
      draftContract: null,
    });
    expect(out.pdfUrl).toMatch(/\/files\/contracts\/ctr_004\.pdf\?/);
    const lines = textOf(r).split("\n");
    const first = lines.findIndex((l) => l.startsWith("Hire hire_003"));
    expect(lines[first]).toBe(
      "Hire hire_003 (DRAFT) has no active contract: no terms are in force. Its latest contract, status draft:",
    );
    expect(lines[first + 1]).toBe(
      'Contract ctr_004 (draft, latest, not signed yet): job "Data Analyst"',
    );
    const ended = await call({ hireId: "hire_004" });
    expect(textOf(ended)).toContain("Hire hire_004 (ENDED) has no active contract");
    expect(textOf(ended)).toContain("Contract ctr_005 (archived, latest)");
  });

  it("finds the hire of a contract id, including an archived one and the draft", async () => {
    const active = (await call({ contractId: "ctr_002" })).structuredContent as unknown as Out;
    expect(active).toMatchObject({
      id: "ctr_002",
      hireId: "hire_001",
      isLatest: false,
      activeContractId: "ctr_002",
      draftContract: { id: "ctr_065", rate: 780 },
    });
    expect(active.pdfUrl).toMatch(/\/files\/contracts\/ctr_002\.pdf\?/);
    const old = await call({ contractId: "ctr_001" });
    const out = old.structuredContent as unknown as Out;
    expect(out).toMatchObject({ id: "ctr_001", status: "ARCHIVED", hireId: "hire_001" });
    expect(out.isLatest).toBe(false);
    expect(out.otherContracts.map((c) => c.id)).toEqual(["ctr_002", "ctr_065"]);
    expect(textOf(old)).toContain("not the latest");
    expect(textOf(old)).toContain(
      "Not the terms in force: those are in the hire's active contract ctr_002.",
    );
    const draft = await call({ contractId: "ctr_065" });
    const d = draft.structuredContent as unknown as Out;
    expect(d).toMatchObject({ status: "DRAFT", isLatest: true, rate: 780, draftContract: null });
    expect(textOf(draft)).toContain("Contract ctr_065 (draft, latest, not signed yet)");
    expect(textOf(draft)).toContain("Contract document (PDF, not signed yet; the link expires");
    expect(textOf(draft)).toContain("active contract ctr_002");
  });

  it("needs exactly one of contractId and hireId", async () => {
    for (const args of [{}, { contractId: "ctr_002", hireId: "hire_001" }]) {
      const r = await call(args);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain("contractId");
      expect(textOf(r)).toContain("hireId");
    }
  });

  it("says an unknown contract id is unknown and points to search_hires", async () => {
    const r = await call({ contractId: "ctr_999999" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("ctr_999999");
    expect(textOf(r)).toContain("search_hires");
    const hire = await call({ hireId: "hire_999999" });
    expect(hire.isError).toBe(true);
    expect(textOf(hire)).toContain("search_hires");
  });

  it("reports a platform failure as an error after the retries", async () => {
    const h = harness();
    h.sandbox.faults.inject("internal-error", { count: 10, operationName: "HireContract" });
    try {
      const r = await call({ hireId: "hire_001" });
      expect(r.isError).toBe(true);
      expect(textOf(r).toLowerCase()).toContain("try again");
    } finally {
      h.sandbox.faults.clear();
    }
  });
});

describe("get_contract with the limited token", () => {
  const harness = useSharedHarness({ token: "limited" });

  it("shows the contract with the rate hidden and says so", async () => {
    const h = harness();
    const r = await h.client.callTool({ name: "get_contract", arguments: { hireId: "hire_001" } });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as unknown as Out;
    expect(out.id).toBe("ctr_002");
    expect(out.rate).toBeNull();
    expect(out.draftContract).toMatchObject({ id: "ctr_065", rate: null });
    expect(out.hiddenFields).toEqual(["rate"]);
    expect(textOf(r)).toContain("Rates are hidden for your account.");
  });

  it("refuses another company's hire as not authorised", async () => {
    const h = harness();
    const r = await h.client.callTool({ name: "get_contract", arguments: { hireId: "hire_002" } });
    expect(r.isError).toBe(true);
    expect(textOf(r).toLowerCase()).toMatch(/not (be )?(allowed|authori[sz]ed)|may not/);
  });
});
