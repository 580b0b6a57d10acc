// A person's platform grant at the team server (`--auth oauth`), against the sandbox over real
// HTTP: renewing when due, two replicas renewing at once (one refresh at the platform, both get
// the new token), the grant ending when the platform refuses, and a platform that cannot be
// reached while the token still works.
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type PlatformGrant, PlatformGrants } from "../../src/auth/remote/grants.js";
import { createSealedStore } from "../../src/auth/remote/sealed-store.js";
import { AuthenticationError } from "../../src/client/errors.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import type { StateStore } from "../../src/state/store.js";
import { capturingLogger, signedIn } from "./helpers.js";

const DAY = 24 * 60 * 60 * 1000;
const key = randomBytes(32);
let sandbox: Sandbox;

beforeEach(async () => {
  sandbox = await startSandbox({ rateLimitPerMinute: 0 });
});
afterEach(() => sandbox.close());

/** A signed-in grant (through the sandbox's real consent flow) and one replica's view of it. */
async function grantAndReplicas(count: number, now: () => number = Date.now) {
  const { signIn, client } = await signedIn(sandbox);
  const state: StateStore = createMemoryStore();
  const { logger, lines } = capturingLogger();
  const replicas = Array.from(
    { length: count },
    () =>
      new PlatformGrants({
        store: createSealedStore(state, key),
        settings: { authUrl: sandbox.url, clientId: client.id, clientSecret: client.secret },
        apiUrl: sandbox.url,
        logger,
        timeoutMs: 5_000,
        now,
      }),
  );
  const grant: PlatformGrant = {
    id: "g_test",
    clientId: "mcp-client",
    identity: signIn.identity,
    tokenType: signIn.tokenType,
    accessToken: signIn.accessToken,
    refreshToken: signIn.refreshToken,
    accessTokenIssuedAt: signIn.accessTokenIssuedAt,
    accessTokenExpiresAt: signIn.accessTokenExpiresAt,
    signedInAt: signIn.signedInAt,
    renewBy: signIn.renewBy,
  };
  await (replicas[0] as PlatformGrants).save(grant);
  return { grant, replicas, client, lines };
}

describe("a team server's platform grant", () => {
  it("hands out the stored token until it is due, then renews it and stores the new pair", async () => {
    let now = Date.now();
    const { grant, replicas } = await grantAndReplicas(1, () => now);
    const grants = replicas[0] as PlatformGrants;
    const source = grants.tokenSource(grant);
    expect(source.kind).toBe("team-sign-in");
    expect(await source.current()).toBe(grant.accessToken);
    now = grant.accessTokenExpiresAt - 60_000;
    const renewed = await source.current();
    expect(renewed).not.toBe(grant.accessToken);
    const stored = await grants.get(grant.id);
    expect(stored?.accessToken).toBe(renewed);
    expect(stored?.refreshToken).not.toBe(grant.refreshToken);
  });

  it("renews once when several replicas find it due at the same moment", async () => {
    const now = () => Date.now() + 15 * DAY;
    const { grant, replicas } = await grantAndReplicas(3, now);
    const tokens = await Promise.all(
      replicas.flatMap((r) => [r.tokenSource(grant).current(), r.tokenSource(grant).current()]),
    );
    // Had two replicas spent the same refresh token, the second would have ended the grant.
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(grant.accessToken);
    expect((await (replicas[2] as PlatformGrants).get(grant.id))?.accessToken).toBe(tokens[0]);
  });

  it("renews once after the platform answered Unauthenticated., even from several replicas", async () => {
    const { grant, replicas } = await grantAndReplicas(2);
    sandbox.oauth.revokeToken(grant.accessToken);
    const [first, second] = await Promise.all(
      replicas.map((r) => r.tokenSource(grant).refreshAfterUnauthenticated?.(grant.accessToken)),
    );
    expect(first).toBeTruthy();
    expect(second).toBe(first);
  });

  it("ends the grant when the platform refuses to renew it", async () => {
    const { grant, replicas, client, lines } = await grantAndReplicas(1);
    const grants = replicas[0] as PlatformGrants;
    sandbox.oauth.revokeClient(client.id);
    const source = grants.tokenSource(grant);
    expect(await source.refreshAfterUnauthenticated?.(grant.accessToken)).toBeUndefined();
    expect(await grants.get(grant.id)).toBeUndefined();
    await expect(source.current()).rejects.toBeInstanceOf(AuthenticationError);
    expect(lines.join("")).toMatch(/A sign-in ended/);
  });

  it("keeps using a token that has not expired while the platform cannot be reached", async () => {
    const now = () => Date.now() + 14.5 * DAY;
    const { grant, replicas, lines } = await grantAndReplicas(1, now);
    await sandbox.close();
    expect(await (replicas[0] as PlatformGrants).tokenSource(grant).current()).toBe(
      grant.accessToken,
    );
    expect(lines.join("")).toMatch(/Could not renew a sign-in at the platform yet/);
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
  });
});
