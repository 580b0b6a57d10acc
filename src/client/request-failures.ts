// What a failed attempt means, as this server's errors: a transport failure (time-out,
// cancellation, connection, an answer too large or not GraphQL), an HTTP status without a GraphQL
// body, and a write the platform refused (it says that nothing was changed). Each says whether the
// outcome of a write is unknown, so it is never sent again blindly.
import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  CancelledError,
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
import { BodyTooLargeError, CONNECT_TIMEOUT } from "./http-fetch.js";
import type { Operation, TraceContext } from "./types.js";

// Connection errors that prove the request never left this machine, so nothing happened. Each
// says what is wrong with the address rather than with the moment: sending again seconds later
// meets the same refusal, so these are not retried with back-off (a wrong address used to fail
// only after every retry, and then advised waiting a minute).
const UNREACHABLE: Record<string, (host: string, code: string) => string> = {
  ECONNREFUSED: (host) =>
    `Nothing accepted the connection at ${host} (ECONNREFUSED). Check the address and port in WORKFORCE_API_URL, and that the platform runs there.`,
  ENOTFOUND: dnsFailure,
  EAI_AGAIN: dnsFailure,
  EHOSTUNREACH: noRoute,
  ENETUNREACH: noRoute,
  ERR_INVALID_URL: (host) => `The address ${host} is not a valid URL. Correct WORKFORCE_API_URL.`,
  [CONNECT_TIMEOUT]: (host) =>
    `Nothing answered a connection to ${host} within a few seconds: the address drops the packets (a wrong address, a firewall, or the platform is down). Check WORKFORCE_API_URL, and that this machine can reach the platform.`,
};

// TLS handshake failures: the request itself was never sent.
const TLS_CODES = new Set([
  "EPROTO",
  "ERR_SSL_WRONG_VERSION_NUMBER",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

function dnsFailure(host: string, code: string): string {
  const name = host.replace(/:\d+$/, "");
  return `The name ${name} could not be resolved (${code}). Check its spelling in WORKFORCE_API_URL, and this machine's network and DNS.`;
}

function noRoute(host: string, code: string): string {
  return `There is no network route to ${host} (${code}). Check this machine's network connection and WORKFORCE_API_URL.`;
}

function tlsFailure(host: string, code: string): string {
  const cert = /CERT|SIGNATURE/.test(code);
  return cert
    ? `The TLS certificate of ${host} was not accepted (${code}). Check the name in WORKFORCE_API_URL; for a private certificate authority, set NODE_EXTRA_CA_CERTS to its certificate.`
    : `The TLS (https) connection to ${host} failed (${code}). Check WORKFORCE_API_URL: http or https, and the port.`;
}

/** One attempt at an operation. */
export interface Attempt {
  /** The bearer token this attempt sends. */
  token: string;
  operation: Operation<unknown, Record<string, unknown>>;
  variables: Record<string, unknown>;
  signal: AbortSignal | undefined;
  /** Sent as the traceparent and tracestate headers, so the platform's trace joins the caller's. */
  trace?: TraceContext;
  attempt: number;
  retryAfterMs: number;
}

export function transportFailure(
  error: unknown,
  a: Attempt,
  host: string,
  timeoutMs: number,
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
        : `The answer of ${host} to ${name} (HTTP ${response.status}${describeType(response.contentType)}) was not GraphQL JSON.`,
      { ...details, outcomeUnknown: unsafe, host },
    );
  }
  const code = errorCode(error);
  const unreachable =
    code === undefined
      ? undefined
      : (UNREACHABLE[code] ?? (TLS_CODES.has(code) ? tlsFailure : undefined));
  const cause = Object.assign(new Error(`fetch failed${code ? ` (${code})` : ""}`), { code });
  if (unreachable && code) {
    return new NetworkError(
      `Could not connect to the platform at ${host} for ${name} (${code}); the request was not sent.`,
      { ...details, cause, unreachable: unreachable(host, code) },
    );
  }
  return new NetworkError(
    unsafe
      ? `The platform did not confirm whether ${name} took effect: the connection failed after it was sent${code ? ` (${code})` : ""}.`
      : `The connection to the platform failed during ${name}${code ? ` (${code})` : ""}.`,
    { ...details, cause, outcomeUnknown: unsafe },
  );
}

export function httpFailure(
  op: Operation<unknown, Record<string, unknown>>,
  host: string,
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
      : `${host} answered ${name} with HTTP ${status} and no GraphQL body.`,
    { operation: name, status, outcomeUnknown: uncertain, host },
  );
}

/** A write that the platform refused outright did not happen; say so. */
export function finalise(
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
