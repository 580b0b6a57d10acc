// The platform's error shapes (PLATFORM-INTERFACE.md §7), built in one place.
import {
  type ExecutionResult,
  type FieldNode,
  GraphQLError,
  Kind,
  type OperationDefinitionNode,
} from "graphql";

const platform = { code: "DOWNSTREAM_SERVICE_ERROR", serviceName: "platform" } as const;

const MESSAGES = {
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

/** The platform's failure of a whole request (§7.7, §7.8): no `data`, one error. */
const failure = (message: string): ExecutionResult => ({
  errors: [new GraphQLError(message, { extensions: { ...platform } })],
  data: null,
});

export const tooManyRequests = (): ExecutionResult => failure(MESSAGES.tooManyRequests);

export const internalError = (): ExecutionResult => failure(MESSAGES.internal);

/** The platform's answer to a request without a valid token (§7.4), at its first root field. */
export function unauthenticated(operation: OperationDefinitionNode): ExecutionResult {
  const field = operation.selectionSet.selections.find(
    (s): s is FieldNode => s.kind === Kind.FIELD,
  );
  const error = new GraphQLError(MESSAGES.unauthenticated, {
    nodes: field,
    path: field ? [(field.alias ?? field.name).value] : [],
    extensions: { ...platform, guards: ["api"] },
  });
  return { errors: [error], data: null };
}

/** The gateway's own error (§7.2): the same message and position, with `code` as its extensions. */
export function gatewayError(error: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    originalError: error.originalError,
    extensions: { code },
  });
}
