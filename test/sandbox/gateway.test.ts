import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { until } from "../helpers/until.js";
import { gql, onlyError, TODAY } from "./helpers.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ today: TODAY, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.reset();
  sandbox.setRateLimit(0);
});

const authed = { authorization: `Bearer sandbox-full-4f1c9d2e7b` };

async function raw(init: RequestInit & { path?: string } = {}) {
  const res = await fetch(`${sandbox.url}${init.path ?? "/graphql"}`, init);
  const text = await res.text();
  let json: { errors?: Array<{ message: string; extensions: { code: string } }> } | undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json, headers: res.headers };
}

describe("public API", () => {
  it("listens on 127.0.0.1 with stable tokens", () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.graphqlUrl).toBe(`${sandbox.url}/graphql`);
    expect(sandbox.tokens).toEqual({
      full: "sandbox-full-4f1c9d2e7b",
      limited: "sandbox-limited-8a3e6b0c51",
    });
  });
});

describe("HTTP gateway", () => {
  it("rejects GET without the preflight header with 400 BAD_REQUEST", async () => {
    const r = await raw({ path: "/graphql?query=%7Bviewer%7Bname%7D%7D", headers: authed });
    expect(r.status).toBe(400);
    expect(r.json?.errors?.[0]?.extensions.code).toBe("BAD_REQUEST");
  });

  it("answers a GET query with the preflight header", async () => {
    const r = await raw({
      path: `/graphql?query=${encodeURIComponent("query Me { viewer { name } }")}&operationName=Me`,
      headers: { ...authed, "apollo-require-preflight": "true" },
    });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ data: { viewer: { name: "Maja Lindqvist" } } });
    expect(sandbox.requests.at(-1)?.operationName).toBe("Me");
  });

  it("rejects a mutation over GET even with the preflight header", async () => {
    const q = 'mutation { cancelHire(input: {hire: "hire_003", message: "x"}) { id } }';
    const r = await raw({
      path: `/graphql?query=${encodeURIComponent(q)}`,
      headers: { ...authed, "apollo-require-preflight": "true" },
    });
    expect(r.status).toBe(400);
    expect(r.json?.errors?.[0]?.extensions.code).toBe("BAD_REQUEST");
    const hire = await gql<{ hire: { activeStatus: string } }>(
      sandbox,
      '{ hire(id: "hire_003") { activeStatus } }',
    );
    expect(hire.data?.hire.activeStatus).toBe("DRAFT");
  });

  it.each([
    ["no Content-Type", {}],
    ["text/plain", { "content-type": "text/plain" }],
  ])("rejects a POST with %s", async (_label, headers) => {
    const r = await raw({
      method: "POST",
      headers: { ...authed, ...headers },
      body: JSON.stringify({ query: "{ viewer { name } }" }),
    });
    expect(r.status).toBe(400);
    expect(r.json?.errors?.[0]?.extensions.code).toBe("BAD_REQUEST");
  });

  it("accepts application/json with a charset", async () => {
    const r = await raw({
      method: "POST",
      headers: { ...authed, "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ query: "{ viewer { name } }" }),
    });
    expect(r.status).toBe(200);
  });

  it.each([
    ["invalid JSON", "{not json"],
    ["no query", JSON.stringify({ variables: {} })],
    ["a non-string query", JSON.stringify({ query: 42 })],
    ["a JSON array", JSON.stringify([{ query: "{ viewer { name } }" }])],
  ])("rejects a body with %s", async (_label, body) => {
    const r = await raw({
      method: "POST",
      headers: { ...authed, "content-type": "application/json" },
      body,
    });
    expect(r.status).toBe(400);
    expect(r.json?.errors?.[0]?.extensions.code).toBe("BAD_REQUEST");
  });

  it("answers 404 on other paths and 405 on other methods", async () => {
    expect((await raw({ path: "/other", method: "POST" })).status).toBe(404);
    const del = await raw({ method: "DELETE" });
    expect(del.status).toBe(405);
    expect(del.headers.get("allow")).toBe("GET, POST");
  });

  it("answers a method or a charset it does not take with the gateway's error", async () => {
    const del = await raw({ method: "DELETE", headers: authed });
    expect(del.json?.errors?.[0]?.extensions.code).toBe("METHOD_NOT_ALLOWED");
    const latin1 = await raw({
      method: "POST",
      headers: { ...authed, "content-type": "application/json; charset=iso-8859-1" },
      body: JSON.stringify({ query: "{ viewer { name } }" }),
    });
    expect(latin1.status).toBe(400);
    expect(latin1.json?.errors?.[0]?.extensions.code).toBe("BAD_REQUEST");
  });
});

