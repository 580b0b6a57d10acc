// Platform tokens that HTTP clients bring themselves (token passthrough): per-client bearer mode and
// X-Workforce-Token beside --auth oauth, over real HTTP against the sandbox, on an injected clock.
// A token is checked with the platform (`viewer`) before anything is made for it; unknown tokens
// are checked only a few times a minute per client address.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import type { StateStore } from "../../src/state/store.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { httpConfig, initialize, openSession, raw, startOnFreePort } from "./http-helpers.js";
import { mcpClient, viewerName } from "./remote-auth-helpers.js";

const CHECKS = 5;
const made = () => `made-up-${randomBytes(12).toString("hex")}`;
const toolsList = { jsonrpc: "2.0", id: 2, method: "tools/list" };

/** A memory store on the test's clock that records every key written (sessions leave none). */
function watchedStore(now: () => number): { store: StateStore; keys: string[] } {
  const inner = createMemoryStore(now);
  const keys: string[] = [];
  return {
    keys,
    store: {
      ...inner,
      async set(key, value, ttlMs) {
        keys.push(key);
        return inner.set(key, value, ttlMs);
      },
    },
  };
}

describe("MCP security best practices (token passthrough): per-client bearer tokens are checked first", () => {
  let sandbox: Sandbox;
  let server: HttpServerHandle;
  let now = 0;
  let watched: ReturnType<typeof watchedStore>;
  const lines: string[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    watched = watchedStore(() => now);
    server = await startHttpServer(
      httpConfig({}, { WORKFORCE_API_URL: sandbox.url, WORKFORCE_TOKEN_PASSTHROUGH: "1" }),
      createLogger("debug", (line) => void lines.push(line)),
      "9.9.9",
      { now: () => now, stateStore: watched.store, tokenChecksPerWindow: CHECKS },
    );
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  it("a made-up bearer opens no session and keeps nothing: 401 with WWW-Authenticate invalid_token", async () => {
    now += 120_000;
    const sessionsBefore = lines.join("").match(/MCP session started/g)?.length ?? 0;
    const token = made();
    const res = await raw(`${server.url}/mcp`, {
      body: initialize,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(401);
    expect(String(res.headers["www-authenticate"])).toMatch(
      /^Bearer realm="workforce-mcp", error="invalid_token"/,
    );
    expect(res.headers["mcp-session-id"]).toBeUndefined();
    const body = JSON.parse(res.body);
    expect(body.error.message).toMatch(/the platform did not accept the token/);
    expect(res.body).not.toContain(token);
    // Asked again: refused from memory, not by the platform.
    const asked = sandbox.countRequests();
    const again = await raw(`${server.url}/mcp`, {
      body: initialize,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(again.status).toBe(401);
    expect(sandbox.countRequests()).toBe(asked);
    expect(lines.join("").match(/MCP session started/g)?.length ?? 0).toBe(sessionsBefore);
    expect(watched.keys).toEqual([]);
    expect(lines.join("")).not.toContain(token);
  });

  it("200 made-up bearers cost the platform at most the per-address limit; the rest get 429 with Retry-After", async () => {
    now += 120_000;
    const before = sandbox.countRequests();
    const statuses = new Map<number, number>();
    let retryAfter = "";
    for (let i = 0; i < 200; i++) {
      const res = await raw(`${server.url}/mcp`, {
        body: initialize,
        headers: { authorization: `Bearer ${made()}` },
      });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 429) {
        retryAfter = String(res.headers["retry-after"]);
        expect(JSON.parse(res.body).error.message).toMatch(/Too many unknown tokens/);
      }
    }
    expect(sandbox.countRequests() - before).toBe(CHECKS);
    expect(Object.fromEntries(statuses)).toEqual({ 401: CHECKS, 429: 200 - CHECKS });
    expect(Number(retryAfter)).toBe(60);
    // The same address with a real token: still limited until the window has passed.
    const blocked = await raw(`${server.url}/mcp`, {
      body: initialize,
      headers: { authorization: `Bearer ${sandbox.tokens.full}` },
    });
    expect(blocked.status).toBe(429);
    now += 60_000;
    const session = await openSession(server.url, {
      authorization: `Bearer ${sandbox.tokens.full}`,
    });
    expect((await raw(`${server.url}/mcp`, { body: toolsList, headers: session })).status).toBe(
      200,
    );
  });

  it("a real token is checked once for many sessions, and the SDK client works with it", async () => {
    now += 120_000;
    const viewers = () => sandbox.countRequests("Viewer");
    const before = viewers();
    for (let i = 0; i < 5; i++) {
      await openSession(server.url, { authorization: `Bearer ${sandbox.tokens.limited}` });
    }
    expect(viewers() - before).toBe(1);
    const client = await mcpClient(server.url, {
      authorization: `Bearer ${sandbox.tokens.limited}`,
    });
    try {
      expect(await viewerName(client)).toBe("Oskar Berg");
    } finally {
      await client.close();
    }
    expect(lines.join("")).not.toContain(sandbox.tokens.limited);
  });
});

describe("MCP security best practices (token passthrough): stateless per-client bearer tokens", () => {
  it("refuses a made-up bearer with 401 before serving the request", async () => {
    const sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    const server = await startHttpServer(
      httpConfig(
        {},
        {
          WORKFORCE_API_URL: sandbox.url,
          WORKFORCE_TOKEN_PASSTHROUGH: "1",
          WORKFORCE_STATELESS: "1",
        },
      ),
      createLogger("warning", () => {}),
      "9.9.9",
    );
    try {
      const before = sandbox.countRequests();
      const res = await raw(`${server.url}/mcp`, {
        body: initialize,
        headers: { authorization: "Bearer not-a-real-token" },
      });
      expect(res.status).toBe(401);
      expect(String(res.headers["www-authenticate"])).toContain('error="invalid_token"');
      expect(sandbox.countRequests() - before).toBe(1);
    } finally {
      await server.close();
      await sandbox.close();
    }
  });
});

describe("MCP security best practices (token passthrough): unknown tokens limited per address group behind a proxy", () => {
  it("60 made-up bearers from 60 addresses of one IPv6 /64 cost the platform the limit of one address (its /56, as the SDK's limiters count; RFC 6177)", async () => {
    const sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    const server = await startHttpServer(
      httpConfig(
        {},
        {
          WORKFORCE_API_URL: sandbox.url,
          WORKFORCE_TOKEN_PASSTHROUGH: "1",
          WORKFORCE_TRUST_PROXY: "loopback",
        },
      ),
      createLogger("warning", () => {}),
      "9.9.9",
      { now: () => 0, stateStore: createMemoryStore(() => 0), tokenChecksPerWindow: CHECKS },
    );
    try {
      const before = sandbox.countRequests();
      const statuses: number[] = [];
      for (let i = 1; i <= 60; i++) {
        const res = await raw(`${server.url}/mcp`, {
          body: initialize,
          headers: {
            authorization: `Bearer ${made()}`,
            "x-forwarded-for": `2001:db8:7:1::${i.toString(16)}`,
          },
        });
        statuses.push(res.status);
      }
      expect(sandbox.countRequests() - before).toBe(CHECKS);
      expect(statuses.filter((s) => s === 429)).toHaveLength(60 - CHECKS);
      // Another site (another /56) has a count of its own.
      const elsewhere = await raw(`${server.url}/mcp`, {
        body: initialize,
        headers: { authorization: `Bearer ${made()}`, "x-forwarded-for": "2001:db8:8::1" },
      });
      expect(elsewhere.status).toBe(401);
    } finally {
      await server.close();
      await sandbox.close();
    }
  });
});

describe("MCP security best practices (token passthrough): X-Workforce-Token beside --auth oauth", () => {
  let sandbox: Sandbox;
  let server: HttpServerHandle;
  let now = 0;
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    // Its public address (the OAuth callback) is registered before it starts: a port in advance.
    server = await startOnFreePort((port) => {
      const publicUrl = `http://127.0.0.1:${port}`;
      const upstream = sandbox.oauth.registerClient({
        name: "team server (test)",
        redirectUri: `${publicUrl}/oauth/callback`,
      });
      const config = {
        ...parseConfig(["--http", "--port", String(port), "--auth", "oauth"], {
          WORKFORCE_API_URL: sandbox.url,
          WORKFORCE_CLIENT_ID: upstream.id,
          WORKFORCE_CLIENT_SECRET: upstream.secret,
          WORKFORCE_PUBLIC_URL: publicUrl,
          WORKFORCE_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
          WORKFORCE_TOKEN_PASSTHROUGH: "1",
        }),
        retryBaseMs: 1,
      };
      return startHttpServer(
        config,
        createLogger("warning", () => {}),
        "9.9.9",
        {
          now: () => now,
          stateStore: createMemoryStore(() => now),
          tokenChecksPerWindow: CHECKS,
        },
      );
    });
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  it("200 random tokens cost the platform at most the per-address limit; then 429 with Retry-After", async () => {
    const before = sandbox.countRequests();
    const statuses = new Map<number, number>();
    let limited: { retryAfter: string; body: string } | undefined;
    for (let i = 0; i < 200; i++) {
      const res = await raw(`${server.url}/mcp`, {
        body: initialize,
        headers: { "x-workforce-token": made() },
      });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 429)
        limited ??= { retryAfter: String(res.headers["retry-after"]), body: res.body };
    }
    expect(sandbox.countRequests() - before).toBe(CHECKS);
    expect(Object.fromEntries(statuses)).toEqual({ 401: CHECKS, 429: 200 - CHECKS });
    expect(limited?.retryAfter).toBe("60");
    expect(JSON.parse(limited?.body ?? "{}")).toMatchObject({ error: "too_many_requests" });
    now += 60_000;
    const client = await mcpClient(server.url, { "x-workforce-token": sandbox.tokens.limited });
    try {
      expect(await viewerName(client)).toBe("Oskar Berg");
    } finally {
      await client.close();
    }
  });
});
