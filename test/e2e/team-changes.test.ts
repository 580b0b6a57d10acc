// Issue 33, finding 6: a local server gets the team's live changes without the team's Redis. The
// team server's GET /changes answers each person with the events of the companies their own
// platform credential reads (the filter list_changes applies), never a raw payload; a local stdio
// server with WORKFORCE_TEAM_URL shows them in list_changes and workforce://changes, and hears of
// new ones by asking again. Played against the real --http server and the built CLI over stdio.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTeamChanges } from "../../src/client/team-changes.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import {
  contractAccepted,
  deliver,
  HARBOR_SECRET,
  SECRET,
  sign,
  TWO_SECRETS_SETTING,
} from "../helpers/webhooks.js";
import { httpConfig, quietLogger } from "./http-helpers.js";
import { ScriptedClient, startTeamServer } from "./remote-auth-helpers.js";

let sandbox: Sandbox;
let team: HttpServerHandle;

/** Delivers an event as the platform does, signed by the company's own webhook secret. */
async function received(company: "cmp_nordlys" | "cmp_harbor", hire: string, contract: string) {
  const body = JSON.stringify(contractAccepted(hire, company, contract));
  const secret = company === "cmp_harbor" ? HARBOR_SECRET : SECRET;
  const res = await deliver(`${team.url}/webhooks/platform`, body, {
    signature: sign(body, secret),
  });
  expect(res.status).toBe(200);
}

async function changes(headers: Record<string, string>, query = "") {
  const res = await fetch(`${team.url}/changes${query}`, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimitPerMinute: 0 });
  // The team server has a token of its own (the full one, reading both companies): /changes must
  // never answer with it.
  team = await startHttpServer(
    httpConfig(
      {},
      {
        WORKFORCE_API_URL: sandbox.url,
        WORKFORCE_TOKEN: sandbox.tokens.full,
        WORKFORCE_WEBHOOK_SECRETS: TWO_SECRETS_SETTING,
        WORKFORCE_TOOLSETS: "default,live",
      },
    ),
    quietLogger(),
    "test",
  );
  await received("cmp_nordlys", "hire_001", "ctr_team_nordlys");
  await received("cmp_harbor", "hire_002", "ctr_team_harbor");
});
afterAll(async () => {
  await team?.close();
  await sandbox?.close();
});

describe("OWASP API1:2023 BOLA (CWE-639): GET /changes answers each person with their own companies' events only", () => {
  it("a person of Nordlys sees Nordlys's event with its details and none of Harbor's; asking for Harbor by id finds nothing", async () => {
    const limited = { "x-workforce-token": sandbox.tokens.limited };
    const mine = await changes(limited);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("cache-control")).toBe("no-store");
    const body = JSON.parse(mine.text) as { changes: { eventId: string }[]; total: number };
    expect(body.total).toBe(1);
    expect(mine.text).toContain("ctr_team_nordlys");
    expect(mine.text).toContain("Nordlys Energi A/S");
    expect(mine.text).not.toContain("ctr_team_harbor");
    expect(mine.text).not.toContain("cmp_harbor");
    // Named outright, Harbor's events are still not this person's.
    const asked = await changes(limited, "?companyId=cmp_harbor");
    expect(JSON.parse(asked.text)).toMatchObject({ total: 0, changes: [] });
    // A person who reads both companies sees both.
    const both = await changes({ authorization: `Bearer ${sandbox.tokens.full}` });
    expect(both.text).toContain("ctr_team_nordlys");
    expect(both.text).toContain("ctr_team_harbor");
  });

  it("never serves the raw payload: the worker's email in the event is not in the answer (OWASP API3:2023 excessive data exposure)", async () => {
    const both = await changes({ "x-workforce-token": sandbox.tokens.full });
    expect(both.text).toContain("ctr_team_harbor");
    expect(both.text).not.toContain("ana@example.com");
    expect(both.text).not.toContain("trustedContact");
  });
});

