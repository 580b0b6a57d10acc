// MCP Apps (SEP-1865) through a real SDK client: the views as resources, the links in tools/list,
// the confirmation card's sealed state kept from the model, and confirm_change, which only the card
// may call. The views themselves are clicked in test/e2e/apps-views-browser.test.ts.
import { randomBytes } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../../src/state/memory-store.js";
import { sealRequestState } from "../../src/state/sealing.js";
import { APP_MIME_TYPE, VIEW_URIS } from "../../src/web/app-views.js";
import { APPS_CAPABILITIES } from "../helpers/apps.js";
import type { Harness } from "../helpers/mcp-harness.js";
import { useHarness } from "../helpers/tool-calls.js";

const harness = useHarness();
const TERMINATE = { hireId: "hire_001", reason: "PROJECT_COMPLETED_EARLY", date: "2026-12-31" };
/** A view's whole page may take this much: the ext-apps App class and zod are most of it. */
const MAX_VIEW_BYTES = 768 * 1024;

const call = async (h: Harness, name: string, args: Record<string, unknown>) =>
  (await h.client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (r: CallToolResult) =>
  r.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
const out = (r: CallToolResult) => r.structuredContent as Record<string, unknown>;
const cardOf = (r: CallToolResult) =>
  r._meta?.["workforce/confirmation"] as { state: string; question: string } | undefined;

describe("MCP Apps views as ui:// resources (SEP-1865)", () => {
  it("serves each view as self-contained HTML with a strict CSP, within its size bound", async () => {
    const h = await harness();
    for (const uri of Object.values(VIEW_URIS)) {
      const read = await h.client.readResource({ uri });
      const page = read.contents[0] as { mimeType: string; text: string; _meta?: unknown };
      expect(page.mimeType).toBe(APP_MIME_TYPE);
      expect(Buffer.byteLength(page.text)).toBeLessThanOrEqual(MAX_VIEW_BYTES);
      expect(page.text).toContain(
        `<meta http-equiv="Content-Security-Policy" content="default-src 'none';`,
      );
      expect(page.text).toContain("connect-src 'none'");
      // Nothing loaded from anywhere: no element names an outside address.
      expect(page.text).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
      expect(page._meta).toEqual({
        ui: {
          csp: { connectDomains: [], resourceDomains: [], frameDomains: [] },
          prefersBorder: true,
        },
      });
    }
  });

  it("links the tools that have a view, and lists no view resource (clients without Apps list what they did)", async () => {
    const h = await harness();
    const tools = (await h.client.listTools()).tools;
    const linked = Object.fromEntries(
      tools.flatMap((t) => {
        const uri = (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
        return uri ? [[t.name, uri]] : [];
      }),
    );
    expect(linked.search_hires).toBe(VIEW_URIS.hires);
    expect(linked.get_hire).toBe(VIEW_URIS.hire);
    expect(linked.list_invoices).toBe(VIEW_URIS.invoices);
    expect(linked.terminate_hire).toBe(VIEW_URIS.confirmation);
    await h.client.callTool({ name: "find_tools", arguments: { query: "list_payment_requests" } });
    const found = (await h.client.listTools()).tools.find(
      (t) => t.name === "list_payment_requests",
    );
    expect(found?._meta?.ui).toEqual({ resourceUri: VIEW_URIS.timesheets });
    expect(linked.list_accounts).toBeUndefined();
    const listed = (await h.client.listResources()).resources.map((r) => r.uri);
    expect(listed.some((uri) => uri.startsWith("ui://"))).toBe(false);
  });
});

describe("the confirmation card and confirm_change (MCP Apps visibility 'app'; CWE-352)", () => {
  it("is absent from the tool list of a client without Apps, and listed only for the app to a client with them", async () => {
    const plain = await harness();
    const names = (await plain.client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain("confirm_change");
    const apps = await harness({ clientCapabilities: APPS_CAPABILITIES });
    const entry = (await apps.client.listTools()).tools.find((t) => t.name === "confirm_change");
    expect(entry?._meta?.ui).toEqual({ resourceUri: VIEW_URIS.confirmation, visibility: ["app"] });
  });

  it("on 2026-07-28, lists it in a list no shared cache may keep; the list without it stays public", async () => {
    const apps = await harness({ clientCapabilities: APPS_CAPABILITIES, protocol: "2026-07-28" });
    const listed = (await apps.client.listTools()) as {
      tools: { name: string }[];
      cacheScope?: string;
    };
    expect(listed.tools.map((t) => t.name)).toContain("confirm_change");
    expect(listed.cacheScope).toBe("private");
    const plain = await harness({ protocol: "2026-07-28" });
    const other = (await plain.client.listTools()) as {
      tools: { name: string }[];
      cacheScope?: string;
    };
    expect(other.tools.map((t) => t.name)).not.toContain("confirm_change");
    expect(other.cacheScope).toBe("public");
  });

  it("is not found with find_tools nor reached through run_write_tool", async () => {
    const h = await harness({ clientCapabilities: APPS_CAPABILITIES });
    const found = await call(h, "find_tools", { query: "confirm change card" });
    expect(JSON.stringify(found.structuredContent)).not.toContain("confirm_change");
    const proxied = await call(h, "run_write_tool", {
      name: "confirm_change",
      arguments: { confirmation: "x" },
    });
    expect(proxied.isError).toBe(true);
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
  });

  it("gives a client with Apps the preview with no token, the sealed state only in _meta", async () => {
    const h = await harness({ clientCapabilities: APPS_CAPABILITIES });
    const r = await call(h, "terminate_hire", TERMINATE);
    const card = cardOf(r);
    expect(card?.question).toBe("Terminate this hire?");
    expect(out(r).status).toBe("preview");
    expect(out(r).confirmationToken).toBeUndefined();
    // What the model reads holds neither the sealed state nor a token to pass back.
    const read = `${textOf(r)}${JSON.stringify(r.structuredContent)}`;
    expect(read).not.toContain(card?.state as string);
    expect(textOf(r)).toContain("confirms or cancels on the card");
    expect(textOf(r)).not.toContain("confirmationToken");
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
  });

  it("refuses a call without the card's sealed state, or with it altered or beside other arguments; nothing is sent", async () => {
    const h = await harness({ clientCapabilities: APPS_CAPABILITIES });
    const card = cardOf(await call(h, "terminate_hire", TERMINATE));
    const state = card?.state as string;
    const altered = `${state.slice(0, -4)}${state.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    for (const args of [
      {},
      { confirmation: "" },
      { confirmation: altered },
      { confirmation: state, hireId: "hire_002" },
      { hireId: "hire_001" },
    ]) {
      const r = await call(h, "confirm_change", args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(r)).toContain("Nothing was sent");
    }
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
    // The real state still confirms once: the refusals used nothing up.
    const ok = await call(h, "confirm_change", { confirmation: state });
    expect(ok.isError, textOf(ok)).toBeFalsy();
    expect(h.sandbox.countRequests("TerminateHire")).toBe(1);
  });

  it("never opens a form's requestState as a card, though sealed with the same key", async () => {
    const state = { store: createMemoryStore(), sealingKey: randomBytes(32) };
    const h = await harness({ clientCapabilities: APPS_CAPABILITIES, state });
    const card = cardOf(await call(h, "terminate_hire", TERMINATE));
    expect(card).toBeDefined();
    const asForm = sealRequestState(state.sealingKey, {
      tool: "terminate_hire",
      args: TERMINATE,
      form: {},
      expiresAt: Date.now() + 60_000,
    } as never);
    const r = await call(h, "confirm_change", { confirmation: asForm });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("was not sealed by this server for a card");
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
  });

  it("is not found by a client that does not render Apps", async () => {
    const plain = await harness();
    const r = await call(plain, "confirm_change", { confirmation: "wfm1.x" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("Tool confirm_change not found");
    expect(plain.sandbox.countRequests("TerminateHire")).toBe(0);
  });

  it("shows the card for a change run through run_write_tool, whose list entry links the card", async () => {
    const h = await harness({ clientCapabilities: APPS_CAPABILITIES, protocol: "2026-07-28" });
    const proxy = (await h.client.listTools()).tools.find((t) => t.name === "run_write_tool");
    expect(proxy?._meta?.ui).toEqual({ resourceUri: VIEW_URIS.confirmation });
    const registrations = [
      { hireId: "hire_001", reportedDate: "2026-11-20", hours: 7.5, externalId: "apps-1" },
    ];
    const r = await call(h, "run_write_tool", {
      name: "submit_timesheets",
      arguments: { registrations },
    });
    const card = cardOf(r);
    expect(out(r).status, textOf(r)).toBe("preview");
    expect(out(r).confirmationToken).toBeUndefined();
    const done = await call(h, "confirm_change", { confirmation: card?.state as string });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(1);
  });

  it("confirms on the card on 2026-07-28 too, a server per request: once", async () => {
    const h = await harness({ clientCapabilities: APPS_CAPABILITIES, protocol: "2026-07-28" });
    const card = cardOf(await call(h, "terminate_hire", TERMINATE));
    const ok = await call(h, "confirm_change", { confirmation: card?.state as string });
    expect(ok.isError, textOf(ok)).toBeFalsy();
    const again = await call(h, "confirm_change", { confirmation: card?.state as string });
    expect(again.isError).toBe(true);
    expect(h.sandbox.countRequests("TerminateHire")).toBe(1);
  });

  it("reads the platform again on Confirm: a fact changed meanwhile gives a fresh card naming it, and nothing is sent", async () => {
    const h = await harness({ clientCapabilities: APPS_CAPABILITIES });
    const first = cardOf(await call(h, "terminate_hire", TERMINATE));
    h.sandbox.edit((data) => {
      const contract = data.contracts.get("ctr_002");
      if (!contract) throw new Error("seed changed");
      contract.jobName = "Platform Lead";
    });
    const changed = await call(h, "confirm_change", { confirmation: first?.state as string });
    const fresh = cardOf(changed);
    expect(textOf(changed)).toContain("Nothing was sent: while the card was open");
    expect(textOf(changed)).toContain('"Platform Lead"');
    expect(fresh?.state).toBeDefined();
    expect(fresh?.state).not.toBe(first?.state);
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
    const done = await call(h, "confirm_change", { confirmation: fresh?.state as string });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(h.sandbox.countRequests("TerminateHire")).toBe(1);
  });

  it("after a lost answer on Confirm, says the outcome is unknown and holds the change: sent once", async () => {
    const h = await harness({ clientCapabilities: APPS_CAPABILITIES });
    const card = cardOf(await call(h, "terminate_hire", TERMINATE));
    h.sandbox.faults.inject("drop-connection", { operationName: "TerminateHire", later: true });
    const lost = await call(h, "confirm_change", { confirmation: card?.state as string });
    expect(lost.isError).toBe(true);
    expect(out(lost).status).toBe("outcome-unknown");
    expect(textOf(lost)).toContain("UNKNOWN");
    // Another card for the same change is not even offered while the outcome is unknown.
    const again = await call(h, "terminate_hire", TERMINATE);
    expect(again.isError).toBe(true);
    expect(textOf(again)).toContain("outcome is not known yet");
    expect(cardOf(again)).toBeUndefined();
    expect(h.sandbox.countRequests("TerminateHire")).toBe(1);
  });

  it("a client without Apps gets the same token preview as before", async () => {
    const h = await harness();
    const r = await call(h, "terminate_hire", TERMINATE);
    expect(r._meta).toBeUndefined();
    expect(typeof out(r).confirmationToken).toBe("string");
  });
});
