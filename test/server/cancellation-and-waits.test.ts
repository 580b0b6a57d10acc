// What a person notices while a call is under way: pressing stop ends the platform request at
// once, and a wait for the rate limit shows up as progress instead of a silent pause.
import type { ProgressNotification } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";
import { until } from "../helpers/until.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("a cancelled tool call", () => {
  it("aborts its platform request instead of waiting for the answer", async () => {
    h = await startHarness({ config: { logLevel: "debug" } });
    // A minute-long answer: only an ended request lets the log line below appear in time.
    h.sandbox.faults.inject("slow", { delayMs: 60_000, operationName: "SearchHires" });
    const controller = new AbortController();
    const call = h.client.callTool(
      { name: "search_hires", arguments: { search: "Ana" } },
      {
        signal: controller.signal,
      },
    );
    const harness = h;
    // Stop pressed once the platform has the request, not after a guessed time.
    await until(() => harness.sandbox.countRequests("SearchHires") === 1, "the request arrived");
    controller.abort("the person pressed stop");
    await expect(call).rejects.toThrow();

    await vi.waitFor(
      () => {
        const line = harness.stderr.find((l) => l.includes("platform request"));
        expect(line).toContain("SearchHires");
        expect(line).toContain("cancelled");
      },
      { timeout: 10_000 },
    );
  });
});

describe("a call held back by the rate limit", () => {
  it("reports the wait as progress when the client asked for progress", async () => {
    h = await startHarness({ clientRateLimit: { perWindow: 1, windowMs: 2_500 } });
    await h.client.callTool({ name: "search_hires", arguments: { search: "Ana" } });

    const progress: string[] = [];
    const result = await h.client.callTool(
      { name: "search_hires", arguments: { search: "Liam" } },
      { onprogress: (p) => progress.push(p.message ?? "") },
    );
    expect(result.isError).toBeFalsy();
    expect(progress.some((m) => /waiting \d+ s for the rate limit/.test(m))).toBe(true);
    const sent = h.notifications.filter(
      (n): n is ProgressNotification => n.method === "notifications/progress",
    );
    expect(sent.length).toBeGreaterThan(0);
  });
});
