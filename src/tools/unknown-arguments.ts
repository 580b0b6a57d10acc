import { closest } from "fastest-levenshtein";
import { oneLine } from "../client/platform-text.js";
import { shown } from "./define-tool.js";

/** A property of the arguments that the tool's input schema does not have. */
export interface UnknownArgument {
  /** Where it sits, e.g. `startDateRange.` for a field of that object; empty at the top. */
  at: string;
  name: string;
  /** The names the schema has at that level. */
  known: readonly string[];
}

/** Unknown names the refusal lists one by one; the rest are counted. */
const MAX_NAMED = 10;

/**
 * The name in `known` closest to `given`, ignoring case: by edit distance among the names that
 * contain it or that it contains (`status` → `activeStatus`, not the shorter edit to `search`),
 * else among all.
 */
function closestName(given: string, known: readonly string[]): string {
  const word = given.toLowerCase();
  const lower = known.map((name) => name.toLowerCase());
  const related = lower.filter((name) => name.includes(word) || word.includes(name));
  return known[lower.indexOf(closest(word, related.length > 0 ? related : lower))] as string;
}

/**
 * The refusal of arguments the schema does not have: one line per name, each naming the closest
 * one it has, since a misspelled filter dropped in silence answers a question nobody asked.
 */
export function unknownArgumentsText(tool: string, unknown: readonly UnknownArgument[]): string {
  const lines = unknown.slice(0, MAX_NAMED).map(({ at, name, known }) => {
    const given = `\`${at}${shown(oneLine(name, Number.MAX_SAFE_INTEGER))}\``;
    const what = at ? `a field of \`${at.slice(0, -1)}\`` : "an argument";
    if (known.length === 0) {
      return at
        ? `${given} is not ${what} in ${tool}: it has no fields.`
        : `${given} is not ${what} of ${tool}: it takes no arguments.`;
    }
    // A name longer than any argument's is compared by its start: the distance grows with length.
    const best = closestName(name.slice(0, 100), known);
    return `${given} is not ${what} of ${tool}; did you mean \`${at}${best}\`?`;
  });
  const more = unknown.length - lines.length;
  return [
    `${tool} did not run, and nothing was sent:`,
    ...lines,
    ...(more > 0 ? [`… and ${more} more names it does not have.`] : []),
    "Trying again will not help until the arguments are changed.",
  ].join("\n");
}
