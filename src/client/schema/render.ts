import {
  astFromValue,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLObjectType,
  type GraphQLSchema,
  print,
  printType,
} from "graphql";

export { SCHEMA_INDEX_URI, SCHEMA_TYPE_TEMPLATE } from "./uris.js";

import { SCHEMA_TYPE_TEMPLATE } from "./uris.js";

/**
 * Every query and mutation on one line each, so an assistant can find the right operation without
 * reading the whole schema (which is far too large for a chat).
 */
export function renderSchemaIndex(schema: GraphQLSchema): string {
  const query = schema.getQueryType();
  const mutation = schema.getMutationType();
  const queries = operationLines(query);
  const mutations = operationLines(mutation);
  const example = schema.getType("Hire") ? "Hire" : (query?.name ?? "Query");
  return [
    `# The platform's GraphQL API: ${queries.length} queries, ${mutations.length} mutations`,
    "# One operation a line: name(argument: Type = default, ...): ReturnType.",
    "# `!` means required (or never null), `[T]` a list of T. Arguments without `!`, or with a default, are optional.",
    `# To see a type's fields, read ${SCHEMA_TYPE_TEMPLATE} (for example workforce://schema/types/${example}).`,
    "",
    "## Queries",
    ...queries,
    "",
    "## Mutations",
    ...mutations,
    "",
  ].join("\n");
}

/** The SDL of one named type, or undefined when the schema has no such type. */
export function renderType(schema: GraphQLSchema, name: string): string | undefined {
  const type = schema.getType(name);
  return type ? `${printType(type)}\n` : undefined;
}

/** Type names starting with `prefix` (case-insensitive), introspection types left out. */
export function completeTypeName(schema: GraphQLSchema, prefix: string, limit = 100): string[] {
  const p = prefix.toLowerCase();
  return Object.keys(schema.getTypeMap())
    .filter((name) => !name.startsWith("__") && name.toLowerCase().startsWith(p))
    .sort((a, b) => a.localeCompare(b))
    .slice(0, limit);
}

function operationLines(type: GraphQLObjectType | null | undefined): string[] {
  if (!type) return [];
  return Object.values(type.getFields())
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(fieldSignature);
}

/** `hires(first: Int! = 10, page: Int): HirePaginator!`, with " (deprecated)" when it is. */
export function fieldSignature(field: GraphQLField<unknown, unknown> | GraphQLInputField): string {
  const args = "args" in field ? field.args.map(argumentText).join(", ") : "";
  const deprecated = field.deprecationReason ? " (deprecated)" : "";
  return `${field.name}${args ? `(${args})` : ""}: ${String(field.type)}${deprecated}`;
}

/** `first: Int! = 10`. */
export function argumentText(arg: GraphQLArgument | GraphQLInputField): string {
  const ast = arg.defaultValue === undefined ? null : astFromValue(arg.defaultValue, arg.type);
  return `${arg.name}: ${String(arg.type)}${ast ? ` = ${print(ast)}` : ""}`;
}
