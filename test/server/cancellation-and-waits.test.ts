// What a person notices while a call is under way: pressing stop ends the platform request at
// once, and a wait for the rate limit shows up as progress instead of a silent pause.
import type { ProgressNotification } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("a cancelled tool call", () => {
  it("aborts its platform request instead of waiting for the answer", async () => {
    h = await startHarness({ config: { logLevel: "debug" } });
    h.sandbox.faults.inject("slow", { delayMs: 5_000, operationName: "SearchHires" });
    const controller = new AbortController();
    const started = Date.now();
    const call = h.client.callTool(
      { name: "search_hires", arguments: { search: "Ana" } },
      undefined,
      {
        signal: controller.signal,
      },
    );
    setTimeout(() => controller.abort("the person pressed stop"), 150);
    await expect(call).rejects.toThrow();

    const harness = h;
    await vi.waitFor(
      () => {
        const line = harness.stderr.find((l) => l.includes("platform request"));
        expect(line).toContain("SearchHires");
        expect(line).toContain("cancelled");
      },
      { timeout: 2_000 },
    );
    // Well before the platform's 5 s answer: the HTTP request itself was ended.
    expect(Date.now() - started).toBeLessThan(2_500);
  });
});

describe("a call held back by the rate limit", () => {
  it("reports the wait as progress when the client asked for progress", async () => {
    h = await startHarness({ clientRateLimit: { perWindow: 1, windowMs: 2_500 } });
    await h.client.callTool({ name: "search_hires", arguments: { search: "Ana" } });

    const progress: string[] = [];
    const result = await h.client.callTool(
      { name: "search_hires", arguments: { search: "Liam" } },
      undefined,
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
