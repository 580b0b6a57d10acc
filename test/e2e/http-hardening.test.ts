import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/logger.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import {
  BUSY_RETRY_SECONDS,
  type HttpSession,
  SessionRegistry,
} from "../../src/transports/http-sessions.js";
import { httpConfig, initialize, messages, openSession, quietLogger, raw } from "./http-helpers.js";

const cli = path.resolve(process.cwd(), "dist/cli.js");
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const toolsList = (id = 2) => ({ jsonrpc: "2.0", id, method: "tools/list" });
const searchHires = (id = 3) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "search_hires", arguments: {} },
});

/** Holds a GET SSE stream open until the returned function is called. */
function openSseStream(baseUrl: string, headers: Record<string, string>) {
  return new Promise<{ status: number; close: () => Promise<void> }>((resolve, reject) => {
    const req = request(
      `${baseUrl}/mcp`,
      { method: "GET", headers: { ...headers, accept: "text/event-stream" } },
      (res) => {
        res.resume();
        resolve({
          status: res.statusCode ?? 0,
          close: async () => {
            req.destroy();
          },
        });
      },
    );
    req.on("error", () => {});
    req.once("error", reject);
    req.end();
  });
}

describe("session registry", () => {
  const stubSession = (id: string, closed: string[]): HttpSession =>
    ({
      id,
      transport: { close: async () => void closed.push(`transport ${id}`) },
      workforce: { close: async () => void closed.push(`workforce ${id}`) },
    }) as unknown as HttpSession;

  it("reclaims idle sessions oldest first, closing transport and McpServer, never busy ones", async () => {
    let now = 0;
    const closed: string[] = [];
    const reclaimed: string[] = [];
    const registry = new SessionRegistry({
      maxSessions: 3,
      maxPerOwner: 3,
      idleMs: 1_000,
      now: () => now,
      onReclaim: (s) => reclaimed.push(s.id),
    });
    try {
      for (const id of ["a", "b", "c"]) {
        const slot = registry.reserve("one");
        if (!slot.ok) throw new Error("no slot");
        slot.reservation.commit(stubSession(id, closed));
        now += 100;
      }
      const endB = registry.begin("b");
      now = 5_000;
      const slot = registry.reserve("one");
      expect(slot.ok).toBe(true);
      expect(reclaimed).toEqual(["a", "c"]);
      await tick(0);
      expect(closed.sort()).toEqual(["transport a", "transport c", "workforce a", "workforce c"]);
      expect(registry.get("a")).toBeUndefined();
      expect(registry.get("b")).toBeDefined();

      endB();
      now = 5_999;
      expect(registry.sweep()).toBe(0);
      now = 6_000;
      expect(registry.sweep()).toBe(1);
    } finally {
      await registry.closeAll();
    }
  });

  it("MCP security best practices (session DoS): at the cap ends the least recently used idle session, never a busy one", async () => {
    let now = 0;
    const closed: string[] = [];
    const evicted: string[] = [];
    const registry = new SessionRegistry({
      maxSessions: 3,
      maxPerOwner: 3,
      idleMs: 60_000,
      now: () => now,
      onEvict: (s, reason) => evicted.push(`${s.id} ${reason}`),
    });
    const open = (id: string, owner = "one") => {
      const slot = registry.reserve(owner);
      if (slot.ok) slot.reservation.commit(stubSession(id, closed));
      return slot;
    };
    try {
      for (const id of ["a", "b", "c"]) {
        open(id);
        now += 100;
      }
      // a is used again, so b is now the least recently used; c is busy.
      registry.begin("a")();
      const endC = registry.begin("c");
      expect(open("d").ok).toBe(true);
      expect(evicted).toEqual(["b cap"]);
      await tick(0);
      expect(closed.sort()).toEqual(["transport b", "workforce b"]);
      // Every session busy: refused, with a short Retry-After.
      const ends = ["a", "d"].map((id) => registry.begin(id));
      expect(open("e")).toEqual({
        ok: false,
        reason: "cap",
        retryAfterSeconds: BUSY_RETRY_SECONDS,
      });
      for (const end of [...ends, endC]) end();
      expect(open("e").ok).toBe(true);
      expect(registry.size).toBe(3);
    } finally {
      await registry.closeAll();
    }
  });

  it("MCP security best practices (session DoS): one owner holds at most its share; over it, its own oldest idle session ends", async () => {
    const evicted: string[] = [];
    const registry = new SessionRegistry({
      maxSessions: 8,
      idleMs: 60_000,
      onEvict: (s, reason) => evicted.push(`${s.id} ${reason}`),
    });
    const open = (id: string, owner: string) => {
      const slot = registry.reserve(owner);
      if (slot.ok) slot.reservation.commit(stubSession(id, []));
      return slot;
    };
    try {
      open("other-1", "other");
      // A quarter of 8: the flooding owner keeps two, ending its own oldest.
      for (let i = 1; i <= 20; i++) expect(open(`flood-${i}`, "flood").ok).toBe(true);
      expect(registry.size).toBe(3);
      expect(registry.get("other-1")).toBeDefined();
      expect(evicted).toHaveLength(18);
      expect(evicted.every((e) => e.endsWith("share"))).toBe(true);
      // Its own sessions all busy: it is refused, others are not.
      const ends = ["flood-19", "flood-20"].map((id) => registry.begin(id));
      expect(open("flood-21", "flood")).toMatchObject({ ok: false, reason: "share" });
      expect(open("other-2", "other").ok).toBe(true);
      for (const end of ends) end();
    } finally {
      await registry.closeAll();
    }
  });

  it("counts sessions still initializing against the cap", () => {
    const registry = new SessionRegistry({ maxSessions: 1, idleMs: 60_000 });
    try {
      const first = registry.reserve("a");
      expect(first.ok).toBe(true);
      expect(registry.reserve("b")).toMatchObject({
        ok: false,
        retryAfterSeconds: BUSY_RETRY_SECONDS,
      });
      if (first.ok) first.reservation.release();
      expect(registry.reserve("b").ok).toBe(true);
    } finally {
      void registry.closeAll();
    }
  });
});

