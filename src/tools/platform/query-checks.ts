// query_platform's checks, all local: nothing reaches the platform until a document passes them.
// The platform bounds cost too (complexity limit, page size) but says neither its limits nor its
// errors (PLATFORM-INTERFACE.md §7, §8), so the server refuses early and says why.
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLField,
  GraphQLInt,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  getVariableValues,
  isAbstractType,
  isInterfaceType,
  isListType,
  isObjectType,
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
import { formatBytes } from "../../client/format-bytes.js";
import { oneLine } from "../../client/platform-text.js";
import { ToolInputError } from "../define-tool.js";
import { deeperThan } from "../nesting.js";
import type { Reach } from "../reach.js";
import { whoMakes } from "./mutation-tools.js";
import { sensitiveField } from "./sensitive-fields.js";

export const QUERY_LIMITS = {
  /**
   * The main cost rule: values the answer could hold with every page full (estimateQuery). The
   * platform caps query complexity at a value it does not publish, and its docs suggest first: 25
   * (PLATFORM.md). The limit leaves room for one full page with many fields and short lists each,
   * or a default page with a small nested page; it refuses a page nested in a full page, an answer
   * far larger than what would be shown (docs/performance.md).
   */
  maxValues: 10_000,
  /**
   * Items an unpaged list (a hire's owners or fees, a worker's skills) is counted as. The caller
   * cannot bound these: most are short, some grow with the account (a worker's clients). 1 would
   * make nesting them free; 10 counts each as one default page of the platform's paged lists.
   */
  unpagedListItems: 10,
  /**
   * The `variables` argument as JSON. A read's variables are ids, filters and a search: this holds
   * thousands of ids and refuses lists large enough to burden the platform (docs/performance.md).
   */
  maxVariablesBytes: 64 * 1024,
  /**
   * Levels of objects and lists in `variables`, itself the first. The platform's deepest query
   * argument takes 4 (`companyRecruiters(customFields:)`); a value nested far deeper overflows the
   * stack of JSON.stringify and of the schema's checks.
   */
  maxVariablesDepth: 10,
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
  options: { sandbox: boolean; reach?: Reach },
): CheckedQuery {
  const document = parseQuery(source);
  const operation = onlyQuery(document, { schema, ...options });
  refuseSensitive(schema, document);
  const errors = validate(schema, document, undefined, { maxErrors: 10 });
  if (errors.length > 0) throw invalid(errors, options.sandbox);
  const coerced = checkVariables(schema, operation, variables);
  checkCost(schema, document, operation, coerced);
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

/**
 * The one operation, a query. A mutation's refusal names the tool that makes each change, or says
 * that none does (or, outside the sandbox, which models only part of it, that the API has none).
 */
function onlyQuery(
  document: DocumentNode,
  known?: { schema: GraphQLSchema; sandbox: boolean; reach?: Reach },
): OperationDefinitionNode {
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
  if (operation.operation === "mutation") {
    // Name the tool that makes each change asked for, or say plainly that none does.
    const fields = operation.selectionSet.selections.flatMap((s) =>
      s.kind === Kind.FIELD ? [s.name.value] : [],
    );
    const offered = known?.schema.getMutationType()?.getFields() ?? {};
    const who = [...new Set(fields)]
      .slice(0, 5)
      .map((f) =>
        known && !known.sandbox && !Object.hasOwn(offered, f)
          ? `the platform's API has no mutation ${oneLine(f, 80)}; describe_schema lists the changes it offers`
          : whoMakes(oneLine(f, 80), known?.reach),
      );
    throw new ToolInputError(
      "mutations are refused: query_platform only reads",
      "query",
      who.length > 0
        ? `${who.map((w) => `${w[0]?.toUpperCase()}${w.slice(1)}.`).join(" ")} To read, write a query.`
        : "Write a query. Changes go through this server's other tools, which check and confirm them.",
    );
  }
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

/**
 * Refuses `variables` nested deeper than QUERY_LIMITS.maxVariablesDepth, or over
 * QUERY_LIMITS.maxVariablesBytes of JSON. Called before the schema is fetched and before anything
 * walks them recursively, so an oversize value reaches nothing.
 */
export function checkVariablesSize(variables: Record<string, unknown>): void {
  const max = QUERY_LIMITS.maxVariablesBytes;
  const deepest = QUERY_LIMITS.maxVariablesDepth;
  const limits = `at most ${deepest} levels of objects and lists and ${formatBytes(max)} of JSON`;
  const advice =
    "Send less per call: split a long list of ids over several calls, or filter in the query instead (describe_schema lists a query's arguments).";
  if (deeperThan(variables, deepest)) {
    throw new ToolInputError(
      `the variables nest more than ${deepest} levels of objects and lists (${limits})`,
      "variables",
      `Nothing was sent. A query's arguments need far fewer levels. ${advice}`,
    );
  }
  const bytes = jsonBytes(variables);
  if (bytes <= max) return;
  const sizes = Object.entries(variables).map(([name, value]) => ({
    name,
    value,
    bytes: jsonBytes(value),
  }));
  const largest = sizes.sort((a, b) => b.bytes - a.bytes)[0];
  const what = !largest
    ? ""
    : `; the largest is $${oneLine(largest.name, 60)}, ${
        Array.isArray(largest.value)
          ? `a list of ${amount(largest.value.length)} items`
          : sizeText(largest.bytes, max)
      }`;
  throw new ToolInputError(
    `the variables are ${sizeText(bytes, max)} of JSON (at most ${sizeText(max, bytes)})${what}`,
    "variables",
    `Nothing was sent. ${advice}`,
  );
}

function jsonBytes(value: unknown): number {
  const json = JSON.stringify(value);
  return json === undefined ? 0 : Buffer.byteLength(json);
}

/** "1.2 MB", or exact bytes when the rounded size would read the same as `other`'s. */
function sizeText(bytes: number, other: number): string {
  return formatBytes(bytes) === formatBytes(other) ? `${amount(bytes)} bytes` : formatBytes(bytes);
}

/** How many items a list in the answer is counted as, and why. */
interface ListFactor {
  items: number;
  /** given: the query's page size; default: the schema's; unpaged: unpagedListItems. */
  from: "given" | "default" | "unpaged";
}

export interface QueryMeasure {
  /** Values the answer could hold with every page full: every field counted once per instance. */
  values: number;
  /** False when the walk stopped at QUERY_LIMITS.maxFields: `values` is then a lower bound. */
  complete: boolean;
  /** The list counted the most items (the deepest-multiplied), with what its path adds up to. */
  largest?: { path: string; items: number; values: number; factors: readonly ListFactor[] };
  depth: number;
  aliases: number;
  fields: number;
  /** "first: 500 on hires (…)" for each page size over QUERY_LIMITS.maxFirst. */
  pageSizes: string[];
}

/** Numbers above this are not told apart: a few nested first: 2147483647 would overflow. */
const MAX_COUNT = 1e15;
const grouped = new Intl.NumberFormat("en-US");
const amount = (n: number) =>
  n >= MAX_COUNT ? `over ${grouped.format(MAX_COUNT)}` : grouped.format(n);

/** The measure checkQuery applies to `source`, unvalidated: for a look at the numbers. */
export function estimateQuery(
  schema: GraphQLSchema,
  source: string,
  variables: Record<string, unknown> = {},
): QueryMeasure {
  const document = parseQuery(source);
  return measureQuery(schema, document, onlyQuery(document), variables);
}

/**
 * The estimate: each field counts as many times as it could appear in the answer, the product of
 * the list sizes above it. A paged field (`first`, or the schema's default for it) sizes the list
 * of the paginator it returns (`data`; `paginatorInfo` counts once); a list field that is not
 * paged counts as QUERY_LIMITS.unpagedListItems. Fragments count where they are spread, as often
 * as they are, and aliases each count: the platform resolves each of them.
 */
function measureQuery(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): QueryMeasure {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  }
  const pageSizes = new Set<string>();
  let depth = 0;
  let aliases = 0;
  let fields = 0;
  let largest: QueryMeasure["largest"];

  /**
   * The values `set` adds, `each` being how many times its parent appears; `page` sizes the list
   * fields selected directly in it (the paginator's `data`); `path` is by field names, as the page
   * size messages say it; `keys` by response keys, as the answer's JSON is.
   */
  const walk = (
    set: SelectionSetNode,
    parent: GraphQLNamedType | undefined,
    level: number,
    path: string,
    keys: string,
    each: number,
    page: ListFactor | undefined,
    factors: readonly ListFactor[],
  ): number => {
    let total = 0;
    for (const selection of set.selections) {
      if (fields > QUERY_LIMITS.maxFields) return total;
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition
          ? schema.getType(selection.typeCondition.name.value)
          : parent;
        total += walk(selection.selectionSet, type, level, path, keys, each, page, factors);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        if (!fragment) continue;
        const type = schema.getType(fragment.typeCondition.name.value);
        total += walk(fragment.selectionSet, type, level, path, keys, each, page, factors);
        continue;
      }
      fields++;
      if (selection.alias) aliases++;
      depth = Math.max(depth, level);
      const name = selection.name.value;
      const here = path ? `${path}.${name}` : name;
      const key = selection.alias?.value ?? name;
      const keyHere = keys ? `${keys}.${key}` : key;
      for (const arg of selection.arguments ?? []) {
        if (!PAGE_SIZE_ARGUMENTS.includes(arg.name.value)) continue;
        const value = valueFromAST(arg.value, GraphQLInt, variables);
        if (typeof value === "number" && value > QUERY_LIMITS.maxFirst) {
          pageSizes.add(
            `${arg.name.value}: ${value} on ${here} (at most ${QUERY_LIMITS.maxFirst}; ask for the next page instead)`,
          );
        }
      }
      const definition =
        parent && (isObjectType(parent) || isInterfaceType(parent))
          ? parent.getFields()[name]
          : undefined;
      const pageSize = definition ? pageSizeOf(selection, definition, variables) : undefined;
      const list = definition !== undefined && isListType(getNullableType(definition.type));
      const factor: ListFactor | undefined = list
        ? (pageSize ?? page ?? { items: QUERY_LIMITS.unpagedListItems, from: "unpaged" })
        : undefined;
      const count = Math.min(MAX_COUNT, each * (factor?.items ?? 1));
      const chain = factor ? [...factors, factor] : factors;
      let values = count;
      if (selection.selectionSet) {
        const type = definition ? getNamedType(definition.type) : undefined;
        const childPage = list ? undefined : pageSize;
        values += walk(
          selection.selectionSet,
          type,
          level + 1,
          here,
          keyHere,
          count,
          childPage,
          chain,
        );
      }
      values = Math.min(MAX_COUNT, values);
      if (
        list &&
        (!largest || count > largest.items || (count === largest.items && values > largest.values))
      ) {
        largest = { path: keyHere, items: count, values, factors: chain };
      }
      total = Math.min(MAX_COUNT, total + values);
    }
    return total;
  };
  const values = walk(
    operation.selectionSet,
    schema.getQueryType() ?? undefined,
    1,
    "",
    "",
    1,
    undefined,
    [],
  );
  return {
    values,
    complete: fields <= QUERY_LIMITS.maxFields,
    largest,
    depth,
    aliases,
    fields,
    pageSizes: [...pageSizes],
  };
}

