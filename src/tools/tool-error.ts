import type { CallToolResult } from "@modelcontextprotocol/server";
import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  CancelledError,
  FieldRestrictedError,
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
} from "../client/errors.js";
import { formatBytes } from "../client/format-bytes.js";
import { oneLine, quoted } from "../client/platform-text.js";
import type { Logger } from "../logger.js";
import { SharedStateUnavailableError } from "../state/store.js";
import { ConfirmationUnavailableError, OutcomeStillUnknownError } from "./confirmation.js";
import { MAX_SHOWN_VALUE, NotAllowedError, shown, ToolInputError } from "./define-tool.js";

// The one place where anything a tool throws becomes what the assistant reads. Every result says
// what went wrong, which argument (if one), what the person can do, and whether trying again helps.

export interface ToolErrorOptions {
  /** Redacts secrets from the text and receives the details of unexpected errors. */
  logger?: Logger;
  /** Put in front of the text, for example the sandbox notice. */
  prefix?: string;
}

export function toToolErrorResult(
  error: unknown,
  toolName: string,
  options: ToolErrorOptions = {},
): CallToolResult {
  const lines = describe(error, toolName, options.logger);
  const body = [options.prefix, ...lines].filter((l): l is string => Boolean(l)).join("\n");
  const redact = options.logger?.redact ?? ((t: string) => t);
  // Redact first: a cut could split a token so that the redactor no longer recognises it.
  const text = redact(body).split("\n").map(boundedLine).join("\n");
  return { isError: true, content: [{ type: "text", text }] };
}

/** Longest line an error result carries; the argument's name comes first, so it survives. */
const MAX_LINE = 1000;
const LONG_RUN = new RegExp(`\\S{${MAX_SHOWN_VALUE + 1},}`, "g");

/**
 * Argument values (ours or the platform's, echoed in any message) are cut to a few hundred
 * characters: a 1 MB id must not come back whole.
 */
function boundedLine(line: string): string {
  return shown(
    line.replace(LONG_RUN, (run) => shown(run)),
    MAX_LINE,
  );
}

/** `input.registrations.3.hours` → `registrations[3].hours`: the names the tool's caller used. */
export function validationArgument(path: string): string {
  const parts = path.split(".");
  if (parts[0] === "input" && parts.length > 1) parts.shift();
  return parts.reduce(
    (out, part) => (/^\d+$/.test(part) ? `${out}[${part}]` : out ? `${out}.${part}` : part),
    "",
  );
}

function describe(error: unknown, tool: string, logger: Logger | undefined): string[] {
  if (error instanceof ToolInputError) {
    return [
      error.argument
        ? `${tool} did not run: argument \`${error.argument}\`: ${sentence(flat(error.message))}`
        : `${tool} did not run: ${sentence(flat(error.message))}`,
      error.hint ? sentence(flat(error.hint)) : undefined,
      "Trying again will not help until the arguments are changed.",
    ].filter((l): l is string => l !== undefined);
  }
  if (error instanceof ConfirmationUnavailableError) {
    return [
      `${tool} did not run: ${sentence(flat(error.message))}`,
      "Ask the person to make this change on the platform itself, or to use an assistant that can show confirmation forms. Trying again with this client will not help.",
    ];
  }
  if (error instanceof OutcomeStillUnknownError) {
    return [
      `${tool} did not run: ${sentence(flat(error.message))}`,
      `The platform may still make that change, so nothing was sent now. Check with ${flat(error.check)}: if it shows the change, it is done. If it still does not after ${flat(error.until)}, the earlier attempt did not happen and the change may be made again.`,
    ];
  }
  if (error instanceof NotAllowedError) {
    return [
      `${tool} did not run: ${sentence(flat(error.message)).replace(/\.$/, "")}; ask someone with ${flat(error.rights)} rights.`,
      "Nothing was changed. Trying again will not help until the account is given those rights.",
    ];
  }
  if (error instanceof SharedStateUnavailableError) {
    return [
      `${tool} did not run: ${sentence(flat(error.message))}`,
      "Nothing was sent to the platform and nothing was changed.",
      error.where === "Redis"
        ? "Trying again in a minute may work; if it keeps failing, ask whoever runs this server to check its Redis."
        : `Trying again in a minute may work; if it keeps failing, check that ${error.where} can be read and written.`,
    ];
  }
  if (isPlatformError(error)) return describePlatformError(error, tool);
  // Anything else is a bug here, not the person's doing: no message, no stack, no token.
  logger?.error(`${tool} failed unexpectedly`, {
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
  });
  if (error instanceof Error && error.stack) logger?.debug(error.stack);
  return [
    `${tool} failed because of an unexpected problem inside workforce-mcp (not on the platform).`,
    "The details are in the server's log. If it keeps happening, report it with that log.",
    "Trying again may work once; if it fails the same way, it will not help until the server is fixed.",
  ];
}

