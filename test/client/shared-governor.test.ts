// The governor whose budget lives in the state store (Redis in production; the memory store here
// behaves the same). The replica tests in test/redis/ run it against a real Redis.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CancelledError, SharedRateGovernor } from "../../src/client/index.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import { SharedStateUnavailableError, type StateStore } from "../../src/state/store.js";

const WINDOW = 300;

/** Runs the fake timers, a millisecond at a time, until `work` settles. */
async function runningTimers<T>(work: Promise<T>): Promise<T> {
  let settled = false;
  const watched = work.finally(() => {
    settled = true;
  });
  for (let ms = 0; !settled && ms < 60_000; ms++) await vi.advanceTimersByTimeAsync(1);
  return watched;
}

describe("SharedRateGovernor", () => {
  // Fake time: the governors' polling sleeps and the store's clock move only as the test runs them.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lets two governors on one store share a budget, never more in a window", async () => {
    const store = createMemoryStore(() => Date.now());
    const one = new SharedRateGovernor(store, "rate:k", 3, WINDOW, 5_000);
    const two = new SharedRateGovernor(store, "rate:k", 3, WINDOW, 5_000);
    const times: number[] = [];
    await runningTimers(
      Promise.all(
        Array.from({ length: 9 }, (_, i) =>
          (i % 2 ? one : two).acquire().then((release) => {
            times.push(Date.now());
            release();
          }),
        ),
      ),
    );
    times.sort((a, b) => a - b);
    for (const start of times) {
      expect(times.filter((t) => t >= start && t < start + WINDOW).length).toBeLessThanOrEqual(3);
    }
    expect((times[8] as number) - (times[0] as number)).toBeGreaterThanOrEqual(2 * WINDOW);
  });

  it("serves this process's callers in order and tells long waits once", async () => {
    const store = createMemoryStore(() => Date.now());
    const governor = new SharedRateGovernor(store, "rate:k", 1, 1_200, 5_000);
    (await governor.acquire())();
    const order: number[] = [];
    const waits: number[][] = [[], [], []];
    await runningTimers(
      Promise.all(
        [0, 1, 2].map((i) =>
          governor.acquire({ onWait: (ms) => waits[i]?.push(ms) }).then((release) => {
            order.push(i);
            release();
          }),
        ),
      ),
    );
    expect(order).toEqual([0, 1, 2]);
    for (const w of waits) expect(w).toHaveLength(1);
  });

  it("a caller cancelled while waiting is rejected, and the next one still gets its turn", async () => {
    const governor = new SharedRateGovernor(createMemoryStore(), "rate:k", 1, WINDOW, 5_000);
    (await governor.acquire())();
    const controller = new AbortController();
    const cancelled = governor.acquire({ signal: controller.signal, operation: "SearchHires" });
    const next = governor.acquire();
    controller.abort();
    await expect(cancelled).rejects.toBeInstanceOf(CancelledError);
    await expect(runningTimers(next)).resolves.toBeTypeOf("function");
    expect(governor.queued).toBe(0);
  });

  it("a store that cannot be reached fails the request before it is sent", async () => {
    const down: StateStore = {
      ...createMemoryStore(),
      claimWindowSlot: async () => {
        throw new SharedStateUnavailableError("claim a slot of the rate budget");
      },
    };
    const governor = new SharedRateGovernor(down, "rate:k", 5, WINDOW, 5_000);
    await expect(governor.acquire()).rejects.toBeInstanceOf(SharedStateUnavailableError);
    await expect(governor.acquire()).rejects.toBeInstanceOf(SharedStateUnavailableError);
    expect(governor.queued).toBe(0);
  });
});
