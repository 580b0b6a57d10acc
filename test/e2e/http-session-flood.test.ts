// MCP security best practices (session hijacking/DoS): a flood of initialize requests must not
// lock anyone else out. One person holds at most a share of the cap; at their share their own least
// recently used idle session is ended (its client gets 404 and initialises again, as the MCP spec
// allows); another person's sessions stay, and a fresh client still initialises and lists tools.
// Memory through such a flood is a figure of `npm run bench` (bench/ceilings.mjs).
import { Agent } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { startHttpServer } from "../../src/transports/http.js";
import { httpConfig, initialize, openSession, raw } from "./http-helpers.js";
import { mcpClient } from "./remote-auth-helpers.js";

const CAP = 12;
const CONCURRENCY = 8;
const toolsList = { jsonrpc: "2.0", id: 2, method: "tools/list" };

/** Sends `count` initialize requests, CONCURRENCY at a time; returns how many got each status. */
async function flood(url: string, count: number, headers: Record<string, string>) {
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
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
  });
  afterAll(() => sandbox?.close());

  it("a flood with one token ends only that token's own sessions; another person's stay, a fresh client lists tools, and evictions are logged once a second", async () => {
    const lines: string[] = [];
    let now = Date.parse("2026-11-02T09:00:00Z");
    const server = await startHttpServer(
      httpConfig(
        { maxSessions: CAP },
        { WORKFORCE_API_URL: sandbox.url, WORKFORCE_TOKEN_PASSTHROUGH: "1" },
      ),
      createLogger("info", (line) => void lines.push(line)),
      "9.9.9",
      { now: () => now },
    );
    const evictionLines = () => lines.filter((l) => /idle MCP session to make room/.test(l));
    try {
      const full = { authorization: `Bearer ${sandbox.tokens.full}` };
      const limited = { authorization: `Bearer ${sandbox.tokens.limited}` };
      const mine = await Promise.all([1, 2].map(() => openSession(server.url, full)));
      const firstFlooded = await openSession(server.url, limited);

      expect(await flood(server.url, 200, limited)).toEqual({ 200: 200 });
      // Every eviction of the flood happened within one second of the clock: one line for all.
      expect(evictionLines()).toHaveLength(1);
      now += 1_000;
      expect(await flood(server.url, 20, limited)).toEqual({ 200: 20 });
      expect(evictionLines()).toHaveLength(2);
      expect(evictionLines()[1]).toMatch(/share of HTTP sessions/);

      for (const headers of mine) {
        expect((await raw(`${server.url}/mcp`, { body: toolsList, headers })).status).toBe(200);
      }
      // The flooder's first session was ended long ago to make room: its client is told to start again.
      const gone = await raw(`${server.url}/mcp`, { body: toolsList, headers: firstFlooded });
      expect(gone.status).toBe(404);
      const client = await mcpClient(server.url, limited);
      try {
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      } finally {
        await client.close();
      }
      expect(lines.join("")).not.toContain(sandbox.tokens.limited);
      expect(lines.join("")).not.toContain(sandbox.tokens.full);
    } finally {
      await server.close();
    }
  });
});
