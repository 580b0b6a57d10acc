// `--http --auth oauth` over real HTTP: a scripted client plays the MCP client and the person's
// browser against the server and the sandbox's authorization server (the platform's OAuth):
// discovery (401 → protected resource metadata → authorization server metadata), dynamic client
// registration, this server's consent page, the platform's consent, the callback, code → token,
// MCP calls as the signed-in person; then what must be refused, the personal-token header, the
// end of the platform's grant, and what the state store and the logs hold.

import type { OAuthTokens } from "@modelcontextprotocol/client";
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { Browser, expectNoSecret } from "../auth/helpers.js";
import { initialize, raw } from "./http-helpers.js";
import {
  CLIENT_REDIRECT,
  consentRequestOf,
  DAY,
  KEY,
  mcpClient,
  pkce,
  platformTokens,
  ScriptedClient,
  sdkClientProvider,
  startTeamServer,
  type TeamServer,
  viewerName,
} from "./remote-auth-helpers.js";

describe("--auth oauth: remote sign-in against the sandbox's OAuth", () => {
  let sandbox: Sandbox;
  let server: TeamServer;
  const secrets: string[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    server = await startTeamServer(sandbox);
    secrets.push(KEY, server.upstream.secret, sandbox.tokens.full, sandbox.tokens.limited);
  });
  afterAll(async () => {
    await server?.handle.close();
    await sandbox?.close();
  });

  it("discovers the metadata from a 401 and signs in with PKCE through the platform's consent", async () => {
    const client = new ScriptedClient(server);
    await client.discover();
    expect(client.asMetadata).toMatchObject({
      issuer: `${server.publicUrl}/`,
      code_challenge_methods_supported: ["S256"],
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
    });
    expect(client.asMetadata.registration_endpoint).toBe(`${server.publicUrl}/register`);
    // Client ID Metadata Documents are the preferred way in (MCP authorization 2025-11-25).
    expect(client.asMetadata.client_id_metadata_document_supported).toBe(true);
    await client.register();
    const { verifier, challenge } = pkce();
    const { code } = await client.signIn(challenge, "limited");
    const { status, body } = await client.exchange(code, verifier);
    expect(status).toBe(200);
    expect(body.token_type).toBe("Bearer");
    expect(body.expires_in).toBeGreaterThan(0);
    expect(body.expires_in).toBeLessThanOrEqual(3600);
    expect(body.refresh_token).toBeTruthy();
    secrets.push(body.access_token, body.refresh_token as string, code);

    const mcp = await mcpClient(server.publicUrl, {
      authorization: `Bearer ${body.access_token}`,
    });
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toContain("search_hires");
      // The sandbox's limited identity: the platform acts as the person who signed in.
      expect(await viewerName(mcp)).toBe("Oskar Berg");
    } finally {
      await mcp.close();
    }
    // The code was single-use.
    const again = await client.exchange(code, verifier);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a wrong PKCE verifier (and the code still needs the right one)", async () => {
    const client = new ScriptedClient(server);
    await client.discover();
    await client.register();
    const { verifier, challenge } = pkce();
    const { code } = await client.signIn(challenge);
    const wrong = await client.exchange(code, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: "invalid_grant" });
    const right = await client.exchange(code, verifier);
    expect(right.status).toBe(200);
    secrets.push(right.body.access_token, right.body.refresh_token as string, code);
  });

  it("refuses a sign-in without PKCE S256 on its own page, sending nothing to the client (RFC 9700 §4.11.1)", async () => {
    const client = new ScriptedClient(server);
    await client.discover();
    await client.register();
    const url = new URL(client.authorizeUrl("x".repeat(43), "s1"));
    url.searchParams.set("code_challenge_method", "plain");
    const res = await client.browser.get(url.href);
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toMatch(/PKCE with S256[\s\S]*Nothing was sent back/);
  });

  it("issues tokens only for itself: another resource is refused at /authorize, at /token and at /mcp", async () => {
    const client = new ScriptedClient(server);
    await client.discover();
    await client.register();
    const other = "https://other.example/mcp";
    const res = await client.browser.get(client.authorizeUrl(pkce().challenge, "s2", other));
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("issues access only to itself");

    const { verifier, challenge } = pkce();
    const { code } = await client.signIn(challenge);
    const forOther = await client.exchange(code, verifier, other);
    expect(forOther.status).toBe(400);
    expect(forOther.body).toMatchObject({ error: "invalid_target" });

    // A second server (another address, so another audience) sharing the same state store:
    // a token this one issued is not accepted there.
    const tokens = await new ScriptedClient(server).signedIn();
    secrets.push(tokens.access_token, tokens.refresh_token as string);
    const second = await startTeamServer(sandbox, {
      shared: { store: server.store, written: server.written },
    });
    try {
      const refused = await raw(`${second.publicUrl}/mcp`, {
        body: initialize,
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(refused.status).toBe(401);
      expect(String(refused.headers["www-authenticate"])).toMatch(/not issued for this resource/);
      const accepted = await raw(`${server.publicUrl}/mcp`, {
        body: initialize,
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(accepted.status).toBe(200);
    } finally {
      await second.handle.close();
    }
  });

  it("guards its consent page (OWASP CSRF prevention: Origin and Fetch Metadata): a cookie from the page's own browser, no foreign or bare null Origin", async () => {
    const client = new ScriptedClient(server);
    await client.discover();
    await client.register();
    const page = await client.browser.get(client.authorizeUrl(pkce().challenge, "s3"));
    const request = /name="request" value="([^"]+)"/.exec(await page.text())?.[1] as string;
    // Another browser (no cookie) posting this page's answer: nothing is sent anywhere.
    const forged = await new Browser().post(`${server.publicUrl}/oauth/consent`, {
      request,
      decision: "approve",
    });
    expect(forged.status).toBe(400);
    expect(forged.headers.get("location")).toBeNull();
    const fromElsewhere = await fetch(`${server.publicUrl}/oauth/consent`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://evil.example",
      },
      body: new URLSearchParams({ request, decision: "approve" }),
    });
    expect(fromElsewhere.status).toBe(403);
    // What a browser says of the post, with the page's own cookie: another site, or an opaque
    // origin the browser does not vouch for as this page, is refused; its own page is taken.
    const again = await client.browser.get(client.authorizeUrl(pkce().challenge, "s4"));
    const form = { request: consentRequestOf(await again.text()), decision: "approve" };
    const fromBrowser = (headers: Record<string, string>) =>
      client.browser.post(`${server.publicUrl}/oauth/consent`, form, headers);
    const refused: Record<string, string>[] = [
      { origin: "null" },
      { origin: "null", "sec-fetch-site": "cross-site" },
      { origin: server.publicUrl, "sec-fetch-site": "same-site" },
      { "sec-fetch-site": "cross-site" },
    ];
    for (const headers of refused) {
      const answer = await fromBrowser(headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.headers.get("location")).toBeNull();
    }
    // Refused before anything was used up: the same page's answer from its own page goes on.
    const own = await fromBrowser({ origin: "null", "sec-fetch-site": "same-origin" });
    expect(own.status).toBe(302);
    expect(new URL(own.headers.get("location") as string).pathname).toBe("/oauth/authorize");
  });

  it("rotates refresh tokens: a new pair works; the old refresh token again revokes the whole sign-in (RFC 9700 §4.14.2)", async () => {
    const client = new ScriptedClient(server);
    const first = await client.signedIn();
    const renewed = await client.token({
      grant_type: "refresh_token",
      refresh_token: first.refresh_token as string,
      resource: server.resource,
    });
    expect(renewed.status).toBe(200);
    expect(renewed.body.access_token).not.toBe(first.access_token);
    secrets.push(
      first.access_token,
      first.refresh_token as string,
      renewed.body.access_token,
      renewed.body.refresh_token as string,
    );
    const mcp = await mcpClient(server.publicUrl, {
      authorization: `Bearer ${renewed.body.access_token}`,
    });
    try {
      expect(await viewerName(mcp)).toBe("Maja Lindqvist");
    } finally {
      await mcp.close();
    }
    // Whoever replays the old refresh token (a thief, or the client after the thief) is refused,
    // and the renewed pair stops working too: nobody keeps access with a stolen token.
    const reused = await client.token({
      grant_type: "refresh_token",
      refresh_token: first.refresh_token as string,
    });
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ error: "invalid_grant" });
    const after = await raw(`${server.publicUrl}/mcp`, {
      body: initialize,
      headers: { authorization: `Bearer ${renewed.body.access_token}` },
    });
    expect(after.status).toBe(401);
    const renewedAgain = await client.token({
      grant_type: "refresh_token",
      refresh_token: renewed.body.refresh_token as string,
    });
    expect(renewedAgain.status).toBe(400);
    expect(server.lines.join("")).toMatch(/a refresh token was used twice/);
  });

  it("signs in the MCP SDK's own client (its OAuth discovery, registration and PKCE)", async () => {
    const browser = new Browser();
    const { provider, opened, tokens } = sdkClientProvider(CLIENT_REDIRECT, "SDK client");
    const url = new URL(`${server.publicUrl}/mcp`);
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await expect(new Client({ name: "sdk", version: "0" }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const authorizeAt = opened.at(-1) as URL;
    expect(authorizeAt.searchParams.get("resource")).toBe(server.resource);
    const page = await browser.get(authorizeAt.href);
    const request = /name="request" value="([^"]+)"/.exec(await page.text())?.[1] as string;
    const approved = await browser.post(`${server.publicUrl}/oauth/consent`, {
      request,
      decision: "approve",
    });
    const { location } = await browser.authorize(approved.headers.get("location") as string, {
      identity: "limited",
    });
    const back = await browser.get(location.href);
    const answer = new URL(back.headers.get("location") as string).searchParams;
    // RFC 9207 §2: the answer names this server as its issuer; the SDK's client checks it.
    expect(answer.get("iss")).toBe(new URL(server.publicUrl).href);
    await first.finishAuth(answer);
    const saved = tokens();
    expect(saved?.access_token).toBeTruthy();
    secrets.push(saved?.access_token as string, saved?.refresh_token as string);
    const client = new Client({ name: "sdk", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    try {
      expect(await viewerName(client)).toBe("Oskar Berg");
    } finally {
      await client.close();
    }
    // The same sign-in serves a client speaking MCP 2026-07-28 (each request stands alone).
    const modern = new Client(
      { name: "sdk-2026", version: "0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await modern.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    try {
      expect(modern.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect(await viewerName(modern)).toBe("Oskar Berg");
    } finally {
      await modern.close();
    }
    // Without a token a 2026-07-28 request is challenged like any other (MCP authorization, 401).
    const bare = new Client(
      { name: "sdk-2026-anonymous", version: "0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await expect(bare.connect(new StreamableHTTPClientTransport(url))).rejects.toThrow(
      /401|Unauthorized/,
    );
  });

  it("MCP authorization: token passthrough is opt-in: X-Workforce-Token is refused with 401 without it", async () => {
    const before = sandbox.countRequests();
    const res = await raw(`${server.publicUrl}/mcp`, {
      body: initialize,
      headers: { "x-workforce-token": sandbox.tokens.limited },
    });
    expect(res.status).toBe(401);
    expect(String(res.headers["www-authenticate"])).toMatch(
      /error="invalid_token", error_description="This server does not accept passthrough tokens", resource_metadata=/,
    );
    expect(JSON.parse(res.body).error_description).toMatch(
      /does not accept passthrough tokens.*Sign in with OAuth instead/,
    );
    expect(res.body).not.toContain(sandbox.tokens.limited);
    expect(sandbox.countRequests()).toBe(before);
  });

  it("with --token-passthrough accepts a personal access token in X-Workforce-Token, and refuses a bad one", async () => {
    const server = await startTeamServer(sandbox, { passthrough: true });
    try {
      await checkPersonalTokens(server);
    } finally {
      await server.handle.close();
    }
  });

  async function checkPersonalTokens(server: TeamServer) {
    const mcp = await mcpClient(server.publicUrl, { "x-workforce-token": sandbox.tokens.limited });
    try {
      expect(await viewerName(mcp)).toBe("Oskar Berg");
    } finally {
      await mcp.close();
    }
    const bad = await raw(`${server.publicUrl}/mcp`, {
      body: initialize,
      headers: { "x-workforce-token": "not-a-token-at-all" },
    });
    expect(bad.status).toBe(401);
    expect(String(bad.headers["www-authenticate"])).toContain("resource_metadata=");
    const both = await raw(`${server.publicUrl}/mcp`, {
      body: initialize,
      headers: { "x-workforce-token": sandbox.tokens.full, authorization: "Bearer x" },
    });
    expect(both.status).toBe(400);
    expectNoSecret(server.lines, [sandbox.tokens.full, sandbox.tokens.limited]);
  }

  it("never passes its own token through: a platform token as the bearer is refused", async () => {
    const res = await raw(`${server.publicUrl}/mcp`, {
      body: initialize,
      headers: { authorization: `Bearer ${sandbox.tokens.full}` },
    });
    expect(res.status).toBe(401);
  });

  it("ends the sign-in when the platform's grant ends (90 days): the server's token then gets 401", async () => {
    const client = new ScriptedClient(server);
    const tokens = await client.signedIn();
    secrets.push(tokens.access_token, tokens.refresh_token as string);
    const mcp = await mcpClient(server.publicUrl, {
      authorization: `Bearer ${tokens.access_token}`,
    });
    try {
      expect(await viewerName(mcp)).toBe("Maja Lindqvist");
      // The platform's clock: its access token has expired and its 90 days of renewal are over.
      sandbox.clock.advance(91 * DAY);
      const ended = await mcp.callTool({ name: "list_accounts", arguments: {} });
      expect(ended.isError).toBe(true);
      expect(JSON.stringify(ended.content)).toMatch(/sign in again|signed in again/i);
    } finally {
      await mcp.close().catch(() => {});
    }
    const after = await raw(`${server.publicUrl}/mcp`, {
      body: initialize,
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(after.status).toBe(401);
    expect(String(after.headers["www-authenticate"])).toContain("resource_metadata=");
    const refreshed = await client.token({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token as string,
    });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body).toMatchObject({ error: "invalid_grant" });
  });

  it("keeps no token in plain text in the state store", () => {
    const upstreamTokens = platformTokens(server.written);
    expect(upstreamTokens.length).toBeGreaterThan(4);
    const everything = [...server.written.entries()].flatMap(([k, v]) => [k, ...v]);
    expect(everything.length).toBeGreaterThan(10);
    expectNoSecret(everything, [...secrets, ...upstreamTokens]);
    // Every OAuth record is sealed (AES-256-GCM), not just the token records.
    for (const [name, values] of server.written) {
      if (!name.startsWith("oauth:")) continue;
      for (const value of values) expect(value).toMatch(/^wfm1\.[\w-]+$/);
    }
  });

  it("never logs a token, code, secret or the encryption key", () => {
    if (process.env.SHOW_LOG) process.stderr.write(server.lines.join(""));
    expect(server.lines.join("")).toMatch(/Signed in at the platform/);
    expectNoSecret(server.lines, [...secrets, ...platformTokens(server.written)]);
  });
});

describe("--auth oauth: a revoked OAuth client at the platform", () => {
  let sandbox: Sandbox;
  let server: TeamServer;
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    server = await startTeamServer(sandbox);
  });
  afterAll(async () => {
    await server?.handle.close();
    await sandbox?.close();
  });

  it("revokes the server's tokens of that grant: the next request gets 401", async () => {
    const tokens = await new ScriptedClient(server).signedIn("limited");
    const mcp = await mcpClient(server.publicUrl, {
      authorization: `Bearer ${tokens.access_token}`,
    });
    try {
      expect(await viewerName(mcp)).toBe("Oskar Berg");
      sandbox.oauth.revokeClient(server.upstream.id);
      const refused = await mcp.callTool({ name: "list_accounts", arguments: {} });
      expect(refused.isError).toBe(true);
    } finally {
      await mcp.close().catch(() => {});
    }
    const after = await raw(`${server.publicUrl}/mcp`, {
      body: initialize,
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(after.status).toBe(401);
  });
});

describe("--auth oauth: two stateless replicas sharing one state store", () => {
  let sandbox: Sandbox;
  let a: TeamServer;
  let b: TeamServer;
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    a = await startTeamServer(sandbox, { stateless: true, passthrough: true });
    b = await startTeamServer(sandbox, {
      stateless: true,
      passthrough: true,
      replicaOf: a,
      shared: { store: a.store, written: a.written },
    });
  });
  afterAll(async () => {
    await b?.handle.close();
    await a?.handle.close();
    await sandbox?.close();
  });

  it("takes each step of a sign-in on the other replica, and serves the token on both", async () => {
    const A = a.handle.url;
    const B = b.handle.url;
    const registered = await fetch(`${B}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "replica client",
        redirect_uris: [CLIENT_REDIRECT],
        token_endpoint_auth_method: "none",
      }),
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const { verifier, challenge } = pkce();
    const browser = new Browser();
    const page = await browser.get(
      `${A}/authorize?${new URLSearchParams({
        response_type: "code",
        client_id,
        redirect_uri: CLIENT_REDIRECT,
        code_challenge: challenge,
        code_challenge_method: "S256",
        state: "r1",
        resource: a.resource,
      })}`,
    );
    expect(page.status).toBe(200);
    const request = /name="request" value="([^"]+)"/.exec(await page.text())?.[1] as string;
    const approved = await browser.post(`${B}/oauth/consent`, { request, decision: "approve" });
    expect(approved.status).toBe(302);
    const { location } = await browser.authorize(approved.headers.get("location") as string);
    expect(location.origin).toBe(A);
    const back = await browser.get(location.href);
    const code = new URL(back.headers.get("location") as string).searchParams.get("code");
    const token = await fetch(`${B}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        client_id,
        code: code as string,
        code_verifier: verifier,
        redirect_uri: CLIENT_REDIRECT,
        resource: a.resource,
      }),
    });
    expect(token.status).toBe(200);
    const tokens = (await token.json()) as OAuthTokens;
    for (const replica of [A, B]) {
      const mcp = await mcpClient(replica, { authorization: `Bearer ${tokens.access_token}` });
      try {
        expect(await viewerName(mcp)).toBe("Maja Lindqvist");
      } finally {
        await mcp.close();
      }
    }
    const refresh = (at: string) =>
      fetch(`${at}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          client_id,
          refresh_token: tokens.refresh_token as string,
        }),
      });
    expect((await refresh(A)).status).toBe(200);
    expect((await refresh(B)).status).toBe(400);
    const personal = await mcpClient(B, { "x-workforce-token": sandbox.tokens.limited });
    try {
      expect(await viewerName(personal)).toBe("Oskar Berg");
    } finally {
      await personal.close();
    }
  });
});
