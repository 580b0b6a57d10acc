// search_hires' missingHoursBetween: "who hasn't logged hours this month?" (today 2026-11-22).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";
import { gql } from "../sandbox/helpers.js";

const THIS_MONTH = { from: "2026-11-01", to: "2026-11-30" };

interface Out {
  hires: { id: string; status: string; worker: { name: string } }[];
  page: { total: number };
}
type Result = Awaited<ReturnType<Harness["client"]["callTool"]>>;
const text = (r: Result) => (r.content as { text: string }[]).map((c) => c.text).join("\n");

describe("search_hires with missingHoursBetween", () => {
  let h: Harness;
  const search = (args: Record<string, unknown>) =>
    h.client.callTool({ name: "search_hires", arguments: args });
  /** Days the hire's payment requests were submitted on, straight from the sandbox. */
  const submittedOn = async (hireId: string) => {
    const r = await gql<{ hire: { paymentRequests: { data: { date: string }[] } } }>(
      h.sandbox,
      `{ hire(id: "${hireId}") { paymentRequests(first: 100) { data { date } } } }`,
    );
    return r.data?.hire.paymentRequests.data.map((p) => p.date) ?? [];
  };
  const inMonth = (d: string) => d >= THIS_MONTH.from && d <= THIS_MONTH.to;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("lists the active hires with no hours submitted this month, and only those", async () => {
    const r = await search({
      activeStatus: ["ACTIVE"],
      missingHoursBetween: THIS_MONTH,
      first: 100,
    });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as unknown as Out;
    expect(out.hires.length).toBeGreaterThanOrEqual(3);
    expect(out.hires.every((x) => x.status === "ACTIVE")).toBe(true);
    expect(out.hires.map((x) => x.id)).not.toContain("hire_001");
    for (const hire of out.hires) {
      expect((await submittedOn(hire.id)).some(inMonth), hire.id).toBe(false);
    }
    // Every other active hire did submit this month.
    const all = (await search({ activeStatus: ["ACTIVE"], first: 100 }))
      .structuredContent as unknown as Out;
    const quiet = new Set(out.hires.map((x) => x.id));
    for (const hire of all.hires.filter((x) => !quiet.has(x.id))) {
      expect((await submittedOn(hire.id)).some(inMonth), hire.id).toBe(true);
    }
    expect(text(r)).toContain(out.hires[0]?.id ?? "?");
  });

  it("includes hires that never submitted a payment request", async () => {
    const r = await search({ missingHoursBetween: THIS_MONTH, first: 100 });
    const ids = (r.structuredContent as unknown as Out).hires.map((x) => x.id);
    expect(ids).toContain("hire_003"); // a draft hire: never worked, never submitted
    expect(await submittedOn("hire_003")).toEqual([]);
  });

  it("refuses a range that ends before it starts, naming the argument", async () => {
    const r = await search({ missingHoursBetween: { from: "2026-11-30", to: "2026-11-01" } });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("missingHoursBetween");
  });
});
