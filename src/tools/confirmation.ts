// One way to confirm every change that needs it: the first call changes nothing and previews the
// change; the person confirms in a form (when the client can show one) or the model passes back a
// single-use token bound to the tool and to every argument of the call. A write that may have
// reached the platform is never sent again: the tool reads the record back instead (sendOnce).
import { createHash, randomUUID } from "node:crypto";
import * as z from "zod";
import { isOutcomeUnknown, isPlatformError } from "../client/errors.js";
import { SharedStateUnavailableError } from "../state/store.js";
import type { ToolContext } from "./define-tool.js";
import { ToolInputError } from "./define-tool.js";

/** How long a preview's confirmation token stays valid. */
export const CONFIRMATION_TTL_MS = 5 * 60_000;

/** The argument every confirmed tool takes; its description is the same everywhere. */
export const confirmationTokenArg = z
  .string()
  .optional()
  .describe("From the preview, once the person confirmed it.");

/** The output fields of a preview that waits for the person: its token and when that expires. */
export const previewTokenOutput = {
  confirmationToken: z.string().optional(),
  expiresAt: z.string().optional(),
};

/** Every confirmed tool changes the platform in a way that cannot be taken back. */
export const confirmedWriteAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const;

export interface ConfirmationRequest {
  /** The tool's name: a token works only for the tool that issued it. */
  tool: string;
  /** Every argument of the call but the token; the token is bound to all of them, free text too. */
  args: Record<string, unknown>;
  /** The server's sentences about the change, platform values already quoted on their lines. */
  lines: string[];
  /** What cannot be taken back, or who is told: always the last line of the preview and form. */
  consequence: string;
  /** The form's checkbox label, e.g. "Terminate this hire?". */
  question: string;
}

export type ConfirmationAnswer =
  /** Go ahead: the person ticked the form's box (there is no token then). */
  | { kind: "confirmed" }
  /** Nothing was changed; show the preview and wait for the person. */
  | { kind: "preview"; token: string; expiresAt: string; text: string }
  /** The person declined, cancelled or left the box unticked: nothing was changed. */
  | { kind: "declined"; text: string };

/**
 * A preview's answer as the tool's result: status "preview", the tool's own fields, the token and
 * when it expires; the text is the preview itself.
 */
export function previewResult<F extends object>(
  answer: Extract<ConfirmationAnswer, { kind: "preview" }>,
  fields: F,
) {
  return {
    structured: {
      status: "preview" as const,
      ...fields,
      confirmationToken: answer.token,
      expiresAt: answer.expiresAt,
    },
    text: answer.text,
  };
}

/** The server refuses such changes with this client (WORKFORCE_CONFIRM=elicitation, no forms). */
export class ConfirmationUnavailableError extends Error {
  override name = "ConfirmationUnavailableError";
}

interface PendingConfirmation {
  tool: string;
  /** Digest of each argument given: the same set and values, or the token is refused. */
  argDigests: Record<string, string>;
  expiresAt: number;
}

/**
 * Where issued tokens wait to be used: the server's state store, in Redis when replicas share it
 * (a token minted on one replica is accepted once on any), else one process's memory. The key is
 * a digest of the token and the entry holds only digests, never the arguments' text.
 */
export interface ConfirmationStore {
  put(token: string, entry: PendingConfirmation): Promise<void>;
  /** Removes and returns the entry in one atomic step: a token can be taken once. */
  take(token: string): Promise<PendingConfirmation | undefined>;
}

function storeOf(ctx: ToolContext): ConfirmationStore {
  // Bound to whose calls these are: a token minted for one person is unknown to another.
  const key = (token: string) => `confirm:${ctx.identity}:${hash(token)}`;
  // Say what could not be done in the person's terms, not the store's.
  const saying = (action: string) => (error: unknown) => {
    throw error instanceof SharedStateUnavailableError
      ? new SharedStateUnavailableError(action, { cause: error.cause })
      : error;
  };
  return {
    async put(token, entry) {
      await ctx.store
        .set(key(token), JSON.stringify(entry), entry.expiresAt - Date.now())
        .catch(saying("keep a confirmation token for the preview"));
    },
    async take(token) {
      const raw = await ctx.store.take(key(token)).catch(saying("check the confirmation token"));
      if (raw === undefined) return undefined;
      const entry = JSON.parse(raw) as PendingConfirmation;
      return entry.expiresAt > Date.now() ? entry : undefined;
    },
  };
}

