// --read-only keeps every read and no change (issue 31): each read-only tool of the registry is
// reachable, listed at first or found with find_tools and run through run_read_tool, and no tool
// that changes anything is, over both protocol versions. "Which hires await my approval?" and "list
// our webhooks" are answered under --read-only.
import { describe, expect, it } from "vitest";
import { tools } from "../../src/tools/registry.js";
import type { Harness } from "../helpers/mcp-harness.js";
import { callTool, useHarness } from "../helpers/tool-calls.js";

interface Found {
  tools: { name: string; readOnly: boolean; call: string }[];
  more: string[];
}

const DISCOVERY = new Set(["find_tools", "run_read_tool", "run_write_tool"]);
const reads = tools
  .filter((t) => t.annotations.readOnlyHint && !DISCOVERY.has(t.name))
  .map((t) => t.name);
const writes = tools
  .filter((t) => !t.annotations.readOnlyHint && !DISCOVERY.has(t.name))
  .map((t) => t.name);

/** Every tool the assistant can reach: its list, and each one find_tools names, page by page. */
async function reachable(h: Harness): Promise<{ listed: string[]; found: string[] }> {
  const listed = (await h.client.listTools()).tools.map((t) => t.name);
  const found: string[] = [];
  // find_tools keeps each answer small; the tools it left out are found by their toolset.
  const { out } = await callTool<Found>(h, "find_tools", {});
  found.push(...out.tools.map((t) => t.name));
  for (const name of out.more) {
    const toolset = tools.find((t) => t.name === name)?.toolset as string;
    const page = await callTool<Found>(h, "find_tools", { query: name, toolset });
    found.push(...page.out.tools.map((t) => t.name));
  }
  return { listed, found: [...new Set(found)] };
}

const harness = useHarness();

describe("--read-only", () => {
  it("has reads and writes in the registry to tell apart (a check over nothing is no check)", () => {
    expect(reads).toContain("list_hire_approvals");
    expect(reads).toContain("list_webhooks");
    expect(writes).toContain("review_hire_approval");
    expect(writes).toContain("manage_webhooks");
  });

  for (const protocol of ["2025-11-25", "2026-07-28"] as const) {
    it(`reaches every read tool and no write (MCP ${protocol})`, async () => {
      const h = await harness({ readOnly: true, protocol });
      const { listed, found } = await reachable(h);
      const all = new Set([...listed, ...found].filter((name) => !DISCOVERY.has(name)));
      expect([...all].sort()).toEqual([...reads].sort());
      expect(listed).not.toContain("run_write_tool");
      expect(listed).toContain("run_read_tool");
      // A write is neither listed nor run by name nor through a proxy, and nothing reaches the platform.
      for (const name of writes) {
        const direct = await h.client.callTool({ name, arguments: {} });
        expect(direct.isError, name).toBe(true);
        const proxied = await h.client.callTool({
          name: "run_read_tool",
          arguments: { name, arguments: {} },
        });
        expect(proxied.isError, name).toBe(true);
      }
      expect(h.sandbox.requests.filter((r) => r.operationType === "mutation")).toEqual([]);
    });
  }

  it('answers "which hires await my approval?" through find_tools and run_read_tool', async () => {
    const h = await harness({ readOnly: true });
    const found = await callTool<Found>(h, "find_tools", {
      query: "which hires await my approval",
    });
    const first = found.out.tools[0];
    expect(first?.name).toBe("list_hire_approvals");
    expect(first?.call).toMatch(/^run_read_tool /);
    const r = await callTool<{ approvals: { id: string; canDecide: boolean }[] }>(
      h,
      "run_read_tool",
      { name: "list_hire_approvals", arguments: {} },
    );
    expect(r.r.isError, r.text).toBeFalsy();
    expect(r.out.approvals.filter((a) => a.canDecide).length).toBeGreaterThan(0);
    expect(r.text).toContain("await your decision");
  });

  it('answers "list our webhooks" through find_tools and run_read_tool', async () => {
    const h = await harness({ readOnly: true });
    const found = await callTool<Found>(h, "find_tools", { query: "list our webhooks" });
    expect(found.out.tools[0]?.name).toBe("list_webhooks");
    expect(found.out.tools.map((t) => t.name)).not.toContain("manage_webhooks");
    const r = await callTool<{ webhooks: { id: string }[] }>(h, "run_read_tool", {
      name: "list_webhooks",
      arguments: { company: "cmp_nordlys" },
    });
    expect(r.r.isError, r.text).toBeFalsy();
    expect(r.out.webhooks.map((w) => w.id)).toEqual(["whk_001", "whk_002"]);
  });
});
