// Every failure the platform client can report, as one typed class with a `kind`. Messages are
// ours: never the platform's raw text blindly, never graphql-request's (it embeds the request),
// never a token. Tools turn these into results in exactly one place (src/tools/tool-error.ts).

export type PlatformErrorKind =
  | "validation"
  | "authentication"
  | "authorization"
  | "field-restricted"
  | "rate-limited"
  | "platform-failure"
  | "schema-mismatch"
  | "bad-request"
  | "unexpected-response"
  | "network"
  | "timeout"
  | "cancelled"
  | "response-too-large";

export interface PlatformErrorDetails {
  /** The named operation that failed, for example `SearchHires`. */
  operation?: string;
  /** Response path of the failing field, for example `["hire", "rate"]`. */
  path?: (string | number)[];
  /** For validation: dot-notation input paths (`input.date`) to the platform's messages. */
  validation?: Record<string, string[]>;
  /** For rate limits: how long to wait before trying again. */
  retryAfterMs?: number;
  /** A write that is not safe to repeat may or may not have happened. */
  outcomeUnknown?: boolean;
  /** HTTP status, where one explains the failure. */
  status?: number;
  /** GraphQL `extensions.code`, where the platform sent one. */
  code?: string;
  /** How many attempts were made, retries included. */
  attempts?: number;
  cause?: unknown;
}

export abstract class PlatformError extends Error {
  abstract readonly kind: PlatformErrorKind;
  /** Whether sending the same request again may succeed. */
  abstract readonly retryable: boolean;
  /** What the person can do about it, in one sentence. */
  abstract readonly hint: string;
  readonly operation?: string;
  readonly path?: (string | number)[];
  readonly status?: number;
  readonly code?: string;
  attempts?: number;

  constructor(message: string, details: PlatformErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.operation = details.operation;
    this.path = details.path;
    this.status = details.status;
    this.code = details.code;
    this.attempts = details.attempts;
  }
}

export class ValidationError extends PlatformError {
  readonly kind = "validation";
  readonly retryable = false;
  readonly hint = "Correct the named argument and call again.";
  readonly validation: Record<string, string[]>;
  constructor(
    message: string,
    details: PlatformErrorDetails & { validation: Record<string, string[]> },
  ) {
    super(message, details);
    this.validation = details.validation;
  }
}

/**
 * Which credential the platform refused: a personal access token from WORKFORCE_TOKEN, or the
 * OAuth sign-in of `workforce-mcp login` that could not be renewed, or a person's sign-in at a team
 * server (`--auth oauth`). Unset for a token a client brought (HTTP per-client mode) or the sandbox's.
 */
export type CredentialKind = "personal-access-token" | "oauth" | "team-sign-in";

export class AuthenticationError extends PlatformError {
  readonly kind = "authentication";
  readonly retryable = false;
  credential?: CredentialKind;
  get hint(): string {
    if (this.credential === "oauth") {
      return "The sign-in could not be renewed: sign-ins last 90 days, and end early when the OAuth client is revoked. Run `workforce-mcp login` again.";
    }
    if (this.credential === "team-sign-in") {
      return "Your sign-in at the platform has ended (sign-ins last 90 days, and end early when they or the server's OAuth client are revoked). Your assistant asks you to sign in again on its next request; reconnect it if it does not.";
    }
    if (this.credential === "personal-access-token") {
      return "The personal access token in WORKFORCE_TOKEN is missing, expired (they last 6 months) or revoked. Create a new personal access token on the platform and set WORKFORCE_TOKEN, or remove WORKFORCE_TOKEN and sign in with `workforce-mcp login`.";
    }
    return "The access token is missing, expired or revoked. Create a new personal access token on the platform and set WORKFORCE_TOKEN.";
  }
  constructor(
    message: string,
    details: PlatformErrorDetails & { credential?: CredentialKind } = {},
  ) {
    super(message, details);
    this.credential = details.credential;
  }
}

export class AuthorizationError extends PlatformError {
  readonly kind = "authorization";
  readonly retryable = false;
  readonly hint =
    "This account may not do that (missing role, or the record belongs to another company). Ask an administrator, or use records you can see.";
}

export class FieldRestrictedError extends PlatformError {
  readonly kind = "field-restricted";
  readonly retryable = false;
  readonly hint = "The rest of the answer is complete; this field is hidden for this account.";
}

export class RateLimitedError extends PlatformError {
  readonly kind = "rate-limited";
  readonly retryable = true;
  readonly retryAfterMs: number;
  get hint(): string {
    const seconds = Math.max(1, Math.ceil(this.retryAfterMs / 1000));
    return `The platform allows a limited number of requests a minute. Wait about ${seconds} second${seconds === 1 ? "" : "s"}, then try again.`;
  }
  constructor(message: string, details: PlatformErrorDetails & { retryAfterMs: number }) {
    super(message, details);
    this.retryAfterMs = details.retryAfterMs;
  }
}

