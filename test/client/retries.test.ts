import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  CancelledError,
  isOutcomeUnknown,
  NetworkError,
  type PlatformError,
  PlatformFailureError,
  RateLimitedError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
} from "../../src/client/index.js";
import type { TerminateHireMutationVariables } from "../../src/client/operation-types.generated.js";
import { terminateHireMutation, viewerQuery } from "../../src/client/operations/index.js";
import { createLogger } from "../../src/logger.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { until } from "../helpers/until.js";
import { fastClient, hireStatusQuery, sandboxFor } from "./helpers.js";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  sandbox.faults.clear();
  sandbox.reset();
  sandbox.setRateLimit(0);
});
afterAll(async () => {
  await sandbox.close();
});

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    return error as PlatformError;
  }
  throw new Error("expected the call to fail");
}

const terminateAna: TerminateHireMutationVariables = {
  input: { hire: "hire_001", reason: "OTHER", date: "2099-01-01" },
};

describe("retries of operations that are safe to repeat", () => {
  it("two failures then success: three requests and the data", async () => {
    sandbox.faults.inject("internal-error", { count: 2, operationName: "Viewer" });
    const { data } = await fastClient(sandbox).run(viewerQuery, {});
    expect(data.viewer.id).toBe("usr_001");
    expect(sandbox.countRequests("Viewer")).toBe(3);
  });

  it("four failures: four requests, then a platform failure that says so", async () => {
    sandbox.faults.inject("internal-error", { count: 4, operationName: "Viewer" });
    const error = await failure(fastClient(sandbox).run(viewerQuery, {}));
    expect(error).toBeInstanceOf(PlatformFailureError);
    expect(error.attempts).toBe(4);
    expect(sandbox.countRequests("Viewer")).toBe(4);
  });

  it.each([
    ["html-500", UnexpectedResponseError],
    ["drop-connection", NetworkError],
    ["rate-limit", RateLimitedError],
  ] as const)("%s is retried", async (kind, type) => {
    sandbox.faults.inject(kind, { count: 4, operationName: "Viewer" });
    const error = await failure(fastClient(sandbox).run(viewerQuery, {}));
    expect(error).toBeInstanceOf(type);
    expect(sandbox.countRequests("Viewer")).toBe(4);
  });

  it("a time-out is retried", async () => {
    // Fake timers: the first attempt times out when the test says so, the second never does, however
    // slow the machine. The first request is held by the sandbox until it closes.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    sandbox.faults.inject("slow", { count: 1, delayMs: 60_000, operationName: "Viewer" });
    const pending = fastClient(sandbox, { timeoutMs: 100 }).run(viewerQuery, {});
    await until(() => sandbox.countRequests("Viewer") === 1, "the first request arrived");
    vi.advanceTimersByTime(100);
    // Until the second request arrives (after the back-off), a fake millisecond at a time.
    await until(
      () => sandbox.countRequests("Viewer") === 2,
      "the retry arrived",
      () => vi.advanceTimersByTime(1),
    );
    const { data } = await pending;
    expect(data.viewer.id).toBe("usr_001");
    expect(sandbox.countRequests("Viewer")).toBe(2);
  });

  it("kinds that are not retryable are sent once", async () => {
    sandbox.faults.inject("non-json-200", { count: 1 });
    await failure(fastClient(sandbox).run(viewerQuery, {}));
    const authn = await failure(fastClient(sandbox, { token: "wrong-token" }).run(viewerQuery, {}));
    expect(authn.kind).toBe("authentication");
    expect(sandbox.countRequests("Viewer")).toBe(2);
    const limited = fastClient(sandbox, { token: sandbox.tokens.limited });
    await failure(limited.run(hireStatusQuery, { id: "hire_002" }));
    expect(sandbox.countRequests("TestHireStatus")).toBe(1);
  });

  it.each([
    [0, [40, 80, 160]],
    [0.999, [80, 120, 200]],
  ])(
    "backs off base, 2×base, 4×base plus up to base of jitter (random %s)",
    async (random, delays) => {
      // The jitter fixed at its two ends; the delays read from the client's debug log, and the gaps
      // between the requests the sandbox saw checked against them (a timer never fires early).
      vi.spyOn(Math, "random").mockReturnValue(random);
      const logger = createLogger("debug", () => {});
      const scheduled: unknown[] = [];
      logger.addSink((_level, message, data) => {
        if (message === "platform request will be retried") scheduled.push(data?.delayMs);
      });
      sandbox.faults.inject("internal-error", { count: 3, operationName: "Viewer" });
      await fastClient(sandbox, { retryBaseMs: 40, logger }).run(viewerQuery, {});
      expect(scheduled).toEqual(delays);
      const times = sandbox.requests.filter((r) => r.operationName === "Viewer").map((r) => r.at);
      expect(times).toHaveLength(4);
      const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
      gaps.forEach((gap, i) => {
        expect(gap).toBeGreaterThanOrEqual((delays[i] as number) - 2);
      });
    },
  );

  it("introspection is retried like a query", async () => {
    sandbox.faults.inject("internal-error", { count: 1, operationName: "IntrospectionQuery" });
    const data = (await fastClient(sandbox).introspect()) as { __schema: { types: unknown[] } };
    expect(data.__schema.types.length).toBeGreaterThan(10);
    expect(sandbox.countRequests("IntrospectionQuery")).toBe(2);
  });

  it("aborting during the back-off wait cancels without another request", async () => {
    sandbox.faults.inject("internal-error", { count: 4, operationName: "Viewer" });
    const controller = new AbortController();
    // Aborted the moment the retry is scheduled, i.e. during the (hour-long) back-off wait.
    const logger = createLogger("debug", (line) => {
      if (line.includes("will be retried")) controller.abort();
    });
    const error = await failure(
      fastClient(sandbox, { retryBaseMs: 3_600_000, logger }).run(
        viewerQuery,
        {},
        { signal: controller.signal },
      ),
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect(sandbox.countRequests("Viewer")).toBe(1);
  });
});

describe("a write that is not safe to repeat (terminateHire)", () => {
  const readBack = async () =>
    (await fastClient(sandbox).run(hireStatusQuery, { id: "hire_001" })).data.hire?.status;

  it("one platform failure: exactly one request and the outcome is unknown", async () => {
    sandbox.faults.inject("internal-error", { count: 1, operationName: "TerminateHire" });
    const error = await failure(fastClient(sandbox).run(terminateHireMutation, terminateAna));
    expect(error).toBeInstanceOf(PlatformFailureError);
    expect(isOutcomeUnknown(error)).toBe(true);
    expect(error.message).toMatch(/did not confirm whether TerminateHire took effect/);
    expect(error.hint).toMatch(/Read the record back/);
    expect(sandbox.countRequests("TerminateHire")).toBe(1);
    expect(await readBack()).toBe("ACTIVE");
  });

  it("a dropped connection after it ran: terminated on the platform, reported as unknown", async () => {
    sandbox.faults.inject("drop-connection", {
      count: 1,
      operationName: "TerminateHire",
      after: true,
    });
    const error = await failure(fastClient(sandbox).run(terminateHireMutation, terminateAna));
    expect(error).toBeInstanceOf(NetworkError);
    expect(isOutcomeUnknown(error)).toBe(true);
    expect(error.message).toMatch(/did not confirm whether TerminateHire took effect/);
    expect(sandbox.countRequests("TerminateHire")).toBe(1);
    expect(await readBack()).toBe("TERMINATED");
  });

  it.each(["html-500", "non-json-200"] as const)(
    "%s: one request, outcome unknown",
    async (kind) => {
      sandbox.faults.inject(kind, { count: 1, operationName: "TerminateHire" });
      const error = await failure(fastClient(sandbox).run(terminateHireMutation, terminateAna));
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(isOutcomeUnknown(error)).toBe(true);
      expect(sandbox.countRequests("TerminateHire")).toBe(1);
    },
  );

  it("a time-out: one request, outcome unknown", async () => {
    sandbox.faults.inject("slow", { count: 1, delayMs: 500, operationName: "TerminateHire" });
    const error = await failure(
      fastClient(sandbox, { timeoutMs: 100 }).run(terminateHireMutation, terminateAna),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(isOutcomeUnknown(error)).toBe(true);
    expect(sandbox.countRequests("TerminateHire")).toBe(1);
  });

  it("cancelled after sending: outcome unknown", async () => {
    sandbox.faults.inject("slow", { count: 1, delayMs: 2_000, operationName: "TerminateHire" });
    const controller = new AbortController();
    const pending = failure(
      fastClient(sandbox).run(terminateHireMutation, terminateAna, { signal: controller.signal }),
    );
    // Cancelled once the platform has the request, not after a guessed time.
    await until(() => sandbox.countRequests("TerminateHire") === 1, "the request arrived");
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(CancelledError);
    expect(isOutcomeUnknown(error)).toBe(true);
  });

  it("a rate-limit answer: one request, and it says the termination did not happen", async () => {
    sandbox.faults.inject("rate-limit", { count: 1, operationName: "TerminateHire" });
    const error = await failure(fastClient(sandbox).run(terminateHireMutation, terminateAna));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(isOutcomeUnknown(error)).toBe(false);
    expect(error.message).toMatch(/TerminateHire was not carried out/);
    expect(sandbox.countRequests("TerminateHire")).toBe(1);
    expect(await readBack()).toBe("ACTIVE");
  });

  it("a validation answer says nothing was changed", async () => {
    const error = await failure(
      fastClient(sandbox).run(terminateHireMutation, {
        input: { hire: "hire_001", reason: "OTHER", date: "1999-01-01" },
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(isOutcomeUnknown(error)).toBe(false);
    expect(error.message).toMatch(/did not take effect; nothing was changed/);
  });
});
