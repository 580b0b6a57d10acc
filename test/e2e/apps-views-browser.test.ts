// MCP Apps views and the confirmation card, rendered in headless Chromium inside a host page built
// on the ext-apps SDK's AppBridge, connected to the real server through a real SDK client against
// the sandbox. Confirm and Cancel are clicked. Screenshots: test-results/apps-views/*.png.
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPS_CAPABILITIES, hostView } from "../helpers/apps.js";
import { chromiumAvailable, launchChromium } from "../helpers/chromium.js";
import type { Harness } from "../helpers/mcp-harness.js";
import { callTool, useHarness } from "../helpers/tool-calls.js";

const run = chromiumAvailable("MCP Apps views in a browser");
const harness = useHarness();
const apps = () => harness({ clientCapabilities: APPS_CAPABILITIES });

const TERMINATE = { hireId: "hire_001", reason: "PROJECT_COMPLETED_EARLY", date: "2026-12-31" };

async function called(h: Harness, name: string, args: Record<string, unknown>) {
  return (await h.client.callTool({ name, arguments: args })) as CallToolResult;
}

describe.runIf(run)("MCP Apps views in headless Chromium (SEP-1865)", () => {
  let browser: BrowserContext;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("the confirmation card shows the change whole; Confirm sends exactly one mutation", async () => {
    const h = await apps();
    const preview = await called(h, "terminate_hire", TERMINATE);
    const hosted = await hostView(browser, h, "terminate_hire", TERMINATE, preview);
    const confirm = hosted.view.getByRole("button", { name: "Confirm" });
    await confirm.waitFor();
    await expect(hosted.view.locator("h1").textContent()).resolves.toBe("Terminate this hire?");
    const body = await hosted.view.locator("body").textContent();
    expect(body).toContain("hire_001");
    expect(body).toContain("2026-12-31");
    await hosted.screenshot("confirmation-card-terminate-hire");
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);

    await confirm.click();
    const outcome = hosted.view.locator(".outcome");
    await outcome.waitFor({ state: "visible" });
    await expect(outcome.textContent()).resolves.toMatch(/terminat/i);
    await hosted.screenshot("confirmation-card-terminate-hire-confirmed");
    expect(h.sandbox.countRequests("TerminateHire")).toBe(1);
    expect(hosted.calls.map((c) => c.name)).toEqual(["confirm_change"]);
    // The person's decision reaches the model as what happened, never as the sealed state.
    const context = JSON.stringify(await hosted.modelContext());
    expect(context).not.toContain(String(hosted.calls[0]?.arguments?.confirmation));

    // The card's confirmation is used once: sent again (a replay), it changes nothing.
    const again = await called(h, "confirm_change", hosted.calls[0]?.arguments ?? {});
    expect(again.isError).toBe(true);
    expect(h.sandbox.countRequests("TerminateHire")).toBe(1);
  });

  it("Cancel on the card sends nothing, and says so", async () => {
    const h = await apps();
    const preview = await called(h, "terminate_hire", TERMINATE);
    const hosted = await hostView(browser, h, "terminate_hire", TERMINATE, preview);
    await hosted.view.getByRole("button", { name: "Cancel" }).click();
    await expect(hosted.view.locator(".outcome").textContent()).resolves.toBe(
      "Cancelled: nothing was sent.",
    );
    await hosted.screenshot("confirmation-card-cancelled");
    expect(hosted.calls).toEqual([]);
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
  });

  it("submit_timesheets' card: hours per day per hire, money per currency, days already logged flagged", async () => {
    const h = await apps();
    const logged = await callTool<{
      paymentRequests: { registrations: { date: string }[] }[];
    }>(h, "list_payment_requests", {
      hires: ["hire_001"],
      period: { from: "2026-11-09", to: "2026-11-15" },
      includeHours: true,
    });
    const loggedDate = logged.out.paymentRequests[0]?.registrations[0]?.date as string;
    const row = (date: string, id: string) => ({
      hireId: "hire_001",
      reportedDate: date,
      hours: 7.5,
      externalId: id,
    });
    const args = {
      registrations: [row("2026-11-16", "a"), row("2026-11-17", "b"), row(loggedDate, "again")],
      includeDaysAlreadyLogged: true,
    };
    // Not listed at first: find_tools adds it, with its _meta.ui, to this session's list.
    await called(h, "find_tools", { query: "submit timesheets hours" });
    const preview = await called(h, "submit_timesheets", args);
    const hosted = await hostView(browser, h, "submit_timesheets", args, preview);
    await hosted.view.getByRole("button", { name: "Confirm" }).waitFor();
    const body = await hosted.view.locator("body").textContent();
    expect(body).toContain("Hours per day per hire");
    expect(body).toContain("Money per currency");
    expect(body).toContain("Days already logged (1)");
    const flagged = hosted.view.locator("td.flag");
    await expect(flagged.getAttribute("title")).resolves.toBe("already logged");
    await hosted.screenshot("confirmation-card-submit-timesheets");
    await hosted.view.getByRole("button", { name: "Confirm" }).click();
    await hosted.view.locator(".outcome").waitFor({ state: "visible" });
    await hosted.screenshot("confirmation-card-submit-timesheets-confirmed");
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(1);
  });

  for (const [tool, args, expected] of [
    ["search_hires", { search: "Ana" }, "Ana Costa"],
    ["get_hire", { hireId: "hire_001" }, "hire_001"],
    ["list_invoices", {}, "Totals per currency"],
    [
      "list_payment_requests",
      { period: { from: "2026-11-09", to: "2026-11-15" }, includeHours: true },
      "Hours per day per hire",
    ],
  ] as const) {
    it(`${tool} renders as a view, values as text`, async () => {
      const h = await apps();
      // A tool not listed at first is found, as an assistant would: its view's link is listed then.
      await called(h, "find_tools", { query: tool });
      const result = await called(h, tool, args);
      const hosted = await hostView(browser, h, tool, args, result);
      await hosted.view.locator("h1").waitFor();
      await expect(hosted.view.locator("body").textContent()).resolves.toContain(expected);
      await hosted.screenshot(`view-${tool}`);
      expect(hosted.calls).toEqual([]);
    });
  }
});
