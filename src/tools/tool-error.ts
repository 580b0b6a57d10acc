import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
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
  SchemaMismatchError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
} from "../client/errors.js";
import type { Logger } from "../logger.js";
import { ToolInputError } from "./define-tool.js";

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
  return { isError: true, content: [{ type: "text", text: redact(body) }] };
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
        ? `${tool} did not run: argument \`${error.argument}\`: ${sentence(error.message)}`
        : `${tool} did not run: ${sentence(error.message)}`,
      error.hint ? sentence(error.hint) : undefined,
      "Trying again will not help until the arguments are changed.",
    ].filter((l): l is string => l !== undefined);
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
      ([path, messages]) => `- \`${validationArgument(path)}\`: ${messages.join(" ")}`,
    );
    return [
      entries.length > 0
        ? `${tool} failed: the platform rejected ${entries.length === 1 ? "this argument" : "these arguments"}:`
        : `${tool} failed: the platform rejected the input: ${sentence(error.message)}`,
      ...args,
      hint,
      "Trying again will not help until the arguments are corrected.",
    ];
  }
  if (error instanceof AuthenticationError) {
    return [
      `${tool} failed: the platform did not accept the access token; it is missing, expired or revoked.`,
      hint,
      "Trying again will not help until a valid token is configured.",
    ];
  }
  if (error instanceof AuthorizationError) {
    return [
      `${tool} failed: this account is not allowed to do that${where(error)}.`,
      hint,
      "Trying again will not help until the account is given access.",
    ];
  }
  if (error instanceof FieldRestrictedError) {
    return [
      `${tool} failed: the platform hides ${error.path ? `\`${error.path.join(".")}\`` : "a field"} from this account.`,
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
    const field = error.path && error.path.length > 0 ? ` at \`${error.path.join(".")}\`` : "";
    return [
      `${tool} failed: the platform's API changed and no longer fits this server's query${field}: ${sentence(error.message)}`,
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

  const what =
    error instanceof PlatformFailureError
      ? "the platform had an internal failure"
      : error instanceof NetworkError
        ? "the platform could not be reached"
        : error instanceof TimeoutError
          ? "the platform did not answer in time"
          : error instanceof UnexpectedResponseError
            ? `the address answered with something that is not the platform's GraphQL API${error.status ? ` (HTTP ${error.status})` : ""}`
            : sentence(error.message).replace(/\.$/, "");
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
  return error.path && error.path.length > 0 ? ` (\`${error.path.join(".")}\`)` : "";
}

function sentence(text: string): string {
  const t = text.trim();
  return t === "" || /[.!?]$/.test(t) ? t : `${t}.`;
}
