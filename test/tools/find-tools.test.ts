// find_tools through a real MCP client against the sandbox: what it finds, within 4 KB, how it
// says to call what it found, and the session's list it extends (2025-11-25) or leaves (2026-07-28).
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { callTool, useHarness } from "../helpers/tool-calls.js";

interface Out {
  tools: { name: string; readOnly: boolean; arguments: string[]; call: string }[];
  more: string[];
  addedToList: boolean;
}

const harness = useHarness();
const find = (h: Awaited<ReturnType<typeof harness>>, args: Record<string, unknown>) =>
  callTool<Out>(h, "find_tools", args);

describe("find_tools", () => {
  it("finds the tool for a PO number, with its arguments and how to call it", async () => {
    const h = await harness();
    const { out, text } = await find(h, { query: "PO number on a payment request" });
    expect(out.tools[0]?.name).toBe("update_payment_request");
    expect(out.tools[0]?.arguments.join("\n")).toMatch(/^purchaseOrderNumber\?: string/m);
    expect(out.tools[0]?.call).toBe(
      'run_write_tool {"name": "update_payment_request", "arguments": {…}}',
    );
    expect(text).toContain("run_write_tool");
    // The answer says how to call what it found once, not again in a note of the server's.
    expect(text).not.toContain("(Not in your tool list, so call");
  });

  it("answers within 4 KB, even asked for every tool not listed", async () => {
    const h = await harness();
    const { out, text } = await find(h, {});
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4 * 1024);
    // Every tool not listed is named, with its arguments or among the rest.
    const named = [...out.tools.map((t) => t.name), ...out.more];
    expect(named).toContain("manage_webhooks");
    expect(named).toContain("update_talent_contact");
    expect(named).not.toContain("search_hires");
  });

  it("adds what it found to a 2025-11-25 session's list, and says so (notifications/tools/list_changed)", async () => {
    const h = await harness();
    const before = (await h.client.listTools()).tools.map((t) => t.name);
    expect(before).not.toContain("manage_webhooks");
    const { out } = await find(h, { query: "retry a failed webhook delivery" });
    expect(out.addedToList).toBe(true);
    expect(h.notifications.map((n) => n.method)).toContain("notifications/tools/list_changed");
    const after = (await h.client.listTools()).tools.map((t) => t.name);
    expect(after).toContain("manage_webhooks");
    // Listed now, it runs when called by its name.
    const listed = await callTool(h, "manage_webhooks", {
      action: "retry",
      company: "cmp_nordlys",
      eventId: "whe_9999",
    });
    // Run by its name: its own refusal, not "Tool not found".
    expect(listed.text).toContain("no recent delivery whe_9999");
  });

  it("changes no list on MCP 2026-07-28, where lists are the same for every caller", async () => {
    const h = await harness({ protocol: "2026-07-28" });
    const { out, text } = await find(h, { query: "webhook" });
    expect(out.tools.map((t) => t.name)).toContain("manage_webhooks");
    expect(out.addedToList).toBe(false);
    expect(text).not.toContain("added to your tool list");
    expect((await h.client.listTools()).tools.map((t) => t.name)).not.toContain("manage_webhooks");
  });

  it("finds no change with --read-only: every tool it reaches only reads", async () => {
    const h = await harness({ readOnly: true });
    const { out } = await find(h, {});
    expect([...out.tools.map((t) => t.name), ...out.more]).not.toContain("update_payment_request");
    expect(out.tools.every((t) => t.readOnly)).toBe(true);
  });

  it("names the toolsets it can search when asked for one it cannot", async () => {
    const h = await harness({
      config: { toolsets: parseConfig(["--toolsets", "hires,jobs"], {}).toolsets },
    });
    const { r, text } = await find(h, { toolset: "records" });
    expect(r.isError).toBe(true);
    expect(text).toContain("Name one of: hires, jobs");
  });
});
