import type { CredentialKind, PlatformError } from "./errors.js";

/**
 * Where a client gets its bearer token when it is not one fixed string: the OAuth sign-in of
 * `workforce-mcp login` (src/auth), which renews itself. The client never sees refresh tokens.
 */
export interface TokenSource {
  readonly kind: CredentialKind;
  /**
   * Names the person for the rate budget, when tokens of one person may come from several sources
   * (each HTTP session of a team server's sign-in has its own); never a token.
   */
  readonly budgetKey?: string;
  /**
   * The access token to send now; renews it first when it is about to expire. Throws a
   * PlatformError (for example AuthenticationError) when there is no usable token.
   */
  current(): Promise<string>;
  /**
   * Called once when the platform answered `Unauthenticated.` to `rejected`: resolves with a
   * different token to try once more, or undefined when renewing is not possible.
   */
  refreshAfterUnauthenticated?(rejected: string): Promise<string | undefined>;
}

/** A named GraphQL operation: every document the project sends is one, in src/client/operations/. */
/**
 * What a mutation does to what exists: "adds" makes something new (a record, an invitation, another
 * delivery attempt) and leaves everything else as it was; "changes" updates, ends or removes
 * something that exists (MCP's destructiveHint).
 */
export type MutationEffect = "adds" | "changes";

export interface Operation<
  TData,
  TVariables extends Record<string, unknown> = Record<string, unknown>,
> {
  /** The operation name inside the document, for example `SearchHires`. */
  readonly name: string;
  readonly document: string;
  readonly type: "query" | "mutation";
  /**
   * Whether sending it again by itself after a lost answer is harmless. Queries are; no mutation
   * is: even createCustomTimesheet, an upsert by externalId, moves money the person confirmed once.
   */
  readonly safeToRepeat: boolean;
  /** A mutation's effect on what exists; absent for a query. */
  readonly effect?: MutationEffect;
  /** Phantom fields that carry the types; never set. */
  readonly __data?: TData;
  readonly __variables?: TVariables;
}

export interface RestrictedField {
  /** Dot path into `data`, for example `hires.data.3.rate`. */
  path: string;
  message: string;
}

/** Data and errors together (as urql does): neither is ever dropped. */
export interface OperationResult<TData> {
  data: TData | null;
  /** Fields the platform hid from this caller; their values in `data` are null. */
  restricted: RestrictedField[];
  /** Every other error entry of the response, classified. */
  errors: PlatformError[];
}

/** W3C trace context a caller sent (MCP `_meta.traceparent`), carried into the platform request. */
export interface TraceContext {
  traceparent: string;
  tracestate?: string;
}

export interface RequestOptions {
  signal?: AbortSignal;
  trace?: TraceContext;
  /** Called when the rate-limit governor makes the call wait longer than about a second. */
  onWait?: (waitMs: number) => void;
}

export interface PlatformClient {
  /**
   * Sends the operation and returns data and errors together. Throws a PlatformError only when
   * there is no usable answer at all (transport failure, or `data` is null with errors).
   */
  request<TData, TVariables extends Record<string, unknown>>(
    operation: Operation<TData, TVariables>,
    variables: NoInfer<TVariables>,
    options?: RequestOptions,
  ): Promise<OperationResult<TData>>;
  /**
   * Like `request`, but also throws the first non-restricted error (so the caller only sees
   * complete data, or data with restricted fields named).
   */
  run<TData, TVariables extends Record<string, unknown>>(
    operation: Operation<TData, TVariables>,
    variables: NoInfer<TVariables>,
    options?: RequestOptions,
  ): Promise<{ data: TData; restricted: RestrictedField[] }>;
  /** Raw introspection for the schema resources, also governed and retried. */
  introspect(options?: RequestOptions): Promise<unknown>;
}

export interface PlatformClientOptions {
  /** Base URL; requests go to `<apiUrl>/graphql`. */
  apiUrl: string;
  /** A fixed token (a personal access token, a client's bearer), or a source that renews itself. */
  token: string | TokenSource;
  /** What a fixed `token` is, for the advice when the platform refuses it. */
  credential?: CredentialKind;
  timeoutMs?: number;
  /** Back-off base: retries wait base, 2×base, 4×base plus up to base of jitter. Default 1000. */
  retryBaseMs?: number;
  maxRetries?: number;
  /** Client-side budget per token, rolling minute. Default 60. */
  rateLimitPerMinute?: number;
  /** Length of the governor's rolling window; 60 000 ms unless a test shortens it. */
  rateLimitWindowMs?: number;
  /** Largest response body read; a larger one fails with ResponseTooLargeError. Default 5 MiB. */
  maxResponseBytes?: number;
  /** How long a new connection may take before the request fails, unsent. Default 5 s. */
  connectTimeoutMs?: number;
  logger?: import("../logger.js").Logger;
  /**
   * Where the rate budget lives when replicas must share it (Redis); without it, this process's
   * governor, as fast as ever.
   */
  stateStore?: import("../state/store.js").StateStore;
}
