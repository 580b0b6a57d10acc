import {
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isUnionType,
} from "graphql";
import * as z from "zod";
import { oneLine, quoted } from "../../client/platform-text.js";
import {
  argumentText,
  completeTypeName,
  fieldSignature,
  rootFieldsReturning,
  type SchemaMatches,
  searchSchema,
  whereToRead,
} from "../../client/schema/index.js";
import { defineTool, readOnlyAnnotations, ToolInputError } from "../define-tool.js";
import { type Reach, reachOf, TURNED_OFF } from "../reach.js";
import { API_CANNOT, toolForMutation, whoMakes } from "./mutation-tools.js";
import { sensitiveField } from "./sensitive-fields.js";

// How many matches of each kind a search shows at most; the rest are counted.
const SHOWN = { queries: 15, mutations: 10, types: 10, fields: 20, added: 6 } as const;
type Shown = { -readonly [K in keyof typeof SHOWN]: number };
/**
 * Most bytes of text a search answers with: the kinds that show the most lose their last matches
 * until it fits (the best ones are first). A search of a few common words matches hundreds of
 * names; the assistant needs the best of them, and can narrow or show one type.
 */
export const SEARCH_TEXT_BYTES = 6 * 1024;
/** Left for the line the server adds when the answer names tools not in the list (reach.ts). */
const REACH_NOTE_ROOM = 256;
// How many of the types shown that a root field returns (or, when none is, of the fields' types)
// bring those root fields.
const ANCHOR_TYPES = 3;
const SEARCH_DESCRIPTION_CHARS = 160;
const TYPE_DESCRIPTION_CHARS = 300;
const SANDBOX_PART =
  "This is the sandbox, which models only part of the platform's API; the real platform has more.";

const fieldEntry = z.object({
  type: z.string(),
  name: z.string(),
  signature: z.string(),
  description: z.string().nullable(),
  refused: z.string().nullable(),
});
type FieldEntry = z.infer<typeof fieldEntry>;

const typeEntry = z.object({
  name: z.string(),
  kind: z.string(),
  description: z.string().nullable(),
  readBy: z.array(z.string()),
});

export const describeSchemaTool = defineTool({
  name: "describe_schema",
  title: "Describe the platform's API",
  toolset: "platform",
  instruction:
    "describe_schema searches the platform's whole API (queries, mutations with the tool that makes each, types, fields) or shows one type's fields, so query_platform can ask for the right ones.",
  readme: {
    does: "What the API offers for a topic, and the exact names to query",
  },
  description: [
    "Search the platform's GraphQL API by words, or show one type with its fields, arguments and enum values.",
    "Use when: before query_platform, to find the query and exact names for a topic, or what an enum value means.",
    "Do not use for: the data itself (use query_platform).",
  ].join("\n"),
  inputSchema: {
    search: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("Words in names and descriptions; or give typeName."),
    typeName: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("One type's exact name, e.g. Hire, Query or HireActiveStatus."),
  },
  // One shape for both: a type shown fills `type` and `fields`; a search fills the lists.
  outputSchema: {
    type: typeEntry
      .extend({
        values: z.array(z.object({ name: z.string(), description: z.string().nullable() })),
        possibleTypes: z.array(z.string()),
        interfaces: z.array(z.string()),
      })
      .nullable(),
    queries: z.array(fieldEntry),
    types: z.array(typeEntry),
    fields: z.array(fieldEntry),
    /** A search matched more than it shows. */
    more: z.boolean(),
  },
  annotations: readOnlyAnnotations,
  async handler(args, ctx) {
    if ((args.search === undefined) === (args.typeName === undefined)) {
      throw new ToolInputError(
        "give exactly one of search or typeName",
        "search, typeName",
        'Search with words first, e.g. {"search": "project"}, then show a type it names.',
      );
    }
    const schema = await ctx.schema();
    return args.search !== undefined
      ? describeSearch(schema, args.search, ctx.sandbox, ctx.reach)
      : describeType(schema, args.typeName as string, ctx.sandbox, ctx.reach);
  },
});

/**
 * Whether a search asks for a change the public API does not offer (API_CANNOT): extending a
 * contract or changing its rate or dates, or deciding on payment requests.
 */
