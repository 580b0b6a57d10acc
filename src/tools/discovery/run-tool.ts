import * as z from "zod";
import { defineTool, ToolInputError } from "../define-tool.js";
import { FIND_TOOLS, type ProxyTool, RUN_READ_TOOL, RUN_WRITE_TOOL } from "../reach.js";

const inputSchema = {
  name: z.string().max(100).describe(`The tool's name, as ${FIND_TOOLS} gives it.`),
  arguments: z
    .string()
    .max(200_000)
    .optional()
    .describe(
      "The tool's arguments: a JSON object (an object itself is accepted too). Default: none.",
    ),
};

/** The proxies' arguments as the server reads them: `arguments` as an object or as its JSON text. */
export const proxyArguments = z.object({
  name: z.string().max(100),
  arguments: z
    .union([z.string().max(200_000), z.record(z.string(), z.unknown())])
    .nullable()
    .optional(),
});

/** The arguments a proxy call carries for its tool, or a ToolInputError saying what is wrong. */
export function targetArguments(given: string | Record<string, unknown> | null | undefined) {
  if (given === undefined || given === null) return {};
  if (typeof given !== "string") return given;
  let parsed: unknown;
  try {
    parsed = JSON.parse(given);
  } catch {
    throw new ToolInputError(
      "arguments is not JSON",
      "arguments",
      'Give a JSON object, e.g. {"id": "…"}.',
    );
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ToolInputError(
      "arguments is not a JSON object",
      "arguments",
      'Give a JSON object, e.g. {"id": "…"}.',
    );
  }
  return parsed as Record<string, unknown>;
}

/**
 * A proxy's definition: its list entry and README row. The server runs it (src/server.ts): the
 * named tool runs through the same wrapper as a direct call, so its checks, confirmations and forms
 * bind the named tool, never the proxy.
 */
function proxyTool(name: ProxyTool) {
  const reads = name === RUN_READ_TOOL;
  return defineTool({
    name,
    title: reads ? "Run a read tool" : "Run a change tool",
    toolset: "discovery",
    instruction: reads
      ? `${RUN_READ_TOOL} runs a tool that only reads, found with ${FIND_TOOLS}, when your tool list does not show it.`
      : `${RUN_WRITE_TOOL} runs a tool that changes something, found with ${FIND_TOOLS}, when your tool list does not show it: its previews and confirmations are the tool's own.`,
    readme: {
      does: reads
        ? "Runs a read-only tool that is not in the list, by name"
        : "Runs a tool that changes something and is not in the list, by name, with that tool's own confirmation",
      ...(reads ? {} : { changes: "what the named tool changes" }),
    },
    description: [
      reads
        ? "Runs one of this server's read-only tools that is not in your tool list."
        : "Runs one of this server's tools that change something and are not in your tool list; previews and confirmations are that tool's own.",
      `Use when: ${FIND_TOOLS} showed the tool and your list does not have it.`,
      `Do not use for: listed tools (call them directly), or ${reads ? `changes (use ${RUN_WRITE_TOOL})` : `reads (use ${RUN_READ_TOOL})`}.`,
      "Returns: the tool's own answer.",
    ].join("\n"),
    inputSchema,
    outputSchema: {},
    annotations: {
      readOnlyHint: reads,
      destructiveHint: !reads,
      // A read changes nothing, however often it runs; a change may add again.
      idempotentHint: reads,
      openWorldHint: true,
    },
    async handler() {
      throw new Error(`${name} runs through the server's tools/call, not this handler`);
    },
  });
}

export const runReadToolTool = proxyTool(RUN_READ_TOOL);
export const runWriteToolTool = proxyTool(RUN_WRITE_TOOL);
