import { setTimeout as wait } from "node:timers/promises";
import type { GraphQLSchema } from "graphql";
import type * as z from "zod";
import type { TeamChanges } from "../client/team-changes.js";
import type { PlatformClient } from "../client/types.js";
import type { Config, Toolset } from "../config.js";
import type { Logger } from "../logger.js";
import type { KeyValueStore, StateStore } from "../state/store.js";
import type { WebhookEventStore } from "../state/webhook-events.js";
import type { WebhookSecretStore } from "../state/webhook-secrets.js";
import type { Reach } from "./reach.js";

interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ElicitResult {
  /** "unreadable": the client answered with content that does not fit the form. */
  action: "accept" | "decline" | "cancel" | "unreadable";
  content?: Record<string, unknown>;
}

/** A flat JSON Schema object of primitive properties, as MCP elicitation allows. */
interface ElicitSchema {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
}

/** A call that answers a form this server asked for (see FormAnswer). */
export interface FormReply {
  /** The state sealed with the form, opened: the server refuses one altered or expired. */
  state: unknown;
  /** The person's answer as the client sent it; "unreadable" when the call carried none. */
  answer: ElicitResult;
}

/**
 * A tool's answer that ends this call with a form for the person (an input_required result with a
 * sealed requestState). The client shows it and calls the tool again with the answer and the state;
 * on a 2025-11-25 connection the SDK asks with elicitation/create and calls the tool again itself.
 */
export interface FormAnswer {
  form: { message: string; requestedSchema: ElicitSchema; requestState: string };
}

/** Time as the tools see it: injected, so tests move it instead of sleeping. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects when `signal` aborts first. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** A tool's annotations when it only reads the platform (MCP 2025-11-25, Tool annotations). */
export const readOnlyAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => wait(ms, undefined, { signal }),
};

export interface ToolContext {
  client: PlatformClient;
  config: Config;
  logger: Logger;
  /** True when the answers come from the embedded sandbox, not the person's platform. */
  sandbox: boolean;
  /** Aborted when the MCP client cancels the call; pass it to every platform request. */
  signal: AbortSignal;
  /** The platform's schema, introspected once and shared with the schema resources. */
  schema(): Promise<GraphQLSchema>;
  /** Sends a progress notification when the client asked for progress; otherwise does nothing. */
  reportProgress(progress: number, total?: number, message?: string): Promise<void>;
  /** Whether this call's client can show forms (form elicitation); see FormAnswer. */
  forms: boolean;
  /** Whether this call's client renders MCP Apps: a change is then confirmed on a card. */
  apps?: boolean;
  /** Present when this call answers a form the server asked for. */
  formReply?: FormReply;
  /** Seals what a client carries from one call to the next (a form's requestState). */
  sealingKey: Buffer;
  /**
   * State that must outlive the request: in Redis when replicas share it (any request may reach
   * any replica), otherwise in this process's memory.
   */
  store: StateStore;
  /**
   * Where confirmation tokens, open forms and attempts at changes are kept: shared by every process
   * and session acting for the person (Redis for a team, the local state file for a local server),
   * so neither a restart nor another session can send a change whose outcome is unknown again.
   */
  confirmations: KeyValueStore;
  /**
   * Whose calls these are, to scope keys in `confirmations`: a digest of the platform and its user
   * (from `viewer`), the same in every session and process of that person.
   */
  identity(): Promise<string>;
  /** For waits between read-backs (see sendWrite). */
  clock: Clock;
  /**
   * The platform's webhook events this server received; undefined when nothing here receives them.
   */
  events?: WebhookEventStore;
  /** A local server's view of the team server's events, filtered there for this person. */
  teamChanges?: TeamChanges;
  /** Where the receiver reads registered webhooks' secrets; else they are kept in `store`. */
  registeredSecrets?: WebhookSecretStore;
  /**
   * Which tools this server reaches and lists, and how this call reached its tool (directly or
   * through run_read_tool / run_write_tool): texts that tell the model to call a tool say it with
   * callOf (src/tools/reach.ts). Absent in tests that build a context by hand: every tool listed.
   */
  reach?: Reach;
}

