// Issue 33, finding 4, against the real --http server with an injected clock: open GET event
// streams that carry nothing do not hold sessions for ever, and the share of sessions is per
// person (the platform identity), or per address group (IPv6 /56) with the server's own token.
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { until } from "../helpers/until.js";
import { contractAccepted, deliver, SECRET_SETTING } from "../helpers/webhooks.js";
import { httpConfig, initialize, openSession, quietLogger, raw } from "./http-helpers.js";
import { ScriptedClient, startTeamServer } from "./remote-auth-helpers.js";

const toolsList = { jsonrpc: "2.0", id: 2, method: "tools/list" };
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close().catch(() => {});
});

/** Holds a GET event stream of the session open until closed; `received` is what it carried. */
function openStream(baseUrl: string, headers: Record<string, string>) {
  return new Promise<{ status: number; received: () => string }>((resolve, reject) => {
    let received = "";
    const req = request(
      `${baseUrl}/mcp`,
      { method: "GET", headers: { ...headers, accept: "text/event-stream" } },
      (res) => {
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          received += chunk;
        });
        resolve({ status: res.statusCode ?? 0, received: () => received });
      },
    );
    req.on("error", () => {});
    req.once("error", reject);
    req.end();
    closing.push(async () => req.destroy());
  });
}

const status = async (url: string, headers: Record<string, string>) =>
  (await raw(`${url}/mcp`, { body: toolsList, headers })).status;

describe("OWASP API4:2023 unrestricted resource consumption (CWE-400, CWE-770): idle event streams lock no one out", () => {
  it("four owners holding silent GET streams hold every session only until the streams have been silent a while; then a newcomer gets a session", async () => {
    let now = 1_000_000;
    const server: HttpServerHandle = await startHttpServer(
      httpConfig({ useSandbox: true, maxSessions: 4, trustProxy: "loopback" }),
      quietLogger(),
      "9.9.9",
      { now: () => now, sessionIdleMs: 30 * 60_000 },
    );
    closing.push(() => server.close());
    // Four owners: four addresses in four /56s, through the trusted proxy.
    const owners = [1, 2, 3, 4].map((n) => ({ "x-forwarded-for": `2001:db8:${n}::1` }));
    const held = await Promise.all(owners.map((h) => openSession(server.url, h)));
    for (const headers of held) expect((await openStream(server.url, headers)).status).toBe(200);
    const newcomer = { "x-forwarded-for": "2001:db8:99::1" };
    // Streams just opened are not silent yet: the server is busy, and says when to retry.
    const busy = await raw(`${server.url}/mcp`, { body: initialize, headers: newcomer });
    expect(busy.status).toBe(503);
    // Seventy seconds later, nothing carried: the least recently used silent session makes room.
    now += 70_000;
    const admitted = await raw(`${server.url}/mcp`, { body: initialize, headers: newcomer });
    expect(admitted.status).toBe(200);
    const left = await Promise.all(held.map((headers) => status(server.url, headers)));
    expect(left.filter((s) => s === 404)).toHaveLength(1);
    expect(left.filter((s) => s === 200)).toHaveLength(3);
  });

  it("a stream that carries a notification keeps its session; the silent one makes room", async () => {
    let now = 1_000_000;
    const sandbox: Sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    closing.push(() => sandbox.close());
    const server: HttpServerHandle = await startHttpServer(
      httpConfig(
        { maxSessions: 2, trustProxy: "loopback" },
        {
          WORKFORCE_API_URL: sandbox.url,
          WORKFORCE_TOKEN: sandbox.tokens.full,
          WORKFORCE_WEBHOOK_SECRETS: SECRET_SETTING,
        },
      ),
      quietLogger(),
      "9.9.9",
      { now: () => now, sessionIdleMs: 30 * 60_000, sessionsPerOwner: 2 },
    );
    closing.push(() => server.close());
    const listening = await openSession(server.url, { "x-forwarded-for": "2001:db8:1::1" });
    const subscribe = {
      jsonrpc: "2.0",
      id: 5,
      method: "resources/subscribe",
      params: { uri: "workforce://changes" },
    };
    expect((await raw(`${server.url}/mcp`, { body: subscribe, headers: listening })).status).toBe(
      200,
    );
    const heard = await openStream(server.url, listening);
    const silent = await openSession(server.url, { "x-forwarded-for": "2001:db8:2::1" });
    await openStream(server.url, silent);
    // The silent session is the more recently used one, until the other's stream carries news.
    expect(await status(server.url, silent)).toBe(200);
    now += 70_000;
    const body = JSON.stringify(contractAccepted());
    expect((await deliver(`${server.url}/webhooks/platform`, body)).status).toBe(200);
    await until(
      () => heard.received().includes("notifications/resources/updated"),
      "the subscribed session's stream carried the notification",
    );
    const newcomer = { "x-forwarded-for": "2001:db8:3::1" };
    expect((await raw(`${server.url}/mcp`, { body: initialize, headers: newcomer })).status).toBe(
      200,
    );
    expect(await status(server.url, silent)).toBe(404);
    expect(await status(server.url, listening)).toBe(200);
  });
});

describe("OWASP API4:2023 (CWE-770): the share of sessions is per person, or per address group (IPv6 /56) with the server's own token", () => {
  it("with the server's own token, addresses of one IPv6 /56 share one owner's share; another /56 keeps its sessions", async () => {
    const server: HttpServerHandle = await startHttpServer(
      httpConfig({ useSandbox: true, maxSessions: 8, trustProxy: "loopback" }),
      quietLogger(),
      "9.9.9",
    );
    closing.push(() => server.close());
    const other = await openSession(server.url, { "x-forwarded-for": "2001:db8:7::1" });
    // One /56, three addresses: the share is two sessions.
    const mine = [];
    for (const host of ["1", "2", "3"]) {
      mine.push(await openSession(server.url, { "x-forwarded-for": `2001:db8:1:2::${host}` }));
    }
    expect(await status(server.url, mine[0] as Record<string, string>)).toBe(404);
    expect(await status(server.url, mine[2] as Record<string, string>)).toBe(200);
    expect(await status(server.url, other)).toBe(200);
  });

  it("one person signed in twice (two grants) holds one person's share; another person keeps theirs (--auth oauth)", async () => {
    const sandbox: Sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    closing.push(() => sandbox.close());
    const team = await startTeamServer(sandbox, { maxSessions: 4 });
    closing.push(() => team.handle.close());
    const bearer = async (identity: "full" | "limited") => {
      const tokens = await new ScriptedClient(team).signedIn(identity);
      return { authorization: `Bearer ${tokens.access_token}` };
    };
    const first = await openSession(team.publicUrl, await bearer("full"));
    const someoneElse = await openSession(team.publicUrl, await bearer("limited"));
    // The same person, signed in again (another grant): their share is one session of four.
    const again = await openSession(team.publicUrl, await bearer("full"));
    expect(await status(team.publicUrl, first)).toBe(404);
    expect(await status(team.publicUrl, again)).toBe(200);
    expect(await status(team.publicUrl, someoneElse)).toBe(200);
  });
});
