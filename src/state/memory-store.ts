import type { LogEntry, StateStore } from "./store.js";

/** One process's state: what a single stdio or HTTP server needs, with nothing to install. */
export function createMemoryStore(now: () => number = Date.now): StateStore {
  const values = new Map<string, { value: string; expiresAt: number }>();
  /** Per window key: each use's id and the moment it stops counting. */
  const windows = new Map<string, Map<string, number>>();
  /** Per log key: its entries, oldest first (by `at`, then by arrival), and their ids. */
  const logs = new Map<string, { entries: LogEntry[]; ids: Set<string>; expiresAt: number }>();
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
    async appendToLog(key, entry, { maxEntries, maxAgeMs }) {
      let log = logs.get(key);
      if (!log || log.expiresAt <= now()) {
        log = { entries: [], ids: new Set(), expiresAt: 0 };
        logs.set(key, log);
      }
      if (log.ids.has(entry.id)) return false;
      let i = log.entries.length;
      while (i > 0 && (log.entries[i - 1] as LogEntry).at > entry.at) i--;
      log.entries.splice(i, 0, { ...entry });
      log.ids.add(entry.id);
      const oldest = entry.at - maxAgeMs;
      let drop = 0;
      while (drop < log.entries.length && (log.entries[drop] as LogEntry).at < oldest) drop++;
      drop = Math.max(drop, log.entries.length - maxEntries);
      for (const gone of log.entries.splice(0, drop)) log.ids.delete(gone.id);
      log.expiresAt = now() + maxAgeMs;
      return true;
    },
    async readLog(key, from, offset, count) {
      const log = logs.get(key);
      if (!log || log.expiresAt <= now()) return [];
      const out: LogEntry[] = [];
      let skipped = 0;
      for (let i = log.entries.length - 1; i >= 0 && out.length < count; i--) {
        const entry = log.entries[i] as LogEntry;
        if (entry.at < from) break;
        if (skipped++ < offset) continue;
        out.push({ ...entry });
      }
      return out;
    },
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
