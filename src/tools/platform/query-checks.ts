// query_platform's checks, all local: nothing reaches the platform until a document passes them.
// The platform bounds cost too (complexity limit, page size) but says neither its limits nor its
// errors (PLATFORM-INTERFACE.md §7, §8), so the server refuses early and says why.
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  GraphQLInt,
  type GraphQLNamedType,
  type GraphQLSchema,
  getVariableValues,
  isAbstractType,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  type SelectionSetNode,
  TypeInfo,
  validate,
  valueFromAST,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { oneLine } from "../../client/platform-text.js";
import { ToolInputError } from "../define-tool.js";
import { sensitiveField } from "./sensitive-fields.js";

export const QUERY_LIMITS = {
  /** Page size: the platform documents "typically at most 100". */
  maxFirst: 100,
  /** Nested fields, the root field being 1: `hires { data { id } }` is 3 deep. */
  maxDepth: 8,
  /** Aliases, counted as often as their fragments are spread. */
  maxAliases: 20,
  /** Fields once fragments are spread: a few fragments spread in each other multiply. */
  maxFields: 500,
  /** Lexical tokens of the document, so a huge document is refused before it is parsed whole. */
  maxTokens: 5000,
} as const;

/**
 * Arguments that set a page size. The real schema has only `first` (a test checks that every Int
 * argument there is known), so a new name is noticed.
 */
export const PAGE_SIZE_ARGUMENTS: readonly string[] = ["first"];

/** The name the document is sent under, whatever (or whether) the caller named it. */
export const OPERATION_NAME = "QueryPlatform";

export interface CheckedQuery {
  /** The document to send: the caller's one query, printed, named OPERATION_NAME. */
  document: string;
  variables: Record<string, unknown>;
}

const EXAMPLE = "{ hires(first: 5) { data { id status } } }";

/** Parses and checks one read-only query; throws a ToolInputError saying what to change. */
export function checkQuery(
  schema: GraphQLSchema,
  source: string,
  variables: Record<string, unknown>,
  options: { sandbox: boolean },
): CheckedQuery {
  const document = parseQuery(source);
  const operation = onlyQuery(document);
  refuseSensitive(schema, document);
  const errors = validate(schema, document, undefined, { maxErrors: 10 });
  if (errors.length > 0) throw invalid(errors, options.sandbox);
  const coerced = checkVariables(schema, operation, variables);
  checkCost(document, operation, coerced);
  const named = visit(document, {
    OperationDefinition: (node) => ({
      ...node,
      name: { kind: Kind.NAME, value: OPERATION_NAME },
    }),
  });
  return { document: print(named), variables };
}

function parseQuery(source: string): DocumentNode {
  try {
    return parse(source, { maxTokens: QUERY_LIMITS.maxTokens });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    throw new ToolInputError(
      `the query is not valid GraphQL: ${located(error)}`,
      "query",
      `Write one GraphQL query, for example ${EXAMPLE}.`,
    );
  }
}

function onlyQuery(document: DocumentNode): OperationDefinitionNode {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operations.length !== 1) {
    throw new ToolInputError(
      operations.length === 0
        ? "the document has no query"
        : `the document has ${operations.length} operations; one per call`,
      "query",
      `Send one query per call (fragments may go with it), for example ${EXAMPLE}.`,
    );
  }
  const operation = operations[0] as OperationDefinitionNode;
  if (operation.operation !== "query") {
    throw new ToolInputError(
      `${operation.operation}s are refused: query_platform only reads`,
      "query",
      "Write a query. Changes go through this server's other tools, which check and confirm them.",
    );
  }
  return operation;
}

/** Secrets and identifiers (sensitive-fields.ts) and raw introspection, wherever selected. */
function refuseSensitive(schema: GraphQLSchema, document: DocumentNode): void {
  const typeInfo = new TypeInfo(schema);
  const refused = new Map<string, string>();
  const check = (parent: GraphQLNamedType, field: string) => {
    const owners = isAbstractType(parent) ? [parent, ...schema.getPossibleTypes(parent)] : [parent];
    for (const owner of owners) {
      const entry = sensitiveField(owner.name, field);
      if (entry) refused.set(`${entry.type}.${entry.field}`, entry.reason);
    }
  };
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node: FieldNode) {
        const name = node.name.value;
        if (name === "__schema" || name === "__type") {
          refused.set(name, "introspection; describe_schema shows the schema");
          return;
        }
        const parent = typeInfo.getParentType();
        if (parent) check(parent, name);
      },
    }),
  );
  if (refused.size === 0) return;
  const list = [...refused].map(([field, reason]) => `${field} (${reason})`).join(", ");
  throw new ToolInputError(
    `the query asks for ${refused.size === 1 ? "a field" : "fields"} this server never reads: ${list}`,
    "query",
    "Leave those fields out; the rest of the query can stay.",
  );
}

