// `--auth oauth` on three stateless replicas, each with its own Redis-backed state store pointed at
// one real redis-server: a sign-in begun on one replica finishes on another. The test plays the
// MCP client and the person's browser, and sends each step where a load balancer without affinity
// might: registration on A, /authorize on B, the consent answer, the platform's consent and the
// callback on C, the code at /token on A, MCP calls on B and C, a refresh on C; then the spent code
// again on B and the spent refresh token again on A, each of which ends the sign-in on every
// replica (RFC 9700 §4.14.2, OAuth 2.1 §4.1.3). Then it reads every key and value in Redis for the
// tokens, codes and secrets of that sign-in: none may be there in plain text.
import { randomBytes } from "node:crypto";
import type { OAuthTokens } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { type OAuthClientInfo, type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { createStateStore } from "../../src/state/index.js";
import { KEY_PREFIX } from "../../src/state/redis-store.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { Browser, capturingLogger } from "../auth/helpers.js";
import { freePort, initialize, raw } from "../e2e/http-helpers.js";
import {
  CLIENT_REDIRECT,
  consentRequestOf,
  mcpClient,
  pkce,
  platformTokensIn,
  viewerName,
} from "../e2e/remote-auth-helpers.js";
import { dumpAll, REDIS_MISSING, type RedisServer, startRedis } from "./helpers.js";

const KEY = randomBytes(32).toString("base64");
const CLIENT_NAME = "replica MCP client";

interface Replica {
  name: "A" | "B" | "C";
  handle: HttpServerHandle;
  lines: string[];
}

interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
}

let redis: RedisServer;
let sandbox: Sandbox;
/** The replicas' public address, a load balancer's: nothing listens there (see `on`). */
let publicUrl: string;
let upstream: OAuthClientInfo;
const replicas: Replica[] = [];
/** Every secret the sign-in below saw, by what it is; the platform's tokens are added from Redis. */
const secrets: Record<string, string> = {};
let flow = "not run";
/** The sealed grant records as Redis held them while the sign-in was live. */
let liveGrants: [string, string][] = [];

function print(line: string): void {
  process.stdout.write(`[oauth-replicas] ${line}\n`);
}

/**
 * `url` (an address under the public URL) sent to one replica, as the load balancer would. Every
 * step goes through here: one the test forgot to route would reach the dead public address and fail.
 */
function on(replica: Replica, url: string | URL): string {
  const target = new URL(url);
  const base = new URL(replica.handle.url);
  target.protocol = base.protocol;
  target.host = base.host;
  return target.href;
}

beforeAll(async () => {
  if (REDIS_MISSING) return;
  redis = await startRedis();
  sandbox = await startSandbox({ rateLimitPerMinute: 0 });
  // The load balancer's address: registered with the platform before any replica starts, and never
  // listened on (on() routes every step to a replica), so a port free a moment ago will do.
  publicUrl = `http://127.0.0.1:${await freePort()}`;
  // The server's own OAuth client at the platform: one for all replicas, with the public callback.
  upstream = sandbox.oauth.registerClient({
    name: "team server (three replicas)",
    redirectUri: `${publicUrl}/oauth/callback`,
  });
  for (const name of ["A", "B", "C"] as const) {
    const config = {
      ...parseConfig(["--http", "--port", "0", "--auth", "oauth"], {
        WORKFORCE_API_URL: sandbox.url,
        WORKFORCE_CLIENT_ID: upstream.id,
        WORKFORCE_CLIENT_SECRET: upstream.secret,
        WORKFORCE_PUBLIC_URL: publicUrl,
        WORKFORCE_ENCRYPTION_KEY: KEY,
        WORKFORCE_REDIS_URL: redis.url,
      }),
      retryBaseMs: 1,
    };
    const { logger, lines } = capturingLogger();
    logger.addSecret(KEY);
    // Its own connection to the shared Redis, as a separate process would have; closed with it.
    const stateStore = await createStateStore(config, logger);
    const handle = await startHttpServer(config, logger, "test", { stateStore });
    replicas.push({ name, handle, lines });
  }
}, 30_000);

afterAll(async () => {
  await Promise.allSettled(replicas.map((r) => r.handle.close()));
  await sandbox?.close();
  await redis?.close();
});

/** The sealed records, by the name the sealed store gives them (without the Redis prefix). */
function sealedRecords(inside: Awaited<ReturnType<typeof dumpAll>>): [string, string][] {
  return [...inside.entries]
    .filter(([key, entry]) => key.startsWith(`${KEY_PREFIX}oauth:`) && entry.type === "string")
    .map(([key, entry]) => [key.slice(KEY_PREFIX.length), entry.values[0] ?? ""]);
}

