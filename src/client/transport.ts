// One attempt at an operation over HTTP: the GraphQL request (graphql-request over this server's
// size-capped fetch), its time-out and cancellation, and the answer read into data, restricted
// fields and classified errors. Failures are thrown as this server's errors (request-failures.ts).
import { performance } from "node:perf_hooks";
import { ClientError, GraphQLClient } from "graphql-request";
import type { Logger } from "../logger.js";
import { classifyEntry, type GraphQLErrorEntry, mostTelling } from "./classify.js";
import { documentFor } from "./documents.js";
import { isPlatformError, type PlatformError, UnexpectedResponseError } from "./errors.js";
import { httpFetch } from "./http-fetch.js";
import { type Attempt, finalise, httpFailure, transportFailure } from "./request-failures.js";
import type { OperationResult, RestrictedField } from "./types.js";

export interface TransportOptions {
  /** The GraphQL endpoint. */
  endpoint: string;
  timeoutMs: number;
  limits: { maxResponseBytes: number };
  logger: Logger | undefined;
}

/** Sends one attempt and reads its answer. */
export type Send = (a: Attempt) => Promise<OperationResult<unknown>>;

export function createTransport(options: TransportOptions): Send {
  const { endpoint, timeoutMs, limits, logger } = options;
  const host = hostOf(endpoint);
  return async function send(a: Attempt): Promise<OperationResult<unknown>> {
    const op = a.operation;
    const unsafe = !op.safeToRepeat;
    // One signal for the time-out and the caller's cancellation (told apart by a.signal.aborted).
    // Not AbortSignal.any: its weak references kept every request's signals alive through young
    // collections, memory the server's heap carried until a full collection (docs/performance.md).
    const stop = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stop.abort();
    }, timeoutMs);
    const cancel = () => stop.abort();
    if (a.signal?.aborted) cancel();
    else a.signal?.addEventListener("abort", cancel, { once: true });
    const signal = stop.signal;
    let response: { status: number; contentType: string } | undefined;
    const started = performance.now();
    const log = (status: number | undefined, outcome: string) =>
      logger?.debug("platform request", {
        operation: op.name,
        attempt: a.attempt,
        status,
        durationMs: Math.round(performance.now() - started),
        outcome,
      });

    const gql = new GraphQLClient(endpoint, {
      headers: {
        Authorization: `Bearer ${a.token}`,
        "Content-Type": "application/json",
        ...(a.trace && { traceparent: a.trace.traceparent }),
        ...(a.trace?.tracestate && { tracestate: a.trace.tracestate }),
      },
      errorPolicy: "all",
      // graphql-request would parse every document on every call just to find its operation name;
      // each of ours has exactly one, named after the operation, so it is named here.
      excludeOperationName: true,
      jsonSerializer: {
        parse: JSON.parse,
        stringify: (body: Record<string, unknown>) =>
          JSON.stringify({ ...body, operationName: op.name }),
      },
      fetch: async (input: string | URL | Request, init?: RequestInit) => {
        const res = await httpFetch(input, init, limits);
        response = { status: res.status, contentType: res.headers.get("content-type") ?? "" };
        return res;
      },
    });

    try {
      let status: number;
      let data: unknown;
      let errors: unknown;
      try {
        const res = await gql.rawRequest<unknown>({
          query: documentFor(op, a.variables),
          variables: a.variables,
          signal,
        });
        status = res.status;
        data = res.data;
        errors = res.errors;
      } catch (error) {
        if (error instanceof ClientError) {
          status = error.response.status;
          data = error.response.data;
          errors = error.response.errors;
          if (!Array.isArray(errors) && (data === undefined || data === null)) {
            throw httpFailure(op, host, status, unsafe, a.retryAfterMs);
          }
        } else {
          throw transportFailure(error, a, host, timeoutMs, timedOut, response, unsafe);
        }
      }

      const hasData = data !== null && typeof data === "object";
      const entries = Array.isArray(errors) ? (errors as GraphQLErrorEntry[]) : [];
      const classified = entries.map((entry) =>
        classifyEntry(entry, {
          operation: op.name,
          hasData,
          retryAfterMs: a.retryAfterMs,
          status: status === 200 ? undefined : status,
        }),
      );
      if (!hasData) {
        const primary = mostTelling(classified);
        if (!primary) {
          throw new UnexpectedResponseError(
            `The platform answered ${op.name} with neither data nor errors.`,
            { operation: op.name, status, outcomeUnknown: unsafe },
          );
        }
        throw finalise(primary, op, unsafe);
      }
      const restricted: RestrictedField[] = [];
      const others: PlatformError[] = [];
      for (const error of classified) {
        if (error.kind === "field-restricted") {
          restricted.push({ path: (error.path ?? []).join("."), message: error.message });
        } else {
          others.push(error);
        }
      }
      log(status, others.length > 0 ? "partial" : restricted.length > 0 ? "restricted" : "ok");
      return { data, restricted, errors: others };
    } catch (error) {
      log(response?.status, isPlatformError(error) ? error.kind : "error");
      throw error;
    } finally {
      clearTimeout(timer);
      a.signal?.removeEventListener("abort", cancel);
    }
  };
}

/** The host (and port) errors name: enough to spot a typo, never a path or query. */
function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return endpoint;
  }
}
