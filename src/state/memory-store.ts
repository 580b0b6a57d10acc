import type { StateStore } from "./store.js";

/** One process's state: what a single stdio or HTTP server needs, with nothing to install. */
export function createMemoryStore(now: () => number = Date.now): StateStore {
  const values = new Map<string, { value: string; expiresAt: number }>();
  /** Per window key: each use's id and the moment it stops counting. */
  const windows = new Map<string, Map<string, number>>();
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
    async close() {
      values.clear();
      windows.clear();
    },
  };
}
