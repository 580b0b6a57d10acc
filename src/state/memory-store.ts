import {
  type AppendOutcome,
  type LogBounds,
  type LogEntry,
  logEntryBytes,
  type StateStore,
} from "./store.js";

/** One log: its entries per group, oldest first (by `at`, then by arrival), and their bytes. */
interface Log {
  groups: Map<string, { entries: (LogEntry & { bytes: number })[]; bytes: number }>;
  ids: Set<string>;
  bytes: number;
  expiresAt: number;
}

/** One process's state: what a single stdio or HTTP server needs, with nothing to install. */
export function createMemoryStore(now: () => number = Date.now): StateStore {
  const values = new Map<string, { value: string; expiresAt: number }>();
  /** Per window key: each use's id and the moment it stops counting. */
  const windows = new Map<string, Map<string, number>>();
  const logs = memoryLogs(now);
  const channels = new Map<string, Set<(message: string) => void>>();
  const maps = new Map<string, Map<string, string>>();
  let nextId = 0;
  let writes = 0;
  const live = (key: string) => {
    const entry = values.get(key);
    if (entry && entry.expiresAt <= now()) values.delete(key);
    return values.get(key);
  };
  const usesOf = (key: string, at: number) => {
    const uses = windows.get(key) ?? new Map<string, number>();
    for (const [id, until] of uses) if (until <= at) uses.delete(id);
    windows.set(key, uses);
    return uses;
  };
  return {
    async get(key) {
      return live(key)?.value;
    },
    async set(key, value, ttlMs) {
      // Now and then, forget what expired unread (previews nobody confirmed).
      if (++writes % 256 === 0) for (const k of [...values.keys()]) live(k);
      values.set(key, {
        value,
        expiresAt: ttlMs === undefined ? Number.POSITIVE_INFINITY : now() + ttlMs,
      });
    },
    async setIfAbsent(key, value, ttlMs) {
      if (live(key)) return false;
      values.set(key, { value, expiresAt: now() + ttlMs });
      return true;
    },
    async take(key) {
      const entry = live(key);
      values.delete(key);
      return entry?.value;
    },
    async delete(key) {
      values.delete(key);
    },
    async claimWindowSlot(key, limit, windowMs, hold) {
      const at = now();
      const uses = usesOf(key, at);
      if (uses.size >= limit) {
        // As in Redis: a use still in flight is assumed to end now.
        return Math.max(1, Math.min(...uses.values(), at + windowMs) - at);
      }
      uses.set(hold?.id ?? `use-${nextId++}`, at + (hold?.maxMs ?? 0) + windowMs);
      return 0;
    },
    async releaseWindowSlot(key, id, windowMs) {
      const uses = windows.get(key);
      const until = uses?.get(id);
      if (uses && until !== undefined) uses.set(id, Math.min(until, now() + windowMs));
    },
    ...logs,
    async setField(key, field, value) {
      const map = maps.get(key) ?? new Map<string, string>();
      maps.set(key, map);
      map.set(field, value);
    },
    async deleteField(key, field) {
      maps.get(key)?.delete(field);
    },
    async readFields(key) {
      return Object.fromEntries(maps.get(key) ?? []);
    },
    async publish(channel, message) {
      // Delivered on a later turn, as from Redis: a publisher never runs listeners inside itself.
      for (const listener of channels.get(channel) ?? []) queueMicrotask(() => listener(message));
    },
    async subscribe(channel, listener) {
      const set = channels.get(channel) ?? new Set();
      channels.set(channel, set);
      // Each subscription is its own, even for the same function.
      const own = (message: string) => listener(message);
      set.add(own);
      return async () => {
        set.delete(own);
      };
    },
    async close() {
      values.clear();
      windows.clear();
      logs.clear();
      maps.clear();
      channels.clear();
    },
  };
}

/** The append-only logs (received events), each expiring when nothing was added for its age. */
function memoryLogs(now: () => number) {
  const logs = new Map<string, Log>();
  return {
    async appendToLog(key, group, entry, bounds) {
      let log = logs.get(key);
      if (!log || log.expiresAt <= now()) {
        log = { groups: new Map(), ids: new Set(), bytes: 0, expiresAt: 0 };
        logs.set(key, log);
      }
      const outcome = append(log, group, entry, bounds);
      if (outcome === "added") log.expiresAt = now() + bounds.maxAgeMs;
      return outcome;
    },
    async readLog(key, group, from, offset, count) {
      const log = logs.get(key);
      if (!log || log.expiresAt <= now()) return [];
      const entries = log.groups.get(group)?.entries ?? [];
      const out: LogEntry[] = [];
      let skipped = 0;
      for (let i = entries.length - 1; i >= 0 && out.length < count; i--) {
        const { id, at, value } = entries[i] as LogEntry;
        if (at < from) break;
        if (skipped++ < offset) continue;
        out.push({ id, at, value });
      }
      return out;
    },
    async logBytes(key) {
      const log = logs.get(key);
      return log && log.expiresAt > now() ? log.bytes : 0;
    },
    clear() {
      logs.clear();
    },
  } satisfies Partial<StateStore> & { clear(): void };
}

/** Adds `entry` to its group, after dropping what is too old and what its group must give up. */
function append(log: Log, group: string, entry: LogEntry, bounds: LogBounds): AppendOutcome {
  if (log.ids.has(entry.id)) return "duplicate";
  const drop = (g: NonNullable<ReturnType<Log["groups"]["get"]>>, n: number) => {
    for (const gone of g.entries.splice(0, n)) {
      log.ids.delete(gone.id);
      g.bytes -= gone.bytes;
      log.bytes -= gone.bytes;
    }
  };
  const oldest = entry.at - bounds.maxAgeMs;
  for (const [name, g] of log.groups) {
    let n = 0;
    while (n < g.entries.length && (g.entries[n] as LogEntry).at < oldest) n++;
    drop(g, n);
    if (g.entries.length === 0) log.groups.delete(name);
  }
  const bytes = logEntryBytes(entry);
  const own = log.groups.get(group) ?? { entries: [], bytes: 0 };
  // The group's own oldest make room for it; nobody else's.
  let n = 0;
  let freed = 0;
  while (
    n < own.entries.length &&
    (own.bytes - freed + bytes > bounds.maxGroupBytes ||
      own.entries.length - n + 1 > bounds.maxGroupEntries)
  ) {
    freed += (own.entries[n] as { bytes: number }).bytes;
    n++;
  }
  if (bytes > bounds.maxGroupBytes || log.bytes - freed + bytes > bounds.maxBytes) return "full";
  drop(own, n);
  let i = own.entries.length;
  while (i > 0 && (own.entries[i - 1] as LogEntry).at > entry.at) i--;
  own.entries.splice(i, 0, { ...entry, bytes });
  own.bytes += bytes;
  log.bytes += bytes;
  log.groups.set(group, own);
  log.ids.add(entry.id);
  return "added";
}
