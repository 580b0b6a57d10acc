// State that replicas of the HTTP server share: in memory for one process (the default), in Redis
// when WORKFORCE_REDIS_URL is set. Values are strings; callers encode and, where secret, encrypt.

/** Keeps a use of a window counting while its request is in flight (see claimWindowSlot). */
export interface WindowHold {
  /** Names the use, for releaseWindowSlot; unique per claim. */
  id: string;
  /** The longest the request may stay in flight; a use never released counts this much longer. */
  maxMs: number;
}

/** One entry of a bounded log (appendToLog): a unique id, a time in ms, and a value. */
export interface LogEntry {
  id: string;
  at: number;
  value: string;
}

/**
 * How much a log keeps. Each entry belongs to a group (a company) and counts its value's and id's
 * UTF-8 bytes plus LOG_ENTRY_OVERHEAD_BYTES. Entries older than `maxAgeMs` before the newest write
 * go first; a group over `maxGroupBytes` or `maxGroupEntries` drops its own oldest; and when the
 * whole log would pass `maxBytes`, the new entry is refused: one group never drops another's.
 */
export interface LogBounds {
  maxAgeMs: number;
  maxBytes: number;
  maxGroupBytes: number;
  maxGroupEntries: number;
}

/** What each entry costs beyond its bytes (the store's own bookkeeping), in the byte budgets. */
export const LOG_ENTRY_OVERHEAD_BYTES = 256;

/** The bytes an entry counts against a log's budgets. */
export const logEntryBytes = (entry: LogEntry): number =>
  Buffer.byteLength(entry.value, "utf8") +
  Buffer.byteLength(entry.id, "utf8") +
  LOG_ENTRY_OVERHEAD_BYTES;

/** appendToLog's outcome: kept, an id already kept, or refused because the whole log is full. */
export type AppendOutcome = "added" | "duplicate" | "full";

/** Values by key, with expiry: all that confirmations need, so a local file can hold them too. */
export interface KeyValueStore {
  get(key: string): Promise<string | undefined>;
  /** Sets a value, expiring after `ttlMs` when given. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /**
   * Sets a value only if the key holds none, in one atomic step across every process sharing the
   * store: true when it was set, false when another value was there (left as it was).
   */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Returns the value and deletes it in one atomic step: a second take of the key finds nothing. */
  take(key: string): Promise<string | undefined>;
  delete(key: string): Promise<void>;
}

export interface StateStore extends KeyValueStore {
  /**
   * Claims one use of a rolling window of `windowMs` that allows `limit` uses, atomically across
   * every process sharing the store. Returns 0 when the use was recorded, or how many milliseconds
   * to wait before trying again (nothing is recorded then). With `hold`, the use counts from now
   * until one window after releaseWindowSlot (or after `hold.maxMs`, if it is never released).
   */
  claimWindowSlot(key: string, limit: number, windowMs: number, hold?: WindowHold): Promise<number>;
  /** Ends a held use: it counts for one more window from now. Unknown ids are ignored. */
  releaseWindowSlot(key: string, id: string, windowMs: number): Promise<void>;
  /**
   * Adds an entry to the group's part of the log at `key` unless an entry with its id is kept, in
   * one atomic step across every process sharing the store, within `bounds` (see LogBounds). The
   * log expires whole after `maxAgeMs` without writes.
   */
  appendToLog(
    key: string,
    group: string,
    entry: LogEntry,
    bounds: LogBounds,
  ): Promise<AppendOutcome>;
  /** The group's entries with `at >= from`, newest first, skipping `offset`, at most `count`. */
  readLog(
    key: string,
    group: string,
    from: number,
    offset: number,
    count: number,
  ): Promise<LogEntry[]>;
  /** The bytes the log's entries count (logEntryBytes), all groups together. */
  logBytes(key: string): Promise<number>;
  /** Sets one field of the map at `key` (kept until deleted), in one step across processes. */
  setField(key: string, field: string, value: string): Promise<void>;
  /** Deletes one field of the map at `key`; an unknown field is ignored. */
  deleteField(key: string, field: string): Promise<void>;
  /** Every field of the map at `key` and its value (empty when there is none). */
  readFields(key: string): Promise<Record<string, string>>;
  /** Sends a message to every subscriber of the channel, in every process sharing the store. */
  publish(channel: string, message: string): Promise<void>;
  /**
   * Calls `listener` with every message published on the channel from now on (by any process
   * sharing the store); resolves once listening, to a function that stops listening.
   */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * The shared store could not be reached or did not answer: whatever needed it did not happen, and
 * nothing was sent to the platform. The message never names the store's address or credentials.
 */
export class SharedStateUnavailableError extends Error {
  override name = "SharedStateUnavailableError";
  constructor(
    /** What could not be done, e.g. "claim a rate-limit slot". */
    readonly action: string,
    options?: { cause?: unknown; where?: string },
  ) {
    super(
      `the server's shared state (${options?.where ?? "Redis"}) is unavailable, so it could not ${action}`,
      options,
    );
    this.where = options?.where ?? "Redis";
  }
  /** Where the state is kept: "Redis", or the local file. */
  readonly where: string;
}
