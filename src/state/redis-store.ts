import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { Logger } from "../logger.js";
import {
  type LogEntry,
  SharedStateUnavailableError,
  type StateStore,
  type WindowHold,
} from "./store.js";

/** Every key this server writes starts with this, so it can share a Redis with other programs. */
export const KEY_PREFIX = "wfmcp:";

export interface RedisStoreOptions {
  /** How long to wait for the first connection before giving up on starting. Default 5 s. */
  connectTimeoutMs?: number;
  /** How long one command may take before it counts as a failure. Default 2 s. */
  commandTimeoutMs?: number;
}

// One script, so the prune, the count and the record happen in one step on the server: replicas
// racing for the last slot cannot both get it. Redis's own clock is the one every replica shares.
// A use's score is the moment it stops counting. Released uses sort before those in flight; the
// wait assumes a use in flight ends now (like the local governor), and callers ask again sooner.
const CLAIM = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, math.min(tonumber(first[2]), now + tonumber(ARGV[2])) - now)
end
local untilAt = now + tonumber(ARGV[3]) + tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], untilAt, ARGV[4])
if redis.call('PTTL', KEYS[1]) < untilAt - now then
  redis.call('PEXPIRE', KEYS[1], untilAt - now)
end
return 0
`;

// A released use counts one more window from now, never longer than its claim said.
const RELEASE = `
local old = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not old then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilAt = now + tonumber(ARGV[2])
if untilAt < tonumber(old) then redis.call('ZADD', KEYS[1], 'XX', untilAt, ARGV[1]) end
return 1
`;

// A log is a sorted set of ids by time (KEYS[1]) beside a hash of their values (KEYS[2]). The
// check for the id, the write and both prunes happen in one step, so two replicas receiving the
// same entry at once store it once. ARGV: id, at, value, maxEntries, oldest kept, time to live.
const APPEND = `
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
local function forget(ids)
  for i = 1, #ids, 500 do redis.call('HDEL', KEYS[2], unpack(ids, i, math.min(i + 499, #ids))) end
