import * as z from "zod";
import type { CatalogEntry } from "../catalog.js";
import { defineTool, ToolInputError } from "../define-tool.js";
import { FIND_TOOLS, RUN_READ_TOOL, RUN_WRITE_TOOL } from "../reach.js";

/** What the found tools' lines may take of an answer, which stays within 4 KB in all. */
const TOOLS_BYTES = 3200;
/** How much of one argument's description an answer repeats. */
const ARGUMENT_DESCRIPTION_CHARS = 150;
/** Words a search leaves out: they match every tool. */
const COMMON = new Set([
  "a",
  "an",
  "the",
  "to",
  "of",
  "on",
  "in",
  "for",
  "and",
  "or",
  "my",
  "tool",
]);

const foundOutput = z.object({
  name: z.string(),
  toolset: z.string(),
  readOnly: z.boolean(),
  /** The first line of its description. */
  summary: z.string(),
  /** One line per argument, `name?: type — description` (`?` when optional). */
  arguments: z.array(z.string()),
  /** How to call it from here. */
  call: z.string(),
});

export const findToolsTool = defineTool({
  name: FIND_TOOLS,
  title: "Find more tools",
  toolset: "discovery",
  instruction: `${FIND_TOOLS} finds the tools this server reaches but does not list at first (it names them), with their arguments; call one through ${RUN_READ_TOOL} (reads) or ${RUN_WRITE_TOOL} (changes), or directly once your tool list shows it.`,
  readme: {
    does: "Finds the tools not listed at first, with their arguments; adds them to the session's list",
  },
  description: [
    "Finds this server's tools that are not in your tool list, with their arguments.",
    `Use when: no listed tool does what is asked (e.g. set a PO number, a contact's custom field, webhooks, approvals, jobs, talent pool, timesheets, the API's schema).`,
    `Do not use for: tools already listed; call those directly. Call a found tool through ${RUN_READ_TOOL} or ${RUN_WRITE_TOOL}.`,
  ].join("\n"),
  inputSchema: {
    query: z
      .string()
      .max(200)
      .optional()
      .describe("Words of what you need, e.g. 'PO number payment request'. Default: every tool."),
    toolset: z.string().max(40).optional().describe("Only this toolset's tools, e.g. 'records'."),
  },
  outputSchema: {
    tools: z.array(foundOutput),
    /** Matching tools left out to keep the answer small: narrow the query to see them. */
    more: z.array(z.string()),
    /** Whether the found tools were added to this session's tool list (notifications/tools/list_changed sent). */
    addedToList: z.boolean(),
  },
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const reach = ctx.reach;
    const unlisted = reach?.unlisted ?? [];
    if (args.toolset && !unlisted.some((entry) => entry.toolset === args.toolset)) {
      const toolsets = [...new Set(unlisted.map((entry) => entry.toolset))];
      throw new ToolInputError(
        `no tool outside your list is in a toolset called ${JSON.stringify(args.toolset.slice(0, 40))}`,
        "toolset",
        toolsets.length > 0
          ? `Name one of: ${toolsets.join(", ")}; or leave toolset out.`
          : "Every tool this server reaches is already in your list.",
      );
    }
    const inToolset = unlisted.filter((entry) => !args.toolset || entry.toolset === args.toolset);
    const ranked = rank(inToolset, args.query);
    const found: z.infer<typeof foundOutput>[] = [];
    const more: string[] = [];
    let bytes = 0;
    for (const entry of ranked) {
      const tool = described(entry);
      const size = Buffer.byteLength(toolLines(tool).join("\n"));
      if (more.length === 0 && bytes + size <= TOOLS_BYTES) {
        found.push(tool);
        bytes += size;
      } else {
        more.push(entry.name);
      }
    }
    const addedToList =
      found.length > 0 && reach ? await reach.show(found.map((t) => t.name)) : false;
    const structured = { tools: found, more, addedToList };
    return { structured, text: render(structured, inToolset, args.query) };
  },
});

