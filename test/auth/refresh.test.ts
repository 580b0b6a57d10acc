// The stored sign-in as the client's token source, against the sandbox over real HTTP: renewing
// before expiry and once after `Unauthenticated.`, the 90-day end, a revoked client, two
// processes renewing at once, and no token in any log line or tool answer.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSignIn, type SignInTokenSource } from "../../src/auth/token-source.js";
import { createPlatformClient } from "../../src/client/client.js";
import { AuthenticationError } from "../../src/client/errors.js";
import { viewerQuery } from "../../src/client/operations/index.js";
import type { Operation, TokenSource } from "../../src/client/types.js";
import type { Logger } from "../../src/logger.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { toToolErrorResult } from "../../src/tools/tool-error.js";
import {
  Browser,
  capturingLogger,
  expectNoSecret,
  registerClient,
  secretsOf,
  signedIn,
  startLogin,
} from "./helpers.js";

const DAY = 24 * 60 * 60 * 1000;
let sandbox: Sandbox;

beforeEach(async () => {
  sandbox = await startSandbox({ rateLimitPerMinute: 0 });
});
afterEach(() => sandbox.close());

function clientFor(token: string | TokenSource, logger?: Logger) {
  return createPlatformClient({
    apiUrl: sandbox.url,
    token,
    logger,
    retryBaseMs: 1,
    maxRetries: 1,
    rateLimitPerMinute: 10_000,
  });
}

/** A read sent as if it were a write that must never be repeated blindly. */
const unsafeWrite: Operation<{ viewer: { name: string } }> = {
  name: "UnsafeWrite",
  type: "mutation",
  safeToRepeat: false,
  document: "query UnsafeWrite { viewer { name } }",
};

async function refreshWorks(refreshToken: string, client: { id: string; secret: string }) {
  const res = await fetch(new URL("/oauth/token", sandbox.url), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: client.id,
      client_secret: client.secret,
    }),
  });
  return res.status === 200;
}