function asksForMissingChange(words: readonly string[]): boolean {
  // The words come as searchSchema matched them: lower case, plural endings dropped ("hour").
  const has = (list: readonly string[]) => words.some((w) => list.includes(w));
  const extend = ["extend", "extension", "extending", "renew", "prolong"];
  const change = ["change", "update", "set", "edit", "modify", "raise", "increase", "lower"];
  const terms = ["rate", "rates", "date", "dates", "contract", "contracts"];
  const decide = ["approve", "approving", "approval", "reject", "rejecting", "decline"];
  // Not "request" alone: a hire's approval request is decided through the API (review_hire_approval).
  const payments = ["payment", "payments", "timesheet", "timesheets", "hour", "hours"];
  return has(extend) || (has(change) && has(terms)) || (has(decide) && has(payments));
}

function describeSearch(schema: GraphQLSchema, text: string, sandbox: boolean, reach?: Reach) {
  const found = searchSchema(schema, text);
  if (found.words.length === 0) {
    throw new ToolInputError("give at least one word (letters or digits)", "search");
  }
  const shown: Shown = { ...SHOWN };
  for (;;) {
    const answer = searchAnswer(schema, found, text, sandbox, shown, reach);
    const largest = (Object.keys(shown) as (keyof Shown)[]).reduce((a, b) =>
      shown[b] > shown[a] ? b : a,
    );
    const room = SEARCH_TEXT_BYTES - REACH_NOTE_ROOM;
    if (Buffer.byteLength(answer.text) <= room || shown[largest] <= 1) return answer;
    shown[largest] -= 1;
  }
}

/** The answer to a search, showing at most `limits` of each kind. */
function searchAnswer(
  schema: GraphQLSchema,
  found: SchemaMatches,
  text: string,
  sandbox: boolean,
  limits: Shown,
  reach: Reach | undefined,
) {
  const queryName = schema.getQueryType()?.name ?? "Query";
  const mutationName = schema.getMutationType()?.name ?? "Mutation";
  const types = found.types.slice(0, limits.types).map((t) => ({
    name: t.name,
    kind: kindOf(t),
    description: t.description ?? null,
    readBy: whereToRead(schema, t.name),
  }));
  const fields = found.fields
    .slice(0, limits.fields)
    .map((m) => entryOf(m.typeName, m.field, schema));
  const totals = {
    queries: found.queries.length,
    mutations: found.mutations.length,
    types: found.types.length,
    fields: found.fields.length,
  };

  // Where a query about what matched starts: the root fields that return the first types shown
  // (or the types of the first fields shown), those that matched every word first, with their
  // arguments, even when their names do not hold the words.
  const rooted = (names: string[]) =>
    [...new Set(names)]
      .filter(
        (name) =>
          rootFieldsReturning(schema, "query", name).length +
            rootFieldsReturning(schema, "mutation", name).length >
          0,
      )
      .slice(0, ANCHOR_TYPES);
  const every = found.matchingEvery;
  const anchors =
    [
      types.slice(0, every.types).map((t) => t.name),
      fields.slice(0, every.fields).map((f) => f.type),
      types.map((t) => t.name),
      fields.map((f) => f.type),
    ]
      .map(rooted)
      .find((names) => names.length > 0) ?? [];
  const rootsOf = (root: "query" | "mutation", matched: GraphQLField<unknown, unknown>[]) => {
    const shown = matched.slice(0, root === "query" ? limits.queries : limits.mutations);
    const added = anchors
      .flatMap((name) => rootFieldsReturning(schema, root, name))
      .filter((f) => !shown.includes(f));
    return { shown, added: [...new Set(added)].slice(0, limits.added) };
  };
  const q = rootsOf("query", found.queries);
  const m = rootsOf("mutation", found.mutations);
  const queries = [...q.shown, ...q.added].map((f) => entryOf(queryName, f));
  const mutations = [...m.shown, ...m.added].map((f) => mutationEntry(mutationName, f, reach));

  const words = found.words.map((w) => oneLine(w, 60)).join(", ");
  const lines = [`Schema search for ${quoted(text, 200)} (words: ${words}).`];
  const none = totals.queries + totals.mutations + totals.types + totals.fields === 0;
  const full = every.queries + every.mutations + every.types + every.fields;
  const partly = totals.queries + totals.mutations + totals.types + totals.fields - full;
  if (full === 0 && partly > 0) {
    lines.push("Nothing matched every word; these match some of them, best first.");
  } else if (full > 0 && partly > 0) {
    lines.push(
      `${full} matched every word: in each list they come first, then what matched some of the words.`,
    );
  }
  if (asksForMissingChange(found.words)) lines.push(API_CANNOT);
  if (none) {
    lines.push(
      'Nothing matched. Try other or fewer words (names are English, e.g. hire, contract, invoice, job, project, webhook), or show {"typeName": "Query"} for every query.',
    );
    if (sandbox) lines.push(SANDBOX_PART);
  }
  if (queries.length > 0) {
    lines.push(
      "",
      `Queries (${shownOf(q.shown.length, totals.queries)}${addedOf(q.added.length)}), to call with query_platform:`,
    );
    for (const e of queries)
      lines.push(`- ${e.signature}${describedText(e, SEARCH_DESCRIPTION_CHARS)}`);
  }
  if (mutations.length > 0) {
    lines.push(
      "",
      `Mutations (${shownOf(m.shown.length, totals.mutations)}${addedOf(m.added.length)}), changes query_platform refuses:`,
    );
    for (const e of mutations) {
      const description = e.description
        ? ` ${quoted(e.description, SEARCH_DESCRIPTION_CHARS)}`
        : "";
      lines.push(`- ${e.signature}${description} [${e.refused}]`);
    }
  }
  if (types.length > 0) {
    lines.push("", `Types (${shownOf(types.length, totals.types)}):`);
    for (const t of types) {
      const read = t.readBy.length > 0 ? `; returned by ${t.readBy.join(", ")}` : "";
      lines.push(
        `- ${t.name} (${t.kind})${t.description ? ` ${quoted(t.description, SEARCH_DESCRIPTION_CHARS)}` : ""}${read}`,
      );
    }
  }
  if (fields.length > 0) {
    lines.push("", `Fields (${shownOf(fields.length, totals.fields)}):`);
    for (const f of fields) {
      lines.push(`- ${f.type}.${f.signature}${describedText(f, SEARCH_DESCRIPTION_CHARS)}`);
    }
  }
  const more =
    totals.queries > q.shown.length ||
    totals.mutations > m.shown.length ||
    totals.types > types.length ||
    totals.fields > fields.length;
  if (more) {
    lines.push(
      "",
      `More matched than shown (the best first, within ${SEARCH_TEXT_BYTES / 1024} KB): add words to narrow the search.`,
    );
  }
  const example = types[0]?.name ?? (queries[0] ? namedReturn(queries[0].signature) : undefined);
  if (example) lines.push(`Show one type's fields with {"typeName": "${example}"}.`);
  return {
    // Mutations go with the queries, as root fields of the type Mutation; `refused` says which
    // tool makes the change, or that none does.
    structured: { type: null, queries: [...queries, ...mutations], types, fields, more },
    text: lines.join("\n"),
  };
}

