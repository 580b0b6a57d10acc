// Three HTTP replicas sharing one real Redis, behind a round-robin in the test: any request may
// land on any replica. The figures are printed so that a run shows them, not only pass/fail.
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import type { Progress } from "@modelcontextprotocol/client";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { dumpAll, REDIS_MISSING, type RedisServer, startRedis } from "./helpers.js";

/**
 * The budget: 5 requests per 1-second window for one person, across all replicas. A short window
 * proves what the default minute would, and the tests that run into it wait less; no shorter, as
 * waits under a second are not reported as progress, which the burst checks.
 */
const BUDGET = 5;
const WINDOW_MS = 1_000;
const TERMINATE = { hireId: "hire_001", reason: "PROJECT_COMPLETED_EARLY", date: "2026-12-31" };

interface Replica {
  name: string;
  handle: HttpServerHandle;
  alive: boolean;
  served: number;
  log: string[];
  /** Emits "line" with each line logged. */
  lines: EventEmitter;
}

let redis: RedisServer;
let sandbox: Sandbox;
const replicas: Replica[] = [];
const clients: Client[] = [];

function print(line: string): void {
  process.stdout.write(`[replicas] ${line}\n`);
}

/** The most timestamps inside any window of `length` ms. */
function busiestWindow(times: number[], length: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (const start of sorted) {
    most = Math.max(most, sorted.filter((t) => t >= start && t < start + length).length);
  }
  return most;
}

/**
 * Sends each request to the next live replica, like a load balancer without session affinity. A
 * refused connection (nothing was received) moves on to the next; nothing else is retried.
 */
function roundRobin(pool: Replica[]): typeof fetch {
  let next = 0;
  return async (input, init) => {
    for (let tries = 0; tries < pool.length; tries++) {
      const replica = pool[next++ % pool.length] as Replica;
      if (!replica.alive) continue;
      const url = new URL(String(input instanceof Request ? input.url : input));
      url.host = new URL(replica.handle.url).host;
      try {
        const response = await fetch(url, init);
        replica.served++;
        return response;
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code;
        if (code !== "ECONNREFUSED") throw error;
        replica.alive = false;
      }
    }
    throw new Error("no replica is up");
  };
}

/** Resolves when the replica next logs a line containing `text`. */
function nextLogged(replica: Replica, text: string): Promise<void> {
  return new Promise((resolve) => {
    const listener = (line: string) => {
      if (!line.includes(text)) return;
      replica.lines.off("line", listener);
      resolve();
    };
    replica.lines.on("line", listener);
  });
}

