// Two replicas' webhook receivers sharing one Redis: the platform delivers to whichever the proxy
// picks, and every replica reads every event, once, and hears of it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { createRedisStore } from "../../src/state/redis-store.js";
import type { StateStore } from "../../src/state/store.js";
import type { ReceivedWebhookEvent } from "../../src/state/webhook-events.js";
import { until } from "../helpers/until.js";
import {
  contractAccepted,
  deliver,
  type RunningReceiver,
  startReceiver,
} from "../helpers/webhooks.js";
import { dumpAll, REDIS_MISSING, type RedisServer, startRedis } from "./helpers.js";

let redis: RedisServer | undefined;
const stores: StateStore[] = [];
const receivers: RunningReceiver[] = [];

beforeAll(async () => {
  if (REDIS_MISSING) return;
  redis = await startRedis("webhook-test-password");
  for (let i = 0; i < 2; i++) {
    const store = await createRedisStore(
      redis.url,
      createLogger("error", () => {}),
    );
    stores.push(store);
    receivers.push(await startReceiver(store));
  }
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  for (const s of stores) await s.close();
  await redis?.close();
});

describe.skipIf(REDIS_MISSING)("webhook receivers of two replicas sharing Redis", () => {
  it("an event received by one is read by the other and fires the other's listener; a redelivery to the other is kept once", async () => {
    const [a, b] = receivers as [RunningReceiver, RunningReceiver];
    const heardByB: ReceivedWebhookEvent[] = [];
    const heardByA: ReceivedWebhookEvent[] = [];
    const stopB = await (b.events?.listen((e) => heardByB.push(e)) as Promise<() => Promise<void>>);
    const stopA = await (a.events?.listen((e) => heardByA.push(e)) as Promise<() => Promise<void>>);
    const body = JSON.stringify(contractAccepted("hire_007", "cmp_nordlys"));
    expect((await deliver(a.url, body)).status).toBe(200);
    await until(() => heardByB.length === 1, "replica B's listener heard of the event");
    expect(heardByB[0]).toMatchObject({
      event: "contractAccepted",
      payload: contractAccepted("hire_007", "cmp_nordlys"),
    });
    // A's own listener heard it once, directly, not a second time through Redis.
    expect(heardByA).toHaveLength(1);
    const readByB = await b.events?.list({ hireId: "hire_007", companies: ["cmp_nordlys"] });
    expect(readByB?.map((e) => e.id)).toEqual([heardByB[0]?.id]);
    // The platform retries the same body; the proxy sends it to B this time.
    const again = await deliver(b.url, body);
    expect(again).toMatchObject({ status: 200, body: { duplicate: true } });
    expect(await a.events?.list({ hireId: "hire_007", companies: ["cmp_nordlys"] })).toHaveLength(
      1,
    );
    // Messages through Redis arrive in order: once B hears of a later event, it heard all before.
    const later = JSON.stringify(contractAccepted("hire_008", "cmp_nordlys"));
    expect((await deliver(a.url, later)).status).toBe(200);
    await until(() => heardByB.length === 2, "replica B heard of the later event");
    expect(heardByB.map((e) => e.payload)).toEqual([
      contractAccepted("hire_007", "cmp_nordlys"),
      contractAccepted("hire_008", "cmp_nordlys"),
    ]);
    expect(heardByA).toHaveLength(2);
    await stopA();
    await stopB();
  });

  it("keeps the events under wfmcp: keys with an expiry, and never the secret", async () => {
    const dump = await dumpAll((redis as RedisServer).inspect());
    const keys = dump.keys.filter((k) => k.includes("webhook-events"));
    expect(keys.sort()).toEqual([
      "wfmcp:webhook-events:bytes",
      "wfmcp:webhook-events:group:cmp_nordlys",
      "wfmcp:webhook-events:groups",
      "wfmcp:webhook-events:ids",
      "wfmcp:webhook-events:values",
    ]);
    const inspect = (redis as RedisServer).inspect();
    for (const k of keys) expect(await inspect.pttl(k)).toBeGreaterThan(0);
    expect(dump.text).not.toContain("whsec_test_secret");
  });
});
