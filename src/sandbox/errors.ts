// The platform's error shapes (PLATFORM-INTERFACE.md §7), built in one place.
import { GraphQLError } from "graphql";

const platform = { code: "DOWNSTREAM_SERVICE_ERROR", serviceName: "platform" } as const;

export const MESSAGES = {
  unauthenticated: "Unauthenticated.",
  unauthorized: "You are not authorized to perform this action.",
  restrictedField: "You are not authorized to access this field.",
  tooManyRequests: "Too Many Requests",
  internal: "Internal server error.",
} as const;

/** Thrown from a resolver: graphql-js adds `path` and `locations`, and nulls the field. */
export function authorizationError(): GraphQLError {
  return new GraphQLError(MESSAGES.unauthorized, { extensions: { ...platform } });
}

export function restrictedFieldError(): GraphQLError {
  return new GraphQLError(MESSAGES.restrictedField, { extensions: { ...platform } });
}

/** `validation` maps dot paths such as `input.date` to messages; the message names the field. */
function validationError(field: string, validation: Record<string, string[]>): GraphQLError {
  return new GraphQLError(`Validation failed for the field [${field}].`, {
    extensions: { ...platform, validation },
  });
}

/** Collects field problems and throws them together, as the platform reports all at once. */
export class ValidationCollector {
  readonly issues: Record<string, string[]> = {};
  add(path: string, message: string): void {
    const list = this.issues[path] ?? [];
    list.push(message);
    this.issues[path] = list;
  }
  get empty(): boolean {
    return Object.keys(this.issues).length === 0;
  }
  throwIfAny(field: string): void {
    if (!this.empty) throw validationError(field, this.issues);
  }
  /**
   * Throws the issues, if any; otherwise the record checked along with them, whose absence would
   * have added one (so a missing record here is a bug of the sandbox, said as such).
   */
  passed<T>(field: string, record: T | null | undefined): T {
    this.throwIfAny(field);
    if (record === null || record === undefined) {
      throw new Error("The sandbox validated a write whose record is missing.");
    }
    return record;
  }
}

export interface ErrorBody {
  errors: Array<Record<string, unknown>>;
  data?: null;
}

export const tooManyRequestsBody = (): ErrorBody => ({
  errors: [{ message: MESSAGES.tooManyRequests, extensions: { ...platform } }],
  data: null,
});

export const internalErrorBody = (): ErrorBody => ({
  errors: [{ message: MESSAGES.internal, extensions: { ...platform } }],
  data: null,
});

export const gatewayError = (
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
) => ({
  message,
  ...extra,
  extensions: { code },
});
