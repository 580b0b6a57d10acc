// Clients with strict function calling (OpenAI's) send `null` for every optional argument they
// leave out: the server reads it as absent, through a real MCP client against the sandbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";

const text = (r: Awaited<ReturnType<Harness["client"]["callTool"]>>) =>
  (r.content as { type: string; text: string }[]).map((c) => c.text).join("\n");

describe("null for an optional argument", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("is read as absent, at the top and inside objects, and the answer is the same", async () => {
    const plain = await h.client.callTool({
      name: "search_hires",
      arguments: { search: "Ana Costa", startDateRange: { to: "2026-12-31" } },
    });
    const nulls = await h.client.callTool({
      name: "search_hires",
      arguments: {
        search: "Ana Costa",
        activeStatus: null,
        accounts: null,
        workers: null,
        contractStatus: null,
        externalIdentifiers: null,
        startDateRange: { from: null, to: "2026-12-31" },
        endDateRange: null,
        missingHoursBetween: null,
        orderBy: null,
        first: null,
        page: null,
      },
    });
    expect(plain.isError).toBeFalsy();
    expect(nulls.isError, text(nulls)).toBeFalsy();
    expect(text(nulls)).toContain("Ana Costa");
    expect(nulls.structuredContent).toEqual(plain.structuredContent);
  });

  it("is read as absent for a name the tool does not have, which is refused when it has a value", async () => {
    const absent = await h.client.callTool({
      name: "search_hires",
      arguments: { search: "Ana Costa", status: null, startDateRange: { until: null } },
    });
    expect(absent.isError, text(absent)).toBeFalsy();
    const given = await h.client.callTool({
      name: "search_hires",
      arguments: { search: "Ana Costa", startDateRange: { until: "2026-12-31" } },
    });
    expect(given.isError).toBe(true);
    expect(text(given)).toContain("did you mean `startDateRange.to`?");
  });

  it("still refuses null for a required argument, naming it", async () => {
    const r = await h.client.callTool({ name: "get_hire", arguments: { hireId: null } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/Input validation error.*hireId/s);
  });

  it("still refuses a wrong value that is not null", async () => {
    const r = await h.client.callTool({ name: "search_hires", arguments: { first: "ten" } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/Input validation error.*first/s);
  });
});
