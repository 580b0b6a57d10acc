// Faults a test injects into the sandbox: the next matching requests fail the chosen way, and
// writes held with `later` run only when the test says (a write applied after its answer was lost).
import { setTimeout as wait } from "node:timers/promises";
import type { ExecutionResult } from "graphql";
import { internalError, tooManyRequests } from "./errors.js";

const FAULT_KINDS = [
  "internal-error",
  "rate-limit",
  "html-500",
  "non-json-200",
  "slow",
  "drop-connection",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultOptions {
  count?: number;
  delayMs?: number;
  operationName?: string;
  after?: boolean;
  /**
   * The request's operation is not run now but held until `faults.releaseHeld()`: a write the
   * platform applies after its answer was lost.
   */
  later?: boolean;
}

interface PendingFault {
  kind: FaultKind;
  remaining: number;
  delayMs: number;
  operationName: string | undefined;
  after: boolean;
  later: boolean;
}

/** A request's operation, run against the sandbox's data. */
type Run = () => Promise<ExecutionResult>;

/** What a fault needs of the request it fails. */
interface FaultedRequest {
  run: Run;
  /** Whether the client went away meanwhile. */
  gone(): boolean;
  /** Aborted when the sandbox closes: a slow answer still waiting ends with it. */
  closing: AbortSignal;
}

/** How a request ends: a GraphQL result (its own or a failure's), an HTML page, or no answer. */
type FaultAnswer =
  | { kind: "result"; result: ExecutionResult }
  | { kind: "page"; status: number; html: string }
  | { kind: "drop" };

export interface Faults {
  inject(kind: FaultKind, options?: FaultOptions): void;
  clear(): void;
  /** Runs the operations held by faults injected with `later`, in order; how many ran. */
  releaseHeld(): Promise<number>;
  /** Answers a request that got past authentication and the rate limit, faulted or not. */
  answer(operationName: string | null, request: FaultedRequest): Promise<FaultAnswer>;
}

export function createFaults(): Faults {
  let faults: PendingFault[] = [];
  let held: Run[] = [];

  function take(operationName: string | null): PendingFault | null {
    const fault = faults.find(
      (f) => f.operationName === undefined || f.operationName === operationName,
    );
    if (!fault) return null;
    fault.remaining -= 1;
    if (fault.remaining <= 0) faults = faults.filter((f) => f !== fault);
    return fault;
  }

  return {
    inject(kind, opts = {}) {
      // Callers in plain JavaScript get no type check; an unknown kind would leave requests hanging.
      if (!FAULT_KINDS.includes(kind)) {
        throw new Error(`Unknown fault kind "${kind}"; use one of ${FAULT_KINDS.join(", ")}.`);
      }
      faults.push({
        kind,
        remaining: opts.count ?? 1,
        delayMs: opts.delayMs ?? 5_000,
        operationName: opts.operationName,
        after: opts.after ?? false,
        later: opts.later ?? false,
      });
    },
    clear() {
      faults = [];
      held = [];
    },
    async releaseHeld() {
      const runs = held;
      held = [];
      for (const run of runs) await run();
      return runs.length;
    },
    async answer(operationName, { run, gone, closing }) {
      const fault = take(operationName);
      if (fault?.kind === "slow") {
        await wait(fault.delayMs, undefined, { signal: closing });
        return gone() ? { kind: "drop" } : { kind: "result", result: await run() };
      }
      if (fault === null) return { kind: "result", result: await run() };
      if (fault.after) await run();
      else if (fault.later) held.push(run);
      switch (fault.kind) {
        case "internal-error":
          return { kind: "result", result: internalError() };
        case "rate-limit":
          return { kind: "result", result: tooManyRequests() };
        case "html-500":
          return { kind: "page", status: 500, html: htmlPage("500 Internal Server Error") };
        case "non-json-200":
          return { kind: "page", status: 200, html: htmlPage("Service temporarily unavailable") };
        case "drop-connection":
          return { kind: "drop" };
      }
    },
  };
}

function htmlPage(title: string): string {
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>The server encountered an error.</p></body></html>`;
}