describe("renewing the sign-in without the person noticing", () => {
  it("renews before the 15 days are up, stores the new pair atomically, and spends the old refresh token", async () => {
    const { signIn, store, client } = await signedIn(sandbox);
    sandbox.requests.length = 0; // the login's own viewer request
    const { logger, lines } = capturingLogger();
    const source = openSignIn({
      store,
      apiUrl: sandbox.url,
      logger,
      now: () => Date.now() + 14.5 * DAY,
    }) as SignInTokenSource;
    sandbox.clock.advance(14.5 * DAY);

    const { data } = await clientFor(source, logger).run(viewerQuery, {});
    expect(data.viewer.name).toBe("Maja Lindqvist");
    expect(sandbox.countRequests("Viewer")).toBe(1);

    const renewed = store.get(sandbox.url);
    expect(renewed?.accessToken).not.toBe(signIn.accessToken);
    expect(renewed?.refreshToken).not.toBe(signIn.refreshToken);
    expect(renewed?.refreshedAt).toBeDefined();
    expect(renewed?.signedInAt).toBe(signIn.signedInAt);
    expect(await refreshWorks(signIn.refreshToken ?? "", client)).toBe(false);
    expectNoSecret(lines, [...secretsOf(signIn), ...secretsOf(renewed ?? signIn)]);
  });

  it("renews once after `Unauthenticated.` and sends the request once more, for a write too", async () => {
    const { signIn, store } = await signedIn(sandbox);
    sandbox.requests.length = 0; // the login's own viewer request
    const { logger, lines } = capturingLogger();
    const source = openSignIn({ store, apiUrl: sandbox.url, logger }) as SignInTokenSource;
    const client = clientFor(source, logger);

    sandbox.oauth.revokeToken(signIn.accessToken);
    expect((await client.run(viewerQuery, {})).data.viewer.name).toBe("Maja Lindqvist");
    expect(sandbox.countRequests("Viewer")).toBe(2);
    const second = store.get(sandbox.url);
    expect(second?.accessToken).not.toBe(signIn.accessToken);

    sandbox.oauth.revokeToken(second?.accessToken ?? "");
    expect((await client.run(unsafeWrite, {})).data.viewer.name).toBe("Maja Lindqvist");
    expect(sandbox.countRequests("UnsafeWrite")).toBe(2);
    expectNoSecret(lines, [
      ...secretsOf(signIn),
      ...secretsOf(second ?? signIn),
      ...secretsOf(store.get(sandbox.url) ?? signIn),
    ]);
  });

  it("tries only once: a renewed token that is refused too ends the request", async () => {
    let renewals = 0;
    const source: TokenSource = {
      kind: "oauth",
      current: async () => "not-a-token-1",
      refreshAfterUnauthenticated: async () => {
        renewals++;
        return "not-a-token-2";
      },
    };
    const error = await clientFor(source)
      .run(viewerQuery, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(renewals).toBe(1);
    expect(sandbox.countRequests("Viewer")).toBe(2);
  });

  it("does not send again when renewing gives nothing, and a fixed token is never renewed", async () => {
    const source: TokenSource = {
      kind: "oauth",
      current: async () => "not-a-token",
      refreshAfterUnauthenticated: async () => undefined,
    };
    await expect(clientFor(source).run(viewerQuery, {})).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    expect(sandbox.countRequests("Viewer")).toBe(1);
    await expect(clientFor("not-a-pat").run(viewerQuery, {})).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    expect(sandbox.countRequests("Viewer")).toBe(2);
  });

  it("after 90 days says to run `workforce-mcp login` again, without sending the request", async () => {
    const { store } = await signedIn(sandbox);
    sandbox.requests.length = 0; // the login's own viewer request
    const { logger, lines } = capturingLogger();
    const source = openSignIn({
      store,
      apiUrl: sandbox.url,
      logger,
      now: () => Date.now() + 91 * DAY,
    }) as SignInTokenSource;
    sandbox.clock.advance(91 * DAY);

    const error = await clientFor(source, logger)
      .run(viewerQuery, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).credential).toBe("oauth");
    expect(sandbox.countRequests("Viewer")).toBe(0);
    const text = (
      toToolErrorResult(error, "search_hires", { logger }).content[0] as { text: string }
    ).text;
    expect(text).toMatch(/no longer accepts your sign-in/);
    expect(text).toMatch(/Run `workforce-mcp login` again/);
    expect(store.get(sandbox.url)?.ended?.reason).toMatch(/invalid_grant.*90 days/);
    expectNoSecret([text, ...lines], secretsOf(store.get(sandbox.url) ?? ({} as never)));
  });

  it("a revoked client: the refused token cannot be renewed, and the answer says to sign in again", async () => {
    const { store, client } = await signedIn(sandbox);
    sandbox.requests.length = 0; // the login's own viewer request
    const { logger } = capturingLogger();
    const source = openSignIn({ store, apiUrl: sandbox.url, logger }) as SignInTokenSource;
    sandbox.oauth.revokeClient(client.id);

    const error = await clientFor(source, logger)
      .run(viewerQuery, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(sandbox.countRequests("Viewer")).toBe(1);
    const text = (
      toToolErrorResult(error, "list_invoices", { logger }).content[0] as { text: string }
    ).text;
    expect(text).toMatch(/Run `workforce-mcp login` again/);
    expect(store.get(sandbox.url)?.ended?.reason).toMatch(/invalid_client/);

    // Signing in again (another client, same store) is picked up without a restart.
    const other = await registerClient(sandbox);
    const run = startLogin(sandbox, other, { configDir: store.dir });
    await new Browser().signIn(await run.authorizeUrl, { identity: "limited" });
    await run.done;
    const { data } = await clientFor(source, logger).run(viewerQuery, {});
    expect(data.viewer.name).toBe("Oskar Berg");
  });

  it("a personal access token that stops working says to create a new one or sign in with login", async () => {
    const error = await createPlatformClient({
      apiUrl: sandbox.url,
      token: "expired-personal-token",
      credential: "personal-access-token",
      maxRetries: 0,
    })
      .run(viewerQuery, {})
      .catch((e: unknown) => e);
    const text = (toToolErrorResult(error, "search_hires").content[0] as { text: string }).text;
    expect(text).toMatch(/Create a new personal access token/);
    expect(text).toMatch(/sign in with `workforce-mcp login`/);
  });

  it("renews once for many requests at the same time in one process", async () => {
    const { store } = await signedIn(sandbox);
    sandbox.requests.length = 0; // the login's own viewer request
    const source = openSignIn({
      store,
      apiUrl: sandbox.url,
      now: () => Date.now() + 14.9 * DAY,
    }) as SignInTokenSource;
    const client = clientFor(source);
    const names = await Promise.all(
      Array.from({ length: 6 }, () => client.run(viewerQuery, {}).then((r) => r.data.viewer.name)),
    );
    expect(new Set(names)).toEqual(new Set(["Maja Lindqvist"]));
    // A second renewal with the same refresh token would have been refused and ended it.
    expect(store.get(sandbox.url)?.ended).toBeUndefined();
  });
});

describe("two server processes of the same person renewing at once", () => {
  const worker = path.resolve("test/auth/fixtures/renew-worker.mjs");

  it("neither loses the pair: one renews, the other finds the new pair under the lock", async () => {
    if (!existsSync(path.resolve("dist/auth/token-source.js"))) {
      throw new Error("dist/ is missing: run `npm run build` first.");
    }
    const { store, client } = await signedIn(sandbox);
    sandbox.requests.length = 0; // the login's own viewer request
    const offset = String(14.5 * DAY);
    const children = [0, 1].map(() =>
      spawn(process.execPath, [worker, store.dir, sandbox.url, offset], { stdio: "pipe" }),
    );
    const outputs = children.map((child) => {
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        out += d;
      });
      child.stderr.setEncoding("utf8").on("data", (d: string) => {
        out += d;
      });
      const ready = new Promise<void>((resolve) => {
        const check = () => out.includes("ready") && resolve();
        child.stdout.on("data", check);
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      return { ready, exited, text: () => out };
    });
    await Promise.all(outputs.map((o) => o.ready));
    for (const child of children) child.stdin.write("go\n");
    const codes = await Promise.all(outputs.map((o) => o.exited));
    const results = outputs.map((o) => JSON.parse(o.text().trim().split("\n").at(-1) ?? "{}"));
    expect(codes, outputs.map((o) => o.text()).join("\n")).toEqual([0, 0]);
    expect(results.map((r) => r.viewer)).toEqual(["Maja Lindqvist", "Maja Lindqvist"]);
    expect(results[0].digest).toBe(results[1].digest);

    const stored = store.get(sandbox.url);
    expect(stored?.ended).toBeUndefined();
    expect(stored?.refreshedAt).toBeDefined();
    // The stored refresh token is the live one.
    expect(await refreshWorks(stored?.refreshToken ?? "", client)).toBe(true);
    expectNoSecret(
      outputs.map((o) => o.text()),
      secretsOf(stored ?? ({} as never)),
    );
  });
});
