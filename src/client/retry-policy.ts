// When a failed request is tried again: only reads and writes that are safe to repeat, only for
// errors marked retryable, at most maxRetries times, after an exponential back-off with jitter
// that a cancellation cuts short.
import { setTimeout as wait } from "node:timers/promises";
import { CancelledError, type PlatformError } from "./errors.js";
import type { Operation } from "./types.js";

export interface RetryPolicy {
  /** How many attempts this operation may get. */
  maxAttempts(op: Operation<unknown, Record<string, unknown>>): number;
  /** The back-off before retry number `retry` (0 for the first), without jitter. */
  backoff(retry: number): number;
  /** Whether to try again after this failed attempt. */
  again(error: PlatformError, attempt: number, maxAttempts: number): boolean;
  /** The wait before the next attempt (back-off and jitter). */
  delay(attempt: number): number;
}

export function retryPolicy(options: { retryBaseMs: number; maxRetries: number }): RetryPolicy {
  const { retryBaseMs, maxRetries } = options;
  const backoff = (retry: number) => retryBaseMs * 2 ** retry;
  return {
    maxAttempts: (op) => (op.safeToRepeat ? 1 + maxRetries : 1),
    backoff,
    again: (error, attempt, maxAttempts) => error.retryable && attempt < maxAttempts,
    delay: (attempt) => backoff(attempt - 1) + Math.random() * retryBaseMs,
  };
}

/** Waits before trying again; rejects with CancelledError when the caller cancels meanwhile. */
export async function sleep(
  ms: number,
  signal: AbortSignal | undefined,
  operation: string,
  attempts: number,
): Promise<void> {
  try {
    await wait(ms, undefined, { signal });
  } catch (error) {
    if (!signal?.aborted) throw error;
    throw new CancelledError(`${operation} was cancelled while waiting to try again.`, {
      operation,
      attempts,
    });
  }
}
