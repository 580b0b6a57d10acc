// The sandbox as an authorization server, over real HTTP: consent page, prompt, codes, tokens,
// refresh, the 90 days, and revoking a client. The test plays the browser.
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { Browser, registerClient } from "./helpers.js";

const DAY = 24 * 60 * 60 * 1000;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimitPerMinute: 0 });
});
afterAll(() => sandbox.close());

interface Pkce {
  verifier: string;
  challenge: string;
}
function pkce(): Pkce {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

function authorizeUrl(
  client: { id: string; redirectUri: string },
  extra: Record<string, string> = {},
): string {
  const url = new URL("/oauth/authorize", sandbox.url);
  url.searchParams.set("client_id", client.id);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("redirect_uri", client.redirectUri);
  url.searchParams.set("state", "state-123");
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  return url.href;
}

async function tokenRequest(form: Record<string, string>) {
  const res = await fetch(new URL("/oauth/token", sandbox.url), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function viewer(token: string): Promise<{ name?: string; error?: string }> {
  const res = await fetch(sandbox.graphqlUrl, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: "{ viewer { name } }" }),
  });
  const body = (await res.json()) as {
    data?: { viewer?: { name: string } } | null;
    errors?: { message: string }[];
  };
  return { name: body.data?.viewer?.name, error: body.errors?.[0]?.message };
}

/** Approve in a fresh browser and exchange the code: the tokens. */
async function grant(
  client: { id: string; secret: string; redirectUri: string },
  identity: "full" | "limited" = "full",
) {
  const p = pkce();
  const { location } = await new Browser().authorize(
    authorizeUrl(client, { code_challenge: p.challenge, code_challenge_method: "S256" }),
    { identity },
  );
  const code = location.searchParams.get("code") ?? "";
  const answer = await tokenRequest({
    grant_type: "authorization_code",
    code,
    redirect_uri: client.redirectUri,
    client_id: client.id,
    client_secret: client.secret,
    code_verifier: p.verifier,
  });
  expect(answer.status).toBe(200);
  return answer.body as { access_token: string; refresh_token: string; expires_in: number };
}

describe("GET /oauth/authorize", () => {
  it("shows a consent page with both identities, Approve and Deny, escaping what it echoes", async () => {
    const client = await registerClient(sandbox, `<script>alert("x")</script> & co`);
    const res = await fetch(authorizeUrl(client));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const page = await res.text();
    expect(page).toContain("Maja Lindqvist");
    expect(page).toContain("Oskar Berg");
    expect(page).toMatch(/id="approve"/);
    expect(page).toMatch(/id="deny"/);
    expect(page).not.toContain("<script>");
    expect(page).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co");
  });

  it("sends nothing anywhere for an unknown client or a redirect URL that is not registered", async () => {
    const client = await registerClient(sandbox);
    const unknown = await fetch(authorizeUrl({ ...client, id: "nope" }), { redirect: "manual" });
    expect(unknown.status).toBe(400);
    const elsewhere = await fetch(
      authorizeUrl({ ...client, redirectUri: "http://127.0.0.1:1/evil" }),
      { redirect: "manual" },
    );
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get("location")).toBeNull();
  });

  it("approving redirects with a code and the same state; denying with error=access_denied", async () => {
    const client = await registerClient(sandbox);
    const approved = await new Browser().authorize(authorizeUrl(client));
    expect(approved.location.origin + approved.location.pathname).toBe(client.redirectUri);
    expect(approved.location.searchParams.get("code")).toMatch(/^wfs_code_/);
    expect(approved.location.searchParams.get("state")).toBe("state-123");

    const denied = await new Browser().authorize(authorizeUrl(client), { decision: "deny" });
    expect(denied.location.searchParams.get("error")).toBe("access_denied");
    expect(denied.location.searchParams.get("state")).toBe("state-123");
    expect(denied.location.searchParams.get("code")).toBeNull();
  });

  it("asks only once per browser and client, unless prompt=consent or prompt=login", async () => {
    const client = await registerClient(sandbox);
    const browser = new Browser();
    await browser.authorize(authorizeUrl(client), { identity: "limited" });

    const again = await browser.get(authorizeUrl(client));
    expect(again.status).toBe(302);
    expect(new URL(again.headers.get("location") ?? "").searchParams.get("code")).toBeTruthy();

    const consent = await browser.get(authorizeUrl(client, { prompt: "consent" }));
    expect(consent.status).toBe(200);
    // Still signed in: the identity is already chosen.
    expect(await consent.text()).toMatch(/value="limited" checked/);

    const login = await browser.get(authorizeUrl(client, { prompt: "login" }));
    expect(login.status).toBe(200);
    expect(await login.text()).not.toMatch(/checked/);

    // A browser that never approved is asked; prompt=none then says so instead.
    const none = await new Browser().get(authorizeUrl(client, { prompt: "none" }));
    expect(new URL(none.headers.get("location") ?? "").searchParams.get("error")).toBe(
      "login_required",
    );
  });

  it("refuses a consent form that was already answered", async () => {
    const client = await registerClient(sandbox);
    const browser = new Browser();
    const page = await (await browser.get(authorizeUrl(client))).text();
    const request = /name="request" value="([^"]+)"/.exec(page)?.[1] ?? "";
    const action = new URL("/oauth/authorize", sandbox.url).href;
    const form = { request, identity: "full", decision: "approve" };
    expect((await browser.post(action, form)).status).toBe(302);
    expect((await browser.post(action, form)).status).toBe(400);
  });
});