describe.skipIf(REDIS_MISSING)("--auth oauth: three stateless replicas sharing Redis", () => {
  it("a sign-in begun on one replica finishes on another: register A, authorize B, consent and callback C, token A, calls on B and C, refresh C", async () => {
    const [A, B, C] = replicas as [Replica, Replica, Replica];
    const resource = `${publicUrl}/mcp`;

    // Discovery on A: every address it gives is the public one.
    const unauthorized = await raw(`${A.handle.url}/mcp`, { body: initialize });
    expect(unauthorized.status).toBe(401);
    const header = String(unauthorized.headers["www-authenticate"]);
    expect(/resource_metadata="([^"]+)"/.exec(header)?.[1]).toBe(
      `${publicUrl}/.well-known/oauth-protected-resource/mcp`,
    );
    const metadata = await fetch(on(A, `${publicUrl}/.well-known/oauth-authorization-server`));
    const as = (await metadata.json()) as AuthorizationServerMetadata;
    expect(as.issuer).toBe(`${publicUrl}/`);

    // 1. Dynamic registration on A, as a confidential client: it gets a secret to keep.
    const registered = await fetch(on(A, as.registration_endpoint), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: CLIENT_NAME,
        redirect_uris: [CLIENT_REDIRECT],
        token_endpoint_auth_method: "client_secret_post",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      }),
    });
    expect(registered.status).toBe(201);
    const client = (await registered.json()) as { client_id: string; client_secret?: string };
    expect(client.client_secret).toBeTruthy();
    secrets["MCP client secret"] = client.client_secret as string;
    const token = async (replica: Replica, form: Record<string, string>) => {
      const res = await fetch(on(replica, as.token_endpoint), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          client_id: client.client_id,
          client_secret: client.client_secret as string,
          ...form,
        }),
      });
      return { status: res.status, body: (await res.json()) as OAuthTokens };
    };

    // 2. /authorize on B: this server's consent page, with its cookie.
    const { verifier, challenge } = pkce();
    const state = randomBytes(8).toString("hex");
    const authorize = new URL(as.authorization_endpoint);
    authorize.search = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: CLIENT_REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state,
      resource,
    }).toString();
    const browser = new Browser();
    const page = await browser.get(on(B, authorize));
    const html = await page.text();
    expect(page.status, html).toBe(200);
    expect(html).toContain(CLIENT_NAME);

    // 3. On C: the answer to B's page, then the platform's consent, then the platform's callback.
    const approved = await browser.post(on(C, `${publicUrl}/oauth/consent`), {
      request: consentRequestOf(html),
      decision: "approve",
    });
    expect(approved.status, await approved.text()).toBe(302);
    const platformAuthorize = new URL(approved.headers.get("location") as string);
    expect(platformAuthorize.origin).toBe(new URL(sandbox.url).origin);
    expect(platformAuthorize.searchParams.get("client_id")).toBe(upstream.id);
    const { location } = await browser.authorize(platformAuthorize.href, { identity: "limited" });
    expect(location.origin + location.pathname).toBe(upstream.redirectUri);
    secrets["platform authorization code"] = location.searchParams.get("code") as string;
    const back = await browser.get(on(C, location));
    expect(back.status, await back.text()).toBe(302);
    const answer = new URL(back.headers.get("location") as string);
    expect(answer.origin + answer.pathname).toBe(CLIENT_REDIRECT);
    expect(answer.searchParams.get("state")).toBe(state);
    const code = answer.searchParams.get("code") as string;
    expect(code).toBeTruthy();
    secrets["authorization code"] = code;

    // 4. The code at /token on A; the same code again, on B, is refused.
    const exchange = (replica: Replica) =>
      token(replica, {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: CLIENT_REDIRECT,
        resource,
      });
    const issued = await exchange(A);
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.refresh_token).toBeTruthy();
    secrets["access token"] = issued.body.access_token;
    secrets["refresh token"] = issued.body.refresh_token as string;

    // 5. initialize and tools/call list_accounts on B and on C: as the person who signed in.
    for (const replica of [B, C]) {
      const mcp = await mcpClient(replica.handle.url, {
        authorization: `Bearer ${issued.body.access_token}`,
      });
      try {
        expect(await viewerName(mcp)).toBe("Oskar Berg");
      } finally {
        await mcp.close();
      }
    }

    // 6. A refresh on C: a new pair that works (on A); the spent refresh token is refused on A.
    const renewed = await token(C, {
      grant_type: "refresh_token",
      refresh_token: issued.body.refresh_token as string,
      resource,
    });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body.access_token).not.toBe(issued.body.access_token);
    expect(renewed.body.refresh_token).not.toBe(issued.body.refresh_token);
    secrets["renewed access token"] = renewed.body.access_token;
    secrets["renewed refresh token"] = renewed.body.refresh_token as string;
    const onA = await mcpClient(A.handle.url, {
      authorization: `Bearer ${renewed.body.access_token}`,
    });
    try {
      expect(await viewerName(onA)).toBe("Oskar Berg");
    } finally {
      await onA.close();
    }
    liveGrants = sealedRecords(await dumpAll(redis.inspect())).filter(([name]) =>
      name.startsWith("oauth:grant:"),
    );
    expect(liveGrants).toHaveLength(1);

    // 7. The spent code again, on B: refused, and the whole sign-in ends on every replica (OAuth
    // 2.1 §4.1.3): the renewed pair no longer works, and the sealed platform tokens are gone.
    const twice = await exchange(B);
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ error: "invalid_grant" });
    for (const replica of [B, C]) {
      const refused = await raw(`${replica.handle.url}/mcp`, {
        body: initialize,
        headers: { authorization: `Bearer ${renewed.body.access_token}` },
      });
      expect(refused.status).toBe(401);
    }
    const renewedAgain = await token(B, {
      grant_type: "refresh_token",
      refresh_token: renewed.body.refresh_token as string,
    });
    expect(renewedAgain.status).toBe(400);
    const after = sealedRecords(await dumpAll(redis.inspect()));
    expect(after.filter(([name]) => name.startsWith("oauth:grant:"))).toEqual([]);

    // Each step was taken where it was sent: the registration on A, the platform's answer on C.
    const logOf = (r: Replica) => r.lines.join("");
    expect(replicas.map((r) => /An MCP client registered/.test(logOf(r)))).toEqual([
      true,
      false,
      false,
    ]);
    expect(replicas.map((r) => /Signed in at the platform/.test(logOf(r)))).toEqual([
      false,
      false,
      true,
    ]);
    flow = "ok";
  });

  it("keeps no token, code or secret in plain text anywhere in Redis", async () => {
    secrets["platform client secret"] = upstream.secret;
    secrets["encryption key"] = KEY;
    const inside = await dumpAll(redis.inspect());
    const sealed = sealedRecords(inside);
    const [platformAccess, platformRefresh] = platformTokensIn(KEY, liveGrants);
    // The grant opens with the key, and its access token is live at the platform as the person.
    expect(platformAccess && sandbox.oauth.identityFor(platformAccess)).toBe("limited");
    expect(platformRefresh).toBeTruthy();
    secrets["platform access token"] = platformAccess as string;
    secrets["platform refresh token"] = platformRefresh as string;

    const all = Object.entries(secrets);
    const found = all.filter(([, value]) => inside.text.includes(value)).map(([name]) => name);
    const logs = replicas.flatMap((r) => r.lines).join("");
    const logged = all.filter(([, value]) => logs.includes(value)).map(([name]) => name);
    const kinds = [...new Set(inside.keys.map((k) => k.split(":").slice(0, 3).join(":")))].sort();
    print(
      `register A → authorize B → consent/callback C → token A → calls on B and C → refresh C → code again on B (refused, sign-in ended everywhere): ${flow}; keys ${inside.keys.length} (${kinds.join(", ")}); plain-text secrets ${found.length} of ${all.length} looked for${found.length ? ` (${found.join(", ")})` : ""}; in the replicas' logs ${logged.length}`,
    );
    expect(Object.keys(secrets)).toHaveLength(11);
    expect(found).toEqual([]);
    expect(logged).toEqual([]);
    expect(inside.keys.every((k) => k.startsWith(KEY_PREFIX))).toBe(true);
    for (const kind of ["client", "access", "spent-code", "spent-refresh"]) {
      expect(kinds).toContain(`${KEY_PREFIX}oauth:${kind}`);
    }
    // Every record of the sign-in is sealed (AES-256-GCM), not only those of tokens.
    expect(sealed.length).toBeGreaterThanOrEqual(4);
    for (const [name, value] of sealed) expect(value, name).toMatch(/^wfm1\.[\w-]+$/);
  });
});
