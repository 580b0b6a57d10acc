import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { Logger } from "../logger.js";
import {
  LOG_ENTRY_OVERHEAD_BYTES,
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
  /**
   * The rate windows' clock, for tests that move time on. By default Redis's own clock, the one
   * every replica shares; keys' time to live always follows Redis's clock.
   */
  now?: () => number;
}

// One script, so the prune, the count and the record happen in one step on the server: replicas
// racing for the last slot cannot both get it. Redis's own clock is the one every replica shares;
// ARGV[5], when given, is the time instead (a test's clock). A use's score is the moment it stops
// counting. Released uses sort before those in flight; the wait assumes a use in flight ends now
// (like the local governor), and callers ask again sooner.
const CLAIM = `
local now = tonumber(ARGV[5])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
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

// A released use counts one more window from now, never longer than its claim said; ARGV[3], when
// given, is the time instead.
const RELEASE = `
local old = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not old then return 0 end
local now = tonumber(ARGV[3])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local untilAt = now + tonumber(ARGV[2])
if untilAt < tonumber(old) then redis.call('ZADD', KEYS[1], 'XX', untilAt, ARGV[1]) end
return 1
`;

// A log is a sorted set of every id by time (KEYS[1]), one per group (its name ARGV[11] .. group),
// a hash of the values (KEYS[2]), a hash of each id's group (KEYS[3]) and a hash of the bytes per
// group ("g:" .. group) and in all ("all") (KEYS[4]); KEYS[5] is the new entry's group's set. The
// check for the id, the prunes, the budget check and the write happen in one step, so two
// replicas receiving the same entry at once store it once and budgets hold across replicas.
// ARGV: id, at, value, group, oldest kept, time to live, bytes in all, bytes per group, entries
// per group, bytes per entry beyond its own, prefix of the groups' sets.
// Answers 1 (added), 0 (already kept) or -1 (the whole log is full: nothing dropped or added).
const APPEND = `
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
local overhead = tonumber(ARGV[10])
local function size(id) return redis.call('HSTRLEN', KEYS[2], id) + string.len(id) + overhead end
local function drop(id)
  local bytes = size(id)
  local group = redis.call('HGET', KEYS[3], id)
  redis.call('ZREM', KEYS[1], id)
  if group then
    redis.call('ZREM', ARGV[11] .. group, id)
    if redis.call('HINCRBY', KEYS[4], 'g:' .. group, -bytes) <= 0 then
      redis.call('HDEL', KEYS[4], 'g:' .. group)
    end
  end
  redis.call('HINCRBY', KEYS[4], 'all', -bytes)
  redis.call('HDEL', KEYS[2], id)
  redis.call('HDEL', KEYS[3], id)
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[5])) do drop(id) end
local bytes = string.len(ARGV[3]) + string.len(ARGV[1]) + overhead
local used = tonumber(redis.call('HGET', KEYS[4], 'g:' .. ARGV[4]) or '0')
local count = redis.call('ZCARD', KEYS[5])
local oldest = redis.call('ZRANGE', KEYS[5], 0, -1)
local n, freed = 0, 0
while n < count and (used - freed + bytes > tonumber(ARGV[8]) or count - n + 1 > tonumber(ARGV[9])) do
  n = n + 1
  freed = freed + size(oldest[n])
