import { createHash, randomUUID } from "node:crypto";
import type { Logger } from "../logger.js";
import type { StateStore } from "../state/store.js";
import { CancelledError } from "./errors.js";

// The platform counts requests per token in a rolling minute, so every client in this process that
// uses a token must share one budget: a second client would otherwise spend the same allowance.

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 60;
export const DEFAULT_RATE_LIMIT_WINDOW_MS = 60_000;
/** Waits shorter than this are not worth telling anyone about. */
const REPORTABLE_WAIT_MS = 1_000;

export interface AcquireOptions {
  signal?: AbortSignal;
  onWait?: (waitMs: number) => void;
  /** Named in the cancellation error. */
  operation?: string;
}

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
}

/** A slot is busy while its request is in flight and for one window after it finished. */
interface Slot {
  until: number;
}

/** What the client needs of a governor: this process's own, or one shared through Redis. */
export interface Governor {
  /** Resolves with a release function when the caller may send; call it once the answer arrived. */
  acquire(options?: AcquireOptions): Promise<() => void>;
  /** How long until a request queued now would be let through, in ms (an estimate). */
  estimateWait(position?: number): number;
}

/**
 * A FIFO queue in front of a rolling-window budget. A slot counts from when the request is let
 * through until one window after its answer arrived: the platform counts the request at some
 * moment in between, so this keeps every window the platform sees within the budget.
 */
export class RateGovernor implements Governor {
  private slots: Slot[] = [];
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    public limit: number,
    public windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Slots taken: requests in flight or answered within the last window. */
  get inWindow(): number {
    this.prune();
    return this.slots.length;
  }

  get queued(): number {
    return this.queue.length;
  }

  /**
   * Resolves with a release function when the caller may send; call it once the answer (or the
   * failure) has arrived. Rejects with CancelledError when the signal aborts first.
   */
  acquire(options: AcquireOptions = {}): Promise<() => void> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(cancelledWhileQueued(options.operation));
    if (this.queue.length === 0) {
      const release = this.tryTake();
      if (release) return Promise.resolve(release);
    }

    const wait = this.estimateWait(this.queue.length);
    return new Promise<() => void>((resolve, reject) => {
      const onAbort = () => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        waiter.cleanup();
        reject(cancelledWhileQueued(options.operation));
        // The slot this caller would have taken goes to the next one.
        this.pump();
      };
      const waiter: Waiter = {
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
      this.schedule();
      if (wait >= REPORTABLE_WAIT_MS) options.onWait?.(wait);
    });
  }

  /**
   * How long until a request queued now would be let through, in ms (0 when a slot is free).
   * `position` is how many callers are ahead of it. Requests in flight are assumed to finish now.
   */
  estimateWait(position = this.queue.length): number {
    this.prune();
    // A free slot for it: no wait, and nothing to sort (the client asks before every request).
    if (this.slots.length + position < this.limit) return 0;
    const now = this.now();
    const frees = this.slots
      .map((slot) => (slot.until === Number.POSITIVE_INFINITY ? now + this.windowMs : slot.until))
      .sort((a, b) => a - b);
    // Slots free up in order; a reused slot frees again about one window later.
    const estimate = (index: number): number => {
      if (index < 0) return 0;
      const at = frees[index];
      if (at !== undefined) return Math.max(0, at - now);
      return estimate(index - this.limit) + this.windowMs;
    };
    return estimate(frees.length - this.limit + position);
  }

  private tryTake(): (() => void) | undefined {
    this.prune();
    if (this.slots.length >= this.limit) return undefined;
    const slot: Slot = { until: Number.POSITIVE_INFINITY };
    this.slots.push(slot);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      slot.until = this.now() + this.windowMs;
      this.reschedule();
    };
  }

  private prune(): void {
    const now = this.now();
    if (this.slots.some((slot) => slot.until <= now)) {
      this.slots = this.slots.filter((slot) => slot.until > now);
    }
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const release = this.tryTake();
      if (!release) break;
      const waiter = this.queue.shift() as Waiter;
      waiter.cleanup();
      waiter.resolve(release);
    }
    this.schedule();
  }

  private reschedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.queue.length === 0) return;
    this.prune();
    // With every slot in flight nothing frees by itself; a release reschedules.
    if (this.slots.every((slot) => slot.until === Number.POSITIVE_INFINITY)) {
      if (this.slots.length >= this.limit) return;
    }
    const wait = Math.max(1, this.estimateWait(0));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, wait);
    // A queued request keeps its own promise alive; the timer alone must not hold the process.
    this.timer.unref?.();
  }
}

function cancelledWhileQueued(operation: string | undefined): CancelledError {
  return new CancelledError(
    `${operation ?? "The request"} was cancelled while waiting for the rate limit; it was not sent.`,
    { operation },
  );
}

/** How long a caller waiting on a shared budget sleeps at most: another replica may release first. */
const SHARED_POLL_MS = 200;