/** A root mutation: query_platform refuses it; say which tool makes the change, if one does. */
function mutationEntry(
  typeName: string,
  field: GraphQLField<unknown, unknown>,
  reach: Reach | undefined,
): FieldEntry {
  return {
    ...entryOf(typeName, field),
    refused: `a change: ${whoMakes(field.name, reach)}`,
  };
}

function addedOf(added: number): string {
  return added > 0 ? `, and ${added} returning what matched` : "";
}

function describeType(schema: GraphQLSchema, asked: string, sandbox: boolean, reach?: Reach) {
  const type = findType(schema, asked, sandbox);
  const fields: FieldEntry[] =
    isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)
      ? Object.values(type.getFields()).map((f) =>
          type === schema.getMutationType() && "args" in f
            ? mutationEntry(type.name, f, reach)
            : entryOf(type.name, f, schema),
        )
      : [];
  const values = isEnumType(type)
    ? type.getValues().map((v) => ({ name: v.name, description: v.description ?? null }))
    : [];
  const possibleTypes =
    isUnionType(type) || isInterfaceType(type)
      ? schema.getPossibleTypes(type).map((t) => t.name)
      : [];
  const interfaces =
    isObjectType(type) || isInterfaceType(type) ? type.getInterfaces().map((t) => t.name) : [];
  const structured = {
    name: type.name,
    kind: kindOf(type),
    description: type.description ?? null,
    readBy: whereToRead(schema, type.name),
    values,
    possibleTypes,
    interfaces,
  };

  const lines = [
    `${structured.kind} ${type.name}${structured.description ? ` ${quoted(structured.description, TYPE_DESCRIPTION_CHARS)}` : ""}`,
  ];
  if (structured.readBy.length > 0) {
    lines.push(
      `Returned by the queries: ${structured.readBy.join(", ")} (call with query_platform).`,
    );
  }
  const changedBy = rootFieldsReturning(schema, "mutation", type.name);
  if (changedBy.length > 0) {
    const made = changedBy.slice(0, SHOWN.mutations).map((f) => {
      const tool = toolForMutation(f.name);
      const how = tool ? reachOf(reach, tool) : undefined;
      return `${f.name} (${tool && how !== undefined ? `by ${tool}${how}` : tool ? TURNED_OFF : "no tool of this server: the platform's web app"})`;
    });
    const more =
      changedBy.length > made.length ? `, and ${changedBy.length - made.length} more` : "";
    lines.push(
      `Returned by the mutations: ${made.join(", ")}${more}; query_platform refuses them.`,
    );
  }
  if (interfaces.length > 0) lines.push(`Implements: ${interfaces.join(", ")}.`);
  if (possibleTypes.length > 0) {
    lines.push(
      `${isUnionType(type) ? "One of" : "Implemented by"}: ${possibleTypes.join(", ")} (select their fields with "... on Type { … }").`,
    );
  }
  if (fields.length > 0) {
    const what = isInputObjectType(type) ? "Input fields" : "Fields";
    lines.push(`${what} (${fields.length}):`);
    for (const f of fields)
      lines.push(`- ${f.signature}${describedText(f, TYPE_DESCRIPTION_CHARS)}`);
  }
  if (values.length > 0) {
    lines.push(`Values (${values.length}):`);
    for (const v of values) {
      lines.push(
        `- ${v.name}${v.description ? ` ${quoted(v.description, TYPE_DESCRIPTION_CHARS)}` : ""}`,
      );
    }
  }
  if (isScalarType(type)) lines.push("A scalar: its values are written as plain JSON values.");
  return {
    structured: { type: structured, queries: [], types: [], fields, more: false },
    text: lines.join("\n"),
  };
}