describe("RFC 6750 §3 / MCP authorization: GET /changes needs the person's own credential", () => {
  it("no credential is 401 with WWW-Authenticate, though the server has a token of its own; a wrong one is 401 too", async () => {
    const none = await changes({});
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer realm="workforce-mcp"/);
    expect(none.text).not.toContain("ctr_team");
    const wrong = await changes({ "x-workforce-token": "not-a-platform-token" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
  });
});

describe("MCP authorization (2025-11-25) and OWASP API1:2023: with --auth oauth, GET /changes takes what /mcp takes", () => {
  it("a sign-in issued by the team server reads its person's events only; a platform token without --token-passthrough, or nothing, is 401 naming the resource metadata", async () => {
    const oauth = await startTeamServer(sandbox, { webhookSecrets: TWO_SECRETS_SETTING });
    try {
      for (const [company, secret, contract] of [
        ["cmp_nordlys", SECRET, "ctr_oauth_nordlys"],
        ["cmp_harbor", HARBOR_SECRET, "ctr_oauth_harbor"],
      ] as const) {
        const body = JSON.stringify(contractAccepted("hire_001", company, contract));
        const res = await deliver(`${oauth.handle.url}/webhooks/platform`, body, {
          signature: sign(body, secret),
        });
        expect(res.status).toBe(200);
      }
      const at = (headers: Record<string, string>) =>
        fetch(`${oauth.handle.url}/changes`, { headers });
      const client = new ScriptedClient(oauth);
      await client.discover();
      await client.register();
      const tokens = await client.signedIn("limited");
      const mine = await at({ authorization: `Bearer ${tokens.access_token}` });
      expect(mine.status).toBe(200);
      const text = await mine.text();
      expect(text).toContain("ctr_oauth_nordlys");
      expect(text).not.toContain("ctr_oauth_harbor");
      const refusedWith: Record<string, string>[] = [
        { "x-workforce-token": sandbox.tokens.limited },
        {},
      ];
      for (const headers of refusedWith) {
        const refused = await at(headers);
        expect(refused.status).toBe(401);
        expect(refused.headers.get("www-authenticate")).toContain(
          `resource_metadata="${oauth.publicUrl}/.well-known/oauth-protected-resource/mcp"`,
        );
        expect(await refused.text()).not.toContain("ctr_oauth");
      }
    } finally {
      await oauth.handle.close();
    }
  });
});

describe("OWASP API4:2023 unrestricted resource consumption (CWE-770): GET /changes is limited per person", () => {
  it("past its share a minute, one person gets 429 with Retry-After; another person is still answered", async () => {
    const own = { "x-workforce-token": sandbox.tokens.full };
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof changes>> | undefined;
    for (let i = 0; i < 40 && last?.status !== 429; i++) {
      last = await changes(own, "?limit=1");
      statuses.push(last.status);
    }
    expect(last?.status).toBe(429);
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(20);
    expect((await changes({ "x-workforce-token": sandbox.tokens.limited })).status).toBe(200);
  });
});

describe("a local server (stdio) with WORKFORCE_TEAM_URL and no Redis", () => {
  it("list_changes and workforce://changes show the team's events its person may read, and none of another company's", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "workforce-mcp-team-"));
    const client = new Client({ name: "team-changes-test", version: "0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.resolve(process.cwd(), "dist/cli.js")],
        env: {
          WORKFORCE_API_URL: sandbox.url,
          WORKFORCE_TOKEN: sandbox.tokens.limited,
          WORKFORCE_TEAM_URL: `${team.url}/mcp`,
          WORKFORCE_TOOLSETS: "default,live",
          WORKFORCE_CONFIG_DIR: dir,
        },
        cwd: dir,
        stderr: "ignore",
      }),
    );
    try {
      const r = await client.callTool({ name: "list_changes", arguments: {} });
      const t = (r.content as { text: string }[]).map((c) => c.text).join("\n");
      expect(r.isError).toBeFalsy();
      expect(t).toContain("ctr_team_nordlys");
      expect(t).toContain('"Nordlys Energi A/S"');
      expect(t).not.toContain("ctr_team_harbor");
      const feed = await client.readResource({ uri: "workforce://changes" });
      const feedText = feed.contents.map((c) => ("text" in c ? c.text : "")).join("\n");
      expect(feedText).toContain("ctr_team_nordlys");
      expect(feedText).not.toContain("ctr_team_harbor");
    } finally {
      await client.close();
    }
  });

  it("hears of a new event of its own company by asking again, and not of another company's (OWASP API1:2023)", async () => {
    let ask: (() => Promise<void>) | undefined;
    const feed = createTeamChanges({
      url: team.url,
      token: sandbox.tokens.limited,
      timeoutMs: 5_000,
      every: (fn) => {
        ask = fn;
        return () => {
          ask = undefined;
        };
      },
    });
    let heard = 0;
    const errors: string[] = [];
    const stop = feed.watch(
      () => heard++,
      (message) => errors.push(message),
    );
    // The first round only notes the newest change this person may see.
    await ask?.();
    expect(heard).toBe(0);
    // Harbor's new event is not this person's: nothing is heard.
    await received("cmp_harbor", "hire_002", "ctr_team_harbor_2");
    await ask?.();
    expect(heard).toBe(0);
    await received("cmp_nordlys", "hire_001", "ctr_team_nordlys_2");
    await ask?.();
    expect(heard).toBe(1);
    // Nothing new: nothing more is heard.
    await ask?.();
    expect(heard).toBe(1);
    expect(errors).toEqual([]);
    stop();
    expect(ask).toBeUndefined();
  });
});
