// `--http --auth oauth` tried as an attacker would, one finding of the security review a test:
// each reproduces the attack against the real server and the sandbox's OAuth, and checks that it
// now fails in the way the standard named in the test says.
import type { OAuthTokens } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import { Browser } from "../auth/helpers.js";
import { type DocumentServer, startDocumentServer } from "../helpers/document-server.js";
import { initialize, raw } from "./http-helpers.js";
import {
  CLIENT_REDIRECT,
  consentRequestOf,
  DAY,
  pkce,
  ScriptedClient,
  startTeamServer,
  type TeamServer,
} from "./remote-auth-helpers.js";

/** A memory store that remembers each record's time to live, as the server last set it. */
function ttlRecordingStore() {
  const inner = createMemoryStore();
  const ttl = new Map<string, number | undefined>();
  const written = new Map<string, string[]>();
  const store = {
    ...inner,
    async set(key: string, value: string, ttlMs?: number) {
      ttl.set(key, ttlMs);
      written.set(key, [...(written.get(key) ?? []), value]);
      return inner.set(key, value, ttlMs);
    },
  };
  return { store, written, ttl };
}

const register = (server: TeamServer, metadata: Record<string, unknown>) =>
  fetch(`${server.publicUrl}/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token_endpoint_auth_method: "none", ...metadata }),
  });

const mcpStatus = async (server: TeamServer, accessToken: string) =>
  (
    await raw(`${server.publicUrl}/mcp`, {
      body: initialize,
      headers: { authorization: `Bearer ${accessToken}` },
    })
  ).status;

describe("--auth oauth under attack", () => {
  let sandbox: Sandbox;
  let server: TeamServer;
  let recorded: ReturnType<typeof ttlRecordingStore>;
  let docs: DocumentServer;
  /** Host look-ups for Client ID Metadata Documents. */
  let lookups = 0;

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    docs = await startDocumentServer();
    recorded = ttlRecordingStore();
    const fetching = docs.fetchOptions();
    server = await startTeamServer(sandbox, {
      shared: recorded,
      clientMetadata: {
        ...fetching,
        resolve: (host) => {
          lookups += 1;
          return (fetching.resolve as NonNullable<typeof fetching.resolve>)(host);
        },
      },
    });
  });
  afterAll(async () => {
    await server?.handle.close();
    await sandbox?.close();
    await docs?.close();
  });

  it("1. a platform link approved in the attacker's browser does nothing in the victim's (MCP security best practices, OAuth state parameter validation)", async () => {
    const attacker = new ScriptedClient(server);
    await attacker.discover();
    await attacker.register("attacker's client");
    const page = await attacker.browser.get(attacker.authorizeUrl(pkce().challenge, "a1"));
    const approved = await attacker.browser.post(`${server.publicUrl}/oauth/consent`, {
      request: consentRequestOf(await page.text()),
      decision: "approve",
    });
    expect(approved.status).toBe(302);
    const platformLink = approved.headers.get("location") as string;

    // The victim opens the link; the platform knows them and sends them back with a code.
    const victim = new Browser();
    const { location } = await victim.authorize(platformLink, { identity: "limited" });
    expect(location.href.startsWith(`${server.publicUrl}/oauth/callback`)).toBe(true);
    const back = await victim.get(location.href);
    expect(back.status).toBe(400);
    expect(back.headers.get("location")).toBeNull();
    expect(await back.text()).toContain("approved in another browser");
    expect(server.lines.join("")).toMatch(/did not approve it; refused/);
    // Nor can the attacker replay the victim's answer in their own browser: it was used up.
    const replayed = await attacker.browser.get(location.href);
    expect(replayed.status).toBe(400);
    expect(replayed.headers.get("location")).toBeNull();
  });

  it("1. the consent and sign-in cookies are __Host- cookies, and a cookie a sibling host could toss is not read (MCP security best practices, Consent Cookie Security; RFC 6265bis §4.1.3.2)", async () => {
    const attacker = new ScriptedClient(server);
    await attacker.discover();
    await attacker.register("attacker's client");
    const page = await attacker.browser.get(attacker.authorizeUrl(pkce().challenge, "c1"));
    const approved = await attacker.browser.post(`${server.publicUrl}/oauth/consent`, {
      request: consentRequestOf(await page.text()),
      decision: "approve",
    });
    expect(approved.status).toBe(302);
    // The prefix holds only with Secure, Path=/ and no Domain; browsers refuse it otherwise.
    const hostCookie = (prefix: string) =>
      new RegExp(
        `^__Host-${prefix}[\\w-]{12}=[\\w-]{43}; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=Lax$`,
      );
    expect(page.headers.getSetCookie()).toEqual([
      expect.stringMatching(hostCookie("wfm_consent_")),
    ]);
    const set = approved.headers.getSetCookie();
    expect(set).toContainEqual(expect.stringMatching(hostCookie("wfm_signin_")));
    const signIn = /^(__Host-wfm_signin_[\w-]+)=([\w-]+);/m.exec(set.join("\n")) ?? [];
    const [, name = "", value = ""] = signIn;
    expect(value).toHaveLength(43);

    // The attacker tosses their sign-in cookie into the victim's browser from a sibling host, which
    // can set a cookie without the prefix only, then sends the victim the platform link.
    const victim = new Browser();
    const { location } = await victim.authorize(approved.headers.get("location") as string, {
      identity: "limited",
    });
    const back = await fetch(location, {
      redirect: "manual",
      headers: { cookie: `${name.replace("__Host-", "")}=${value}` },
    });
    expect(back.status).toBe(400);
    expect(back.headers.get("location")).toBeNull();
    expect(await back.text()).toContain("approved in another browser");
  });

  it("2. never redirects before the person has seen its page: unknown clients and bad requests get a page, not a redirect (RFC 9700 §4.11.1)", async () => {
    const res = await register(server, {
      client_name: "redirector",
      redirect_uris: ["https://evil.example/landing"],
    });
    expect(res.status).toBe(201);
    const { client_id } = (await res.json()) as { client_id: string };
    const authorize = (params: Record<string, string>) =>
      new Browser().get(`${server.publicUrl}/authorize?${new URLSearchParams(params)}`);

    const bare = await authorize({ client_id, response_type: "code" });
    expect(bare.status).toBe(400);
    expect(bare.headers.get("location")).toBeNull();
    expect(await bare.text()).toMatch(/PKCE[\s\S]*Nothing was sent back/);

    const unknown = await authorize({
      client_id: "never-registered",
      redirect_uri: "https://evil.example/landing",
      response_type: "code",
    });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get("location")).toBeNull();
    expect(await unknown.text()).toContain("not registered with this server");

    const { challenge } = pkce();
    const complete = {
      client_id,
      redirect_uri: "https://evil.example/landing",
      code_challenge: challenge,
      code_challenge_method: "S256",
    };
    const implicit = await authorize({ ...complete, response_type: "token" });
    expect(implicit.status).toBe(400);
    expect(implicit.headers.get("location")).toBeNull();
    const elsewhere = await authorize({
      ...complete,
      response_type: "code",
      redirect_uri: "https://evil.example/other",
    });
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain("is not one the application registered");

    // A complete request shows the consent page: the person decides before anything goes back.
    const consent = await authorize({ ...complete, response_type: "code" });
    expect(consent.status).toBe(200);
    expect(consent.headers.get("location")).toBeNull();
    expect(await consent.text()).toContain("https://evil.example/landing");
  });

  it("3. bounds registrations: 1,200 from 60 addresses store at most 10 per address, none over 4 KB, and an unused one is kept a day (MCP security best practices; RFC 7591 §3)", async () => {
    const before = [...recorded.written.keys()].filter((k) => k.startsWith("oauth:client:"));
    const big = await register(server, {
      client_name: "x".repeat(132 * 1024),
      redirect_uris: [CLIENT_REDIRECT],
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: "invalid_client_metadata" });

    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        for (let n = 0; n < 20; n++) {
          const res = await raw(`${server.publicUrl}/register`, {
            localAddress: `127.0.1.${i + 1}`,
            body: {
              client_name: `flood ${i}.${n}`,
              software_id: "y".repeat(3_500),
              redirect_uris: [CLIENT_REDIRECT],
              token_endpoint_auth_method: "none",
            },
          });
          statuses.push(res.status);
        }
      }),
    );
    const created = statuses.filter((s) => s === 201).length;
    expect(statuses).toHaveLength(1_200);
    expect(created).toBe(600);
    expect(statuses.filter((s) => s === 429)).toHaveLength(600);
    const stored = [...recorded.written.keys()].filter(
      (k) => k.startsWith("oauth:client:") && !before.includes(k),
    );
    expect(stored).toHaveLength(600);
    const bytes = stored.reduce(
      (sum, k) => sum + (recorded.written.get(k)?.at(-1)?.length ?? 0),
      0,
    );
    process.stdout.write(
      `[registrations] 1,200 from 60 addresses: ${created} stored, ${(bytes / 1024).toFixed(0)} KB sealed in all, the largest ${Math.max(...stored.map((k) => recorded.written.get(k)?.at(-1)?.length ?? 0))} bytes\n`,
    );
    for (const key of stored) expect(recorded.ttl.get(key)).toBeLessThanOrEqual(DAY);
    expect(bytes / stored.length).toBeLessThan(6 * 1024);
  });

  it("3. keeps a registration that completed a sign-in as long as the sign-in may last", async () => {
    const client = new ScriptedClient(server);
    await client.signedIn();
    expect(recorded.ttl.get(`oauth:client:${client.clientId}`)).toBeGreaterThan(30 * DAY);
  });

  it("5. registration refuses redirect URLs the MCP spec forbids, naming the URL and the rule (MCP authorization 2025-11-25; RFC 8252 §7.3; RFC 7591 §3.2.2)", async () => {
    const forbidden = [
      "http://evil.example/cb",
      "https://app.example/cb#fragment",
      "file:///etc/passwd",
      "ftp://app.example/cb",
      "blob:https://app.example/0b6c5a55",
      "https://user:password@app.example/cb",
    ];
    // From an address of its own: each address may register 10 clients an hour.
    const registerFrom = (uri: string) =>
      raw(`${server.publicUrl}/register`, {
        localAddress: "127.0.4.1",
        body: { client_name: "test", redirect_uris: [uri], token_endpoint_auth_method: "none" },
      });
    for (const uri of forbidden) {
      const res = await registerFrom(uri);
      expect(res.status, uri).toBe(400);
      const body = JSON.parse(res.body) as { error: string; error_description: string };
      expect(body.error, uri).toBe("invalid_redirect_uri");
      expect(body.error_description, uri).toContain(JSON.stringify(uri).slice(0, 20));
    }
    for (const uri of [
      "https://app.example/cb",
      "http://127.0.0.1:4567/cb",
      "http://localhost/cb",
    ]) {
      expect((await registerFrom(uri)).status, uri).toBe(201);
    }
  });

  it("Client ID Metadata Documents: an https client_id signs in without registering, and the consent page names its host (MCP authorization 2025-11-25)", async () => {
    const clientId = docs.serve("/oauth/client.json", {
      client_id: `${docs.base}/oauth/client.json`,
      client_name: "Documented Assistant",
      redirect_uris: [CLIENT_REDIRECT],
      token_endpoint_auth_method: "none",
    });
    const client = new ScriptedClient(server);
    await client.discover();
    expect(client.asMetadata.client_id_metadata_document_supported).toBe(true);
    client.clientId = clientId;
    const { verifier, challenge } = pkce();
    const page = await client.browser.get(client.authorizeUrl(challenge, "d1"));
    const html = await page.text();
    expect(page.status, html).toBe(200);
    expect(html).toContain("Documented Assistant");
    expect(html).toContain(`as described at <code>${new URL(docs.base).host}</code>`);
    expect(html).toContain("returns to a program on your own computer");
    const approved = await client.browser.post(`${server.publicUrl}/oauth/consent`, {
      request: consentRequestOf(html),
      decision: "approve",
    });
    const { location } = await client.browser.authorize(approved.headers.get("location") as string);
    const back = await client.browser.get(location.href);
    const code = new URL(back.headers.get("location") as string).searchParams.get("code") as string;
    const issued = await client.exchange(code, verifier);
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(await mcpStatus(server, issued.body.access_token)).toBe(200);
    // Fetched once for /authorize and /token alike (cached as the draft allows).
    expect(docs.hitsOf("/oauth/client.json")).toBe(1);
  });

  it("Client ID Metadata Documents: a document that cannot be used is named on this server's page, and nothing is redirected", async () => {
    const target = docs.serve("/elsewhere.json", {});
    docs.routes.set("/moved.json", (_req, res) => res.writeHead(302, { location: target }).end());
    const mismatched = docs.serve("/mismatch.json", {
      client_id: `${docs.base}/other.json`,
      client_name: "Mismatch",
      redirect_uris: [CLIENT_REDIRECT],
    });
    for (const [clientId, reason] of [
      [`${docs.base}/moved.json`, /redirect/i],
      [mismatched, /client_id/],
    ] as const) {
      const client = new ScriptedClient(server);
      await client.discover();
      client.clientId = clientId;
      const res = await client.browser.get(client.authorizeUrl(pkce().challenge, "d2"));
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toMatch(reason);
    }
    expect(docs.hitsOf("/elsewhere.json")).toBe(0);
  });

  it("Client ID Metadata Documents: /authorize naming one is limited per address before any look-up (MCP security best practices, SSRF; OWASP API4:2023 unrestricted resource consumption)", async () => {
    const authorizeFrom = (localAddress: string, path: string) => {
      const client = new ScriptedClient(server);
      client.asMetadata = { authorization_endpoint: `${server.publicUrl}/authorize` };
      client.clientId = `${docs.base}${path}`;
      return raw(client.authorizeUrl(pkce().challenge, "d3"), { localAddress });
    };
    const before = lookups;
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof raw>> | undefined;
    for (let i = 0; i < 30; i++) {
      const res = await authorizeFrom("127.0.6.1", `/flood/${i}.json`);
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    // Each of the first ten looked its host up and failed (nothing is served there); the rest
    // were refused first.
    expect(statuses).toEqual([...Array(10).fill(400), ...Array(20).fill(429)]);
    expect(lookups - before).toBe(10);
    expect(Number(limited?.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited?.headers.location).toBeUndefined();
    expect(limited?.body).toContain("Too many sign-ins from your address");
    // Another address has a count of its own.
    expect((await authorizeFrom("127.0.6.2", "/flood/other.json")).status).toBe(400);
    expect(lookups - before).toBe(11);
  });

  it("6. a replayed authorization code is refused and revokes the tokens it issued (OAuth 2.1 §4.1.3)", async () => {
    const client = new ScriptedClient(server);
    await client.discover();
    await client.register();
    const { verifier, challenge } = pkce();
    const { code } = await client.signIn(challenge);
    const first = await client.exchange(code, verifier);
    expect(first.status).toBe(200);
    expect(await mcpStatus(server, first.body.access_token)).toBe(200);
    const again = await client.exchange(code, verifier);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: "invalid_grant" });
    expect(await mcpStatus(server, first.body.access_token)).toBe(401);
    const refreshed = await client.token({
      grant_type: "refresh_token",
      refresh_token: first.body.refresh_token as string,
    });
    expect(refreshed.status).toBe(400);
    expect(server.lines.join("")).toMatch(/an authorization code was used twice/);
  });

  it("7. revoking a refresh token revokes its access tokens and deletes the sealed platform tokens (RFC 7009 §2.1)", async () => {
    const client = new ScriptedClient(server);
    const tokens = await client.signedIn();
    const grants = () => [...recorded.written.keys()].filter((k) => k.startsWith("oauth:grant:"));
    const live = async () =>
      (await Promise.all(grants().map((k) => recorded.store.get(k)))).filter(Boolean).length;
    const liveBefore = await live();
    const revoked = await fetch(`${server.publicUrl}/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: client.clientId,
        token: tokens.refresh_token as string,
        token_type_hint: "refresh_token",
      }),
    });
    expect(revoked.status).toBe(200);
    expect(await mcpStatus(server, tokens.access_token)).toBe(401);
    expect(await live()).toBe(liveBefore - 1);
  });

  it("7. revoking an access token ends that token only, with any hint (RFC 7009 §2.1)", async () => {
    const client = new ScriptedClient(server);
    const tokens = await client.signedIn();
    const revoked = await fetch(`${server.publicUrl}/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      // A wrong hint does not hide the token (RFC 7009 §2.1: the server extends its search).
      body: new URLSearchParams({
        client_id: client.clientId,
        token: tokens.access_token,
        token_type_hint: "refresh_token",
      }),
    });
    expect(revoked.status).toBe(200);
    expect(await mcpStatus(server, tokens.access_token)).toBe(401);
    const renewed = await client.token({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token as string,
    });
    expect(renewed.status).toBe(200);
    expect(await mcpStatus(server, renewed.body.access_token)).toBe(200);
  });

  it("8. /token requires redirect_uri when the authorization request had one, and not otherwise (OAuth 2.1 §4.1.3)", async () => {
    const client = new ScriptedClient(server);
    await client.discover();
    await client.register();
    const withUri = pkce();
    const { code } = await client.signIn(withUri.challenge);
    const missing = await client.token({
      grant_type: "authorization_code",
      code,
      code_verifier: withUri.verifier,
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: "invalid_grant" });
    expect(JSON.stringify(missing.body)).toContain("redirect_uri is required");

    // The client registered one redirect URL and named none: it need not name one at /token.
    const without = pkce();
    const url = new URL(client.authorizeUrl(without.challenge, "w1"));
    url.searchParams.delete("redirect_uri");
    const page = await client.browser.get(url.href);
    expect(page.status).toBe(200);
    const approved = await client.browser.post(`${server.publicUrl}/oauth/consent`, {
      request: consentRequestOf(await page.text()),
      decision: "approve",
    });
    const { location } = await client.browser.authorize(approved.headers.get("location") as string);
    const back = await client.browser.get(location.href);
    const answer = new URL(back.headers.get("location") as string);
    expect(answer.origin + answer.pathname).toBe(CLIENT_REDIRECT);
    const issued = await client.token({
      grant_type: "authorization_code",
      code: answer.searchParams.get("code") as string,
      code_verifier: without.verifier,
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect((issued.body as OAuthTokens).access_token).toBeTruthy();
  });
});
