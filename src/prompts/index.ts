// prompts/list, prompts/get and the completion of prompts' arguments, for the SDK's low-level server.
// A prompt is offered only when the configuration reaches every tool it needs, and its message
// names only tools this configuration reaches (the server's `naming` adds how to reach the ones
// not listed). Lookups go through the person's own client: nothing another credential read. The
// server loads this module with the first prompts request, not at start.
import type {
  CompleteRequest,
  CompleteResult,
  GetPromptRequest,
  GetPromptResult,
  ListPromptsResult,
} from "@modelcontextprotocol/server";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { quoted } from "../client/platform-text.js";
import type { PlatformClient } from "../client/types.js";
import { PromptArgumentError, type PromptContext, type PromptDefinition } from "./define-prompt.js";
import { prompts as registry } from "./registry.js";

export interface PromptDeps {
  client: PlatformClient;
  /** The server's clock: today for the weeks and months. */
  clock: { now(): number };
  /** Where a tool stands in this configuration: listed, reached though not listed, or "off". */
  standing(tool: string): string;
  /** The text naming only what this configuration reaches, with how to reach what is not listed. */
  naming(text: string): string;
  /** A platform failure as the person reads it (the words of a failed resource read). */
  failure(error: unknown, what: string): Promise<string>;
  /** Shown before every message (the sandbox's notice), if any. */
  notice?: string;
}

/** The prompts a configuration offers: those whose every needed tool it reaches. */
function offeredPrompts(reaches: (tool: string) => boolean): PromptDefinition[] {
  return registry.filter((prompt) => prompt.needs.every(reaches));
}

const invalid = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

export interface PromptHandlers {
  list(): ListPromptsResult;
  get(params: GetPromptRequest["params"], signal?: AbortSignal): Promise<GetPromptResult>;
  /** A prompt argument's completion, for the one completion/complete handler. */
  complete(params: CompleteRequest["params"], signal?: AbortSignal): Promise<CompleteResult>;
}

/** prompts/list, prompts/get and the completion of prompts' arguments, for the server to register. */
export function promptHandlers(deps: PromptDeps): PromptHandlers {
  const reaches = (tool: string) => deps.standing(tool) !== "off";
  const offered = offeredPrompts(reaches);
  const find = (name: string) => {
    const prompt = offered.find((p) => p.name === name);
    if (!prompt) {
      const names = offered.map((p) => p.name).join(", ") || "none";
      throw invalid(`There is no prompt ${quoted(name)} here. This server offers: ${names}.`);
    }
    return prompt;
  };
  const contextOf = (signal?: AbortSignal): PromptContext => ({
    client: deps.client,
    signal,
    today: new Date(deps.clock.now()).toISOString().slice(0, 10),
    reaches,
  });
  const listEntry = (prompt: PromptDefinition) => ({
    name: prompt.name,
    title: prompt.title,
    description: prompt.description,
    arguments: prompt.arguments.map((a) => ({
      name: a.name,
      description: a.description,
      required: a.required === true,
    })),
  });

  const listed = { prompts: offered.map(listEntry) };

  const get = async (params: GetPromptRequest["params"], signal?: AbortSignal) => {
    const prompt = find(params.name);
    const given = params.arguments ?? {};
    const known = new Set(prompt.arguments.map((a) => a.name));
    const unknown = Object.keys(given).filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw invalid(
        `${prompt.name} has no argument ${unknown.map((n) => `\`${n}\``).join(", ")}; its arguments: ${[...known].map((n) => `\`${n}\``).join(", ")}.`,
      );
    }
    // An empty value is a value left out, as clients send an untouched field.
    const args = Object.fromEntries(
      prompt.arguments.map((a) => [a.name, given[a.name]?.trim() ? given[a.name] : undefined]),
    );
    const missing = prompt.arguments.filter((a) => a.required && args[a.name] === undefined);
    if (missing.length > 0) {
      throw invalid(
        `${prompt.name} needs ${missing.map((a) => `\`${a.name}\` (${a.description})`).join(", ")}.`,
      );
    }
    let text: string;
    try {
      text = await prompt.render(args, contextOf(signal));
    } catch (error) {
      if (error instanceof PromptArgumentError) throw invalid(`${prompt.name}: ${error.message}`);
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        deps.naming(await deps.failure(error, `what ${prompt.name} needs from the platform`)),
      );
    }
    const body = deps.naming(text);
    return {
      description: prompt.description,
      messages: [
        {
          role: "user" as const,
          content: { type: "text" as const, text: deps.notice ? `${deps.notice}\n${body}` : body },
        },
      ],
    };
  };

  const complete = async (params: CompleteRequest["params"], signal?: AbortSignal) => {
    const { ref, argument } = params;
    if (ref.type !== "ref/prompt") throw invalid("Not a prompt.");
    const prompt = find(ref.name);
    const spec = prompt.arguments.find((a) => a.name === argument.name);
    if (!spec) {
      throw invalid(`${prompt.name} has no argument \`${argument.name}\`.`);
    }
    if (!spec.complete) return { completion: { values: [] } };
    try {
      const values = await spec.complete(argument.value, contextOf(signal));
      return { completion: { values } };
    } catch {
      // A completion is a courtesy; prompts/get itself explains a platform that cannot be reached.
      return { completion: { values: [] } };
    }
  };
  return { list: () => listed, get, complete };
}
