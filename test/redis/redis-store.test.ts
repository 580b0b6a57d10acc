// The state store's contract, against the in-memory store and a real redis-server: values with
// expiry, atomic takes, and the rolling window that replicas share.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import { createRedisStore, KEY_PREFIX } from "../../src/state/redis-store.js";
import {
  logEntryBytes,
  SharedStateUnavailableError,
  type StateStore,
} from "../../src/state/store.js";
import { until } from "../helpers/until.js";
import { REDIS_MISSING, type RedisServer, startRedis } from "./helpers.js";

const quiet = () => createLogger("error", () => {});

/** A clock that a test moves on by hand, for stores that take one (the rate windows in Redis). */
function testClock() {
  let at = Date.now();
  return {
    now: () => at,
    advance(ms: number) {
      at += ms;
    },
  };
}

let redis: RedisServer | undefined;
const opened: StateStore[] = [];
async function redisStore(now?: () => number): Promise<StateStore> {
  const store = await createRedisStore((redis as RedisServer).url, quiet(), { now });
  opened.push(store);
  return store;
}

beforeAll(async () => {
  if (!REDIS_MISSING) redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await redis?.close();
});

// Each kind opens three stores sharing one state, on the given clock (the real one by default).
const kinds: [string, (now?: () => number) => Promise<StateStore[]>, boolean][] = [
  [
    "memory",
    async (now) => {
      const one = createMemoryStore(now);
      return [one, one, one];
    },
    false,
  ],
  [
    "redis",
    async (now) => [await redisStore(now), await redisStore(now), await redisStore(now)],
    true,
  ],
];