describe("MCP security best practices (session DoS): HTTP session cap and idle expiry", () => {
  let now = 0;
  let server: HttpServerHandle;
  const lines: string[] = [];
  beforeAll(async () => {
    server = await startHttpServer(
      httpConfig({ useSandbox: true, maxSessions: 3 }),
      createLogger("info", (line) => void lines.push(line)),
      "9.9.9",
      { now: () => now, sessionIdleMs: 60_000, sessionsPerOwner: 3 },
    );
  });
  afterAll(() => server.close());

  it("at the cap ends the least recently used idle session (its client gets 404 and initialises again), and logs it without a token", async () => {
    const s1 = await openSession(server.url);
    now += 1_000;
    const s2 = await openSession(server.url);
    now += 1_000;
    const s3 = await openSession(server.url);
    now += 1_000;
    // s1 is used again: s2 is now the least recently used.
    expect((await raw(`${server.url}/mcp`, { body: toolsList(), headers: s1 })).status).toBe(200);
    const s4 = await openSession(server.url);
    const gone = await raw(`${server.url}/mcp`, { body: toolsList(), headers: s2 });
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.body).error.message).toMatch(
      /Session not found.*Start a new session with an initialize request/,
    );
    for (const alive of [s1, s3, s4]) {
      expect((await raw(`${server.url}/mcp`, { body: toolsList(), headers: alive })).status).toBe(
        200,
      );
    }
    // The client of s2 initialises again, as the MCP spec has it.
    await openSession(server.url);
    expect(lines.join("")).toMatch(/ended the least recently used idle MCP session/);
  });

  it("never ends a session whose SSE stream opened a moment ago; when every session is busy, 503 with a short Retry-After", async () => {
    now = 1_000_000;
    const busy = await Promise.all([1, 2, 3].map(() => openSession(server.url)));
    const streams = await Promise.all(busy.map((headers) => openSseStream(server.url, headers)));
    try {
      const full = await raw(`${server.url}/mcp`, { body: initialize });
      expect(full.status).toBe(503);
      expect(full.headers["retry-after"]).toBe(String(BUSY_RETRY_SECONDS));
      expect(JSON.parse(full.body).error.message).toMatch(/Every session on this server is busy/);
      for (const headers of busy) {
        expect((await raw(`${server.url}/mcp`, { body: toolsList(), headers })).status).toBe(200);
      }
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
    // Once a stream closes (as soon as the server has seen it close) its session may make room.
    await vi.waitFor(() => openSession(server.url), { timeout: 10_000, interval: 10 });
  });
});

