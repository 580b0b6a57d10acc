/** The sandbox's own time for OAuth: codes, tokens and the refresh period. */
export interface SandboxClock {
  now(): number;
  /** Moves the sandbox's time forward (tests: expire a code, a token, the 90 days). */
  advance(ms: number): void;
}

export function createSandboxClock(base: () => number = Date.now): SandboxClock {
  let offset = 0;
  return {
    now: () => base() + offset,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new Error("The clock only moves forward.");
      offset += ms;
    },
  };
}
