// `login` in this process against the sandbox over real HTTP; the test plays the browser.
import { chmodSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoginError } from "../../src/auth/login.js";
import { SIGN_IN_FILE, SignInStoreError } from "../../src/auth/store.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import {
  Browser,
  expectNoSecret,
  registerClient,
  secretsOf,
  startLogin,
  tempConfigDir,
} from "./helpers.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimitPerMinute: 0 });
});
afterAll(() => sandbox.close());

describe("workforce-mcp login (authorization-code flow with PKCE)", () => {
  it("signs in: the browser approves, the code is exchanged, viewer names who signed in, the pair is stored 0600", async () => {
    const client = await registerClient(sandbox);
    const configDir = tempConfigDir();
    const run = startLogin(sandbox, client, { configDir });
    const address = new URL(await run.authorizeUrl);
    expect(address.origin + address.pathname).toBe(`${sandbox.url}/oauth/authorize`);
    expect(Object.fromEntries(address.searchParams)).toMatchObject({
      client_id: client.id,
      response_type: "code",
      redirect_uri: client.redirectUri,
      code_challenge_method: "S256",
    });
    expect(address.searchParams.get("state")).toMatch(/^[\w-]{40,}$/);
    expect(address.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);

    const browser = await new Browser().signIn(address.href, { identity: "limited" });
    expect(browser.status).toBe(200);
    expect(browser.text).toContain("Signed in to");
    const code = browser.location.searchParams.get("code") ?? "";

    const signIn = await run.done;
    expect(signIn.identity).toEqual({
      id: "usr_002",
      name: "Oskar Berg",
      email: "oskar.berg@nordlys.example",
    });
    expect(signIn.apiUrl).toBe(sandbox.url);
    expect(signIn.accessTokenExpiresAt - signIn.accessTokenIssuedAt).toBe(15 * 86_400_000);
    expect(signIn.renewBy - signIn.signedInAt).toBe(90 * 86_400_000);

    const file = path.join(configDir, SIGN_IN_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    expect(stored.signIns[sandbox.url].refreshToken).toBe(signIn.refreshToken);

    // The person's lines and every log line: no token, no code, no client secret.
    expect(run.said.join("\n")).toContain(address.href);
    expectNoSecret([...run.said, ...run.logLines, browser.text], [...secretsOf(signIn), code]);
  });

  it("RFC 8252 §8.9: an answer with another state gets 400, is not stored, and the real answer still signs in", async () => {
    const client = await registerClient(sandbox);
    const run = startLogin(sandbox, client);
    await run.authorizeUrl;
    for (const params of [
      { code: "wfs_code_forged", state: "not-the-state" },
      { error: "access_denied", state: "not-the-state" },
    ]) {
      const forged = new URL(client.redirectUri);
      for (const [k, v] of Object.entries(params)) forged.searchParams.set(k, v);
      const res = await fetch(forged);
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/The sign-in is still waiting/);
    }
    expect(run.store.list()).toEqual([]);
    expect(run.said.filter((l) => l.includes("does not carry this sign-in's state"))).toHaveLength(
      1,
    );

    const browser = await new Browser().signIn(await run.authorizeUrl);
    expect(browser.status).toBe(200);
    expect((await run.done).apiUrl).toBe(sandbox.url);
  });

  it("RFC 8252 §7.3: stray requests to the loopback listener (favicon, other paths, no state, POST) get a plain 400 and the sign-in goes on", async () => {
    const client = await registerClient(sandbox);
    const run = startLogin(sandbox, client);
    const state = new URL(await run.authorizeUrl).searchParams.get("state") ?? "";
    const base = new URL(client.redirectUri);
    const strays: [string, RequestInit?][] = [
      [new URL("/favicon.ico", base).href],
      [new URL("/", base).href],
      [base.href],
      [`${base.href}?code=wfs_code_without_state`],
      [`${base.href}?state=${state}&code=posted`, { method: "POST" }],
    ];
    for (const [url, init] of strays) {
      const res = await fetch(url, init);
      expect(res.status, url).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    }

    const browser = await new Browser().signIn(await run.authorizeUrl);
    expect(browser.status).toBe(200);
    expect((await run.done).identity.name).toBeTruthy();
    // Once answered, the listener is closed: nothing more reaches this sign-in.
    await expect(fetch(base)).rejects.toThrow();
  });

  it("RFC 8252 §8.9: stray and forged requests alone never end the wait; only the time-out does", async () => {
    const client = await registerClient(sandbox);
    const run = startLogin(sandbox, client, { timeoutMs: 400 });
    await run.authorizeUrl;
    const forged = new URL(client.redirectUri);
    forged.searchParams.set("state", "not-the-state");
    forged.searchParams.set("code", "wfs_code_forged");
    expect((await fetch(new URL("/favicon.ico", forged))).status).toBe(400);
    expect((await fetch(forged)).status).toBe(400);
    await expect(run.done).rejects.toThrow(LoginError);
    await expect(run.done).rejects.toThrow(/timed out: the browser did not come back to http/);
    expect(run.store.list()).toEqual([]);
  });

  it("RFC 8252 §8.9: a denial with this sign-in's state (access_denied) ends the wait, and nothing is stored", async () => {
    const client = await registerClient(sandbox);
    const run = startLogin(sandbox, client);
    const browser = await new Browser().signIn(await run.authorizeUrl, { decision: "deny" });
    expect(browser.status).toBe(400);
    expect(browser.text).toContain("denied");
    await expect(run.done).rejects.toThrow(/denied in the browser \(access_denied\)/);
    expect(run.store.list()).toEqual([]);
  });

  it("says the code expired when the browser comes back after 10 minutes", async () => {
    const client = await registerClient(sandbox);
    const run = startLogin(sandbox, client);
    const { location } = await new Browser().authorize(await run.authorizeUrl);
    sandbox.clock.advance(11 * 60 * 1000);
    await fetch(location);
    await expect(run.done).rejects.toThrow(/invalid_grant.*expired.*codes last 10 minutes/s);
    expect(run.store.list()).toEqual([]);
  });

  it("a code used once cannot be used again, and presenting it again ends what it granted", async () => {
    const client = await registerClient(sandbox);
    const run = startLogin(sandbox, client);
    const browser = await new Browser().signIn(await run.authorizeUrl);
    const signIn = await run.done;
    const replay = await fetch(new URL("/oauth/token", sandbox.url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: browser.location.searchParams.get("code") ?? "",
        redirect_uri: client.redirectUri,
        client_id: client.id,
        client_secret: client.secret,
      }),
    });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe("invalid_grant");
    expect(sandbox.oauth.identityFor(signIn.accessToken)).toBeNull();
  });

  it("times out with a clear message when the browser never comes back", async () => {
    const client = await registerClient(sandbox);
    const run = startLogin(sandbox, client, { timeoutMs: 300 });
    await expect(run.done).rejects.toThrow(/timed out: the browser did not come back to http/);
    expect(run.store.list()).toEqual([]);
  });

  it("says so when the redirect URL's port is taken", async () => {
    const client = await registerClient(sandbox);
    const port = Number(new URL(client.redirectUri).port);
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", resolve));
    try {
      const run = startLogin(sandbox, client);
      await expect(run.done).rejects.toThrow(new RegExp(`Port ${port} .* is in use`));
    } finally {
      blocker.close();
    }
  });

  it("CWE-732: refuses a config folder others can write to before the browser is sent anywhere", async () => {
    const client = await registerClient(sandbox);
    const configDir = tempConfigDir();
    mkdirSync(configDir, { mode: 0o700 });
    chmodSync(configDir, 0o777);
    let announced = false;
    const run = startLogin(sandbox, client, { configDir });
    void run.authorizeUrl.then(() => {
      announced = true;
    });
    await expect(run.done).rejects.toThrow(SignInStoreError);
    await expect(run.done).rejects.toThrow(
      `Refusing the sign-ins in ${configDir}: other users can write to the folder (mode 777)`,
    );
    expect(announced).toBe(false);
    expect(run.said).toEqual([]);
  });

  it("refuses a wrong client secret with advice, and prints no secret", async () => {
    const client = await registerClient(sandbox);
    const run = startLogin(sandbox, { ...client, secret: "wrong-secret-value" });
    await new Browser().signIn(await run.authorizeUrl);
    await expect(run.done).rejects.toThrow(/invalid_client.*WORKFORCE_CLIENT_SECRET/s);
    expectNoSecret([...run.said, ...run.logLines], ["wrong-secret-value", client.secret]);
  });
});
