// The platform client: each request waits for the credential's rate budget (governor.ts), takes
// its token (renewed once after `Unauthenticated.` when the token source can), is sent by the
// transport (transport.ts), and is tried again as the retry policy allows (retry-policy.ts).
import { randomUUID } from "node:crypto";
import { getIntrospectionQuery } from "graphql";
import type { Logger } from "../logger.js";
import { mostTelling } from "./classify.js";
import {
  AuthenticationError,
  CancelledError,
  isOutcomeUnknown,
  isPlatformError,
  UnexpectedResponseError,
} from "./errors.js";
import {
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  DEFAULT_RATE_LIMIT_WINDOW_MS,
  type Governor,
  governorFor,
  sharedGovernorFor,
} from "./governor.js";
import { retryPolicy, sleep } from "./retry-policy.js";
import { createTransport } from "./transport.js";
import type {
  Operation,
  OperationResult,
  PlatformClient,
  PlatformClientOptions,
  RequestOptions,
  RestrictedField,
  TokenSource,
} from "./types.js";

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_RETRY_BASE_MS = 1_000;
const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
// A platform answers a connection in well under a second; five seconds tells a dropped one apart.
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/** The standard introspection query; graphql-js already names it `IntrospectionQuery`. */
export const introspectionOperation: Operation<unknown> = {
  name: "IntrospectionQuery",
  document: getIntrospectionQuery(),
  type: "query",
  safeToRepeat: true,
};

/**
 * A read built at run time (query_platform's checked document), sent like any other: governed,
 * retried, errors classified. `document` must hold exactly one query operation called `name`.
 */
export function runtimeQuery(name: string, document: string): Operation<unknown> {
  return { name, document, type: "query", safeToRepeat: true };
}

export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  // Tolerate an address given with the path already on it.
  const apiUrl = options.apiUrl.replace(/\/+$/, "").replace(/\/graphql$/, "");
  const endpoint = `${apiUrl}/graphql`;
  // A fixed token is used as it is (no await per request); a source is asked before each attempt.
  const fixedToken = typeof options.token === "string" ? options.token : undefined;
  const source = typeof options.token === "string" ? undefined : options.token;
  const credential = source?.kind ?? options.credential;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retryBaseMs = options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const limits = {
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    connectTimeoutMs: Math.min(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, timeoutMs),
  };
  const logger: Logger | undefined = options.logger;
  // Belt and braces: even if a token slipped into a log line, the logger blanks it.
  logger?.addSecret(fixedToken);
  const budget = fixedToken ?? budgetKey(source as TokenSource);
  const governor: Governor = options.stateStore
    ? sharedGovernorFor(options.stateStore, apiUrl, budget, {
        limit: options.rateLimitPerMinute,
        windowMs: options.rateLimitWindowMs,
        // One attempt lasts at most the time-out; a replica that dies mid-request frees it then.
        holdMs: timeoutMs + 5_000,
        logger,
      })
    : governorFor(
        apiUrl,
        budget,
        options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
        options.rateLimitWindowMs ?? DEFAULT_RATE_LIMIT_WINDOW_MS,
      );

  const retries = retryPolicy({ retryBaseMs, maxRetries });
  const send = createTransport({ endpoint, timeoutMs, limits, logger });

  async function request<TData, TVariables extends Record<string, unknown>>(
    operation: Operation<TData, TVariables>,
    variables: TVariables,
    requestOptions: RequestOptions = {},
  ): Promise<OperationResult<TData>> {
    const op = operation as unknown as Operation<unknown, Record<string, unknown>>;
    const { signal, onWait, trace } = requestOptions;
    const maxAttempts = retries.maxAttempts(op);
    // After `Unauthenticated.`, a token source may renew the token once; then the request is sent
    // once more. The platform refused it before doing anything, so this holds for writes too.
    let renewed: string | undefined;
    let renewTried = false;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) {
        throw new CancelledError(`${op.name} was cancelled before it was sent.`, {
          operation: op.name,
          attempts: attempt - 1,
        });
      }
      let token = fixedToken;
      try {
        if (source) {
          token = renewed ?? (await source.current());
          renewed = undefined;
          logger?.addSecret(token);
        }
        const release = await governor.acquire({ signal, onWait, operation: op.name });
        const result = await send({
          token: token as string,
          operation: op,
          variables,
          signal,
          trace,
          attempt,
          retryAfterMs: Math.max(governor.estimateWait(0), retries.backoff(attempt - 1)),
        }).finally(release);
        for (const error of result.errors) error.attempts = attempt;
        return result as OperationResult<TData>;
      } catch (error) {
        if (!isPlatformError(error)) throw error;
        error.attempts = attempt;
        if (error instanceof AuthenticationError) {
          error.credential ??= credential;
          const renew = source?.refreshAfterUnauthenticated;
          if (renew && token !== undefined && !renewTried && !isOutcomeUnknown(error)) {
            renewTried = true;
            const fresh = await renew.call(source, token).catch((failure: unknown) => {
              if (isPlatformError(failure)) throw failure;
              logger?.warning("renewing the sign-in failed unexpectedly", {
                error: failure instanceof Error ? failure.message : String(failure),
              });
              return undefined;
            });
            if (fresh !== undefined && fresh !== token) {
              logger?.debug(
                "the platform refused the access token; sending once more with a renewed one",
                {
                  operation: op.name,
                },
              );
              renewed = fresh;
              continue;
            }
          }
          throw error;
        }
        if (!retries.again(error, attempt, maxAttempts)) throw error;
        const delay = retries.delay(attempt);
        logger?.debug("platform request will be retried", {
          operation: op.name,
          attempt,
          kind: error.kind,
          delayMs: Math.round(delay),
        });
        await sleep(delay, signal, op.name, attempt);
      }
    }
  }

  async function run<TData, TVariables extends Record<string, unknown>>(
    operation: Operation<TData, TVariables>,
    variables: TVariables,
    requestOptions?: RequestOptions,
  ): Promise<{ data: TData; restricted: RestrictedField[] }> {
    const result = await request(operation, variables, requestOptions);
    const first = mostTelling(result.errors);
    if (first) throw first;
    if (result.data === null) {
      throw new UnexpectedResponseError(`The platform answered ${operation.name} without data.`, {
        operation: operation.name,
      });
    }
    return { data: result.data, restricted: result.restricted };
  }

  async function introspect(requestOptions?: RequestOptions): Promise<unknown> {
    const { data } = await run(introspectionOperation, {}, requestOptions);
    return data;
  }

  return { request, run, introspect };
}

/** One rate-limit budget per token source, shared by every client built on it. */
const budgetKeys = new WeakMap<TokenSource, string>();
function budgetKey(source: TokenSource): string {
  if (source.budgetKey) return `person:${source.budgetKey}`;
  let key = budgetKeys.get(source);
  if (!key) {
    key = `token-source:${randomUUID()}`;
    budgetKeys.set(source, key);
  }
  return key;
}
