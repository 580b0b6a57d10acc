import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { getIntrospectionQuery } from "graphql";
import { ClientError, GraphQLClient } from "graphql-request";
import type { Logger } from "../logger.js";
import { classifyEntry, type GraphQLErrorEntry, mostTelling } from "./classify.js";
import { documentFor } from "./documents.js";
import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  CancelledError,
  isOutcomeUnknown,
  isPlatformError,
  NetworkError,
  type PlatformError,
  PlatformFailureError,
  RateLimitedError,
  ResponseTooLargeError,
  SchemaMismatchError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
} from "./errors.js";
import { formatBytes } from "./format-bytes.js";
import {
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  DEFAULT_RATE_LIMIT_WINDOW_MS,
  type Governor,
  governorFor,
  sharedGovernorFor,
} from "./governor.js";
import { BodyTooLargeError, httpFetch } from "./http-fetch.js";
import type {
  Operation,
  OperationResult,
  PlatformClient,
  PlatformClientOptions,
  RequestOptions,
  RestrictedField,
  TokenSource,
} from "./types.js";

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRY_BASE_MS = 1_000;
export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

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

// Connection errors that prove the request never left this machine, so nothing happened.
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ERR_INVALID_URL",
]);

interface Attempt {
  /** The bearer token this attempt sends. */
  token: string;
  operation: Operation<unknown, Record<string, unknown>>;
  variables: Record<string, unknown>;
  signal: AbortSignal | undefined;
  attempt: number;
  retryAfterMs: number;
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
  const limits = { maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES };
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

  const backoff = (retry: number) => retryBaseMs * 2 ** retry;