end
forget(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[5]))
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[5])
local excess = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if excess > 0 then
  forget(redis.call('ZRANGE', KEYS[1], 0, excess - 1))
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, excess - 1)
end
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return 1
`;

// Newest first from ARGV[1] on, skipping ARGV[2], at most ARGV[3]: id, time, value for each.
const READ_LOG = `
local ids = redis.call('ZREVRANGEBYSCORE', KEYS[1], '+inf', ARGV[1], 'WITHSCORES', 'LIMIT', ARGV[2], ARGV[3])
local out = {}
for i = 1, #ids, 2 do
  local value = redis.call('HGET', KEYS[2], ids[i])
  if value then
    out[#out + 1] = ids[i]
    out[#out + 1] = ids[i + 1]
    out[#out + 1] = value
  end
end
return out
`;

interface ScriptedRedis extends Redis {
  wfmcpAppend(
    ids: string,
    values: string,
    id: string,
    at: number,
    value: string,
    maxEntries: number,
    oldest: number,
    ttlMs: number,
  ): Promise<number>;
  wfmcpReadLog(
    ids: string,
    values: string,
    from: number,
    offset: number,
    count: number,
  ): Promise<string[]>;
  wfmcpClaim(
    key: string,
    limit: number,
    windowMs: number,
    holdMs: number,
    id: string,
  ): Promise<number>;
  wfmcpRelease(key: string, id: string, windowMs: number): Promise<number>;
}

/** The address as logs may show it: scheme, host, port and database, never a user or password. */
function describeRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    return "Redis";
  }
}

/**
 * Connects to Redis and returns the shared store; rejects with a readable error when Redis cannot
 * be reached at start. Later outages make each operation fail with SharedStateUnavailableError
 * (at once, not after a queue fills), while the client reconnects in the background.
 */
export async function createRedisStore(
  url: string,
  logger: Logger,
  options: RedisStoreOptions = {},
): Promise<StateStore> {
  const where = describeRedisUrl(url);
  // Nothing here logs the URL; its password is blanked anyway, should an error quote it.
  const password = decodeURIComponent(new URL(url).password);
  if (password) logger.addSecret(password);
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: options.connectTimeoutMs ?? 5_000,
    commandTimeout: options.commandTimeoutMs ?? 2_000,
    // Fail fast while disconnected: a caller must hear "unavailable" now, not after a minute.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A command whose answer was lost is not sent again: a take must never happen twice unseen.
    autoResendUnfulfilledCommands: false,
    retryStrategy: (times) => Math.min(100 * times, 2_000),
    // Errors are logged below; ioredis would otherwise print the address to stderr itself.
    showFriendlyErrorStack: false,
  }) as ScriptedRedis;
  redis.defineCommand("wfmcpClaim", { numberOfKeys: 1, lua: CLAIM });
  redis.defineCommand("wfmcpRelease", { numberOfKeys: 1, lua: RELEASE });
  redis.defineCommand("wfmcpAppend", { numberOfKeys: 2, lua: APPEND });
  redis.defineCommand("wfmcpReadLog", { numberOfKeys: 2, lua: READ_LOG });

  let down = false;
  let closing = false;
  let started = false;
  const lost = (why: string) => {
    if (!started || closing || down) return;
    down = true;
    logger.warning(`The shared state store (${where}) is unreachable; retrying.`, { error: why });
  };
  let firstError: string | undefined;
  redis.on("error", (error: Error) => {
    firstError ??= errorText(error);
    lost(errorText(error));
  });
  redis.on("close", () => lost("the connection closed"));
  redis.on("ready", () => {
    if (!down) return;
    down = false;
    logger.info(`The shared state store (${where}) is reachable again.`);
  });

  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    closing = true;
    redis.disconnect();
    const why = (firstError ?? errorText(error)).replace(/\.+$/, "");
    throw new Error(`Could not connect to Redis at ${where} (WORKFORCE_REDIS_URL): ${why}.`);
  }
  started = true;
  logger.info(`Shared state in Redis at ${where}.`);

  const k = (key: string) => `${KEY_PREFIX}${key}`;
  // Subscriptions need a connection of their own, opened with the first one.
  let subscriber: Promise<Redis> | undefined;
  const listeners = new Map<string, Set<(message: string) => void>>();
  const openSubscriber = async (): Promise<Redis> => {
    const sub = redis.duplicate();
    // The main connection reports outages; this one reconnects and resubscribes by itself.
    sub.on("error", (error: Error) =>
      logger.debug("Redis subscription connection failed", { error: errorText(error) }),
    );
    sub.on("message", (channel: string, message: string) => {
      for (const listener of listeners.get(channel) ?? []) listener(message);
    });
    await sub.connect();
    return sub;
  };
  async function run<T>(action: string, command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      logger.debug("Redis command failed", { action, error: errorText(error) });
      throw new SharedStateUnavailableError(action, { cause: error });
    }
  }

  return {
    async get(key) {
      const value = await run("read its shared state", () => redis.get(k(key)));
      return value ?? undefined;
    },
    async set(key, value, ttlMs) {
      await run("record its shared state", () =>
        ttlMs === undefined
          ? redis.set(k(key), value)
          : redis.set(k(key), value, "PX", Math.max(1, Math.ceil(ttlMs))),
      );
    },
    async setIfAbsent(key, value, ttlMs) {
      const set = await run("record its shared state", () =>
        redis.set(k(key), value, "PX", Math.max(1, Math.ceil(ttlMs)), "NX"),
      );
      return set === "OK";
    },
    async take(key) {
      const value = await run("read its shared state", () => redis.getdel(k(key)));
      return value ?? undefined;
    },
    async delete(key) {
      await run("update its shared state", () => redis.del(k(key)));
    },
    async claimWindowSlot(key, limit, windowMs, hold?: WindowHold) {
      const wait = await run("claim a slot of the rate budget", () =>
        redis.wfmcpClaim(
          k(key),
          limit,
          Math.ceil(windowMs),
          Math.ceil(hold?.maxMs ?? 0),
          hold?.id ?? randomUUID(),
        ),
      );
      return Number(wait);
    },
    async releaseWindowSlot(key, id, windowMs) {
      await run("release a slot of the rate budget", () =>
        redis.wfmcpRelease(k(key), id, Math.ceil(windowMs)),
      );
    },
    async appendToLog(key, entry, { maxEntries, maxAgeMs }) {
      const added = await run("record a received event", () =>
        redis.wfmcpAppend(
          k(`${key}:ids`),
          k(`${key}:values`),
          entry.id,
          entry.at,
          entry.value,
          maxEntries,
          entry.at - maxAgeMs,
          Math.max(1, Math.ceil(maxAgeMs)),
        ),
      );
      return Number(added) === 1;
    },
    async readLog(key, from, offset, count) {
      const flat = await run("read the received events", () =>
        redis.wfmcpReadLog(k(`${key}:ids`), k(`${key}:values`), from, offset, count),
      );
      const out: LogEntry[] = [];
      for (let i = 0; i + 2 < flat.length; i += 3) {
        out.push({ id: flat[i] as string, at: Number(flat[i + 1]), value: flat[i + 2] as string });
      }
      return out;
    },
    async setField(key, field, value) {
      await run("record its shared state", () => redis.hset(k(key), field, value));
    },
    async deleteField(key, field) {
      await run("update its shared state", () => redis.hdel(k(key), field));
    },
    async readFields(key) {
      return run("read its shared state", () => redis.hgetall(k(key)));
    },
    async publish(channel, message) {
      await run("tell the other replicas", () => redis.publish(k(channel), message));
    },
    async subscribe(channel, listener) {
      const name = k(channel);
      subscriber ??= openSubscriber().catch((error: unknown) => {
        subscriber = undefined;
        throw error;
      });
      const sub = await run("listen to the other replicas", () => subscriber as Promise<Redis>);
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      const own = (message: string) => listener(message);
      set.add(own);
      if (set.size === 1) {
        await run("listen to the other replicas", () => sub.subscribe(name));
      }
      return async () => {
        set.delete(own);
        if (set.size === 0 && !closing) {
          listeners.delete(name);
          await sub.unsubscribe(name).catch(() => {});
        }
      };
    },
    async close() {
      closing = true;
      if (subscriber) {
        const sub = await subscriber.catch(() => undefined);
        sub?.disconnect();
      }
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** The error's message without the address's credentials (ioredis names host and port only). */
function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\/\/[^@\s/]*@/g, "//");
}