end
local all = tonumber(redis.call('HGET', KEYS[4], 'all') or '0')
if bytes > tonumber(ARGV[8]) or all - freed + bytes > tonumber(ARGV[7]) then return -1 end
for i = 1, n do drop(oldest[i]) end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[5], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
redis.call('HINCRBY', KEYS[4], 'g:' .. ARGV[4], bytes)
redis.call('HINCRBY', KEYS[4], 'all', bytes)
for i = 1, 5 do redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
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
    groups: string,
    bytes: string,
    own: string,
    id: string,
    at: number,
    value: string,
    group: string,
    oldest: number,
    ttlMs: number,
    maxBytes: number,
    maxGroupBytes: number,
    maxGroupEntries: number,
    overhead: number,
    groupPrefix: string,
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
    now: number | "",
  ): Promise<number>;
  wfmcpRelease(key: string, id: string, windowMs: number, now: number | ""): Promise<number>;
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
  const connection = await connect(url, logger, options);
  const { redis } = connection;
  const run = async <T>(action: string, command: () => Promise<T>): Promise<T> => {
    try {
      return await command();
    } catch (error) {
      logger.debug("Redis command failed", { action, error: errorText(error) });
      throw new SharedStateUnavailableError(action, { cause: error });
    }
  };
  const channels = createChannels(connection, logger, run);
  return {
    ...keyValueCommands(redis, run),
    ...windowCommands(redis, run, options.now),
    ...logCommands(redis, run),
    publish: channels.publish,
    subscribe: channels.subscribe,
    async close() {
      connection.closing = true;
      await channels.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Runs one Redis command; any failure becomes SharedStateUnavailableError saying what failed. */
type Run = <T>(action: string, command: () => Promise<T>) => Promise<T>;

/** The main connection; `closing` once the store is being closed (outages are no news then). */
interface Connection {
  redis: ScriptedRedis;
  closing: boolean;
}

/** The connection, with its scripts, outage reports in the log, and a first ping. */
async function connect(
  url: string,
  logger: Logger,
  options: RedisStoreOptions,
): Promise<Connection> {
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
  redis.defineCommand("wfmcpAppend", { numberOfKeys: 5, lua: APPEND });
  redis.defineCommand("wfmcpReadLog", { numberOfKeys: 2, lua: READ_LOG });

  const connection: Connection = { redis, closing: false };
  let down = false;
  let started = false;
  const lost = (why: string) => {
    if (!started || connection.closing || down) return;
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
    connection.closing = true;
    redis.disconnect();
    const why = (firstError ?? errorText(error)).replace(/\.+$/, "");
    throw new Error(`Could not connect to Redis at ${where} (WORKFORCE_REDIS_URL): ${why}.`);
  }
  started = true;
  logger.info(`Shared state in Redis at ${where}.`);
  return connection;
}

const k = (key: string) => `${KEY_PREFIX}${key}`;

function keyValueCommands(redis: ScriptedRedis, run: Run) {
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
    async setField(key, field, value) {
      await run("record its shared state", () => redis.hset(k(key), field, value));
    },
    async deleteField(key, field) {
      await run("update its shared state", () => redis.hdel(k(key), field));
    },
    async readFields(key) {
      return run("read its shared state", () => redis.hgetall(k(key)));
    },
  } satisfies Partial<StateStore>;
}

function windowCommands(redis: ScriptedRedis, run: Run, now?: () => number) {
  // An empty time makes the scripts read Redis's clock.
  const at = () => now?.() ?? "";
  return {
    async claimWindowSlot(key, limit, windowMs, hold?: WindowHold) {
      const wait = await run("claim a slot of the rate budget", () =>
        redis.wfmcpClaim(
          k(key),
          limit,
          Math.ceil(windowMs),
          Math.ceil(hold?.maxMs ?? 0),
          hold?.id ?? randomUUID(),
          at(),
        ),
      );
      return Number(wait);
    },
    async releaseWindowSlot(key, id, windowMs) {
      await run("release a slot of the rate budget", () =>
        redis.wfmcpRelease(k(key), id, Math.ceil(windowMs), at()),
      );
    },
  } satisfies Partial<StateStore>;
}

function logCommands(redis: ScriptedRedis, run: Run) {
  return {
    async appendToLog(key, group, entry, bounds) {
      const added = await run("record a received event", () =>
        redis.wfmcpAppend(
          k(`${key}:ids`),
          k(`${key}:values`),
          k(`${key}:groups`),
          k(`${key}:bytes`),
          k(`${key}:group:${group}`),
          entry.id,
          entry.at,
          entry.value,
          group,
          entry.at - bounds.maxAgeMs,
          Math.max(1, Math.ceil(bounds.maxAgeMs)),
          bounds.maxBytes,
          bounds.maxGroupBytes,
          bounds.maxGroupEntries,
          LOG_ENTRY_OVERHEAD_BYTES,
          k(`${key}:group:`),
        ),
      );
      const outcome = Number(added);
      return outcome === 1 ? "added" : outcome === 0 ? "duplicate" : "full";
    },
    async readLog(key, group, from, offset, count) {
      const flat = await run("read the received events", () =>
        redis.wfmcpReadLog(k(`${key}:group:${group}`), k(`${key}:values`), from, offset, count),
      );
      const out: LogEntry[] = [];
      for (let i = 0; i + 2 < flat.length; i += 3) {
        out.push({ id: flat[i] as string, at: Number(flat[i + 1]), value: flat[i + 2] as string });
      }
      return out;
    },
    async logBytes(key) {
      const all = await run("read the received events", () => redis.hget(k(`${key}:bytes`), "all"));
      return Math.max(0, Number(all ?? 0));
    },
  } satisfies Partial<StateStore>;
}

/** Publish and subscribe; subscriptions need a connection of their own, opened with the first. */
function createChannels(connection: Connection, logger: Logger, run: Run) {
  const { redis } = connection;
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
  return {
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
        if (set.size === 0 && !connection.closing) {
          listeners.delete(name);
          await sub.unsubscribe(name).catch(() => {});
        }
      };
    },
    async close() {
      if (subscriber) {
        const sub = await subscriber.catch(() => undefined);
        sub?.disconnect();
      }
    },
  } satisfies Partial<StateStore> & { close(): Promise<void> };
}

/** The error's message without the address's credentials (ioredis names host and port only). */
function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\/\/[^@\s/]*@/g, "//");
}
