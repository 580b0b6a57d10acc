// A prompt is one repeated workflow the person starts from the client's prompt menu: its arguments
// (with completions read through the person's own credential) and the message that leads the
// assistant to the tools doing the work. The server decides which tools a text may name.
import type { PlatformClient } from "../client/types.js";

export interface PromptContext {
  /** The person's platform client: completions and lookups see only what their credential reads. */
  client: PlatformClient;
  signal?: AbortSignal;
  /** Today's date (YYYY-MM-DD, UTC), from the server's clock. */
  today: string;
  /** Whether this configuration reaches the tool (its toolset in force; with --read-only, a read). */
  reaches(tool: string): boolean;
}

export interface PromptArgument {
  name: string;
  description: string;
  required?: boolean;
  /** The values that begin with (or contain) what was typed so far; the best first. */
  complete?(value: string, ctx: PromptContext): Promise<string[]>;
}

export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  /** The tools the workflow cannot do without: the prompt is offered only when all are reached. */
  needs: readonly string[];
  arguments: readonly PromptArgument[];
  /** The message, from the checked arguments; a value that matches nothing throws PromptArgumentError. */
  render(args: Readonly<Record<string, string | undefined>>, ctx: PromptContext): Promise<string>;
}

/** An argument value the prompt cannot use: said to the client as invalid params, naming it. */
export class PromptArgumentError extends Error {
  constructor(
    readonly argument: string,
    message: string,
  ) {
    super(`argument \`${argument}\`: ${message}`);
    this.name = "PromptArgumentError";
  }
}

export const definePrompt = (prompt: PromptDefinition): PromptDefinition => prompt;