async function connect(pool: Replica[]): Promise<Client> {
  const client = new Client({ name: "replica-test", version: "0" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(`${pool[0]?.handle.url}/mcp`), {
    fetch: roundRobin(pool),
    requestInit: { headers: { Authorization: `Bearer ${sandbox.tokens.full}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type Result = Awaited<ReturnType<Client["callTool"]>>;
const textOf = (r: Result) => (r.content as { text: string }[]).map((c) => c.text).join("\n");
const terminations = () => sandbox.countRequests("TerminateHire");

beforeAll(async () => {
  if (REDIS_MISSING) return;
  redis = await startRedis();
  // The sandbox's own limit is off: the replicas' shared budget is what is measured.
  sandbox = await startSandbox({ rateLimitPerMinute: 0, today: "2026-11-22" });
  // Per-client tokens: every client below is the same person, with the same bearer.
  const config = {
    ...parseConfig(["--http", "--port", "0"], {
      WORKFORCE_API_URL: sandbox.url,
      WORKFORCE_TOKEN_PASSTHROUGH: "1",
      WORKFORCE_REDIS_URL: redis.url,
      WORKFORCE_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      WORKFORCE_RATE_LIMIT: String(BUDGET),
    }),
    retryBaseMs: 1,
  };
  for (const name of ["A", "B", "C"]) {
    const log: string[] = [];
    const lines = new EventEmitter();
    const logger = createLogger("info", (line) => {
      log.push(line);
      lines.emit("line", line);
    });
    const handle = await startHttpServer(config, logger, "test", { rateLimitWindowMs: WINDOW_MS });
    replicas.push({ name, handle, alive: true, served: 0, log, lines });
  }
}, 30_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await Promise.allSettled(replicas.map((r) => r.handle.close()));
  await sandbox?.close();
  await redis?.close();
});

describe.skipIf(REDIS_MISSING)("three replicas sharing Redis", () => {
  it("a burst of three times the budget never exceeds it in any window, and waits instead of failing", async () => {
    const client = await connect(replicas);
    // Each replica checks the client's token with the platform once (remembered for minutes):
    // done here, before the budget is measured.
    for (const _ of replicas) await client.listTools();
    for (const r of replicas) r.served = 0;
    const from = sandbox.requests.length;
    const progress: Progress[] = [];
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 3 * BUDGET }, () =>
        client.callTool(
          { name: "list_accounts", arguments: {} },
          {
            onprogress: (p) => progress.push(p),
            timeout: 60_000,
          },
        ),
      ),
    );
    const took = Date.now() - started;
    const sent = sandbox.requests.slice(from);
    const busiest = busiestWindow(
      sent.map((r) => r.at),
      WINDOW_MS,
    );
    const errors = results.filter((r) => r.isError).length;
    const waits = progress.filter((p) => /waiting \d+ s for the rate limit/.test(p.message ?? ""));
    print(
      `burst: ${results.length} calls, served by A/B/C ${replicas.map((r) => r.served).join("/")}; ${sent.length} platform requests in ${took} ms; budget ${BUDGET} per ${WINDOW_MS} ms; busiest window ${busiest}; waits reported as progress ${waits.length}; errors ${errors}; HTTP 429 ${sent.filter((r) => r.status === 429).length}`,
    );
    expect(errors).toBe(0);
    expect(sent.length).toBe(3 * BUDGET);
    // Three windows' worth, counted rather than timed: a shorter span fits in two windows, which
    // hold two budgets at most, so the last five waited two windows at least.
    expect(busiest).toBeLessThanOrEqual(BUDGET);
    expect(waits.length).toBeGreaterThan(0);
    // Spread over the replicas: each served some of the calls.
    for (const r of replicas) expect(r.served).toBeGreaterThan(0);
  }, 60_000);

  it("introspects the platform once for all three replicas", async () => {
    const [a, b, c] = replicas as [Replica, Replica, Replica];
    const before = sandbox.countRequests("IntrospectionQuery");
    for (const replica of [a, b, c]) {
      const client = await connect([replica]);
      const r = await client.callTool({ name: "describe_schema", arguments: { typeName: "Hire" } });
      expect(r.isError).toBeFalsy();
    }
    const introspections = sandbox.countRequests("IntrospectionQuery") - before;
    const inside = redis.inspect();
    const [key] = await inside.keys("wfmcp:schema:*");
    const bytes = key ? await inside.strlen(key) : 0;
    print(
      `introspection cache: 3 replicas answered describe_schema with ${introspections} introspection; stored gzipped in ${Math.round(bytes / 1024)} KB`,
    );
    expect(introspections).toBe(1);
    expect(bytes).toBeGreaterThan(0);
  });

  it("serves a 2026-07-28 client from any replica, request by request: a preview on one, its token on another", async () => {
    sandbox.reset();
    for (const r of replicas) r.served = 0;
    const client = new Client(
      { name: "replica-test-2026", version: "0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${replicas[0]?.handle.url}/mcp`), {
        fetch: roundRobin(replicas),
        requestInit: { headers: { Authorization: `Bearer ${sandbox.tokens.full}` } },
      }),
    );
    clients.push(client);
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    expect(listed).toContain("terminate_hire");
    expect(listed).toContain("find_tools");
    const preview = await client.callTool({ name: "terminate_hire", arguments: TERMINATE });
    const token = (preview.structuredContent as { confirmationToken?: string }).confirmationToken;
    expect(token, textOf(preview)).toBeTruthy();
    const done = await client.callTool({
      name: "terminate_hire",
      arguments: { ...TERMINATE, confirmationToken: token },
    });
    expect(done.isError, textOf(done)).toBeFalsy();
    const again = await client.callTool({
      name: "terminate_hire",
      arguments: { ...TERMINATE, confirmationToken: token },
    });
    expect(again.isError).toBe(true);
    print(
      `2026-07-28 client: requests served by A/B/C ${replicas.map((r) => r.served).join("/")}; TerminateHire sent ${terminations()} time(s)`,
    );
    expect(terminations()).toBe(1);
    expect(replicas.filter((r) => r.served > 0).length).toBe(3);
  });

  it("a confirmation minted on replica A is accepted once on B and refused on C", async () => {
    sandbox.reset();
    const [a, b, c] = replicas as [Replica, Replica, Replica];
    const onA = await connect([a]);
    const onB = await connect([b]);
    const onC = await connect([c]);
    const preview = await onA.callTool({ name: "terminate_hire", arguments: TERMINATE });
    const token = (preview.structuredContent as { confirmationToken?: string }).confirmationToken;
    expect(preview.isError).toBeFalsy();
    expect(token).toBeTruthy();

    // While the token waits: nothing in Redis holds a token or the call's arguments in plain text.
    const inside = await dumpAll(redis.inspect());
    const secrets = {
      "platform token": sandbox.tokens.full,
      "confirmation token": token as string,
      "hire id argument": TERMINATE.hireId,
      "date argument": TERMINATE.date,
    };
    const found = Object.entries(secrets).filter(([, value]) => inside.text.includes(value));
    const kinds = [...new Set(inside.keys.map((k) => k.split(":").slice(0, 2).join(":")))].sort();
    print(
      `Redis holds ${inside.keys.length} keys (${kinds.join(", ")}); tokens or arguments in plain text: ${found.length}`,
    );
    expect(inside.keys.every((k) => k.startsWith("wfmcp:"))).toBe(true);
    expect(found.map(([name]) => name)).toEqual([]);

    const onBResult = await onB.callTool({
      name: "terminate_hire",
      arguments: { ...TERMINATE, confirmationToken: token },
    });
    const onCResult = await onC.callTool({
      name: "terminate_hire",
      arguments: { ...TERMINATE, confirmationToken: token },
    });
    print(
      `confirmation: minted on A; on B ${onBResult.isError ? "refused" : "accepted"}; on C ${onCResult.isError ? "refused" : "accepted"}; TerminateHire sent ${terminations()} time(s)`,
    );
    expect(onBResult.isError).toBeFalsy();
    expect((onBResult.structuredContent as { status: string }).status).not.toBe("preview");
    expect(onCResult.isError).toBe(true);
    expect(textOf(onCResult)).toMatch(/unknown, expired or already used/);
    expect(terminations()).toBe(1);
  });

  it("killing a replica mid-run loses no call that had been answered", async () => {
    sandbox.reset();
    const [, , c] = replicas as [Replica, Replica, Replica];
    const client = await connect(replicas);
    const onC = await connect([c]);
    // Answered on C, which then dies: the preview must still be good elsewhere.
    const preview = await onC.callTool({ name: "terminate_hire", arguments: TERMINATE });
    const token = (preview.structuredContent as { confirmationToken: string }).confirmationToken;
    const answered: Result[] = [];
    for (let i = 0; i < 8; i++) {
      if (i === 4) {
        await c.handle.close();
        print("replica C stopped after 4 answered calls");
      }
      answered.push(await client.callTool({ name: "list_accounts", arguments: {} }));
    }
    const confirmed = await client.callTool({
      name: "terminate_hire",
      arguments: { ...TERMINATE, confirmationToken: token },
    });
    print(
      `replica killed: ${answered.filter((r) => !r.isError).length}/8 calls answered; preview minted on C confirmed on ${replicas
        .filter((r) => r.alive)
        .map((r) => r.name)
        .join(
          "/",
        )}: ${confirmed.isError ? "no" : "yes"}; TerminateHire sent ${terminations()} time(s)`,
    );
    expect(c.alive).toBe(false);
    expect(answered.every((r) => !r.isError)).toBe(true);
    expect(confirmed.isError).toBeFalsy();
    expect(terminations()).toBe(1);
  });

  it("Redis stopped mid-run gives readable errors and no write is sent twice", async () => {
    sandbox.reset();
    const [a, b] = replicas as [Replica, Replica, Replica];
    const onA = await connect([a]);
    const onB = await connect([b]);
    const preview = await onA.callTool({ name: "terminate_hire", arguments: TERMINATE });
    const token = (preview.structuredContent as { confirmationToken: string }).confirmationToken;

    await redis.stop();
    const sentBefore = sandbox.requests.length;
    const read = await onB.callTool({ name: "list_accounts", arguments: {} });
    const confirm = await onB.callTool({
      name: "terminate_hire",
      arguments: { ...TERMINATE, confirmationToken: token },
    });
    const sentWhileDown = sandbox.requests.length - sentBefore;
    // The first lines of each: what did not happen, and why.
    print(`Redis down: list_accounts → "${textOf(read).split("\n").slice(0, 2).join(" ")}"`);
    print(`Redis down: terminate_hire → "${textOf(confirm).split("\n").slice(0, 2).join(" ")}"`);
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(/shared state \(Redis\) is unavailable/);
    expect(confirm.isError).toBe(true);
    expect(textOf(confirm)).toMatch(/shared state \(Redis\) is unavailable/);
    expect(textOf(confirm)).toMatch(/Nothing was sent to the platform/);
    expect(sentWhileDown).toBe(0);

    const reconnected = nextLogged(a, "reachable again");
    await redis.start();
    await reconnected;
    expect((await onA.callTool({ name: "list_accounts", arguments: {} })).isError).toBeFalsy();
    // Redis came back empty: the old token is unknown, so the change is not sent on its strength.
    const again = await onA.callTool({
      name: "terminate_hire",
      arguments: { ...TERMINATE, confirmationToken: token },
    });
    expect(again.isError).toBe(true);
    expect(terminations()).toBe(0);
    const fresh = await onB.callTool({ name: "terminate_hire", arguments: TERMINATE });
    const freshToken = (fresh.structuredContent as { confirmationToken: string }).confirmationToken;
    const done = await onA.callTool({
      name: "terminate_hire",
      arguments: { ...TERMINATE, confirmationToken: freshToken },
    });
    expect(done.isError).toBeFalsy();
    const duplicates = terminations() - 1;
    print(
      `Redis back: old token refused, fresh preview confirmed; TerminateHire sent ${terminations()} time(s); duplicates: ${duplicates}`,
    );
    expect(duplicates).toBe(0);
    const logs = replicas.flatMap((r) => r.log).join("");
    expect(logs).toMatch(/unreachable; retrying/);
    expect(logs).not.toContain(sandbox.tokens.full);
  }, 60_000);
});
