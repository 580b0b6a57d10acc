// Waiting for an event instead of for a time: tests that drive fake timers, or that must act at a
// given point of a request (it reached the server; a retry was scheduled), poll the state between
// turns of the event loop rather than sleeping a guessed number of milliseconds.

/**
 * Resolves once `condition()` holds, checking it after each turn of the event loop (I/O included).
 * `step` runs between checks, e.g. to move fake timers on by a millisecond.
 */
export async function until(
  condition: () => boolean,
  what: string,
  step: () => void = () => {},
): Promise<void> {
  for (let turn = 0; turn < 200_000; turn++) {
    if (condition()) return;
    step();
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`this never happened: ${what}`);
}
