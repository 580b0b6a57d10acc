import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  FieldRestrictedError,
  type PlatformError,
  PlatformFailureError,
  RateLimitedError,
  SchemaMismatchError,
  ValidationError,
} from "./errors.js";

// Turns the platform's error entries into our typed errors, following PLATFORM.md "Errors": the
// gateway's codes first, then DOWNSTREAM_SERVICE_ERROR told apart by its shape.

export interface GraphQLErrorEntry {
  message?: unknown;
  path?: unknown;
  extensions?: {
    code?: unknown;
    validation?: unknown;
    guards?: unknown;
    [key: string]: unknown;
  };
}

const FIELD_RESTRICTED_MESSAGE = "You are not authorized to access this field.";
const NOT_AUTHORIZED_MESSAGE = "You are not authorized to perform this action.";

const SCHEMA_CODES = new Set([
  "GRAPHQL_VALIDATION_FAILED",
  "GRAPHQL_PARSE_FAILED",
  "BAD_USER_INPUT",
]);

export interface ClassifyContext {
  operation: string;
  /** Whether `data` held anything, which tells a restricted field from a refused operation. */
  hasData: boolean;
  /** Back-off estimate for a rate-limit answer. */
  retryAfterMs: number;
  status?: number;
}

export function classifyEntry(entry: GraphQLErrorEntry, ctx: ClassifyContext): PlatformError {
  const message = typeof entry.message === "string" ? entry.message : "";
  const code = typeof entry.extensions?.code === "string" ? entry.extensions.code : undefined;
  const path = readPath(entry.path);
  const base = { operation: ctx.operation, path, code, status: ctx.status };
  const op = ctx.operation;

  if (code !== undefined && SCHEMA_CODES.has(code)) {
    const subject = schemaSubject(message, code);
    const what =
      code === "GRAPHQL_PARSE_FAILED"
        ? "the platform could not parse it"
        : code === "BAD_USER_INPUT"
          ? `a value does not fit the type the platform declares${subject ? ` (${subject})` : ""}`
          : subject
            ? `${subject} is not in the platform's schema as used`
            : "the platform's schema rejected it";
    return new SchemaMismatchError(
      `The ${op} request does not fit the platform's API: ${what}.`,
      base,
    );
  }
  if (code === "BAD_REQUEST") {
    return new BadRequestError(
      `The platform refused the HTTP request for ${op} as malformed (BAD_REQUEST).`,
      base,
    );
  }

  const validation = readValidation(entry.extensions?.validation);
  if (validation) {
    const fields = Object.keys(validation);
    return new ValidationError(
      fields.length > 0
        ? `The platform rejected the input of ${op}: ${fields
            .map((f) => `${f}: ${(validation[f] ?? []).join(" ")}`)
            .join("; ")}`
        : `The platform rejected the input of ${op}.`,
      { ...base, validation },
    );
  }
  const guards = Array.isArray(entry.extensions?.guards) ? entry.extensions.guards : [];
  if (guards.includes("api") || message === "Unauthenticated.") {
    return new AuthenticationError(
      `The platform did not accept the access token for ${op}: it is missing, expired or revoked.`,
      base,
    );
  }
  if (message === FIELD_RESTRICTED_MESSAGE) {
    return new FieldRestrictedError(
      `The platform hides ${path ? `\`${path.join(".")}\`` : "a field"} from this account.`,
      base,
    );
  }
  if (message === NOT_AUTHORIZED_MESSAGE) {
    return new AuthorizationError(
      `This account is not allowed to ${path ? `use \`${path.join(".")}\` in ${op}` : `run ${op}`}.`,
      base,
    );
  }
  if (/too many requests/i.test(message)) {
    return new RateLimitedError(
      `The platform's rate limit was reached; ${op} was not carried out.`,
      { ...base, retryAfterMs: ctx.retryAfterMs },
    );
  }
  return new PlatformFailureError(
    `The platform failed while handling ${op}${path ? ` at \`${path.join(".")}\`` : ""}.`,
    base,
  );
}

/** Names the field, argument, type or variable a gateway message is about, if it says. */
function schemaSubject(message: string, code?: string): string | undefined {
  if (code === "GRAPHQL_PARSE_FAILED") return undefined;
  const patterns: [RegExp, (m: RegExpMatchArray) => string][] = [
    [/Cannot query field "([^"]+)" on type "([^"]+)"/, (m) => `field \`${m[2]}.${m[1]}\``],
    [
      /Unknown argument "([^"]+)" on field "([^"]+)"/,
      (m) => `argument \`${m[1]}\` of field \`${m[2]}\``,
    ],
    [
      /Field "([^"]+)" argument "([^"]+)" of type "([^"]+)" is required/,
      (m) => `required argument \`${m[2]}\` of field \`${m[1]}\``,
    ],
    [/Unknown type "([^"]+)"/, (m) => `type \`${m[1]}\``],
    [
      /Variable "\$([^"]+)" got invalid value .*? at "([^"]+)"/,
      (m) => `variable \`$${m[1]}\` at \`${m[2]}\``,
    ],
    [/Variable "\$([^"]+)"/, (m) => `variable \`$${m[1]}\``],
    [/Field "([^"]+)"/, (m) => `field \`${m[1]}\``],
    [/[Aa]rgument "([^"]+)"/, (m) => `argument \`${m[1]}\``],
  ];
  for (const [pattern, render] of patterns) {
    const match = message.match(pattern);
    if (match) return render(match);
  }
  return undefined;
}

function readPath(value: unknown): (string | number)[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const path = value.filter(
    (p): p is string | number => typeof p === "string" || typeof p === "number",
  );
  return path.length > 0 ? path : undefined;
}

function readValidation(value: unknown): Record<string, string[]> | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(value)) {
    out[key] = Array.isArray(messages)
      ? messages.filter((m): m is string => typeof m === "string")
      : typeof messages === "string"
        ? [messages]
        : [];
  }
  return out;
}

/** Most telling first: the error `run` throws and `request` throws when there is no data. */
const PRIORITY: PlatformError["kind"][] = [
  "authentication",
  "rate-limited",
  "schema-mismatch",
  "bad-request",
  "validation",
  "authorization",
  "platform-failure",
  "unexpected-response",
  "field-restricted",
];

export function mostTelling(errors: PlatformError[]): PlatformError | undefined {
  return [...errors].sort((a, b) => rank(a) - rank(b))[0];
}

function rank(error: PlatformError): number {
  const index = PRIORITY.indexOf(error.kind);
  return index < 0 ? PRIORITY.length : index;
}

/** One entry per argument the platform rejected, named as the tool's caller knows it. */
export function validationArguments(
  error: ValidationError,
): { path: string; argument: string; messages: string[] }[] {
  return Object.entries(error.validation).map(([path, messages]) => ({
    path,
    argument: path.startsWith("input.") ? path.slice("input.".length) : path,
    messages,
  }));
}