function describePlatformError(error: PlatformError, tool: string): string[] {
  const tries = error.attempts && error.attempts > 1 ? ` (after ${error.attempts} attempts)` : "";
  const hint = sentence(error.hint);

  if (error instanceof ValidationError) {
    const entries = Object.entries(error.validation);
    const args = entries.map(
      // The platform's own words: quoted, so they read as its message, not as ours.
      ([path, messages]) =>
        `- \`${flat(validationArgument(path))}\`: ${quoted(messages.join(" "), MAX_MESSAGE)}`,
    );
    return [
      entries.length > 0
        ? `${tool} failed: the platform rejected ${entries.length === 1 ? "this argument" : "these arguments"}:`
        : `${tool} failed: the platform rejected the input: ${sentence(flat(error.message))}`,
      ...args,
      hint,
      "Trying again will not help until the arguments are corrected.",
    ];
  }
  if (error instanceof AuthenticationError) {
    if (error.credential === "team-sign-in") {
      return [
        `${tool} failed: the platform no longer accepts your sign-in, and it could not be renewed.`,
        hint,
        "Trying again will not help until you have signed in again.",
      ];
    }
    if (error.credential === "oauth") {
      return [
        `${tool} failed: the platform no longer accepts your sign-in, and it could not be renewed.`,
        hint,
        "Trying again will not help until you have run `workforce-mcp login` again.",
      ];
    }
    return [
      `${tool} failed: the platform did not accept the access token; it is missing, expired or revoked.`,
      hint,
      error.credential === "personal-access-token"
        ? "Trying again will not help until WORKFORCE_TOKEN holds a valid token or you have signed in with `workforce-mcp login`."
        : "Trying again will not help until a valid token is configured.",
    ];
  }
  if (error instanceof AuthorizationError) {
    return [
      `${tool} failed: your account is not allowed to do that${where(error)}; ask someone with the rights for it at that company.`,
      hint,
      "Nothing was changed. Trying again will not help until the account is given access.",
    ];
  }
  if (error instanceof FieldRestrictedError) {
    return [
      `${tool} failed: the platform hides ${error.path ? `\`${flat(error.path.join("."))}\`` : "a field"} from this account.`,
      hint,
      "Trying again will not help until the account may see that field.",
    ];
  }
  if (error instanceof RateLimitedError) {
    const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    return [
      `${tool} failed: the platform's rate limit was reached${tries}.`,
      hint,
      `Trying again in ${seconds} seconds should work.`,
    ];
  }
  if (error instanceof SchemaMismatchError) {
    const field =
      error.path && error.path.length > 0 ? ` at \`${flat(error.path.join("."))}\`` : "";
    return [
      `${tool} failed: the platform's API changed and no longer fits this server's query${field}: ${sentence(flat(error.message))}`,
      hint,
      "Trying again will not help until workforce-mcp is updated for the platform's current API.",
    ];
  }
  if (error instanceof BadRequestError) {
    return [
      `${tool} failed: the platform refused the HTTP request itself${error.status ? ` (HTTP ${error.status})` : ""}.`,
      hint,
      "Trying again will not help until WORKFORCE_API_URL or workforce-mcp is fixed.",
    ];
  }
  if (error instanceof CancelledError) {
    return [
      `${tool} was cancelled before it finished.`,
      isOutcomeUnknown(error)
        ? "If it was making a change, the change may have happened. Read the record back before calling it again."
        : "Nothing more will happen for this call; call the tool again to start afresh.",
    ];
  }

  if (error instanceof ResponseTooLargeError) {
    const limit = formatBytes(error.limitBytes);
    const size =
      error.declaredBytes !== undefined
        ? ` (it announced ${formatBytes(error.declaredBytes)})`
        : "";
    if (isOutcomeUnknown(error)) {
      return [
        `${tool} failed: the platform's answer to the change was larger than ${limit}${size}, the most this server reads (WORKFORCE_MAX_RESPONSE_BYTES), so it was not read. The change may have happened, or may not.`,
        hint,
        "Do not simply try again: read the record back first, then try again only if the change is missing.",
      ];
    }
    return [
      `${tool} failed: the platform's answer was larger than ${limit}${size}, the most this server reads (WORKFORCE_MAX_RESPONSE_BYTES), so it was not read.`,
      "Ask for less: fewer results per page (a smaller `first`), a later page, or a narrower filter (a search term, a status, a date range). Or raise WORKFORCE_MAX_RESPONSE_BYTES (in bytes) in the server's configuration and restart it.",
      "Trying the same call again will not help; narrow the request or raise the limit first.",
    ];
  }

  const what =
    error instanceof PlatformFailureError
      ? "the platform had an internal failure"
      : error instanceof NetworkError
        ? "the platform could not be reached"
        : error instanceof TimeoutError
          ? "the platform did not answer in time"
          : error instanceof UnexpectedResponseError
            ? `the address answered with something that is not the platform's GraphQL API${error.status ? ` (HTTP ${error.status})` : ""}`
            : sentence(flat(error.message)).replace(/\.$/, "");
  if (isOutcomeUnknown(error)) {
    return [
      `${tool} failed: ${what} after the change was sent${tries}. The change may have happened, or may not.`,
      hint,
      "Do not simply try again: read the record back first, then try again only if the change is missing.",
    ];
  }
  return [
    `${tool} failed: ${what}${tries}.`,
    hint,
    error.retryable
      ? "Trying again in 60 seconds should work."
      : "Trying again will not help until the configuration is fixed.",
  ];
}

function where(error: PlatformError): string {
  return error.path && error.path.length > 0 ? ` (\`${flat(error.path.join("."))}\`)` : "";
}

/** Longest platform message quoted in a validation line. */
const MAX_MESSAGE = 1000;

/** Messages embed platform values (paths, messages): never let one start a line of its own. */
function flat(text: string): string {
  return oneLine(text, Number.POSITIVE_INFINITY);
}

function sentence(text: string): string {
  const t = text.trim();
  return t === "" || /[.!?]$/.test(t) ? t : `${t}.`;
}