/**
 * One platform identity's budget shared by every replica through the state store. Each use is
 * claimed there in one atomic step and counts, like the local governor's slots, from when it is let
 * through until one window after its answer, so the sum over replicas never exceeds the budget.
 * Callers in this process queue in FIFO order; only the first asks the store. A store that cannot
 * be reached fails the call with SharedStateUnavailableError before anything is sent.
 */
export class SharedRateGovernor implements Governor {
  private tail: Promise<void> = Promise.resolve();
  private queuedCount = 0;
  /** When the caller at the head expects its slot; 0 when nobody waits. */
  private headReadyAt = 0;

  constructor(
    private readonly store: StateStore,
    /** A digest, never a token. */
    private readonly key: string,
    public limit: number,
    public windowMs: number,
    /** The longest one request stays in flight; a replica that dies mid-request frees it then. */
    public holdMs: number,
    private readonly logger?: Logger,
  ) {}

  get queued(): number {
    return this.queuedCount;
  }

  estimateWait(position = 0): number {
    const head = Math.max(0, this.headReadyAt - Date.now());
    return head + Math.ceil((position * this.windowMs) / this.limit);
  }

  async acquire(options: AcquireOptions = {}): Promise<() => void> {
    const { signal, operation } = options;
    if (signal?.aborted) throw cancelledWhileQueued(operation);
    const position = this.queuedCount++;
    // Each caller's turn follows the previous caller's, even when that one gave up early.
    let done = () => {};
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    const turn = this.tail;
    this.tail = turn.then(() => mine);
    let reported = false;
    const report = (waitMs: number) => {
      if (reported || waitMs < REPORTABLE_WAIT_MS) return;
      reported = true;
      options.onWait?.(waitMs);
    };
    try {
      if (position > 0) report(this.estimateWait(position));
      await untilAborted(turn, signal, operation);
      for (;;) {
        const id = randomUUID();
        const wait = await this.store.claimWindowSlot(this.key, this.limit, this.windowMs, {
          id,
          maxMs: this.holdMs,
        });
        if (wait === 0) {
          this.headReadyAt = 0;
          return this.releaser(id);
        }
        this.headReadyAt = Date.now() + wait;
        report(wait);
        await untilAborted(sleep(Math.min(wait, SHARED_POLL_MS)), signal, operation);
      }
    } catch (error) {
      this.headReadyAt = 0;
      throw error;
    } finally {
      this.queuedCount--;
      done();
    }
  }

  private releaser(id: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The answer is in; a failed release only keeps the slot busy until its hold runs out.
      this.store.releaseWindowSlot(this.key, id, this.windowMs).catch((error: unknown) => {
        this.logger?.debug("could not release a rate-limit slot in the shared store", {
          error: error instanceof Error ? error.message : String(error),
        });
      });
    };
  }
}

/** The global timer, not node:timers/promises: the tests' fake timers move this one. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits for `promise`, or rejects with CancelledError as soon as the signal aborts. */
function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  operation: string | undefined,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(cancelledWhileQueued(operation));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledWhileQueued(operation));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

const governors = new Map<string, RateGovernor>();
const sharedGovernors = new WeakMap<StateStore, Map<string, SharedRateGovernor>>();

/** Never the raw token: the key is a digest of the platform address and the token. */
export function governorKey(apiUrl: string, token: string): string {
  return createHash("sha256").update(`${apiUrl}\n${token}`).digest("hex").slice(0, 16);
}

/**
 * The process-wide governor for this token on this platform. The latest client's settings win,
 * so a changed limit applies to everyone sharing the token.
 */
export function governorFor(
  apiUrl: string,
  token: string,
  limit = DEFAULT_RATE_LIMIT_PER_MINUTE,
  windowMs = DEFAULT_RATE_LIMIT_WINDOW_MS,
): RateGovernor {
  const key = governorKey(apiUrl, token);
  let governor = governors.get(key);
  if (!governor) {
    governor = new RateGovernor(limit, windowMs);
    governors.set(key, governor);
  } else {
    governor.limit = limit;
    governor.windowMs = windowMs;
  }
  return governor;
}

/**
 * The governor for this token on this platform whose budget lives in the shared store (Redis), so
 * that every replica spends the same one. One per store and key in this process.
 */
export function sharedGovernorFor(
  store: StateStore,
  apiUrl: string,
  token: string,
  options: { limit?: number; windowMs?: number; holdMs: number; logger?: Logger },
): SharedRateGovernor {
  const key = `rate:${governorKey(apiUrl, token)}`;
  let byKey = sharedGovernors.get(store);
  if (!byKey) {
    byKey = new Map();
    sharedGovernors.set(store, byKey);
  }
  const limit = options.limit ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
  const windowMs = options.windowMs ?? DEFAULT_RATE_LIMIT_WINDOW_MS;
  let governor = byKey.get(key);
  if (!governor) {
    governor = new SharedRateGovernor(store, key, limit, windowMs, options.holdMs, options.logger);
    byKey.set(key, governor);
  } else {
    governor.limit = limit;
    governor.windowMs = windowMs;
    governor.holdMs = options.holdMs;
  }
  return governor;
}

/** For tests: forget every governor. */
export function resetGovernors(): void {
  governors.clear();
}
