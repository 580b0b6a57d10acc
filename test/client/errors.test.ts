import { appendFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  CancelledError,
  createPlatformClient,
  NetworkError,
  type PlatformError,
  PlatformFailureError,
  RateLimitedError,
  SchemaMismatchError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
  validationArguments,
} from "../../src/client/index.js";
import type { TerminateHireMutationVariables } from "../../src/client/operation-types.generated.js";
import { terminateHireMutation, viewerQuery } from "../../src/client/operations/index.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { until } from "../helpers/until.js";
import {
  closedPort,
  fastClient,
  hireQuery,
  hireStatusQuery,
  missingFieldQuery,
  parseFailQuery,
  sandboxFor,
  stubServer,
} from "./helpers.js";

// Every error kind, classified from the wire shape the sandbox (or, where it cannot, a stub) sends.

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor();
});
afterEach(() => {
  vi.useRealTimers();
  sandbox.faults.clear();
  sandbox.reset();
  sandbox.setRateLimit(0);
});
afterAll(async () => {
  await sandbox.close();
});

/** The rejection of `promise`, failing the test if it resolves. */
async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    // Collected for the error catalogue in the report when asked for.
    const file = process.env.CLIENT_ERROR_EXAMPLES;
    if (file && error instanceof Error && "kind" in error) {
      const e = error as PlatformError;
      appendFileSync(file, `${e.kind}\t${e.message}\t${e.hint}\n`);
    }
    return error as PlatformError;
  }
  throw new Error("expected the call to fail");
}

const noRetry = { maxRetries: 0 };
const ana = { id: "hire_001" };
// The reason is a plain string: one test sends a reason the schema does not know, on purpose.
const terminate = (date: string, reason = "OTHER"): TerminateHireMutationVariables => ({
  input: {
    hire: "hire_001",
    reason: reason as TerminateHireMutationVariables["input"]["reason"],
    date,
  },
});

