// MCP security best practices (session hijacking/DoS): a flood of initialize requests must not
// lock anyone else out. At the cap the least recently used idle session is ended (its client gets
// 404 and initialises again, as the MCP spec allows), one identity holds at most a share of the
// cap, and a fresh client still initialises and lists tools right after the flood.
import { Agent } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { startHttpServer } from "../../src/transports/http.js";
import { httpConfig, initialize, openSession, raw } from "./http-helpers.js";
import { mcpClient } from "./remote-auth-helpers.js";

const FLOOD = 5_000;
const CAP = 100;
const CONCURRENCY = 16;
const toolsList = { jsonrpc: "2.0", id: 2, method: "tools/list" };

/** Sends `count` initialize requests, CONCURRENCY at a time; returns how many got each status. */
async function flood(url: string, count: number, headers: Record<string, string> = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const statuses: Record<number, number> = {};
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      sent++;
      const res = await raw(`${url}/mcp`, { body: initialize, headers, agent });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    agent.destroy();
  }
  return statuses;
}

describe("MCP security best practices (session hijacking/DoS): an initialize flood locks no one out", () => {
  it(`after ${FLOOD} initialize requests (cap ${CAP}), a fresh SDK client initialises and lists tools`, async () => {
    const lines: string[] = [];
    const server = await startHttpServer(
      httpConfig({ useSandbox: true, maxSessions: CAP }),
      createLogger("info", (line) => void lines.push(line)),
      "9.9.9",
    );
    try {
      const first = await openSession(server.url);
      // Memory through such a flood is a figure of `npm run bench` (bench/ceilings.mjs).
      const started = performance.now();
      const statuses = await flood(server.url, FLOOD);
      const seconds = (performance.now() - started) / 1000;

      const client = await mcpClient(server.url, {});
      let tools = 0;
      try {
        tools = (await client.listTools()).tools.length;
      } finally {
        await client.close();
      }
      // The first session was ended long ago to make room: its client is told to start again.
      const gone = await raw(`${server.url}/mcp`, { body: toolsList, headers: first });
      expect(statuses).toEqual({ 200: FLOOD });
      expect(tools).toBeGreaterThan(0);
      expect(gone.status).toBe(404);
      const evictions = lines.filter((l) => /idle MCP session to make room/.test(l));
      expect(evictions.length).toBeGreaterThan(0);
      expect(evictions.length).toBeLessThanOrEqual(Math.ceil(seconds) + 2);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe("MCP security best practices (session hijacking/DoS): one identity holds at most a share of the sessions", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
  });
  afterAll(() => sandbox?.close());

  it("a flood with one token ends only that token's own sessions; another person's stay", async () => {
    const lines: string[] = [];
    const server = await startHttpServer(
      httpConfig(
        { maxSessions: 8 },
        { WORKFORCE_API_URL: sandbox.url, WORKFORCE_TOKEN_PASSTHROUGH: "1" },
      ),
      createLogger("info", (line) => void lines.push(line)),
      "9.9.9",
    );
    try {
      const full = { authorization: `Bearer ${sandbox.tokens.full}` };
      const limited = { authorization: `Bearer ${sandbox.tokens.limited}` };
      const mine = await Promise.all([1, 2].map(() => openSession(server.url, full)));
      const statuses = await flood(server.url, 500, limited);
      expect(statuses).toEqual({ 200: 500 });
      for (const headers of mine) {
        expect((await raw(`${server.url}/mcp`, { body: toolsList, headers })).status).toBe(200);
      }
      expect(lines.join("")).toMatch(/share of HTTP sessions/);
      expect(lines.join("")).not.toContain(sandbox.tokens.limited);
      expect(lines.join("")).not.toContain(sandbox.tokens.full);
    } finally {
      await server.close();
    }
  });
});
