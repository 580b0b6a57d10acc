import { createHash } from "node:crypto";
import { CancelledError } from "./errors.js";

// The platform counts requests per token in a rolling minute, so every client in this process that
// uses a token must share one budget: a second client would otherwise spend the same allowance.

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 60;
export const DEFAULT_RATE_LIMIT_WINDOW_MS = 60_000;
/** Waits shorter than this are not worth telling anyone about. */
export const REPORTABLE_WAIT_MS = 1_000;

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

/**
 * A FIFO queue in front of a rolling-window budget. A slot counts from when the request is let
 * through until one window after its answer arrived: the platform counts the request at some
 * moment in between, so this keeps every window the platform sees within the budget.
 */
export class RateGovernor {
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

const governors = new Map<string, RateGovernor>();

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

/** For tests: forget every governor. */
export function resetGovernors(): void {
  governors.clear();
}