function findType(schema: GraphQLSchema, asked: string, sandbox: boolean): GraphQLNamedType {
  const name = asked.trim();
  const exact = schema.getType(name);
  if (exact && !name.startsWith("__")) return exact;
  const lower = name.toLowerCase();
  const names = Object.keys(schema.getTypeMap()).filter((n) => !n.startsWith("__"));
  const sameButCase = names.find((n) => n.toLowerCase() === lower);
  if (sameButCase) return schema.getType(sameButCase) as GraphQLNamedType;
  const near = [
    ...completeTypeName(schema, name, 5),
    ...names.filter((n) => n.toLowerCase().includes(lower)).slice(0, 5),
  ];
  const suggestions = [...new Set(near)].slice(0, 6);
  const search = `{"search": ${JSON.stringify(oneLine(name, 100))}}`;
  const hint =
    suggestions.length > 0
      ? `Did you mean ${suggestions.join(", ")}? Or search for it: ${search}.`
      : `Search for it by words: ${search}.`;
  throw new ToolInputError(
    `the platform's API has no type named ${quoted(name, 100)}`,
    "typeName",
    sandbox ? `${hint} ${SANDBOX_PART}` : hint,
  );
}

function entryOf(
  typeName: string,
  field: GraphQLField<unknown, unknown> | GraphQLInputField,
  schema?: GraphQLSchema,
): FieldEntry {
  const input = !("args" in field);
  const refused = refusal(typeName, field.name, schema);
  return {
    type: typeName,
    name: field.name,
    // Input fields show their defaults the way arguments do.
    signature: input ? argumentText(field) : fieldSignature(field),
    description: field.description ?? null,
    refused: refused ?? null,
  };
}

/** Why query_platform refuses the field, also when it is asked for through an interface. */
function refusal(typeName: string, field: string, schema?: GraphQLSchema): string | undefined {
  const own = sensitiveField(typeName, field);
  if (own || !schema) return own?.reason;
  const type = schema.getType(typeName);
  if (!type || !(isInterfaceType(type) || isUnionType(type))) return undefined;
  for (const t of schema.getPossibleTypes(type)) {
    const entry = sensitiveField(t.name, field);
    if (entry) return entry.reason;
  }
  return undefined;
}

function describedText(entry: FieldEntry, max: number): string {
  const description = entry.description ? ` ${quoted(entry.description, max)}` : "";
  const refused = entry.refused ? ` [refused by query_platform: ${entry.refused}]` : "";
  return `${description}${refused}`;
}

function kindOf(type: GraphQLNamedType): string {
  if (isObjectType(type)) return "type";
  if (isInterfaceType(type)) return "interface";
  if (isUnionType(type)) return "union";
  if (isEnumType(type)) return "enum";
  if (isInputObjectType(type)) return "input";
  return "scalar";
}

function shownOf(shown: number, total: number): string {
  return shown === total ? String(total) : `${shown} of ${total}`;
}

/** `webhooks(first: Int! = 10): WebhookPaginator!` → `WebhookPaginator`. */
function namedReturn(signature: string): string | undefined {
  return /:\s*\[*([_A-Za-z][_A-Za-z0-9]*)[!\]]*( \(deprecated\))?$/.exec(signature)?.[1];
}