describe.each(kinds)("the %s state store", (_kind, open, needsRedis) => {
  const run = needsRedis && REDIS_MISSING ? it.skip : it;
  let unique = 0;
  const key = (name: string) => `test:${process.pid}:${Date.now()}:${unique++}:${name}`;

  run("sets, reads and deletes the fields of a map, seen by every store sharing it", async () => {
    const [a, b] = (await open()) as [StateStore, StateStore];
    const k = key("map");
    expect(await a.readFields(k)).toEqual({});
    await a.setField(k, "cmp_1", "one");
    await b.setField(k, "cmp_2", "two");
    await b.setField(k, "cmp_1", "uno");
    expect(await b.readFields(k)).toEqual({ cmp_1: "uno", cmp_2: "two" });
    await a.deleteField(k, "cmp_1");
    await a.deleteField(k, "cmp_unknown");
    expect(await b.readFields(k)).toEqual({ cmp_2: "two" });
  });

  run("gets, sets and deletes values", async () => {
    const [store] = (await open()) as [StateStore];
    const k = key("value");
    expect(await store.get(k)).toBeUndefined();
    await store.set(k, "one");
    expect(await store.get(k)).toBe("one");
    await store.delete(k);
    expect(await store.get(k)).toBeUndefined();
    await store.set(k, "brief", 60_000);
    expect(await store.get(k)).toBe("brief");
  });

  run("lets exactly one of many concurrent takes have the value", async () => {
    const stores = await open();
    const k = key("take");
    await stores[0]?.set(k, "secret-ish", 10_000);
    const takes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (stores[i % stores.length] as StateStore).take(k)),
    );
    expect(takes.filter((v) => v === "secret-ish")).toHaveLength(1);
    expect(takes.filter((v) => v === undefined)).toHaveLength(29);
  });

  run(
    "grants at most the limit in a window, across every client, then says how long to wait",
    async () => {
      const clock = testClock();
      const stores = await open(clock.now);
      const k = key("window");
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (stores[i % stores.length] as StateStore).claimWindowSlot(k, 5, 60_000),
        ),
      );
      expect(answers.filter((w) => w === 0)).toHaveLength(5);
      // All claimed at one moment: the refused wait the whole window.
      expect(answers.filter((w) => w !== 0)).toEqual(Array(7).fill(60_000));
      clock.advance(60_000 - 1);
      expect(await stores[1]?.claimWindowSlot(k, 5, 60_000)).toBe(1);
      clock.advance(1);
      expect(await stores[1]?.claimWindowSlot(k, 5, 60_000)).toBe(0);
    },
  );

  run("keeps a held use counting until one window after its release", async () => {
    const clock = testClock();
    const [store] = (await open(clock.now)) as [StateStore];
    const k = key("hold");
    const window = 60_000;
    expect(await store.claimWindowSlot(k, 1, window, { id: "a", maxMs: 600_000 })).toBe(0);
    clock.advance(window + 10_000);
    // Still in flight after more than a window: the slot is busy; the wait assumes it ends now.
    expect(await store.claimWindowSlot(k, 1, window)).toBe(window);
    await store.releaseWindowSlot(k, "a", window);
    clock.advance(20_000);
    // A window from the release, less what has passed since.
    expect(await store.claimWindowSlot(k, 1, window)).toBe(window - 20_000);
    clock.advance(window - 20_000 - 1);
    expect(await store.claimWindowSlot(k, 1, window)).toBe(1);
    clock.advance(1);
    expect(await store.claimWindowSlot(k, 1, window)).toBe(0);
  });

  const wide = {
    maxAgeMs: 60_000,
    maxBytes: 1 << 20,
    maxGroupBytes: 1 << 20,
    maxGroupEntries: 100,
  };

  run(
    "appends to a log once per id, in one step across processes, and reads it newest first",
    async () => {
      const stores = await open();
      const k = key("log");
      const at = Date.now();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (stores[i % stores.length] as StateStore).appendToLog(
            k,
            "g",
            { id: "same", at, value: `v${i}` },
            wide,
          ),
        ),
      );
      expect(results.filter((r) => r === "added")).toHaveLength(1);
      const [store] = stores as [StateStore];
      await store.appendToLog(k, "g", { id: "later", at: at + 5, value: "two" }, wide);
      await store.appendToLog(k, "g", { id: "last", at: at + 9, value: "three" }, wide);
      expect((await store.readLog(k, "g", 0, 0, 10)).map((e) => [e.id, e.at - at])).toEqual([
        ["last", 9],
        ["later", 5],
        ["same", 0],
      ]);
      expect((await store.readLog(k, "g", at + 5, 0, 10)).map((e) => e.id)).toEqual([
        "last",
        "later",
      ]);
      expect((await store.readLog(k, "g", 0, 1, 1)).map((e) => e.value)).toEqual(["two"]);
      expect(await store.readLog(k, "other", 0, 0, 10)).toEqual([]);
    },
  );

  run("keeps a log within its count and its age", async () => {
    const [store] = (await open()) as [StateStore];
    const k = key("bounded");
    const at = Date.now();
    const bounds = { ...wide, maxGroupEntries: 3 };
    for (let i = 0; i < 5; i++) {
      await store.appendToLog(k, "g", { id: `e${i}`, at: at + i, value: "x" }, bounds);
    }
    expect((await store.readLog(k, "g", 0, 0, 10)).map((e) => e.id)).toEqual(["e4", "e3", "e2"]);
    // A write an hour later drops everything older than its age bound.
    await store.appendToLog(k, "g", { id: "new", at: at + 3_600_000, value: "y" }, bounds);
    expect((await store.readLog(k, "g", 0, 0, 10)).map((e) => e.id)).toEqual(["new"]);
    // A dropped id may be added again.
    expect(
      await store.appendToLog(k, "g", { id: "e4", at: at + 3_600_001, value: "z" }, bounds),
    ).toBe("added");
  });

  run(
    "CWE-770: keeps a log within its bytes: a group drops only its own oldest, and a full log refuses rather than drop another group's",
    async () => {
      const [store, other] = (await open()) as [StateStore, StateStore];
      const k = key("bytes");
      const at = Date.now();
      const value = "v".repeat(1000);
      const one = logEntryBytes({ id: "a0", at, value });
      const bounds = { ...wide, maxGroupBytes: 3 * one, maxBytes: 5 * one };
      for (let i = 0; i < 2; i++) {
        expect(await store.appendToLog(k, "b", { id: `b${i}`, at, value }, bounds)).toBe("added");
      }
      for (let i = 0; i < 6; i++) {
        await other.appendToLog(k, "a", { id: `a${i}`, at: at + i, value }, bounds);
      }
      expect((await store.readLog(k, "a", 0, 0, 10)).map((e) => e.id)).toEqual(["a5", "a4", "a3"]);
      expect((await store.readLog(k, "b", 0, 0, 10)).map((e) => e.id)).toEqual(["b1", "b0"]);
      expect(await store.logBytes(k)).toBe(5 * one);
      // The log is full: c's first entry is refused, and nobody's is dropped for it.
      expect(await store.appendToLog(k, "c", { id: "c0", at, value }, bounds)).toBe("full");
      expect(await store.logBytes(k)).toBe(5 * one);
    },
  );

  run("publishes a message to every subscriber, in every process, until it stops", async () => {
    const [one, two] = (await open()) as [StateStore, StateStore];
    const channel = key("channel");
    const heard: string[] = [];
    const stopOne = await one.subscribe(channel, (m) => heard.push(`one:${m}`));
    const stopTwo = await two.subscribe(channel, (m) => heard.push(`two:${m}`));
    await two.publish(channel, "hello");
    await until(() => heard.length === 2, "both subscribers heard the message");
    expect(heard.sort()).toEqual(["one:hello", "two:hello"]);
    await stopOne();
    await one.publish(channel, "again");
    await until(() => heard.length === 3, "the remaining subscriber heard the second message");
    expect(heard[2]).toBe("two:again");
    await stopTwo();
  });
});

