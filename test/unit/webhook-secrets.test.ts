// The secrets of webhooks this server registered: sealed with AES-256-GCM before they reach the
// state store (NIST SP 800-38D), opened only with the server's key, and seen by every replica's
// receiver sharing the store: a new one at the first delivery signed with it (read again at most
// once a second), a forgotten one refused after at most 5 seconds.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryStore } from "../../src/state/memory-store.js";
import type { StateStore } from "../../src/state/store.js";
import { createWebhookSecretStore } from "../../src/state/webhook-secrets.js";
import { deliver, type RunningReceiver, sign, startReceiver } from "../helpers/webhooks.js";

const SECRET = "a".repeat(64);
const record = (secret = SECRET) => ({
  companyId: "cmp_nordlys",
  webhookId: "whk_004",
  url: "https://mcp.example.com/webhooks/platform",
  secret,
  createdAt: "2026-11-22T10:00:00.000Z",
});

const running: RunningReceiver[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

describe("registered webhook secrets (AES-256-GCM, NIST SP 800-38D)", () => {
  it("are stored sealed, open with the server's key only, and are forgotten", async () => {
    const store = createMemoryStore();
    const key = randomBytes(32);
    const secrets = createWebhookSecretStore(store, key);
    await secrets.put(record());
    expect(JSON.stringify(await store.readFields("webhook-secrets"))).not.toContain(SECRET);
    expect(await secrets.get("cmp_nordlys")).toEqual(record());
    expect(await secrets.secrets()).toEqual([{ companyId: "cmp_nordlys", secret: SECRET }]);
    const foreign = createWebhookSecretStore({ ...store }, randomBytes(32));
    expect(await foreign.get("cmp_nordlys")).toBeUndefined();
    expect(await foreign.secrets()).toEqual([]);
    await secrets.forget("cmp_nordlys");
    expect(await secrets.secrets()).toEqual([]);
  });

  it("reach another replica's receiver sharing the store: new ones at once, forgotten ones within 5 seconds", async () => {
    const store = createMemoryStore();
    const key = randomBytes(32);
    let now = 1_000_000;
    // Another process sharing the store: the same data, its own cache.
    const replica: StateStore = { ...store };
    const b = await startReceiver(replica, { secrets: [], sealingKey: key, now: () => now });
    running.push(b);
    const body = JSON.stringify({ event: "hireEnded", data: { hireId: "hire_001" } });
    // Nothing known yet: off.
    expect((await deliver(b.url, body, { signature: sign(body, SECRET) })).status).toBe(404);
    await createWebhookSecretStore(store, key, () => now).put(record());
    now += 1_100;
    expect((await deliver(b.url, body, { signature: sign(body, SECRET) })).status).toBe(200);
    await createWebhookSecretStore(store, key, () => now).forget("cmp_nordlys");
    now += 5_100;
    const other = JSON.stringify({ event: "hireEnded", data: { hireId: "hire_002" } });
    expect((await deliver(b.url, other, { signature: sign(other, SECRET) })).status).toBe(404);
  });
});