export interface ToolOutput<TStructured> {
  structured: TStructured;
  /** A short rendering a person would like to read. */
  text: string;
  /**
   * A write that did not take effect (or may not have): the result is an error for the client even
   * though the tool explains what happened, in text and structured content.
   */
  isError?: boolean;
  /**
   * The result's `_meta`: for an MCP Apps view only (the confirmation card's sealed state), never
   * what the model reads.
   */
  meta?: Record<string, unknown>;
}

/** What every tool declares besides its schemas and handler. */
interface ToolInfo {
  name: string;
  title: string;
  /** Summary, "Use when", "Do not use for" (naming the other tool), what it returns, examples. */
  description: string;
  annotations: ToolAnnotations;
  /** Which toolset it belongs to, for filtering; "discovery" for the tools that reach the others. */
  toolset: Toolset | "discovery";
  /** Its line in the server instructions: what it is for and how it fits with the others. */
  instruction: string;
  /** Its row in the README's tool table (npm run generate:tools writes it); never sent to clients. */
  readme: {
    /** What a person asks it, or what it does. */
    does: string;
    /**
     * For a tool that changes something: what and whether it can be undone, such as "yes, cannot
     * be undone" (default "yes"). A read-only tool's row says "no" by itself.
     */
    changes?: string;
  };
  /**
   * One call that changes nothing, against the sandbox's seed (a write without its token only
   * previews), which the meta-tests make: its result against the output schema, a read sending no
   * mutation, a confirmed write's preview and form. Never sent to clients. Default: no arguments.
   */
  example?: Record<string, unknown>;
}

export interface ToolDefinition<TInput extends z.ZodRawShape, TOutput extends z.ZodRawShape>
  extends ToolInfo {
  inputSchema: TInput;
  outputSchema: TOutput;
  /**
   * Throws a PlatformError (from src/client) or a ToolInputError for bad arguments; the server
   * turns either into an error result in one place (src/tools/tool-error.ts).
   */
  handler(
    args: z.infer<z.ZodObject<TInput>>,
    context: ToolContext,
  ): Promise<ToolOutput<z.infer<z.ZodObject<TOutput>>> | FormAnswer>;
}

/**
 * Any tool, as the registry and the server hold it. The server passes `handler` only arguments
 * that passed the tool's own `inputSchema`; declared as a method, `handler` lets a tool typed for
 * its own arguments be one of these without a cast.
 */
export interface AnyTool extends ToolInfo {
  inputSchema: z.ZodRawShape;
  outputSchema: z.ZodRawShape;
  handler(args: unknown, context: ToolContext): Promise<ToolOutput<unknown> | FormAnswer>;
}

export function defineTool<TInput extends z.ZodRawShape, TOutput extends z.ZodRawShape>(
  definition: ToolDefinition<TInput, TOutput>,
): ToolDefinition<TInput, TOutput> {
  return definition;
}

/** How much of an argument's value a message may repeat; a 1 MB id must not come back whole. */
export const MAX_SHOWN_VALUE = 200;

/** A value as messages repeat it: cut to MAX_SHOWN_VALUE characters, saying how long it was. */
export function shown(value: string, max = MAX_SHOWN_VALUE): string {
  if (value.length <= max) return value;
  // Do not split a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(value.charAt(max - 1)) ? max - 1 : max;
  return `${value.slice(0, end)}… (${value.length} characters)`;
}

/** Arguments the tool itself refuses, before or without asking the platform. */
export class ToolInputError extends Error {
  override name = "ToolInputError";
  constructor(
    message: string,
    /** The tool argument at fault, for example `date` or `registrations[3].hours`. */
    readonly argument?: string,
    /** What to do instead. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * The platform account may not do this (a permission, not a bad argument): said as "your account
 * is not allowed to …; ask someone with … rights", never as an argument to correct.
 */
export class NotAllowedError extends Error {
  override name = "NotAllowedError";
  constructor(
    /** What was refused, e.g. "terminate hire hire_001". */
    readonly action: string,
    /** Whose rights it takes, e.g. "hire management". */
    readonly rights: string,
  ) {
    super(`your account is not allowed to ${action}`);
  }
}