describe("platform answers", () => {
  it("validation keeps the input paths and says nothing changed", async () => {
    const error = await failure(
      fastClient(sandbox).run(terminateHireMutation, terminate("2001-01-01")),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.retryable).toBe(false);
    const v = error as ValidationError;
    expect(Object.keys(v.validation)).toEqual(["input.date"]);
    expect(validationArguments(v)).toEqual([
      { path: "input.date", argument: "date", messages: v.validation["input.date"] },
    ]);
    expect(v.message).toContain("input.date");
    expect(v.message).toMatch(/TerminateHire did not take effect; nothing was changed/);
    expect("outcomeUnknown" in v).toBe(false);
    const { data } = await fastClient(sandbox).run(hireStatusQuery, ana);
    expect(data.hire?.status).toBe("ACTIVE");
  });

  it("authentication: a wrong token, not retried", async () => {
    const error = await failure(
      fastClient(sandbox, { token: "not-a-real-token" }).run(viewerQuery, {}),
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.retryable).toBe(false);
    expect(error.attempts).toBe(1);
    expect(sandbox.countRequests("Viewer")).toBe(1);
  });

  it("authorization: the limited token on another company's hire", async () => {
    const client = fastClient(sandbox, { token: sandbox.tokens.limited });
    const result = await client.request(hireQuery, { id: "hire_002" });
    expect(result.data?.hire).toBeNull();
    expect(result.errors.map((e) => e.kind)).toEqual(["authorization"]);
    const error = await failure(client.run(hireQuery, { id: "hire_002" }));
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error.path).toEqual(["hire"]);
    expect(error.message).toContain("`hire`");
    expect(sandbox.countRequests("TestHire")).toBe(2);
  });

  it("field restricted: partial data kept and the hidden field named, not thrown", async () => {
    const client = fastClient(sandbox, { token: sandbox.tokens.limited });
    const result = await client.request(hireQuery, ana);
    expect(result.data?.hire).toMatchObject({ id: "hire_001", status: "ACTIVE", rate: null });
    expect(result.errors).toEqual([]);
    expect(result.restricted).toEqual([
      { path: "hire.rate", message: expect.stringContaining("hire.rate") },
    ]);
    const ran = await client.run(hireQuery, ana);
    expect(ran.data.hire?.id).toBe("hire_001");
    expect(ran.restricted.map((r) => r.path)).toEqual(["hire.rate"]);
    // The full token sees the same field.
    const full = await fastClient(sandbox).run(hireQuery, ana);
    expect(full.data.hire?.rate).toEqual(expect.any(Number));
    expect(full.restricted).toEqual([]);
  });

  it("rate limited: the platform's Too Many Requests", async () => {
    sandbox.setRateLimit(1);
    const client = fastClient(sandbox, noRetry);
    await client.run(viewerQuery, {});
    const error = await failure(client.run(viewerQuery, {}));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryable).toBe(true);
    expect((error as RateLimitedError).retryAfterMs).toBeGreaterThanOrEqual(2);
    expect(error.message).toMatch(/rate limit/);
  });

  it("platform failure: Internal server error", async () => {
    sandbox.faults.inject("internal-error", { count: 1 });
    const error = await failure(fastClient(sandbox, noRetry).run(viewerQuery, {}));
    expect(error).toBeInstanceOf(PlatformFailureError);
    expect(error.retryable).toBe(true);
    expect((error as PlatformFailureError).outcomeUnknown).toBe(false);
  });

  it("schema mismatch: an unknown field is named", async () => {
    const error = await failure(fastClient(sandbox).run(missingFieldQuery, ana));
    expect(error).toBeInstanceOf(SchemaMismatchError);
    expect(error.code).toBe("GRAPHQL_VALIDATION_FAILED");
    expect(error.message).toContain("Hire.hourlyWage");
    expect(sandbox.countRequests("TestMissingField")).toBe(1);
  });

  it("schema mismatch: a document that does not parse", async () => {
    const error = await failure(fastClient(sandbox).run(parseFailQuery, {}));
    expect(error).toBeInstanceOf(SchemaMismatchError);
    expect(error.code).toBe("GRAPHQL_PARSE_FAILED");
  });

  it("schema mismatch: a variable value the schema does not accept (BAD_USER_INPUT)", async () => {
    const error = await failure(
      fastClient(sandbox).run(terminateHireMutation, terminate("2030-01-01", "NO_SUCH_REASON")),
    );
    expect(error).toBeInstanceOf(SchemaMismatchError);
    expect(error.code).toBe("BAD_USER_INPUT");
    expect(error.message).toContain("$input");
    expect(error.message).toMatch(/nothing was changed/);
  });

  it("unexpected response: an HTML 500 page is retryable", async () => {
    sandbox.faults.inject("html-500", { count: 1 });
    const error = await failure(fastClient(sandbox, noRetry).run(viewerQuery, {}));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.status).toBe(500);
    expect(error.retryable).toBe(true);
  });

  it("unexpected response: a 200 that is not JSON is not retried", async () => {
    sandbox.faults.inject("non-json-200", { count: 4 });
    const error = await failure(fastClient(sandbox).run(viewerQuery, {}));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.status).toBe(200);
    expect(error.retryable).toBe(false);
    expect(sandbox.countRequests("Viewer")).toBe(1);
  });

  it("network: the connection drops", async () => {
    sandbox.faults.inject("drop-connection", { count: 1 });
    const error = await failure(fastClient(sandbox, noRetry).run(viewerQuery, {}));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.retryable).toBe(true);
  });

  it("network: nothing listens on the port, so nothing was sent", async () => {
    const port = await closedPort();
    const client = fastClient({ url: `http://127.0.0.1:${port}` }, noRetry);
    const error = await failure(client.run(terminateHireMutation, terminate("2030-01-01")));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error.message).toMatch(/not sent/);
    expect((error as NetworkError).outcomeUnknown).toBe(false);
  });

  it("timeout: a slow answer past timeoutMs", async () => {
    // Fake timers: the time-out fires when the clock reaches it, however loaded the machine.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    sandbox.faults.inject("slow", { count: 1, delayMs: 60_000 });
    let settled = false;
    const pending = failure(
      fastClient(sandbox, { ...noRetry, timeoutMs: 100 }).run(viewerQuery, {}),
    ).finally(() => {
      settled = true;
    });
    await until(() => sandbox.countRequests("Viewer") === 1, "the request arrived");
    await vi.advanceTimersByTimeAsync(99);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toMatch(/within 100 ms/);
  });

  it("cancelled: aborting mid-request rejects promptly", async () => {
    // The sandbox's delay is a fake timer that never fires: only the abort can end the call.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    sandbox.faults.inject("slow", { count: 1, delayMs: 60_000 });
    const controller = new AbortController();
    const pending = failure(
      fastClient(sandbox).run(viewerQuery, {}, { signal: controller.signal }),
    );
    await until(() => sandbox.countRequests("Viewer") === 1, "the request arrived");
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(CancelledError);
    expect(sandbox.countRequests("Viewer")).toBe(1);
  });

  it("cancelled: an already aborted signal sends nothing", async () => {
    const error = await failure(
      fastClient(sandbox).run(viewerQuery, {}, { signal: AbortSignal.abort() }),
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect(sandbox.countRequests("Viewer")).toBe(0);
  });
});