describe("HTTP idle sweep", () => {
  it("ends an idle session on its timer, without waiting for the cap", async () => {
    // Fake time: the sweep's interval and the idle clock move only when the test moves them.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    const server = await startHttpServer(httpConfig({ useSandbox: true }), quietLogger(), "9.9.9", {
      sessionIdleMs: 200,
    });
    try {
      const session = await openSession(server.url);
      const list = async () =>
        (await raw(`${server.url}/mcp`, { body: toolsList(), headers: session })).status;
      expect(await list()).toBe(200);
      // Idle for less than its time: the sweeps so far leave it.
      vi.advanceTimersByTime(150);
      expect(await list()).toBe(200);
      // Idle for longer: a sweep has ended it.
      vi.advanceTimersByTime(300);
      expect(await list()).toBe(404);
    } finally {
      vi.useRealTimers();
      await server.close();
    }
  });
});

describe("HTTP Origin check", () => {
  let server: HttpServerHandle;
  let port: string;
  beforeAll(async () => {
    server = await startHttpServer(
      httpConfig({
        useSandbox: true,
        allowedHosts: [
          "app.example.com:8443",
          "https://secure.example.com",
          "any.example.com",
          "localhost:6274",
          "127.0.0.1",
        ],
      }),
      quietLogger(),
      "9.9.9",
    );
    port = new URL(server.url).port;
  });
  afterAll(() => server.close());

  const post = (origin: string, host?: string) =>
    raw(`${server.url}/mcp`, {
      body: initialize,
      headers: { origin, ...(host ? { host } : {}) },
    });

  it("refuses a page from another loopback port, even with a port-less loopback entry", async () => {
    const other = Number(port) === 5173 ? 5174 : 5173;
    for (const origin of [
      `http://localhost:${other}`,
      `http://127.0.0.1:${other}`,
      `http://[::1]:${other}`,
      "http://localhost",
      "http://localhost:6275",
      "http://127.0.0.1:6274",
      "null",
    ]) {
      const res = await post(origin);
      expect(res.status, origin).toBe(403);
      expect(JSON.parse(res.body).error.message).toMatch(/Origin not allowed/);
    }
  });

  it("accepts a page from the server's own port, or a loopback host:port named in --allowed-hosts", async () => {
    for (const origin of [
      `http://localhost:${port}`,
      `http://127.0.0.1:${port}`,
      "http://localhost:6274",
    ]) {
      expect((await post(origin)).status, origin).toBe(200);
    }
  });

  it("compares host:port for --allowed-hosts entries with a port, the name alone without", async () => {
    const cases: Array<[string, string, number]> = [
      ["https://app.example.com:8443", "app.example.com", 200],
      ["http://app.example.com:8443", "app.example.com", 200],
      ["https://app.example.com", "app.example.com", 403],
      ["https://app.example.com:9443", "app.example.com", 403],
      ["https://secure.example.com", "secure.example.com", 200],
      ["http://secure.example.com", "secure.example.com", 403],
      ["https://secure.example.com:8443", "secure.example.com", 403],
      ["https://any.example.com:1234", "any.example.com", 200],
      ["http://any.example.com", "any.example.com", 200],
    ];
    for (const [origin, host, status] of cases) {
      expect((await post(origin, host)).status, origin).toBe(status);
    }
  });
});

