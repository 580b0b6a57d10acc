// What run_read_tool and run_write_tool run: the named tool, if this server reaches it and it is
// of the proxy's kind. The server then runs it through the same wrapper as a direct call.
import { ToolInputError } from "../define-tool.js";
import { FIND_TOOLS, type ProxyTool, type Reach, RUN_READ_TOOL, RUN_WRITE_TOOL } from "../reach.js";
import { unknownArgumentsText } from "../unknown-arguments.js";
import { proxyArguments, targetArguments } from "./run-tool.js";

type ProxyCall = { tool: string; args: Record<string, unknown> } | { refusal: string };

export function proxyCall(
  proxy: ProxyTool,
  given: Record<string, unknown>,
  reach: Reach,
): ProxyCall {
  // A misspelled argument is refused as every tool refuses one, naming the closest it has.
  const known = Object.keys(proxyArguments.shape);
  const unknown = Object.keys(given)
    .filter((name) => !known.includes(name) && given[name] !== null)
    .map((name) => ({ at: "", name, known }));
  if (unknown.length > 0) return { refusal: unknownArgumentsText(proxy, unknown) };
  const parsed = proxyArguments.safeParse(given);
  if (!parsed.success) {
    return {
      refusal: `${proxy} did not run: it takes "name" (a tool's name, from ${FIND_TOOLS}) and "arguments" (that tool's arguments, a JSON object).`,
    };
  }
  const tool = parsed.data.name;
  const shownName = JSON.stringify(tool.slice(0, 100));
  if ([FIND_TOOLS, RUN_READ_TOOL, RUN_WRITE_TOOL].includes(tool)) {
    return { refusal: `${proxy} did not run: call ${tool} directly.` };
  }
  const standing = reach.standing(tool);
  const readOnly = reach.readOnly(tool);
  if (standing === "off" || readOnly === undefined) {
    return {
      refusal: `${proxy} did not run: this server has no tool ${shownName} it can reach (a tool whoever runs this server turned off is not reachable either). ${FIND_TOOLS} lists the tools not in your list.`,
    };
  }
  if (proxy === RUN_READ_TOOL && !readOnly) {
    return {
      refusal: `${proxy} did not run: ${tool} changes something, and ${RUN_READ_TOOL} runs only tools that read. Call it through ${RUN_WRITE_TOOL}, after the person asked for that change.`,
    };
  }
  if (proxy === RUN_WRITE_TOOL && readOnly) {
    return {
      refusal: `${proxy} did not run: ${tool} only reads; call it through ${RUN_READ_TOOL}${standing === "listed" ? " or directly" : ""}.`,
    };
  }
  try {
    return { tool, args: targetArguments(parsed.data.arguments) };
  } catch (error) {
    if (!(error instanceof ToolInputError)) throw error;
    return {
      refusal: `${proxy} did not run: argument \`arguments\`: ${error.message}. ${error.hint}`,
    };
  }
}