  async function sendOnce(a: Attempt): Promise<OperationResult<unknown>> {
    const op = a.operation;
    const unsafe = !op.safeToRepeat;
    // One signal for the time-out and the caller's cancellation (told apart by a.signal.aborted).
    // Not AbortSignal.any: its weak references kept every request's signals alive through young
    // collections, ~2 KB a call that the server's heap carried until a full collection.
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
      headers: { Authorization: `Bearer ${a.token}`, "Content-Type": "application/json" },
      errorPolicy: "all",
      // graphql-request parses every document on every call just to find its operation name
      // (~0.15 ms). Each of ours has exactly one, named after the operation, so name it here.
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
            throw httpFailure(op, status, unsafe, a.retryAfterMs);
          }
        } else {
          throw transportFailure(error, a, timedOut, response, unsafe);
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
  }

  function transportFailure(
    error: unknown,
    a: Attempt,
    timedOut: boolean,
    response: { status: number; contentType: string } | undefined,
    unsafe: boolean,
  ): PlatformError {
    const name = a.operation.name;
    const details = { operation: name, status: response?.status };
    const tooLarge = findCause(error, BodyTooLargeError);
    if (tooLarge) {
      // Any write's answer went unread, even an idempotent one's; retrying gets the same answer.
      const uncertain = unsafe || a.operation.type === "mutation";
      const limit = formatBytes(tooLarge.limitBytes);
      const size =
        tooLarge.declaredBytes !== undefined ? ` (${formatBytes(tooLarge.declaredBytes)})` : "";
      return new ResponseTooLargeError(
        uncertain
          ? `The platform did not confirm whether ${name} took effect: its answer was larger than ${limit}${size}, the most this server reads, so it was not read. WORKFORCE_MAX_RESPONSE_BYTES can raise the limit.`
          : `The platform's answer to ${name} was larger than ${limit}${size}, the most this server reads, so it was not read. WORKFORCE_MAX_RESPONSE_BYTES can raise the limit.`,
        {
          operation: name,
          status: tooLarge.status,
          limitBytes: tooLarge.limitBytes,
          declaredBytes: tooLarge.declaredBytes,
          outcomeUnknown: uncertain,
        },
      );
    }
    if (a.signal?.aborted) {
      return new CancelledError(
        unsafe
          ? `${name} was cancelled after it was sent; the platform did not confirm whether it took effect.`
          : `${name} was cancelled before the platform answered.`,
        { ...details, outcomeUnknown: unsafe },
      );
    }
    if (timedOut) {
      const seconds = formatSeconds(timeoutMs);
      return new TimeoutError(
        unsafe
          ? `The platform did not confirm whether ${name} took effect: no answer within ${seconds}.`
          : `The platform did not answer ${name} within ${seconds}.`,
        { ...details, outcomeUnknown: unsafe },
      );
    }
    if (response) {
      return new UnexpectedResponseError(
        unsafe
          ? `The platform did not confirm whether ${name} took effect: the answer (HTTP ${response.status}${describeType(response.contentType)}) was not GraphQL JSON.`
          : `The answer to ${name} (HTTP ${response.status}${describeType(response.contentType)}) was not GraphQL JSON.`,
        { ...details, outcomeUnknown: unsafe },
      );
    }
    const code = errorCode(error);
    const notSent = code !== undefined && NOT_SENT_CODES.has(code);
    const cause = Object.assign(new Error(`fetch failed${code ? ` (${code})` : ""}`), { code });
    if (notSent) {
      return new NetworkError(
        `Could not connect to the platform for ${name}${code ? ` (${code})` : ""}; the request was not sent.`,
        { ...details, cause },
      );
    }
    return new NetworkError(
      unsafe
        ? `The platform did not confirm whether ${name} took effect: the connection failed after it was sent${code ? ` (${code})` : ""}.`
        : `The connection to the platform failed during ${name}${code ? ` (${code})` : ""}.`,
      { ...details, cause, outcomeUnknown: unsafe },
    );
  }

  function httpFailure(
    op: Operation<unknown, Record<string, unknown>>,
    status: number,
    unsafe: boolean,
    retryAfterMs: number,
  ): PlatformError {
    const name = op.name;
    if (status === 400) {
      return new BadRequestError(
        `The platform refused the HTTP request for ${name} (HTTP 400).${notChanged(op)}`,
        { operation: name, status },
      );
    }
    if (status === 401) {
      return new AuthenticationError(
        `The platform did not accept the access token for ${name} (HTTP 401).${notChanged(op)}`,
        { operation: name, status },
      );
    }
    if (status === 429) {
      return new RateLimitedError(
        `The platform's rate limit was reached (HTTP 429); ${name} was not carried out.`,
        { operation: name, status, retryAfterMs },
      );
    }
    const uncertain = unsafe && status >= 500;
    return new UnexpectedResponseError(
      uncertain
        ? `The platform did not confirm whether ${name} took effect: it answered HTTP ${status} without a GraphQL body.`
        : `The platform answered ${name} with HTTP ${status} and no GraphQL body.`,
      { operation: name, status, outcomeUnknown: uncertain },
    );
  }

  async function request<TData, TVariables extends Record<string, unknown>>(
    operation: Operation<TData, TVariables>,
    variables: TVariables,
    requestOptions: RequestOptions = {},
  ): Promise<OperationResult<TData>> {
    const op = operation as unknown as Operation<unknown, Record<string, unknown>>;
    const { signal, onWait } = requestOptions;
    const maxAttempts = op.safeToRepeat ? 1 + maxRetries : 1;
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
        const result = await sendOnce({
          token: token as string,
          operation: op,
          variables,
          signal,
          attempt,
          retryAfterMs: Math.max(governor.estimateWait(0), backoff(attempt - 1)),
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
        if (!error.retryable || attempt >= maxAttempts) throw error;
        const delay = backoff(attempt - 1) + Math.random() * retryBaseMs;
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

/** A write that the platform refused outright did not happen; say so. */
function finalise(
  error: PlatformError,
  op: Operation<unknown, Record<string, unknown>>,
  unsafe: boolean,
): PlatformError {
  if (error instanceof PlatformFailureError && unsafe) {
    return new PlatformFailureError(
      `The platform did not confirm whether ${op.name} took effect: it reported an internal failure.`,
      {
        operation: error.operation,
        path: error.path,
        status: error.status,
        code: error.code,
        outcomeUnknown: true,
      },
    );
  }
  if (op.type !== "mutation") return error;
  const suffix = notChanged(op);
  const details = {
    operation: error.operation,
    path: error.path,
    status: error.status,
    code: error.code,
  };
  if (error instanceof ValidationError) {
    return new ValidationError(`${sentence(error.message)}${suffix}`, {
      ...details,
      validation: error.validation,
    });
  }
  if (error instanceof AuthenticationError)
    return new AuthenticationError(`${sentence(error.message)}${suffix}`, details);
  if (error instanceof AuthorizationError)
    return new AuthorizationError(`${sentence(error.message)}${suffix}`, details);
  if (error instanceof SchemaMismatchError)
    return new SchemaMismatchError(`${sentence(error.message)}${suffix}`, details);
  if (error instanceof BadRequestError)
    return new BadRequestError(`${sentence(error.message)}${suffix}`, details);
  return error;
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function notChanged(op: Operation<unknown, Record<string, unknown>>): string {
  return op.type === "mutation" ? ` ${op.name} did not take effect; nothing was changed.` : "";
}

function sleep(ms: number, signal: AbortSignal | undefined, operation: string, attempts: number) {
  return new Promise<void>((resolve, reject) => {
    const cancelled = () =>
      new CancelledError(`${operation} was cancelled while waiting to try again.`, {
        operation,
        attempts,
      });
    if (signal?.aborted) return reject(cancelled());
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function findCause<T>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof type) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function errorCode(error: unknown): string | undefined {
  // node:http puts the system code (ECONNREFUSED, ECONNRESET…) on the error; fetch puts it on `cause`.
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (typeof current === "object" && current !== null && "code" in current) {
      const code = (current as { code?: unknown }).code;
      if (typeof code === "string") return code;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describeType(contentType: string): string {
  const type = contentType.split(";")[0]?.trim();
  return type ? `, ${type}` : "";
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
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
