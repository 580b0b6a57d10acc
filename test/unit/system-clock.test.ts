// The real clock's wait ends the moment its call is cancelled: the tools hand it the call's signal.
import { describe, expect, it } from "vitest";
import { systemClock } from "../../src/tools/define-tool.js";

describe("systemClock.sleep", () => {
  it("rejects as soon as the signal aborts, long before its time is up", async () => {
    const controller = new AbortController();
    const waiting = systemClock.sleep(3_600_000, controller.signal);
    controller.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow();
  });

  it("does not start when the signal has already aborted", async () => {
    await expect(systemClock.sleep(3_600_000, AbortSignal.abort())).rejects.toThrow();
  });

  it("resolves when its time is up and nobody cancels", async () => {
    await expect(systemClock.sleep(0, new AbortController().signal)).resolves.toBeUndefined();
  });
});