describe("answers the sandbox cannot give", () => {
  const stubs: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(stubs.map((s) => s.close()));
  });
  const client = (url: string) =>
    createPlatformClient({ apiUrl: url, token: "stub-token-1234", retryBaseMs: 1 });

  it("bad request: HTTP 400 with a BAD_REQUEST body, not retried", async () => {
    const stub = await stubServer(() => ({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({
        errors: [{ message: "Invalid request", extensions: { code: "BAD_REQUEST" } }],
      }),
    }));
    stubs.push(stub);
    const error = await failure(client(stub.url).run(viewerQuery, {}));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.status).toBe(400);
    expect(stub.hits).toBe(1);
  });

  it("bad request: HTTP 400 with no GraphQL body", async () => {
    const stub = await stubServer(() => ({ status: 400, contentType: "text/plain", body: "nope" }));
    stubs.push(stub);
    const error = await failure(client(stub.url).run(viewerQuery, {}));
    expect(error).toBeInstanceOf(BadRequestError);
  });

  it("a 503 with a GraphQL body is classified by its body and retried", async () => {
    const stub = await stubServer(() => ({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({
        data: null,
        errors: [
          { message: "Internal server error.", extensions: { code: "DOWNSTREAM_SERVICE_ERROR" } },
        ],
      }),
    }));
    stubs.push(stub);
    const error = await failure(client(stub.url).run(viewerQuery, {}));
    expect(error).toBeInstanceOf(PlatformFailureError);
    expect(error.attempts).toBe(4);
    expect(stub.hits).toBe(4);
  });

  it("an HTTP 429 straight from the platform is a rate limit, retried", async () => {
    const stub = await stubServer(() => ({
      status: 429,
      contentType: "text/plain",
      body: "slow down",
    }));
    stubs.push(stub);
    const error = await failure(client(stub.url).run(viewerQuery, {}));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBeGreaterThanOrEqual(8);
    expect(stub.hits).toBe(4);
  });

  it("a 404 page means the address is not the platform: not retried", async () => {
    const stub = await stubServer(() => ({
      status: 404,
      contentType: "text/html",
      body: "<h1>404</h1>",
    }));
    stubs.push(stub);
    const error = await failure(client(stub.url).run(viewerQuery, {}));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.retryable).toBe(false);
    expect(error.hint).toMatch(/WORKFORCE_API_URL/);
    expect(stub.hits).toBe(1);
  });

  it("a response with an error on one field keeps the data beside it", async () => {
    const stub = await stubServer(() => ({
      status: 200,
      contentType: "application/json",
      body: JSON.stringify({
        data: { viewer: { id: "u1", name: null, email: "a@b.c" } },
        errors: [
          {
            message: "Internal server error.",
            path: ["viewer", "name"],
            extensions: { code: "DOWNSTREAM_SERVICE_ERROR" },
          },
        ],
      }),
    }));
    stubs.push(stub);
    const result = await client(stub.url).request(viewerQuery, {});
    expect(result.data?.viewer.email).toBe("a@b.c");
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toBeInstanceOf(PlatformFailureError);
    expect(result.errors[0]?.path).toEqual(["viewer", "name"]);
    // A partial answer is an answer: not sent again.
    expect(stub.hits).toBe(1);
    await expect(client(stub.url).run(viewerQuery, {})).rejects.toBeInstanceOf(
      PlatformFailureError,
    );
  });

  it("sends POST to <apiUrl>/graphql with the bearer token and JSON", async () => {
    let seen:
      | { body: string; method: string; url: string; headers: Record<string, unknown> }
      | undefined;
    const stub = await stubServer((body, request) => {
      seen = { body, ...request };
      return {
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ data: { viewer: { id: "1", name: "n", email: "e" } } }),
      };
    });
    stubs.push(stub);
    await client(`${stub.url}/`).run(viewerQuery, {});
    // An address that already ends in /graphql is not doubled.
    await client(`${stub.url}/graphql`).run(viewerQuery, {});
    expect(seen?.method).toBe("POST");
    expect(seen?.url).toBe("/graphql");
    expect(seen?.headers.authorization).toBe("Bearer stub-token-1234");
    expect(seen?.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(seen?.body ?? "{}");
    expect(body.operationName).toBe("Viewer");
    expect(body.query).toContain("query Viewer");
  });
});