describe("HTTP with per-client bearer tokens", () => {
  let sandbox: Sandbox;
  let server: HttpServerHandle;
  const stderr: string[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    const config = httpConfig(
      {},
      { WORKFORCE_API_URL: sandbox.url, WORKFORCE_TOKEN_PASSTHROUGH: "1" },
    );
    expect(config.token).toBeUndefined();
    const logger = createLogger("debug", (line) => {
      stderr.push(line);
    });
    server = await startHttpServer(config, logger, "9.9.9");
  });
  afterAll(async () => {
    await server.close();
    await sandbox.close();
  });

  it("checks the session's bearer on every request and calls nothing when it does not match", async () => {
    const full = `Bearer ${sandbox.tokens.full}`;
    const session = await openSession(server.url, { authorization: full });
    const ok = await raw(`${server.url}/mcp`, { body: searchHires(), headers: session });
    expect(ok.status).toBe(200);
    const [answer] = messages(ok);
    expect(answer?.result).toBeDefined();
    expect((answer?.result as { isError?: boolean } | undefined)?.isError).toBeFalsy();

    const before = sandbox.countRequests();
    const { authorization: _, ...noBearer } = session;
    const refused: Array<[string, Record<string, string>, string?]> = [
      ["limited token", { ...session, authorization: `Bearer ${sandbox.tokens.limited}` }],
      ["wrong token", { ...session, authorization: "Bearer not-the-token" }],
      ["no Authorization", noBearer],
      ["malformed", { ...session, authorization: `Basic ${sandbox.tokens.full}` }],
      ["two tokens", { ...session, authorization: `${full} ${sandbox.tokens.full}` }],
      ["GET stream without it", noBearer, "GET"],
      ["DELETE without it", noBearer, "DELETE"],
    ];
    for (const [name, headers, method] of refused) {
      const res = await raw(`${server.url}/mcp`, {
        method,
        body: method ? undefined : searchHires(),
        headers: method === "GET" ? { ...headers, accept: "text/event-stream" } : headers,
      });
      expect(res.status, name).toBe(401);
      expect(res.headers["www-authenticate"], name).toBe('Bearer realm="workforce-mcp"');
      const body = JSON.parse(res.body);
      expect(body.jsonrpc).toBe("2.0");
      expect(body.error.message).toMatch(/Authorization: Bearer/);
      expect(res.body).not.toContain(sandbox.tokens.full);
    }
    expect(sandbox.countRequests()).toBe(before);

    // The refused DELETE did not end the session; the right bearer still works.
    const again = await raw(`${server.url}/mcp`, { body: searchHires(4), headers: session });
    expect(again.status).toBe(200);
    expect(sandbox.countRequests()).toBeGreaterThan(before);
    expect(stderr.join("")).not.toContain(sandbox.tokens.full);
  });

  it("says at start-up that each client must send its token, and logs no token even at debug", async () => {
    expect(stderr.join("")).toMatch(/each client must send its own platform token/);
    expect(stderr.join("")).not.toContain(sandbox.tokens.limited);
  });
});

describe("HTTP empty JSON-RPC batch", () => {
  let server: HttpServerHandle;
  beforeAll(async () => {
    server = await startHttpServer(httpConfig({ useSandbox: true }), quietLogger(), "9.9.9");
  });
  afterAll(() => server.close());

  it("answers [] with 400 Invalid Request, with and without a session", async () => {
    const session = await openSession(server.url);
    for (const headers of [{}, session]) {
      const res = await raw(`${server.url}/mcp`, { body: [], headers });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toEqual({
        jsonrpc: "2.0",
        error: { code: -32600, message: "Invalid Request: empty batch." },
        id: null,
      });
    }
    expect((await raw(`${server.url}/mcp`, { body: toolsList(), headers: session })).status).toBe(
      200,
    );
  });
});