describe("GraphQL gateway errors (HTTP 200, no data)", () => {
  it("reports a syntax error as GRAPHQL_PARSE_FAILED", async () => {
    const r = await gql(sandbox, "{ viewer { name }");
    expect(r.status).toBe(200);
    expect(onlyError(r).extensions.code).toBe("GRAPHQL_PARSE_FAILED");
    expect(r.data ?? null).toBeNull();
  });

  it.each([
    ["an unknown field", "{ viewer { nickname } }"],
    ["an unknown argument", "{ hires(color: RED) { paginatorInfo { total } } }"],
    ["a missing required argument", "{ hire { id } }"],
    ["an unknown type", "query ($x: Banana) { viewer { name } }"],
    ["a subscription, which the schema has none of", "subscription { viewer { name } }"],
  ])("reports %s as GRAPHQL_VALIDATION_FAILED with locations", async (_label, query) => {
    const r = await gql(sandbox, query);
    expect(r.status).toBe(200);
    const error = r.errors?.[0];
    expect(error?.extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    expect(error?.locations?.length).toBeGreaterThan(0);
    expect(r.data ?? null).toBeNull();
  });

  it.each([
    ["an unknown enum value", { s: ["SLEEPING"] }],
    ["a wrongly typed variable", { s: 5, first: "ten" }],
  ])("reports %s in variables as BAD_USER_INPUT", async (_label, variables) => {
    const r = await gql(
      sandbox,
      "query ($s: [HireActiveStatus!], $first: Int! = 10) { hires(status: $s, first: $first) { paginatorInfo { total } } }",
      { variables },
    );
    expect(r.status).toBe(200);
    expect(r.errors?.[0]?.extensions.code).toBe("BAD_USER_INPUT");
    expect(r.data ?? null).toBeNull();
  });

  it.each([
    ["an unknown operation name", "query A { viewer { id } }", "B"],
    ["no operation name for two operations", "query A { viewer { id } } query B { viewer { id } }"],
  ])("reports %s as GRAPHQL_VALIDATION_FAILED", async (_label, query, operationName?: string) => {
    const r = await gql(sandbox, query, { operationName });
    expect(r.status).toBe(200);
    expect(onlyError(r).extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    expect(r.data ?? null).toBeNull();
  });

  it("answers application/json at HTTP 200 to a client that prefers graphql-response+json", async () => {
    const r = await raw({
      method: "POST",
      headers: {
        ...authed,
        "content-type": "application/json",
        accept: "application/graphql-response+json, application/json",
      },
      body: JSON.stringify({ query: "{ viewer { nickname } }" }),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.json?.errors?.[0]?.extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  it("supports introspection with a valid token", async () => {
    const r = await gql<{
      __schema: { queryType: { name: string } };
      __type: { fields: Array<{ name: string }> };
    }>(sandbox, '{ __schema { queryType { name } } __type(name: "Hire") { fields { name } } }');
    expect(r.data?.__schema.queryType.name).toBe("Query");
    expect(r.data?.__type.fields.map((f) => f.name)).toContain("latestContract");
  });

  it("requires a token for introspection too", async () => {
    const r = await gql(sandbox, "{ __schema { queryType { name } } }", { token: null });
    expect(onlyError(r).message).toBe("Unauthenticated.");
  });
});

describe("authentication", () => {
  it.each([
    ["missing", null],
    ["unknown", "sandbox-full-0000000000"],
  ])("answers a %s token with Unauthenticated.", async (_label, token) => {
    const r = await gql(sandbox, "query Who {\n  viewer { name }\n  accounts { id }\n}", { token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      errors: [
        {
          message: "Unauthenticated.",
          locations: [{ line: 2, column: 3 }],
          path: ["viewer"],
          extensions: {
            code: "DOWNSTREAM_SERVICE_ERROR",
            serviceName: "platform",
            guards: ["api"],
          },
        },
      ],
      data: null,
    });
  });

  it("tells the two identities apart", async () => {
    const full = await gql<{ viewer: { name: string } }>(sandbox, "{ viewer { name } }");
    const limited = await gql<{ viewer: { name: string } }>(sandbox, "{ viewer { name } }", {
      token: "limited",
    });
    expect(full.data?.viewer.name).toBe("Maja Lindqvist");
    expect(limited.data?.viewer.name).toBe("Oskar Berg");
  });
});

describe("rate limit", () => {
  it("answers the request over the limit with Too Many Requests, per token", async () => {
    sandbox.setRateLimit(3);
    for (let i = 0; i < 3; i++) {
      expect((await gql(sandbox, "{ viewer { id } }")).errors).toBeUndefined();
    }
    const over = await fetch(sandbox.graphqlUrl, {
      method: "POST",
      headers: { ...authed, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ viewer { id } }" }),
    });
    expect(over.status).toBe(200);
    expect(over.headers.get("retry-after")).toBeNull();
    expect(await over.json()).toEqual({
      errors: [
        {
          message: "Too Many Requests",
          extensions: { code: "DOWNSTREAM_SERVICE_ERROR", serviceName: "platform" },
        },
      ],
      data: null,
    });
    // The other token has its own budget.
    expect((await gql(sandbox, "{ viewer { id } }", { token: "limited" })).errors).toBeUndefined();
  });

  it("does not charge requests with a bad token to anyone's budget", async () => {
    sandbox.setRateLimit(2);
    for (let i = 0; i < 3; i++) await gql(sandbox, "{ viewer { id } }", { token: "nope" });
    expect((await gql(sandbox, "{ viewer { id } }")).errors).toBeUndefined();
    expect((await gql(sandbox, "{ viewer { id } }")).errors).toBeUndefined();
    expect(onlyError(await gql(sandbox, "{ viewer { id } }")).message).toBe("Too Many Requests");
  });

  it("reset() clears the window and 0 turns the limit off", async () => {
    sandbox.setRateLimit(1);
    await gql(sandbox, "{ viewer { id } }");
    expect(onlyError(await gql(sandbox, "{ viewer { id } }")).message).toBe("Too Many Requests");
    sandbox.reset();
    expect((await gql(sandbox, "{ viewer { id } }")).errors).toBeUndefined();
    sandbox.setRateLimit(0);
    for (let i = 0; i < 5; i++) {
      expect((await gql(sandbox, "{ viewer { id } }")).errors).toBeUndefined();
    }
  });

  it("defaults to 60 a minute", async () => {
    const fresh = await startSandbox({ today: TODAY });
    try {
      const results = await Promise.all(
        Array.from({ length: 61 }, () => gql(fresh, "{ viewer { id } }")),
      );
      const limited = results.filter((r) => r.errors?.[0]?.message === "Too Many Requests");
      expect(limited).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });
});

describe("request log", () => {
  it("records every request with operation name, identity and status", async () => {
    const before = Date.now();
    await gql(sandbox, "query ListHires { hires { paginatorInfo { total } } }");
    await gql(sandbox, "query Me { viewer { id } }", { token: "limited" });
    await gql(sandbox, "query Me { viewer { id } }", { token: null });
    await raw({ method: "POST", headers: { "content-type": "text/plain" }, body: "x" });
    expect(sandbox.requests.map((r) => [r.operationName, r.identity, r.status])).toEqual([
      ["ListHires", "full", 200],
      ["Me", "limited", 200],
      ["Me", null, 200],
      [null, null, 400],
    ]);
    expect(sandbox.countRequests()).toBe(4);
    expect(sandbox.countRequests("Me")).toBe(2);
    // When each arrived, by the wall clock.
    expect(sandbox.requests[0]?.at).toBeGreaterThanOrEqual(before);
    expect(sandbox.requests.at(-1)?.at).toBeLessThanOrEqual(Date.now());
  });
});

describe("fault injection", () => {
  const post = (query: string) =>
    fetch(sandbox.graphqlUrl, {
      method: "POST",
      headers: { ...authed, "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });

  it("internal-error answers the platform's generic failure, then recovers", async () => {
    sandbox.faults.inject("internal-error");
    const r = await gql(sandbox, "{ viewer { id } }");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      errors: [
        {
          message: "Internal server error.",
          extensions: { code: "DOWNSTREAM_SERVICE_ERROR", serviceName: "platform" },
        },
      ],
      data: null,
    });
    expect((await gql(sandbox, "{ viewer { id } }")).errors).toBeUndefined();
  });

  it("rate-limit answers Too Many Requests for `count` requests", async () => {
    sandbox.faults.inject("rate-limit", { count: 2 });
    expect(onlyError(await gql(sandbox, "{ viewer { id } }")).message).toBe("Too Many Requests");
    expect(onlyError(await gql(sandbox, "{ viewer { id } }")).message).toBe("Too Many Requests");
    expect((await gql(sandbox, "{ viewer { id } }")).errors).toBeUndefined();
  });

  it("html-500 answers HTTP 500 with an HTML page", async () => {
    sandbox.faults.inject("html-500");
    const res = await post("{ viewer { id } }");
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(await res.text()).toMatch(/<html/i);
    expect(sandbox.requests.at(-1)?.status).toBe(500);
  });

  it("non-json-200 answers HTTP 200 with an HTML body", async () => {
    sandbox.faults.inject("non-json-200");
    const res = await post("{ viewer { id } }");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    await expect(res.json()).rejects.toThrow();
  });

  it("slow answers normally after the delay, and not before", async () => {
    // Fake timers: the sandbox's delay passes as the test moves the clock, a millisecond per turn
    // of the event loop, not in real time; a loaded machine only makes the count larger.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      sandbox.faults.inject("slow", { delayMs: 150 });
      let answered = false;
      const pending = gql<{ viewer: { name: string } }>(sandbox, "{ viewer { name } }").then(
        (r) => {
          answered = true;
          return r;
        },
      );
      await until(() => sandbox.countRequests() === 1, "the request arrived");
      let waited = 0;
      await until(
        () => answered,
        "the answer",
        () => {
          vi.advanceTimersByTime(1);
          waited++;
        },
      );
      expect(waited).toBeGreaterThanOrEqual(150);
      expect((await pending).data?.viewer.name).toBe("Maja Lindqvist");
    } finally {
      vi.useRealTimers();
    }
  });

  it("drop-connection destroys the socket without a response", async () => {
    sandbox.faults.inject("drop-connection");
    await expect(post("{ viewer { id } }")).rejects.toThrow();
    expect((await gql(sandbox, "{ viewer { id } }")).errors).toBeUndefined();
  });

  it("refuses an unknown fault kind instead of leaving requests hanging", async () => {
    expect(() => sandbox.faults.inject("non-json" as never)).toThrow(
      /Unknown fault kind "non-json"/,
    );
    expect((await gql(sandbox, "{ viewer { id } }")).errors).toBeUndefined();
  });

  it("only hits requests with the given operationName", async () => {
    sandbox.faults.inject("internal-error", { operationName: "Target" });
    expect((await gql(sandbox, "query Other { viewer { id } }")).errors).toBeUndefined();
    const hit = await gql(sandbox, "query Target { viewer { id } }");
    expect(onlyError(hit).message).toBe("Internal server error.");
  });

  it("does not fire on requests that fail authentication", async () => {
    sandbox.faults.inject("internal-error");
    const r = await gql(sandbox, "{ viewer { id } }", { token: null });
    expect(onlyError(r).message).toBe("Unauthenticated.");
    expect(onlyError(await gql(sandbox, "{ viewer { id } }")).message).toBe(
      "Internal server error.",
    );
  });

  it("with after: true the mutation takes effect before the failure", async () => {
    sandbox.faults.inject("drop-connection", { after: true, operationName: "Cancel" });
    await expect(
      fetch(sandbox.graphqlUrl, {
        method: "POST",
        headers: { ...authed, "content-type": "application/json" },
        body: JSON.stringify({
          query:
            'mutation Cancel { cancelHire(input: {hire: "hire_003", message: "Budget cut"}) { id } }',
        }),
      }),
    ).rejects.toThrow();
    const hire = await gql<{ hire: { activeStatus: string } }>(
      sandbox,
      '{ hire(id: "hire_003") { activeStatus } }',
    );
    expect(hire.data?.hire.activeStatus).toBe("CANCELLED");
  });

  it("clear() removes pending faults", async () => {
    sandbox.faults.inject("internal-error", { count: 5 });
    sandbox.faults.clear();
    expect((await gql(sandbox, "{ viewer { id } }")).errors).toBeUndefined();
  });
});

describe("close", () => {
  it("does not hang on an open slow request", async () => {
    const other = await startSandbox({ today: TODAY });
    other.faults.inject("slow", { delayMs: 60_000 });
    const pending = fetch(other.graphqlUrl, {
      method: "POST",
      headers: { ...authed, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ viewer { id } }" }),
    }).catch(() => "failed");
    await until(() => other.countRequests() === 1, "the request arrived");
    // A close that waited for the minute-long answer would fail at the test's time-out.
    await other.close();
    expect(await pending).toBe("failed");
  });
});