/**
 * Asks for confirmation of a change: with a form when the client can show one, otherwise with a
 * preview and a token (or a refusal when WORKFORCE_CONFIRM=elicitation).
 */
export async function askForConfirmation(
  ctx: ToolContext,
  request: ConfirmationRequest,
): Promise<ConfirmationAnswer> {
  if (ctx.elicit) {
    const answer = await ctx.elicit([...request.lines, request.consequence].join("\n"), {
      type: "object",
      properties: { confirm: { type: "boolean", title: request.question } },
      required: ["confirm"],
    });
    if (answer.action === "accept" && answer.content?.confirm === true)
      return { kind: "confirmed" };
    const why =
      answer.action === "accept"
        ? "the box was left unticked"
        : answer.action === "decline"
          ? "the person declined"
          : "the person cancelled";
    return { kind: "declined", text: `Not confirmed (${why}): nothing was changed.` };
  }
  if (ctx.config.confirm === "elicitation") {
    throw new ConfirmationUnavailableError(
      "this server accepts such changes only when the person confirms them in a form, and this client cannot show forms; nothing was changed",
    );
  }
  const token = randomUUID();
  const expiresAt = Date.now() + CONFIRMATION_TTL_MS;
  await storeOf(ctx).put(token, {
    tool: request.tool,
    argDigests: digests(request.args),
    expiresAt,
  });
  return {
    kind: "preview",
    token,
    expiresAt: new Date(expiresAt).toISOString(),
    text: [
      ...request.lines,
      `Nothing has been changed yet. Show this preview to the person and wait for their answer. Only if they clearly confirm, call ${request.tool} again with exactly the same arguments and confirmationToken: ${token} (single use, valid 5 minutes).`,
      request.consequence,
    ].join("\n"),
  };
}

/**
 * Uses up a confirmation token. Refused (nothing changed) when it is unknown, expired, already used,
 * issued by another tool, or issued for other arguments. Always await it: it throws to refuse.
 */
export async function redeemConfirmation(
  ctx: ToolContext,
  tool: string,
  token: string,
  args: Record<string, unknown>,
): Promise<void> {
  const again = `Nothing was changed. Call ${tool} again without confirmationToken for a fresh preview, and show it to the person.`;
  if (ctx.config.confirm === "elicitation") {
    throw new ToolInputError(
      "this server takes confirmations only from the person's form, not as tokens",
      "confirmationToken",
      "Nothing was changed. Use a client that can show forms.",
    );
  }
  // When the store cannot be reached this throws, and the change is not sent.
  const entry = await storeOf(ctx).take(token);
  if (!entry) {
    throw new ToolInputError(
      "the confirmation token is unknown, expired or already used",
      "confirmationToken",
      again,
    );
  }
  if (entry.tool !== tool) {
    throw new ToolInputError(
      `the confirmation token was issued by ${entry.tool}, not ${tool}`,
      "confirmationToken",
      again,
    );
  }
  const now = digests(args);
  const names = new Set([...Object.keys(now), ...Object.keys(entry.argDigests)]);
  const changed = [...names].filter((k) => now[k] !== entry.argDigests[k]).sort();
  if (changed.length > 0) {
    throw new ToolInputError(
      `the confirmation token was issued for other arguments (different now: ${changed.join(", ")})`,
      "confirmationToken",
      again,
    );
  }
}

export type SendOutcome<T, R> =
  | { kind: "sent"; data: T }
  /** The request may have reached the platform; `state` is what reading the record back showed. */
  | { kind: "read-back"; state: R }
  /** The request may have reached the platform, and reading the record back failed too. */
  | { kind: "unknown" };

/**
 * Sends a write once. When the platform's answer is lost (the outcome is unknown), the write is not
 * sent again: the record is read back, so the tool can say what really happened.
 */
export async function sendOnce<T, R>(
  send: () => Promise<T>,
  readBack: () => Promise<R>,
): Promise<SendOutcome<T, R>> {
  try {
    return { kind: "sent", data: await send() };
  } catch (error) {
    if (!isPlatformError(error) || !isOutcomeUnknown(error)) throw error;
  }
  try {
    return { kind: "read-back", state: await readBack() };
  } catch {
    return { kind: "unknown" };
  }
}

/** A digest of each argument given (absent ones are left out, as if never passed). */
function digests(args: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(args)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, hash(canonical(v))]),
  );
}

const hash = (text: string) => createHash("sha256").update(text).digest("hex");

/** JSON with keys in order, so the same arguments always give the same digest. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value as object).sort();
    return `{${keys
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