export class PlatformFailureError extends PlatformError {
  readonly kind = "platform-failure";
  readonly retryable = true;
  readonly outcomeUnknown: boolean;
  get hint(): string {
    return this.outcomeUnknown
      ? "The change may or may not have been made. Read the record back before trying again."
      : "This is usually temporary. Try again in a minute.";
  }
  constructor(message: string, details: PlatformErrorDetails = {}) {
    super(message, details);
    this.outcomeUnknown = details.outcomeUnknown ?? false;
  }
}

export class SchemaMismatchError extends PlatformError {
  readonly kind = "schema-mismatch";
  readonly retryable = false;
  readonly hint =
    "The platform's API has changed and this server's query no longer fits it. Update workforce-mcp, or report the field named here.";
}

export class BadRequestError extends PlatformError {
  readonly kind = "bad-request";
  readonly retryable = false;
  readonly hint =
    "The platform rejected the HTTP request itself. Check WORKFORCE_API_URL; this is likely a bug in workforce-mcp.";
}

export class UnexpectedResponseError extends PlatformError {
  readonly kind = "unexpected-response";
  readonly outcomeUnknown: boolean;
  get retryable(): boolean {
    return this.status !== undefined && this.status >= 500;
  }
  get hint(): string {
    if (this.outcomeUnknown)
      return "The change may or may not have been made. Read the record back before trying again.";
    return this.retryable
      ? "The platform is having trouble. Try again in a minute."
      : `The address${this.host ? ` ${this.host}` : ""} answered with something that is not the platform's GraphQL API. Check WORKFORCE_API_URL (the platform's GraphQL endpoint, often ending in /graphql).`;
  }
  /** The host that answered, to spot a wrong address. */
  readonly host?: string;
  constructor(message: string, details: PlatformErrorDetails & { host?: string } = {}) {
    super(message, details);
    this.outcomeUnknown = details.outcomeUnknown ?? false;
    this.host = details.host;
  }
}

export class NetworkError extends PlatformError {
  readonly kind = "network";
  readonly outcomeUnknown: boolean;
  /**
   * When no connection could be made at all (refused, unknown name, no route, TLS): what is wrong
   * with the address and what to check. Such a failure is not retried: it is not a passing one.
   */
  readonly unreachable?: string;
  get retryable(): boolean {
    return this.unreachable === undefined;
  }
  get hint(): string {
    if (this.unreachable) return this.unreachable;
    return this.outcomeUnknown
      ? "The connection dropped after the change was sent, so it may or may not have been made. Read the record back before trying again."
      : "Could not reach the platform. Check the network and WORKFORCE_API_URL, then try again.";
  }
  constructor(message: string, details: PlatformErrorDetails & { unreachable?: string } = {}) {
    super(message, details);
    this.outcomeUnknown = details.outcomeUnknown ?? false;
    this.unreachable = details.unreachable;
  }
}

export class TimeoutError extends PlatformError {
  readonly kind = "timeout";
  readonly retryable = true;
  readonly outcomeUnknown: boolean;
  get hint(): string {
    return this.outcomeUnknown
      ? "The platform did not answer in time after the change was sent, so it may or may not have been made. Read the record back before trying again."
      : "The platform did not answer in time. Try again, or raise WORKFORCE_TIMEOUT_MS.";
  }
  constructor(message: string, details: PlatformErrorDetails = {}) {
    super(message, details);
    this.outcomeUnknown = details.outcomeUnknown ?? false;
  }
}

export class CancelledError extends PlatformError {
  readonly kind = "cancelled";
  readonly retryable = false;
  readonly hint = "The request was cancelled before it finished.";
  /** A write cancelled after it was sent may or may not have happened. */
  readonly outcomeUnknown: boolean;
  constructor(message: string, details: PlatformErrorDetails = {}) {
    super(message, details);
    this.outcomeUnknown = details.outcomeUnknown ?? false;
  }
}

/** The platform's answer passed WORKFORCE_MAX_RESPONSE_BYTES; it was not read to the end. */
export class ResponseTooLargeError extends PlatformError {
  readonly kind = "response-too-large";
  // The same request gets the same oversized answer.
  readonly retryable = false;
  readonly limitBytes: number;
  /** The size the platform declared (Content-Length), when it declared one. */
  readonly declaredBytes?: number;
  /** A write whose answer was not read may or may not have happened. */
  readonly outcomeUnknown: boolean;
  get hint(): string {
    return this.outcomeUnknown
      ? "The change may or may not have been made. Read the record back before trying again."
      : "Ask for less (fewer results per page with `first`, a later page, or a narrower filter), or raise WORKFORCE_MAX_RESPONSE_BYTES.";
  }
  constructor(
    message: string,
    details: PlatformErrorDetails & { limitBytes: number; declaredBytes?: number },
  ) {
    super(message, details);
    this.limitBytes = details.limitBytes;
    this.declaredBytes = details.declaredBytes;
    this.outcomeUnknown = details.outcomeUnknown ?? false;
  }
}

export function isPlatformError(value: unknown): value is PlatformError {
  return value instanceof PlatformError;
}

/** True when a write may have happened although no answer said so. */
export function isOutcomeUnknown(error: PlatformError): boolean {
  return (
    "outcomeUnknown" in error && (error as { outcomeUnknown?: boolean }).outcomeUnknown === true
  );
}