function invalid(errors: readonly GraphQLError[], sandbox: boolean): ToolInputError {
  const messages = errors.slice(0, 5).map(located);
  const more = errors.length > 5 ? ` (and ${errors.length - 5} more)` : "";
  const unknown = errors.some((e) =>
    /^(Cannot query field|Unknown argument|Unknown type)/.test(e.message),
  );
  const hints = [
    "Check the names with describe_schema (search, or typeName for one type's fields and arguments).",
  ];
  if (sandbox && unknown) {
    hints.unshift(
      "This is the sandbox, which models only part of the platform: the name may exist on the real platform but not here.",
    );
  }
  return new ToolInputError(
    `the query does not fit the platform's schema: ${messages.join("; ")}${more}`,
    "query",
    hints.join(" "),
  );
}

function checkVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const definitions = operation.variableDefinitions ?? [];
  const declared = new Set(definitions.map((d) => d.variable.name.value));
  const undeclared = Object.keys(variables).filter((name) => !declared.has(name));
  if (undeclared.length > 0) {
    throw new ToolInputError(
      `the query does not declare ${undeclared.map((n) => `$${oneLine(n, 60)}`).join(", ")}`,
      "variables",
      "Declare each variable in the query, e.g. query($first: Int!) { hires(first: $first) { data { id } } }, or leave it out of variables.",
    );
  }
  const result = getVariableValues(schema, definitions, variables, { maxErrors: 5 });
  if (result.errors) {
    throw new ToolInputError(
      `the variables do not fit the query: ${result.errors.map((e) => e.message).join("; ")}`,
      "variables",
      "Give each declared variable a value of its declared type.",
    );
  }
  return result.coerced;
}

/** Page sizes, depth, aliases and fields, counted with fragments spread where they are used. */
function checkCost(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): void {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  }
  const problems = new Set<string>();
  let depth = 0;
  let aliases = 0;
  let fields = 0;

  const walk = (set: SelectionSetNode, level: number, path: string): void => {
    for (const selection of set.selections) {
      if (fields > QUERY_LIMITS.maxFields) return;
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet, level, path);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet, level, path);
        continue;
      }
      fields++;
      if (selection.alias) aliases++;
      depth = Math.max(depth, level);
      const here = path ? `${path}.${selection.name.value}` : selection.name.value;
      for (const arg of selection.arguments ?? []) {
        if (!PAGE_SIZE_ARGUMENTS.includes(arg.name.value)) continue;
        const value = valueFromAST(arg.value, GraphQLInt, variables);
        if (typeof value === "number" && value > QUERY_LIMITS.maxFirst) {
          problems.add(
            `${arg.name.value}: ${value} on ${here} (at most ${QUERY_LIMITS.maxFirst}; ask for the next page instead)`,
          );
        }
      }
      if (selection.selectionSet) walk(selection.selectionSet, level + 1, here);
    }
  };
  walk(operation.selectionSet, 1, "");

  if (depth > QUERY_LIMITS.maxDepth) {
    problems.add(`it nests ${depth} fields deep (at most ${QUERY_LIMITS.maxDepth})`);
  }
  if (aliases > QUERY_LIMITS.maxAliases) {
    problems.add(`it has ${aliases} aliases (at most ${QUERY_LIMITS.maxAliases})`);
  }
  if (fields > QUERY_LIMITS.maxFields) {
    problems.add(`it selects over ${QUERY_LIMITS.maxFields} fields once fragments are spread`);
  }
  if (problems.size > 0) {
    throw new ToolInputError(
      `the query is over this server's limits: ${[...problems].join("; ")}`,
      "query",
      "Make it smaller: fewer nested levels, fewer aliases (one call per list instead), smaller pages.",
    );
  }
}

/** "Cannot query field … (line 1, column 3)": graphql-js's message, with where. */
function located(error: GraphQLError): string {
  const at = error.locations?.[0];
  const message = error.message.replace(/^Syntax Error: /, "").replace(/\.$/, "");
  return at ? `${message} (line ${at.line}, column ${at.column})` : message;
}

/** Exposed for the tool's errors: the field path a platform error points at. */
export function pathText(path: readonly (string | number)[] | undefined): string | undefined {
  return path && path.length > 0 ? path.map((p) => oneLine(p, 60)).join(".") : undefined;
}