/** The entries matching `query`, best first; every entry, in list order, without one. */
function rank(entries: readonly CatalogEntry[], query: string | undefined): CatalogEntry[] {
  const words = (query ?? "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !COMMON.has(word));
  if (words.length === 0) return [...entries];
  const scored = entries.map((entry) => {
    const name = entry.name.split("_");
    const text = `${entry.listEntry.description ?? ""} ${entry.instruction}`.toLowerCase();
    let score = 0;
    for (const word of words) {
      // A short word ("po", "id") counts only whole: as a prefix it matches too much ("pool").
      const stem = word.length > 3 ? word.replace(/(es|s)$/, "") : word;
      const prefix = stem.length > 3;
      const inText = prefix ? text.includes(stem) : new RegExp(`\\b${stem}\\b`).test(text);
      if (name.some((part) => (prefix ? part.startsWith(stem) : part === stem))) score += 3;
      if (prefix ? entry.toolset.startsWith(stem) : entry.toolset === stem) score += 2;
      if (inText) score += 1;
    }
    return { entry, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .map((s) => s.entry);
}

function described(entry: CatalogEntry): z.infer<typeof foundOutput> {
  const proxy = entry.readOnly ? RUN_READ_TOOL : RUN_WRITE_TOOL;
  return {
    name: entry.name,
    toolset: entry.toolset,
    readOnly: entry.readOnly,
    summary: (entry.listEntry.description ?? "").split("\n")[0] ?? "",
    arguments: argumentLines(entry.listEntry.inputSchema as JsonSchema),
    call: `${proxy} {"name": "${entry.name}", "arguments": {…}}`,
  };
}

type JsonSchema = Record<string, unknown>;

/** One line per argument: `name?: type — description`. */
function argumentLines(schema: JsonSchema): string[] {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, property]) => {
    const description =
      typeof property.description === "string"
        ? ` — ${cut(property.description.replace(/\s+/g, " "), ARGUMENT_DESCRIPTION_CHARS)}`
        : "";
    return `${name}${required.has(name) ? "" : "?"}: ${typeOf(property)}${description}`;
  });
}

/** A schema's type, written the way a signature would. */
function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join("|");
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(typeOf).join("|");
  const types = [schema.type ?? "any"].flat() as string[];
  return types
    .map((type) => {
      if (type === "array" && schema.items) return `${typeOf(schema.items as JsonSchema)}[]`;
      if (type === "object" && schema.properties) {
        const required = new Set((schema.required as string[] | undefined) ?? []);
        const fields = Object.entries(schema.properties as Record<string, JsonSchema>).map(
          ([name, sub]) => `${name}${required.has(name) ? "" : "?"}: ${typeOf(sub)}`,
        );
        return `{${fields.join(", ")}}`;
      }
      return type;
    })
    .join("|");
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A found tool as the answer shows it; "not in your tool list" also keeps the server from saying it again. */
function toolLines(tool: z.infer<typeof foundOutput>): string[] {
  return [
    `${tool.name} (not in your tool list; ${tool.readOnly ? "reads" : "changes"}; call it: ${tool.call}): ${tool.summary}`,
    ...tool.arguments.map((line) => `  ${line}`),
  ];
}

function render(
  result: { tools: z.infer<typeof foundOutput>[]; more: string[]; addedToList: boolean },
  searched: readonly CatalogEntry[],
  query: string | undefined,
): string {
  if (searched.length === 0) return "Every tool this server reaches is already in your list.";
  if (result.tools.length === 0) {
    const names = searched.map((entry) => JSON.stringify(entry.name)).join(", ");
    return `No tool outside your list matches ${JSON.stringify(query ?? "")}. Those outside it: ${names}. Try other words, or none.`;
  }
  const lines = [`Tools not in your list${query ? ` matching ${JSON.stringify(query)}` : ""}:`];
  for (const tool of result.tools) lines.push("", ...toolLines(tool));
  if (result.more.length > 0) {
    const more = result.more.map((name) => JSON.stringify(name)).join(", ");
    lines.push("", `Also matching (narrow the query to see their arguments): ${more}.`);
  }
  lines.push(
    "",
    `Put the tool's arguments, as above, in "arguments". ${RUN_READ_TOOL} runs only reads and ${RUN_WRITE_TOOL} only changes; each works exactly as the tool itself (checks, previews, confirmations).`,
  );
  if (result.addedToList) {
    lines.push("They are also added to your tool list: if it shows them, call them directly.");
  }
  return lines.join("\n");
}