/** Starts the built binary with --http on a port the OS picks; resolves with the address it prints. */
async function startBinary(env: Record<string, string>) {
  if (!existsSync(cli)) throw new Error("dist/cli.js is missing: run `npm run build` first.");
  const child = spawn(process.execPath, [cli, "--http", "--port", "0"], {
    cwd: mkdtempSync(path.join(tmpdir(), "workforce-mcp-http-")),
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  child.stdout?.on("data", (c: Buffer) => {
    stdout += c.toString("utf8");
  });
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start: ${stderr}`)), 10_000);
    child.stderr?.on("data", () => {
      const listening = /listening on (http:\/\/\S+?)\/mcp\b/.exec(stderr);
      if (listening) {
        clearTimeout(timer);
        resolve(listening[1] as string);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${stderr}`));
    });
  });
  return {
    child,
    url,
    stderr: () => stderr,
    stdout: () => stdout,
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

describe("MCP security best practices (session DoS): the built binary under an initialize flood", () => {
  // What it costs in memory is a figure of `npm run bench` (bench/ceilings.mjs), not a bound here.
  it("holds at most WORKFORCE_MAX_SESSIONS by ending idle sessions, and answers every initialize", async () => {
    const maxSessions = 200;
    // Five times the cap: four in five initializes end an idle session, more than enough to show
    // that the cap holds, nobody is refused and the eviction log is not a line per ended session.
    const total = 5 * maxSessions;
    const concurrency = 16;
    const bin = await startBinary({
      WORKFORCE_MAX_SESSIONS: String(maxSessions),
      WORKFORCE_LOG_LEVEL: "info",
    });
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    try {
      const first = await openSession(bin.url);
      let sent = 0;
      let created = 0;
      let refused = 0;
      let other = 0;
      const worker = async () => {
        while (sent < total) {
          sent++;
          const res = await raw(`${bin.url}/mcp`, { body: initialize, agent });
          if (res.status === 200) created++;
          else if (res.status === 503) refused++;
          else other++;
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));

      expect(other).toBe(0);
      // No one is locked out: every initialize got a session, the oldest idle ones ended.
      expect(refused).toBe(0);
      expect(created).toBe(total);
      // The first session, idle since, was ended to make room: its client is told to start again.
      const gone = await raw(`${bin.url}/mcp`, { body: toolsList(), headers: first });
      expect(gone.status).toBe(404);
      expect(bin.stdout()).toBe("");
      // Evictions are logged, but not one line per ended session (at most a line a second by the
      // server's clock: test/e2e/http-session-flood.test.ts holds that exactly, with its own clock).
      const evictionLines = bin.stderr().match(/idle MCP session to make room/g)?.length ?? 0;
      expect(evictionLines).toBeGreaterThan(0);
      expect(evictionLines).toBeLessThan(total - maxSessions);
    } finally {
      agent.destroy();
      await bin.stop();
    }
  }, 120_000);
});

describe("MCP authorization: token passthrough is opt-in for the built binary", () => {
  it("refuses to start --http with WORKFORCE_API_URL and no token, recommending --auth oauth", async () => {
    await expect(startBinary({ WORKFORCE_API_URL: "http://127.0.0.1:9" })).rejects.toThrow(
      /exited 2: .*would pass each client's own platform token through.*Run with --auth oauth.*--token-passthrough/s,
    );
  });
});

describe("the built binary with WORKFORCE_API_URL, no WORKFORCE_TOKEN and --token-passthrough", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
  });
  afterAll(() => sandbox.close());

  it("starts, says each client must send its token, and serves a client that does", async () => {
    const bin = await startBinary({
      WORKFORCE_API_URL: sandbox.url,
      WORKFORCE_TOKEN_PASSTHROUGH: "1",
    });
    try {
      expect(bin.stderr()).toMatch(/each client must send its own platform token/);
      const client = new Client({ name: "bearer-e2e", version: "0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${bin.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${sandbox.tokens.full}` } },
        }),
      );
      try {
        const result = await client.callTool({ name: "search_hires", arguments: {} });
        expect(result.isError).toBeFalsy();
      } finally {
        await client.close();
      }
      const before = sandbox.countRequests();
      const session = await openSession(bin.url, {
        authorization: `Bearer ${sandbox.tokens.full}`,
      });
      const res = await raw(`${bin.url}/mcp`, {
        body: searchHires(),
        headers: { ...session, authorization: "Bearer someone-elses-token" },
      });
      expect(res.status).toBe(401);
      expect(sandbox.countRequests()).toBe(before);
      const none = await raw(`${bin.url}/mcp`, { body: initialize });
      expect(none.status).toBe(401);
    } finally {
      await bin.stop();
    }
    expect(bin.stdout()).toBe("");
    expect(bin.stderr()).not.toContain(sandbox.tokens.full);
  });
});
