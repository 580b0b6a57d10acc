import type { StateStore } from "./store.js";

/** One process's state: what a single stdio or HTTP server needs, with nothing to install. */
export function createMemoryStore(now: () => number = Date.now): StateStore {
  const values = new Map<string, { value: string; expiresAt: number }>();
  const windows = new Map<string, number[]>();
  const live = (key: string) => {
    const entry = values.get(key);
    if (entry && entry.expiresAt <= now()) values.delete(key);
    return values.get(key);
  };
  return {
    async get(key) {
      return live(key)?.value;
    },
    async set(key, value, ttlMs) {
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
    async claimWindowSlot(key, limit, windowMs) {
      const at = now();
      const uses = (windows.get(key) ?? []).filter((t) => t > at - windowMs);
      if (uses.length >= limit) {
        windows.set(key, uses);
        return Math.max(1, (uses[0] as number) + windowMs - at);
      }
      uses.push(at);
      windows.set(key, uses);
      return 0;
    },
    async close() {
      values.clear();
      windows.clear();
    },
  };
}
