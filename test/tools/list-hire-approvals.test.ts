// list_hire_approvals through a real MCP client against the sandbox: what awaits the caller first,
// what waits for others, hidden rates, and the way to decide one only where that tool is reachable.
import { describe, expect, it } from "vitest";
import { APPROVAL_FIXTURES } from "../../src/sandbox/domains/approvals/seed.js";
import { callTool, useHarness } from "../helpers/tool-calls.js";

const TOOL = "list_hire_approvals";
const { amara, nadia, fatima, approved } = APPROVAL_FIXTURES;

interface Out {
  approvals: {
    id: string;
    canDecide: boolean;
    hire: { id: string; rate: number | null } | null;
  }[];
  total: number;
  hiddenFields: string[];
}

const harness = useHarness();

describe("list_hire_approvals", () => {
  it("lists what awaits the caller first, with ids, hire, worker and company, and changes nothing", async () => {
    const h = await harness();
    const { r, out, text } = await callTool<Out>(h, TOOL, {});
    expect(r.isError).toBeFalsy();
    const mine = out.approvals.filter((a) => a.canDecide).map((a) => a.id);
    expect(mine.sort()).toEqual([amara.request, "apr_002", nadia.request].sort());
    expect(out.approvals.find((a) => a.id === fatima.request)?.canDecide).toBe(false);
    expect(out.total).toBe(out.approvals.length);
    expect(text).toContain("3 hire approvals await your decision (oldest first):");
    expect(text).toMatch(
      /- apr_001: hire hire_005 \(READY\) "Amara Okafor" at "Nordlys Energi A\/S", job "[^"]+", 2026-12-21 – 2027-03-12, DKK [\d,.]+ hourly; flow "Rate above budget"; requested by "Freya Dahl" on 2026-11-06\./,
    );
    expect(text).toContain("1 more waits for other approvers (you cannot decide it):");
    expect(text).toContain('waits for "Castell legal"');
    // Decided requests are not listed.
    expect(text).not.toContain(approved.request);
    expect(text).toContain(
      'To decide one, call run_write_tool {"name": "review_hire_approval", "arguments": {…}} with approvalId and decision APPROVED or REJECTED',
    );
    expect(h.sandbox.requests.filter((q) => q.operationType === "mutation")).toEqual([]);
  });

  it("shows the limited account nothing to decide, with rates hidden", async () => {
    const h = await harness({ token: "limited" });
    const { r, out, text } = await callTool<Out>(h, TOOL, {});
    expect(r.isError).toBeFalsy();
    expect(out.approvals.length).toBeGreaterThan(0);
    expect(out.approvals.every((a) => !a.canDecide && a.hire?.rate === null)).toBe(true);
    expect(text).toContain("None of the waiting hire approvals is yours to decide.");
    expect(text).toContain("rate hidden");
    expect(text).toContain("Rates are hidden for your account.");
    expect(text).not.toContain("To decide one");
  });

  it("is reachable with --read-only, and then names no way to decide", async () => {
    const h = await harness({ config: { readOnly: true } });
    const { r, text } = await callTool<Out>(h, "run_read_tool", { name: TOOL, arguments: {} });
    expect(r.isError, text).toBeFalsy();
    expect(text).toContain("3 hire approvals await your decision (oldest first):");
    expect(text).not.toContain("review_hire_approval");
    expect(text).not.toContain("To decide one");
  });
});

describe("list_hire_approvals, fewer at a time", () => {
  it("shows the oldest `first` and says how many wait in all", async () => {
    const h = await harness();
    const { out, text } = await callTool<Out>(h, TOOL, { first: 1 });
    expect(out.approvals.map((a) => a.id)).toHaveLength(1);
    expect(out.total).toBeGreaterThan(1);
    expect(text).toContain(`Shown: the oldest 1 of ${out.total} waiting requests.`);
  });
});
