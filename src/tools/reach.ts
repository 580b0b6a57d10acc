// What the assistant can reach, and how each text names a tool: every tool of the toolsets in force
// is reachable (and, with --read-only, only reads), but only a core is listed at first. The rest are
// found with find_tools and called through run_read_tool or run_write_tool (or directly, once a
// client that acts on notifications/tools/list_changed has them in its list).
import type { Config } from "../config.js";
import type { CatalogEntry } from "./catalog.js";
import { exposes } from "./catalog.js";

export const FIND_TOOLS = "find_tools";
export const RUN_READ_TOOL = "run_read_tool";
export const RUN_WRITE_TOOL = "run_write_tool";
export type ProxyTool = typeof RUN_READ_TOOL | typeof RUN_WRITE_TOOL;

/**
 * Listed at first, when their toolset is in force: what people ask most (find hires, read one, its
 * contract and invoices, payment requests, what changed, end or cancel a hire), within the list's
 * budget (test/meta/tool-budget.test.ts). Every other tool is reached through discovery.
 */
export const LISTED_FIRST: readonly string[] = [
  "search_hires",
  "get_hire",
  "list_accounts",
  "get_contract",
  "list_invoices",
  "list_payment_requests",
  "terminate_hire",
  "cancel_hire",
  "list_changes",
];

/** Where a tool stands for this server: listed, reachable though not listed, or turned off. */
type Standing = "listed" | "unlisted" | "off";

/** The tools a configuration reaches and lists, from every tool's catalog entry. */
export interface Surface {
  /** Every tool of the toolsets in force (with --read-only, only reads), discovery tools aside. */
  reachable: readonly CatalogEntry[];
  /** What `tools/list` shows at first: the core, then the discovery tools the rest need. */
  listed: readonly CatalogEntry[];
  standing(tool: string): Standing;
}

/** The surface a configuration serves. */
export function surfaceOf(
  catalog: readonly CatalogEntry[],
  config: Pick<Config, "readOnly" | "toolsets">,
): Surface {
  const reachable = catalog.filter(
    (entry) => entry.toolset !== "discovery" && exposes(config, entry),
  );
  const core = reachable.filter((entry) => LISTED_FIRST.includes(entry.name));
  const rest = reachable.filter((entry) => !LISTED_FIRST.includes(entry.name));
  const needed = new Set<string>();
  if (rest.length > 0) needed.add(FIND_TOOLS);
  if (rest.some((entry) => entry.readOnly)) needed.add(RUN_READ_TOOL);
  if (rest.some((entry) => !entry.readOnly)) needed.add(RUN_WRITE_TOOL);
  const discovery = catalog.filter((entry) => needed.has(entry.name));
  const listed = [...core, ...discovery];
  const listedNames = new Set(listed.map((entry) => entry.name));
  const reachableNames = new Set(reachable.map((entry) => entry.name));
  return {
    reachable,
    listed,
    standing: (tool) =>
      listedNames.has(tool) ? "listed" : reachableNames.has(tool) ? "unlisted" : "off",
  };
}

/** A surface that lists every tool it is given (tests of the server's wrapper). */
export function wholeSurface(catalog: readonly CatalogEntry[]): Surface {
  const names = new Set(catalog.map((entry) => entry.name));
  return {
    reachable: catalog,
    listed: catalog,
    standing: (tool) => (names.has(tool) ? "listed" : "off"),
  };
}

/** How the call being served reached its tool, and where every tool stands for this server. */
export interface Reach {
  standing(tool: string): Standing;
  /** Whether the tool is a read (run_read_tool) or a change (run_write_tool); undefined if unknown. */
  readOnly(tool: string): boolean | undefined;
  /** The tool this call runs, if any. */
  tool?: string;
  /** The proxy this call came through, when it did not call its tool directly. */
  via?: ProxyTool;
  /** The tools reachable but not listed at first, for find_tools. */
  unlisted: readonly CatalogEntry[];
  /**
   * Adds tools to this session's `tools/list` and sends notifications/tools/list_changed; false
   * where a list cannot change: no session (stateless HTTP) or MCP 2026-07-28, whose lists are the
   * same for every caller.
   */
  show(names: readonly string[]): Promise<boolean>;
}

/**
 * How to call `tool` in a text that tells the model to call it (again): by its name, or through
 * the proxy this call came through, or through the proxy that reaches it when it is not listed.
 */
export function callOf(ctx: { reach?: Reach }, tool: string): string {
  const reach = ctx.reach;
  if (!reach) return tool;
  // Called directly, the tool being run is one the client reaches by its name.
  const direct = tool === reach.tool && !reach.via;
  const proxy =
    reach.via ??
    (!direct && reach.standing(tool) === "unlisted"
      ? reach.readOnly(tool)
        ? RUN_READ_TOOL
        : RUN_WRITE_TOOL
      : undefined);
  return proxy ? `${proxy} {"name": "${tool}", "arguments": {…}}` : tool;
}

/**
 * How to reach a tool a sentence names: "" when listed, " (not in your tool list: …)" when reached
 * through discovery, or undefined when whoever runs the server turned it off.
 */
export function reachOf(reach: Reach | undefined, tool: string): string | undefined {
  const standing = reach?.standing(tool) ?? "listed";
  if (standing === "off") return undefined;
  if (standing === "listed") return "";
  const proxy = reach?.readOnly(tool) ? RUN_READ_TOOL : RUN_WRITE_TOOL;
  return ` (not in your tool list: call it through ${proxy}; ${FIND_TOOLS} shows its arguments)`;
}

/** What a text says instead of a tool's name when whoever runs the server turned that tool off. */
export const TURNED_OFF = "a tool that whoever runs this server turned off";

const patterns = new WeakMap<readonly string[], RegExp>();

/**
 * `text` naming only what this server reaches, and the line that says how to reach the tools it
 * names that are not listed (undefined when there are none, or when the text itself names the way,
 * as find_tools, the proxies' refusals and whoMakes do). A tool turned off is not named but said to be off. A name in quotes
 * is a value, not a mention.
 */
export function reachNote(
  text: string,
  reach: Reach,
  names: readonly string[],
): { text: string; note?: string } {
  let pattern = patterns.get(names);
  if (!pattern) {
    const sorted = [...names].sort((a, b) => b.length - a.length);
    pattern = new RegExp(`(?<!")\\b(${sorted.join("|")})\\b`, "g");
    patterns.set(names, pattern);
  }
  const unlisted = new Set<string>();
  const named = text.replace(pattern, (name: string) => {
    const standing = reach.standing(name);
    if (standing === "off") return TURNED_OFF;
    const calledDirectly = name === reach.tool && !reach.via;
    if (standing === "unlisted" && !calledDirectly) unlisted.add(name);
    return name;
  });
  const saysHow = [FIND_TOOLS, RUN_READ_TOOL, RUN_WRITE_TOOL].some((how) => named.includes(how));
  if (unlisted.size === 0 || saysHow) return { text: named };
  const how = [...unlisted].map(
    (name) => `${name} through ${reach.readOnly(name) ? RUN_READ_TOOL : RUN_WRITE_TOOL}`,
  );
  return {
    text: named,
    note: `(Not in your tool list, so call ${how.join(", ")}; ${FIND_TOOLS} shows the arguments.)`,
  };
}

/**
 * An answer's text naming only what this server reaches, with reachNote's line first when there is
 * one. Every text a tool returns passes through here.
 */
export function withReachableNames(text: string, reach: Reach, names: readonly string[]): string {
  const { text: named, note } = reachNote(text, reach, names);
  return note ? `${note}\n${named}` : named;
}
