import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { governorKey } from "../../src/client/governor.js";
import {
  CancelledError,
  governorFor,
  RateGovernor,
  resetGovernors,
} from "../../src/client/index.js";
import { viewerQuery } from "../../src/client/operations/index.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { until } from "../helpers/until.js";
import { fastClient, sandboxFor } from "./helpers.js";

// Small budgets over short windows stand in for 60 a minute.

const WINDOW = 400;

/** The most timestamps that fall inside any window of `length` ms. */
function busiestWindow(times: number[], length: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i] as number;
    const inside = sorted.filter((t) => t >= start && t < start + length).length;
    most = Math.max(most, inside);
  }
  return most;
}

describe("RateGovernor", () => {
  // Fake time: the governor's timers and clock move only when the test moves them.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const fakeNow = () => Date.now();

  it("a burst of three times the budget never exceeds it in any window, in FIFO order", async () => {
    const governor = new RateGovernor(5, WINDOW, fakeNow);
    const order: number[] = [];
    const times: number[] = [];
    const all = Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        governor.acquire().then((release) => {
          order.push(i);
          times.push(Date.now());
          release();
        }),
      ),
    );
    await vi.runAllTimersAsync();
    await all;
    expect(order).toEqual(Array.from({ length: 15 }, (_, i) => i));
    expect(busiestWindow(times, WINDOW)).toBe(5);
    // Three windows' worth: the last five wait two full windows, and no longer.
    expect((times[14] as number) - (times[0] as number)).toBe(2 * WINDOW);
  });

  it("tells a caller that must wait how long, once, when it is over a second", async () => {
    const governor = new RateGovernor(1, 1_500, fakeNow);
    (await governor.acquire())();
    vi.advanceTimersByTime(200);
    const waits: number[] = [];
    const controller = new AbortController();
    const queued = governor.acquire({ signal: controller.signal, onWait: (ms) => waits.push(ms) });
    expect(waits).toEqual([1_300]);
    controller.abort();
    await expect(queued).rejects.toBeInstanceOf(CancelledError);
  });

  it("does not report short waits", async () => {
    const governor = new RateGovernor(1, 100, fakeNow);
    (await governor.acquire())();
    const waits: number[] = [];
    const granted = governor.acquire({ onWait: (ms) => waits.push(ms) });
    await vi.advanceTimersByTimeAsync(100);
    await granted;
    expect(waits).toEqual([]);
  });

  it("a caller aborted while queued is rejected and its slot goes to the next", async () => {
    const governor = new RateGovernor(1, WINDOW, fakeNow);
    (await governor.acquire())();
    const controller = new AbortController();
    const started = Date.now();
    const aborted = governor.acquire({ signal: controller.signal, operation: "SearchHires" });
    let grantedAt: number | undefined;
    const next = governor.acquire().then((release) => {
      grantedAt = Date.now();
      return release;
    });
    controller.abort();
    const error = await aborted.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as Error).message).toMatch(/SearchHires was cancelled while waiting.*not sent/);
    await vi.advanceTimersByTimeAsync(WINDOW);
    await next;
    // One window, not two: the aborted caller's turn was not kept.
    expect(grantedAt).toBe(started + WINDOW);
    expect(governor.queued).toBe(0);
  });

  it("an already aborted signal is rejected without taking a slot", async () => {
    const governor = new RateGovernor(1, WINDOW, fakeNow);
    await expect(governor.acquire({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      CancelledError,
    );
    expect(governor.inWindow).toBe(0);
  });

  it("estimates the wait of later places in the queue a window apart", async () => {
    let now = 0;
    const governor = new RateGovernor(2, 1_000, () => now);
    const first = governor.acquire();
    now = 100;
    const second = governor.acquire();
    now = 200;
    // In flight: assumed to finish now.
    expect(governor.estimateWait(0)).toBe(1_000);
    now = 0;
    (await first)();
    now = 100;
    (await second)();
    now = 200;
    expect(governor.estimateWait(0)).toBe(800);
    expect(governor.estimateWait(1)).toBe(900);
    expect(governor.estimateWait(2)).toBe(1_800);
  });
});

describe("sharing by token", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await sandboxFor();
  });
  beforeEach(() => {
    resetGovernors();
    sandbox.reset();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it("a client burst reaches the platform within budget", async () => {
    const client = fastClient(sandbox, { rateLimitPerMinute: 4, rateLimitWindowMs: WINDOW });
    await Promise.all(Array.from({ length: 12 }, () => client.run(viewerQuery, {})));
    const times = sandbox.requests.map((r) => r.at);
    expect(times).toHaveLength(12);
    // Slots are held until a window after each answer, so arrivals fit the budget exactly.
    expect(busiestWindow(times, WINDOW)).toBeLessThanOrEqual(4);
  });

  it("two clients with the same token share one budget", async () => {
    const options = { rateLimitPerMinute: 2, rateLimitWindowMs: 1_500 };
    const a = fastClient(sandbox, options);
    const b = fastClient(sandbox, options);
    await a.run(viewerQuery, {});
    await b.run(viewerQuery, {});
    const waits: number[] = [];
    const controller = new AbortController();
    const third = a.run(
      viewerQuery,
      {},
      { signal: controller.signal, onWait: (ms) => waits.push(ms) },
    );
    await until(() => waits.length > 0, "the third call was queued");
    expect(waits).toHaveLength(1);
    controller.abort();
    await expect(third).rejects.toBeInstanceOf(CancelledError);
    expect(sandbox.countRequests("Viewer")).toBe(2);
  });

  it("different tokens do not share", async () => {
    const options = { rateLimitPerMinute: 1, rateLimitWindowMs: 5_000 };
    await fastClient(sandbox, options).run(viewerQuery, {});
    const waits: number[] = [];
    await fastClient(sandbox, { ...options, token: sandbox.tokens.limited }).run(
      viewerQuery,
      {},
      { onWait: (ms) => waits.push(ms) },
    );
    expect(waits).toEqual([]);
    expect(governorFor(sandbox.url, sandbox.tokens.full)).not.toBe(
      governorFor(sandbox.url, sandbox.tokens.limited),
    );
  });

  it("the registry key is a digest, never the token", () => {
    const key = governorKey("http://127.0.0.1:1", sandbox.tokens.full);
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(key).not.toContain(sandbox.tokens.full);
  });
});

describe("slots held while in flight", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a slow request keeps its slot until one window after its answer", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const governor = new RateGovernor(1, 100, () => Date.now());
    const release = await governor.acquire();
    let grantedAt: number | undefined;
    const next = governor.acquire().then((r) => {
      grantedAt = Date.now();
      return r;
    });
    // In flight for a long while: nothing frees the slot, however much time passes.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(grantedAt).toBeUndefined();
    const releasedAt = Date.now();
    release();
    await vi.advanceTimersByTimeAsync(99);
    expect(grantedAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    (await next)();
    expect(grantedAt).toBe(releasedAt + 100);
  });
});
