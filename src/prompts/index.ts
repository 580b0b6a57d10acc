// prompts/list, prompts/get and the completion of prompts' arguments on the SDK's low-level server.
// A prompt is offered only when the configuration reaches every tool it needs, and its message
// names only tools this configuration reaches (the server's `naming` adds how to reach the ones
// not listed). Lookups go through the person's own client: nothing another credential read.
import type { CompleteRequest, CompleteResult, Server } from "@modelcontextprotocol/server";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { quoted } from "../client/platform-text.js";
import type { PlatformClient } from "../client/types.js";
import { PromptArgumentError, type PromptContext, type PromptDefinition } from "./define-prompt.js";
import { prompts as registry } from "./registry.js";

export interface PromptDeps {
  client: PlatformClient;
  /** Now, in milliseconds (the server's clock). */
  now(): number;
  reaches(tool: string): boolean;
  /** The text naming only what this configuration reaches, with how to reach what is not listed. */
  naming(text: string): string;
  /** Platform failures as the person reads them (the same words as a failed read elsewhere). */
  failure(error: unknown, what: string): Promise<string>;
  /** Shown before every message (the sandbox's notice), if any. */
  notice?: string;
}

/** The prompts a configuration offers: those whose every needed tool it reaches. */
function offeredPrompts(reaches: (tool: string) => boolean): PromptDefinition[] {
  return registry.filter((prompt) => prompt.needs.every(reaches));
}

const invalid = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

/**
 * Registers prompts/list and prompts/get; returns the completion of prompts' arguments, which the
 * one completion/complete handler (with the resource template's) calls.
 */
export function registerPrompts(
  server: Server,
  deps: PromptDeps,
): (params: CompleteRequest["params"], signal?: AbortSignal) => Promise<CompleteResult> {
  const offered = offeredPrompts(deps.reaches);
  const names = offered.map((prompt) => prompt.name).join(", ");
  const find = (name: string) => {
    const prompt = offered.find((p) => p.name === name);
    if (!prompt)
      throw invalid(
        `There is no prompt ${quoted(name)} here. This server offers: ${names || "none"}.`,
      );
    return prompt;
  };
  const contextOf = (signal?: AbortSignal): PromptContext => ({
    client: deps.client,
    signal,
    today: new Date(deps.now()).toISOString().slice(0, 10),
    reaches: deps.reaches,
  });
  const listed = offered.map((prompt) => ({
    name: prompt.name,
    title: prompt.title,
    description: prompt.description,
    arguments: prompt.arguments.map((a) => ({
      name: a.name,
      description: a.description,
      required: a.required === true,
    })),
  }));

  server.setRequestHandler("prompts/list", () => ({ prompts: listed }));
  server.setRequestHandler("prompts/get", async (request, ctx) => {
    const prompt = find(request.params.name);
    const given = request.params.arguments ?? {};
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
      text = await prompt.render(args, contextOf(ctx.mcpReq.signal));
    } catch (error) {
      if (error instanceof PromptArgumentError) throw invalid(`${prompt.name}: ${error.message}`);
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        await deps.failure(error, `what ${prompt.name} needs from the platform`),
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
  });

  return async (params, signal) => {
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
}
