import {
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
} from "graphql";

interface FieldMatch {
  /** The type the field belongs to, for example `Webhook`. */
  typeName: string;
  field: GraphQLField<unknown, unknown> | GraphQLInputField;
}

export interface SchemaMatches {
  /** The words searched for, as matched (lower case, plural endings dropped). */
  words: string[];
  /** Whether something matched every word. */
  allWords: boolean;
  /** How many matches of each kind hold every word: in each list, they come first. */
  matchingEvery: { queries: number; mutations: number; types: number; fields: number };
  queries: GraphQLField<unknown, unknown>[];
  /** Root mutations, which query_platform refuses; describe_schema says which tool makes each. */
  mutations: GraphQLField<unknown, unknown>[];
  types: GraphQLNamedType[];
  fields: FieldMatch[];
}

/**
 * Root queries, types and fields whose names or descriptions hold any of the words, best first:
 * those holding every word, then the others by how many they hold, names counting more than
 * descriptions. Types and fields are only what
 * a query can reach (no mutation inputs); root mutations are matched on their own.
 */
export function searchSchema(schema: GraphQLSchema, text: string): SchemaMatches {
  return collect(schema, searchWords(text));
}

// Words of a question that say nothing about the schema ("what are the custom fields of a hire").
const STOP_WORDS = new Set(
  "an and are by do does for from has have how in is it its me my of on or our the their to we what which who with".split(
    " ",
  ),
);

/** Words of a search, lower case, with plural endings dropped so "projects" finds "project". */
function searchWords(text: string): string[] {
  const words = text
    .toLowerCase()
    .split(/[^a-z0-9_]+/)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
    .map((w) => {
      if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
      if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
      return w;
    });
  return [...new Set(words)];
}

function collect(schema: GraphQLSchema, words: string[]): SchemaMatches {
  /** How many of the words the name or description holds, and how well. */
  const score = (name: string, description: string | null | undefined) => {
    const n = name.toLowerCase();
    const d = (description ?? "").toLowerCase();
    let total = 0;
    let hits = 0;
    for (const w of words) {
      const inName = n.includes(w);
      const inDescription = d.includes(w);
      if (inName || inDescription) hits++;
      // A word in the name tells more than the same word in a description.
      total += inName ? 3 : inDescription ? 1 : 0;
    }
    if (hits === 0) return { hits, score: 0 };
    if (words.length > 1) return { hits, score: total };
    // For one word, an exact name is the best match there is; a name that starts with it is next.
    const w = words[0] as string;
    return { hits, score: total + (n === w ? 10 : 0) + (n.startsWith(w) ? 2 : 0) };
  };
  const every = (i: { hits: number }) => (i.hits === words.length ? 1 : 0);
  const matchingEvery = { queries: 0, mutations: 0, types: 0, fields: 0 };
  const ranked = <T>(
    kind: keyof typeof matchingEvery,
    items: { item: T; name: string; hits: number; score: number }[],
  ): T[] => {
    const matched = items.filter((i) => i.hits > 0);
    matchingEvery[kind] = matched.filter(every).length;
    return matched
      .sort(
        (a, b) =>
          every(b) - every(a) ||
          b.score - a.score ||
          a.name.length - b.name.length ||
          a.name.localeCompare(b.name),
      )
      .map((i) => i.item);
  };

  const query = schema.getQueryType();
  const readable = typesReadable(schema);
  const queries = ranked(
    "queries",
    Object.values(query?.getFields() ?? {}).map((f) => ({
      item: f,
      name: f.name,
      ...score(f.name, f.description),
    })),
  );
  const mutations = ranked(
    "mutations",
    Object.values(schema.getMutationType()?.getFields() ?? {}).map((f) => ({
      item: f,
      name: f.name,
      ...score(f.name, f.description),
    })),
  );
  const named = [...readable]
    .map((name) => schema.getType(name))
    .filter((t): t is GraphQLNamedType => t !== undefined && t !== query);
  const types = ranked(
    "types",
    named.map((t) => ({ item: t, name: t.name, ...score(t.name, t.description) })),
  );
  const fields: { item: FieldMatch; name: string; hits: number; score: number }[] = [];
  for (const type of named) {
    if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      fields.push({
        item: { typeName: type.name, field },
        name: `${type.name}.${field.name}`,
        ...score(field.name, field.description),
      });
    }
  }
  const fieldMatches = ranked("fields", fields);
  const allWords = Object.values(matchingEvery).some((n) => n > 0);
  return { words, allWords, matchingEvery, queries, mutations, types, fields: fieldMatches };
}

const readableCache = new WeakMap<GraphQLSchema, Set<string>>();

/** Names of the types a query can reach: through fields, arguments, unions and interfaces. */
function typesReadable(schema: GraphQLSchema): Set<string> {
  const cached = readableCache.get(schema);
  if (cached) return cached;
  const seen = new Set<string>();
  const queue: GraphQLNamedType[] = [];
  const visit = (type: GraphQLNamedType | null | undefined) => {
    if (!type || seen.has(type.name) || type.name.startsWith("__")) return;
    seen.add(type.name);
    queue.push(type);
  };
  visit(schema.getQueryType());
  while (queue.length > 0) {
    const type = queue.pop() as GraphQLNamedType;
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        visit(getNamedType(field.type));
        for (const arg of field.args) visit(getNamedType(arg.type));
      }
      if (isInterfaceType(type)) for (const t of schema.getPossibleTypes(type)) visit(t);
    } else if (isUnionType(type)) {
      for (const t of type.getTypes()) visit(t);
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) visit(getNamedType(field.type));
    }
  }
  readableCache.set(schema, seen);
  return seen;
}

/**
 * The root queries that return `typeName`, directly, as a list, or as the `data` of a paginator:
 * where a query about that type starts.
 */
export function whereToRead(schema: GraphQLSchema, typeName: string): string[] {
  return rootFieldsReturning(schema, "query", typeName)
    .map((f) => f.name)
    .sort((a, b) => a.localeCompare(b));
}

/** The root queries or mutations that return `typeName`, directly, as a list or as a page. */
export function rootFieldsReturning(
  schema: GraphQLSchema,
  root: "query" | "mutation",
  typeName: string,
): GraphQLField<unknown, unknown>[] {
  const type = root === "query" ? schema.getQueryType() : schema.getMutationType();
  return Object.values(type?.getFields() ?? {}).filter((f) => {
    const returned = getNamedType(f.type);
    if (returned.name === typeName) return true;
    if (!isObjectType(returned)) return false;
    const data = returned.getFields().data;
    return data !== undefined && getNamedType(data.type).name === typeName;
  });
}
