// The defaults and the fixed choices of the settings, shared by the schema and the help text.

export const DEFAULTS = {
  httpPort: 3333,
  host: "127.0.0.1",
  timeoutMs: 30_000,
  rateLimitPerMinute: 60,
  retryBaseMs: 1_000,
  maxRetries: 3,
  timesheetChunkSize: 100,
  maxSessions: 1_000,
  sessionIdleMinutes: 30,
  maxResponseBytes: 5 * 1024 * 1024,
  maxAnswerBytes: 128 * 1024,
  /** Received webhook events are kept this many days, at most this many per company. */
  webhookRetentionDays: 7,
  webhookMaxEvents: 10_000,
  /** Bytes all received events may count, and one company's. */
  webhookMaxBytes: 64 * 1024 * 1024,
  webhookCompanyMaxBytes: 4 * 1024 * 1024,
  /** Where `workforce-mcp login` receives the platform's answer; register it with the OAuth client. */
  redirectUri: "http://127.0.0.1:41793/callback",
} as const;

export const TOOLSETS = [
  "accounts",
  "hires",
  "contracts",
  "invoices",
  "timesheets",
  "talent",
  "jobs",
  "platform",
  "live",
  "records",
] as const;
export type Toolset = (typeof TOOLSETS)[number];

/**
 * What an unset --toolsets makes reachable ("default" in a list names these): every toolset. Only a
 * core is listed at first; the assistant finds the rest itself (src/tools/reach.ts).
 */
export const DEFAULT_TOOLSETS: readonly Toolset[] = [...TOOLSETS];

/**
 * How a change that needs confirmation is confirmed: `token` (the default) asks the person with a
 * form when the client can show one, else returns a preview and a single-use token; `elicitation`
 * refuses such changes unless the client can show the form, so the model alone can never confirm.
 */
export const CONFIRM_MODES = ["token", "elicitation"] as const;

/**
 * How HTTP clients authenticate: `token` (the default) uses WORKFORCE_TOKEN, a stored sign-in, or
 * (only with --token-passthrough) each client's platform token as a bearer; `oauth` makes the
 * server an OAuth resource and authorization server where each person signs in with the
 * platform's own OAuth.
 */
export const AUTH_MODES = ["token", "oauth"] as const;