/** The page size a paged field asks for: its argument's value, else the schema's default. */
function pageSizeOf(
  selection: FieldNode,
  definition: GraphQLField<unknown, unknown>,
  variables: Record<string, unknown>,
): ListFactor | undefined {
  for (const argument of definition.args) {
    if (!PAGE_SIZE_ARGUMENTS.includes(argument.name)) continue;
    const node = selection.arguments?.find((a) => a.name.value === argument.name);
    const given = node ? valueFromAST(node.value, GraphQLInt, variables) : undefined;
    if (typeof given === "number") return { items: Math.max(0, given), from: "given" };
    if (typeof argument.defaultValue === "number") {
      return { items: argument.defaultValue, from: "default" };
    }
  }
  return undefined;
}

/** Limits from measureQuery, the estimate first: one refusal that says everything over. */
function checkCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): void {
  const m = measureQuery(schema, document, operation, variables);
  const problems: string[] = [];
  const overCost = m.values > QUERY_LIMITS.maxValues;
  if (overCost) problems.push(costText(m));
  problems.push(...m.pageSizes);
  if (m.depth > QUERY_LIMITS.maxDepth) {
    problems.push(`it nests ${m.depth} fields deep (at most ${QUERY_LIMITS.maxDepth})`);
  }
  if (m.aliases > QUERY_LIMITS.maxAliases) {
    problems.push(`it has ${m.aliases} aliases (at most ${QUERY_LIMITS.maxAliases})`);
  }
  if (!m.complete) {
    problems.push(`it selects over ${QUERY_LIMITS.maxFields} fields once fragments are spread`);
  }
  if (problems.length === 0) return;
  throw new ToolInputError(
    `the query is over this server's limits: ${problems.join("; ")}`,
    "query",
    overCost
      ? `Make it smaller: a smaller first, above all on the outer lists (the platform's docs suggest 25); a nested list in a call of its own, for just the items that need it; fewer aliases. A list without first counts as its default page, an unpaged list as ${QUERY_LIMITS.unpagedListItems} items.`
      : "Make it smaller: fewer nested levels, fewer aliases (one call per list instead), smaller pages.",
  );
}

function costText(m: QueryMeasure): string {
  const estimate = `it could return ${m.complete ? "about" : "at least"} ${amount(m.values)} values with every page full (at most ${amount(QUERY_LIMITS.maxValues)})`;
  if (!m.largest) return estimate;
  const factors = m.largest.factors
    .map((f) => (f.from === "given" ? amount(f.items) : `${f.from} ${amount(f.items)}`))
    .join(" × ");
  return `${estimate}; the largest part is ${pathShown(m.largest.path)}: ${amount(m.largest.items)} items (${factors}), ${amount(m.largest.values)} values with their fields`;
}

/** A long path keeps its start and, above all, its end (the list that multiplies). */
function pathShown(path: string): string {
  const max = 160;
  const chars = Array.from(path);
  if (chars.length <= max) return path;
  return `${chars.slice(0, 40).join("")}…${chars.slice(chars.length - (max - 41)).join("")}`;
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