describe("POST /oauth/token", () => {
  it("issues 15-day access tokens the GraphQL endpoint accepts as the approving identity", async () => {
    const client = await registerClient(sandbox);
    const tokens = await grant(client, "limited");
    expect(tokens.expires_in).toBe(15 * 24 * 60 * 60);
    expect(await viewer(tokens.access_token)).toEqual({ name: "Oskar Berg" });

    sandbox.clock.advance(15 * DAY + 1000);
    expect((await viewer(tokens.access_token)).error).toBe("Unauthenticated.");
  });

  it("codes are single use (a reuse also stops the tokens they gave), bound to client and redirect URL, and PKCE-checked", async () => {
    const client = await registerClient(sandbox);
    const other = await registerClient(sandbox);
    const p = pkce();
    const url = authorizeUrl(client, {
      code_challenge: p.challenge,
      code_challenge_method: "S256",
    });
    const code = async () =>
      (await new Browser().authorize(url)).location.searchParams.get("code") ?? "";
    const base = {
      grant_type: "authorization_code",
      redirect_uri: client.redirectUri,
      client_id: client.id,
      client_secret: client.secret,
      code_verifier: p.verifier,
    };

    const c1 = await code();
    const first = await tokenRequest({ ...base, code: c1 });
    expect(first.status).toBe(200);
    const reused = await tokenRequest({ ...base, code: c1 });
    expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await viewer(String(first.body.access_token))).error).toBe("Unauthenticated.");

    const wrongClient = await tokenRequest({
      ...base,
      code: await code(),
      client_id: other.id,
      client_secret: other.secret,
    });
    expect(wrongClient.body.error).toBe("invalid_grant");

    const wrongRedirect = await tokenRequest({
      ...base,
      code: await code(),
      redirect_uri: "http://127.0.0.1:9/else",
    });
    expect(wrongRedirect.body.error).toBe("invalid_grant");

    const wrongVerifier = await tokenRequest({
      ...base,
      code: await code(),
      code_verifier: pkce().verifier,
    });
    expect(wrongVerifier.body.error).toBe("invalid_grant");

    const wrongSecret = await tokenRequest({ ...base, code: await code(), client_secret: "nope" });
    expect(wrongSecret).toMatchObject({ status: 401, body: { error: "invalid_client" } });
  });

  it("codes expire after 10 minutes", async () => {
    const client = await registerClient(sandbox);
    const { location } = await new Browser().authorize(authorizeUrl(client));
    sandbox.clock.advance(10 * 60 * 1000 + 1);
    const answer = await tokenRequest({
      grant_type: "authorization_code",
      code: location.searchParams.get("code") ?? "",
      redirect_uri: client.redirectUri,
      client_id: client.id,
      client_secret: client.secret,
    });
    expect(answer).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(String(answer.body.error_description)).toMatch(/expired/);
  });

  it("refreshing rotates the refresh token and works for 90 days from the first grant", async () => {
    const client = await registerClient(sandbox);
    const tokens = await grant(client);
    const refresh = (refreshToken: string) =>
      tokenRequest({
        grant_type: "refresh_token",
        refresh_token: refreshToken,
        client_id: client.id,
        client_secret: client.secret,
      });

    sandbox.clock.advance(40 * DAY);
    const second = await refresh(tokens.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await refresh(tokens.refresh_token)).body.error).toBe("invalid_grant");
    expect(await viewer(String(second.body.access_token))).toEqual({ name: "Maja Lindqvist" });

    sandbox.clock.advance(49 * DAY);
    const third = await refresh(String(second.body.refresh_token));
    expect(third.status).toBe(200);

    sandbox.clock.advance(2 * DAY);
    const late = await refresh(String(third.body.refresh_token));
    expect(late).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(String(late.body.error_description)).toMatch(/90 days/);
  });

  it("a revoked client gets no tokens and its tokens stop authenticating", async () => {
    const client = await registerClient(sandbox);
    const tokens = await grant(client);
    expect((await viewer(tokens.access_token)).name).toBe("Maja Lindqvist");
    sandbox.oauth.revokeClient(client.id);
    expect((await viewer(tokens.access_token)).error).toBe("Unauthenticated.");
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: client.id,
      client_secret: client.secret,
    });
    expect(refreshed).toMatchObject({ status: 401, body: { error: "invalid_client" } });
  });

  it("refuses other grant types and bodies that are not a form", async () => {
    const client = await registerClient(sandbox);
    const answer = await tokenRequest({
      grant_type: "password",
      client_id: client.id,
      client_secret: client.secret,
    });
    expect(answer.body.error).toBe("unsupported_grant_type");
    const json = await fetch(new URL("/oauth/token", sandbox.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(json.status).toBe(400);
  });
});
