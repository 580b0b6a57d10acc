// State that replicas of the HTTP server share: in memory for one process (the default), in Redis
// when WORKFORCE_REDIS_URL is set. Values are strings; callers encode and, where secret, encrypt.

export interface StateStore {
  get(key: string): Promise<string | undefined>;
  /** Sets a value, expiring after `ttlMs` when given. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Returns the value and deletes it in one atomic step: a second take of the key finds nothing. */
  take(key: string): Promise<string | undefined>;
  delete(key: string): Promise<void>;
  /**
   * Claims one use of a rolling window of `windowMs` that allows `limit` uses, atomically across
   * every process sharing the store. Returns 0 when the use was recorded, or how many milliseconds
   * to wait before trying again (nothing is recorded then).
   */
  claimWindowSlot(key: string, limit: number, windowMs: number): Promise<number>;
  close(): Promise<void>;
}