describe("the memory store", () => {
  it("expires a value once its time to live has passed, by its clock", async () => {
    const clock = testClock();
    const store = createMemoryStore(clock.now);
    await store.set("brief", "one", 50);
    expect(await store.setIfAbsent("once", "two", 50)).toBe(true);
    clock.advance(49);
    expect(await store.get("brief")).toBe("one");
    expect(await store.get("once")).toBe("two");
    clock.advance(1);
    expect(await store.get("brief")).toBeUndefined();
    expect(await store.take("once")).toBeUndefined();
  });
});

describe.skipIf(REDIS_MISSING)("the Redis store", () => {
  it("gives Redis a value's time to live, to expire it by Redis's clock (PTTL)", async () => {
    const store = await redisStore();
    const inside = (redis as RedisServer).inspect();
    // Long enough that no pause of a loaded machine lets them expire before they are read.
    await store.set("ttl-brief", "one", 60_000);
    expect(await store.setIfAbsent("ttl-once", "two", 60_000)).toBe(true);
    await store.set("ttl-kept", "three");
    for (const name of ["ttl-brief", "ttl-once"]) {
      const left = await inside.pttl(`${KEY_PREFIX}${name}`);
      expect(left, name).toBeGreaterThan(0);
      expect(left, name).toBeLessThanOrEqual(60_000);
    }
    // No time to live: kept until deleted.
    expect(await inside.pttl(`${KEY_PREFIX}ttl-kept`)).toBe(-1);
  });

  it("prefixes every key with wfmcp:", async () => {
    const store = await redisStore();
    await store.set("prefix-check", "x", 5_000);
    await store.claimWindowSlot("prefix-window", 1, 5_000);
    const inside = (redis as RedisServer).inspect();
    expect(await inside.get(`${KEY_PREFIX}prefix-check`)).toBe("x");
    expect(await inside.zcard(`${KEY_PREFIX}prefix-window`)).toBe(1);
    // The window's key expires by itself once nothing in it counts.
    expect(await inside.pttl(`${KEY_PREFIX}prefix-window`)).toBeGreaterThan(0);
  });

  it("fails fast and readably while Redis is down, and recovers when it is back", async () => {
    const server = await startRedis();
    const lines: string[] = [];
    let reconnected = () => {};
    const back = new Promise<void>((resolve) => {
      reconnected = resolve;
    });
    // Time-outs far beyond the test's own: a call that waited for one instead of failing at once
    // would fail the test by its time-out, with no wall-clock bound here.
    const store = await createRedisStore(
      server.url,
      createLogger("info", (l) => {
        lines.push(l);
        if (l.includes("reachable again")) reconnected();
      }),
      { connectTimeoutMs: 600_000, commandTimeoutMs: 600_000 },
    );
    try {
      await store.set("k", "v");
      await server.stop();
      const error = await store.take("k").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SharedStateUnavailableError);
      expect(String((error as Error).message)).toContain(
        "the server's shared state (Redis) is unavailable",
      );
      await expect(store.claimWindowSlot("w", 1, 1000)).rejects.toBeInstanceOf(
        SharedStateUnavailableError,
      );
      await server.start();
      // The store says when it is connected again (no time-out here: the test's own is the bound).
      await back;
      // Started empty (nothing saved): the value is gone, not served twice.
      expect(await store.take("k")).toBeUndefined();
      expect(lines.join("")).toMatch(/unreachable; retrying/);
      expect(lines.join("")).toMatch(/reachable again/);
    } finally {
      await store.close();
      await server.close();
    }
  });

  it("refuses to start when Redis cannot be reached, naming neither user nor password", async () => {
    const server = await startRedis("pa55-w0rd-not-to-print");
    const wrong = server.url.replace("pa55-w0rd-not-to-print", "wrong-pa55-w0rd");
    const lines: string[] = [];
    try {
      const error = await createRedisStore(
        wrong,
        createLogger("debug", (l) => lines.push(l)),
      ).catch((e: unknown) => e as Error);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(
        /Could not connect to Redis at redis:\/\/127\.0\.0\.1:\d+/,
      );
      expect((error as Error).message).not.toContain("wrong-pa55-w0rd");
      expect(lines.join("")).not.toContain("wrong-pa55-w0rd");
      const good = await createRedisStore(
        server.url,
        createLogger("debug", (l) => lines.push(l)),
      );
      await good.set("k", "v");
      expect(await good.get("k")).toBe("v");
      await good.close();
      expect(lines.join("")).not.toContain("pa55-w0rd-not-to-print");
      // Nobody listening: one line that says so, at once.
      await server.stop();
      const refused = await createRedisStore(server.url, quiet()).catch((e: unknown) => e as Error);
      expect((refused as Error).message).toMatch(
        /^Could not connect to Redis at redis:\/\/127\.0\.0\.1:\d+ \(WORKFORCE_REDIS_URL\): connect ECONNREFUSED/,
      );
      expect((refused as Error).message).not.toContain("pa55-w0rd-not-to-print");
    } finally {
      await server.close();
    }
  });
});
