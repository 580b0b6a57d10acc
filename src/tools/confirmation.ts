// One way to confirm every change that needs it. The first call changes nothing: it reads the
// platform and previews the change. The person confirms in a form (when the client can show one),
// or the model passes back a single-use token bound to the tool, to every argument of the call and
// to every platform fact the preview showed. Before sending, the platform is read again; if a fact
// the person decided on changed, nothing is sent and a fresh preview says what changed.
//
// A form ends the call (input_required, MCP 2026-07-28) with a requestState sealed with AES-256-GCM
// that binds the same things; the client calls again with the answer and the state. On 2025-11-25
// connections the SDK asks with elicitation/create and calls again itself, so one path serves both.
//
// A write whose answer was lost is never sent again: the record is read back, with back-off, for a
// bounded time. Only a read that shows the change is a definite answer; otherwise the outcome is
// unknown, and another attempt at the same change is refused for a while (see sendWrite).
import { createHash, randomUUID } from "node:crypto";
import * as z from "zod";
import { isOutcomeUnknown, isPlatformError } from "../client/errors.js";
import { quoted } from "../client/platform-text.js";
import { sealRequestState } from "../state/sealing.js";
import { SharedStateUnavailableError } from "../state/store.js";
import type { ElicitResult, FormReply, ToolContext } from "./define-tool.js";
import { FormRequired, ToolInputError } from "./define-tool.js";
import { callOf } from "./reach.js";

/** How long a preview's confirmation token stays valid. */
const CONFIRMATION_TTL_MS = 5 * 60_000;

/**
 * After a write whose outcome stayed unknown, how long another attempt at the same change is
 * refused unless a read shows what happened: long past any request the platform may still be
 * working through, so that a read after it showing no change means the write did not happen.
 */
export const UNKNOWN_OUTCOME_HOLD_MS = 10 * 60_000;

/** Waits before each read-back after a lost answer: five reads over about 15 seconds. */
export const READ_BACK_DELAYS_MS: readonly number[] = [0, 1_000, 2_000, 4_000, 8_000];

/** The argument every confirmed tool takes; its description is the same everywhere. */
export const confirmationTokenArg = z
  .string()
  .optional()
  .describe("From the preview, once the person confirmed it.");

/** The output fields of a preview that waits for the person: its token, expiry, what changed. */
export const previewTokenOutput = {
  confirmationToken: z.string().optional(),
  expiresAt: z.string().optional(),
  changedSincePreview: z.array(z.string()).optional(),
};

/** Every confirmed tool changes the platform in a way that cannot be taken back. */
export const confirmedWriteAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const;

/** A platform fact the person decides on: shown whole, bound by the confirmation. */
export type Fact = string | number | boolean | null | readonly string[];

/** What a change would do, as read from the platform now. */
export interface Proposal<P = unknown> {
  /** The tool's own account of the change, returned in its structured content. */
  preview: P;
  /** The server's sentences about the change, platform values quoted whole on their lines. */
  lines: string[];
  /** What cannot be taken back, or who is told: always the last line of the preview and form. */
  consequence: string;
  /** The form's checkbox label, e.g. "Terminate this hire?". */
  question: string;
  /**
   * Every platform fact the preview shows that the person decides on (names, title, description,
   * rate and currency, amounts, recipient, status, dates), by a label a person understands. The
   * confirmation binds them: if one differs when the change is confirmed, nothing is sent.
   */
  facts: Record<string, Fact>;
}

export interface ChangeRequest<P> {
  /** The tool's name: a token works only for the tool that issued it. */
  tool: string;
  /** Every argument of the call but the token; the token is bound to all of them, free text too. */
  args: Record<string, unknown>;
  /** The token from an earlier preview, when the model passes one back. */
  token: string | undefined;
  /**
   * Reads the platform and says what the change would do; throws (a ToolInputError) when it cannot
   * be done. Called for the preview and again when the change is confirmed.
   */
  propose(): Promise<Proposal<P>>;
  /**
   * What the change is to, e.g. "hire hire_001": while an earlier change to it has an unknown
   * outcome, no other is previewed or sent (see sendWrite).
   */
  target: string;
  /** The read tool that shows whether an earlier attempt happened, as sendWrite is told. */
  check?: string;
}

export type Decision<P> =
  /** Go ahead: the person confirmed, and the platform still shows what they saw. */
  | { kind: "confirmed"; proposal: Proposal<P> }
  /** Nothing was changed; show the preview and wait for the person. */
  | { kind: "preview"; proposal: Proposal<P>; token: string; expiresAt: string; text: string }
  /** The person declined, cancelled or left the box unticked, or the form could not be read. */
  | { kind: "declined"; proposal: Proposal<P>; text: string }
  /**
   * A fact the person decided on changed on the platform before the change was sent: nothing was
   * sent. `text` names what changed and is a fresh preview (with a fresh token on the token path).
   */
  | {
      kind: "changed";
      proposal: Proposal<P>;
      changed: string[];
      text: string;
      token?: string;
      expiresAt?: string;
    };

/** The server refuses such changes with this client (WORKFORCE_CONFIRM=elicitation, no forms). */
export class ConfirmationUnavailableError extends Error {
  override name = "ConfirmationUnavailableError";
}

/**
 * An earlier attempt at the same change was sent and its outcome is still unknown: another is not
 * previewed or sent until a read shows what happened, or until the hold ends.
 */
export class OutcomeStillUnknownError extends Error {
  override name = "OutcomeStillUnknownError";
  constructor(
    /** e.g. "terminate_hire for hire hire_001". */
    readonly change: string,
    /** When the earlier attempt was sent (ISO). */
    readonly sentAt: string,
    /** When another attempt is accepted again (ISO). */
    readonly until: string,
    /** The read tool that shows what happened, e.g. "get_hire". */
    readonly check: string,
  ) {
    super(`an earlier ${change} was sent at ${sentAt} and its outcome is not known yet`);
  }
}

/**
 * Asks for, or checks, the person's confirmation of a change. Without a token: reads the platform
 * (propose), then asks in a form when the client can (FormRequired ends the call), else returns a
 * preview with a token. With a token, or a form's answer: uses it up, reads the platform again and
 * confirms only if every fact is as previewed.
 */
export async function confirmChange<P>(
  ctx: ToolContext,
  request: ChangeRequest<P>,
): Promise<Decision<P>> {
  if (request.token !== undefined) return redeem(ctx, request, request.token);
  if (ctx.formReply) return answered(ctx, request, ctx.formReply);
  const proposal = await request.propose();
  await refuseWhileUnknown(ctx, request);
  if (ctx.forms) return askInForm(ctx, request, proposal, 1);
  if (ctx.config.confirm === "elicitation") {
    throw new ConfirmationUnavailableError(
      "this server accepts such changes only when the person confirms them in a form, and this client cannot show forms; nothing was changed",
    );
  }
  return issuePreview(ctx, request, proposal);
}

async function redeem<P>(
  ctx: ToolContext,
  request: ChangeRequest<P>,
  token: string,
): Promise<Decision<P>> {
  const { tool } = request;
  const again = `Nothing was changed. Call ${callOf(ctx, tool)} again without confirmationToken for a fresh preview, and show it to the person.`;
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
  const changedArgs = differing(digests(request.args), entry.argDigests);
  if (changedArgs.length > 0) {
    throw new ToolInputError(
      `the confirmation token was issued for other arguments (different now: ${changedArgs.join(", ")})`,
      "confirmationToken",
      again,
    );
  }
  // The platform as it is now: what the person confirmed must still be what would happen.
  const proposal = await request.propose();
  await refuseWhileUnknown(ctx, request);
  const changed = differing(digests(proposal.facts), entry.factDigests ?? {});
  if (changed.length === 0) return { kind: "confirmed", proposal };
  const fresh = await issuePreview(ctx, request, proposal);
  return {
    kind: "changed",
    proposal,
    changed,
    token: fresh.token,
    expiresAt: fresh.expiresAt,
    text: [changedLine(changed, proposal, "since the preview"), fresh.text].join("\n"),
  };
}

async function issuePreview<P>(
  ctx: ToolContext,
  request: ChangeRequest<P>,
  proposal: Proposal<P>,
): Promise<Extract<Decision<P>, { kind: "preview" }>> {
  const token = randomUUID();
  const expiresAt = Date.now() + CONFIRMATION_TTL_MS;
  const text = [
    ...proposal.lines,
    `Nothing has been changed yet. Show this preview to the person and wait for their answer. Only if they clearly confirm, call ${callOf(ctx, request.tool)} again with exactly the same arguments and confirmationToken: ${token} (single use, valid 5 minutes).`,
    proposal.consequence,
  ].join("\n");
  refuseTooLong(ctx, text);
  await storeOf(ctx).put(token, {
    tool: request.tool,
    argDigests: digests(request.args),
    factDigests: digests(proposal.facts),
    expiresAt,
  });
  return { kind: "preview", proposal, token, expiresAt: new Date(expiresAt).toISOString(), text };
}

/** How often a form is shown again when the platform changed while it was open. */
const FORM_ROUNDS = 2;

/** How long a form may stay open: its answer is refused after that. */
const FORM_TTL_MS = 10 * 60_000;

/** What a form's requestState holds, sealed: the client can neither read nor change it. */
interface FormState {
  tool: string;
  /** Whose call it is: another person's answer to it is refused. */
  identity: string;
  argDigests: Record<string, string>;
  factDigests: Record<string, string>;
  /** The facts as the form showed them, only to say what they were if they change (sealed). */
  shown: Record<string, Fact>;
  /** Taken from the state store once: a replayed answer finds it gone and sends nothing. */
  nonce: string;
  round: number;
  expiresAt: number;
}

/** Ends the call with a form (FormRequired), its state sealed for the call that answers it. */
async function askInForm<P>(
  ctx: ToolContext,
  request: ChangeRequest<P>,
  proposal: Proposal<P>,
  round: number,
  changedNote?: string,
): Promise<never> {
  const message = [
    ...(changedNote ? [changedNote] : []),
    ...proposal.lines,
    proposal.consequence,
  ].join("\n");
  refuseTooLong(ctx, message);
  const nonce = randomUUID();
  const state: FormState = {
    tool: request.tool,
    identity: ctx.identity,
    argDigests: digests(request.args),
    factDigests: digests(proposal.facts),
    shown: proposal.facts,
    nonce,
    round,
    expiresAt: ctx.clock.now() + FORM_TTL_MS,
  };
  await ctx.store
    .set(formKey(ctx, nonce), "open", FORM_TTL_MS)
    .catch(saying("keep the form's confirmation"));
  throw new FormRequired({
    message,
    requestedSchema: {
      type: "object",
      properties: { confirm: { type: "boolean", title: proposal.question } },
      required: ["confirm"],
    },
    requestState: sealRequestState(ctx.sealingKey, state),
  });
}

/**
 * The call that answers a form: its state must be for this tool, person and arguments. A ticked
 * box confirms once, and only if the platform still shows what the form showed; otherwise the form
 * is shown again (FORM_ROUNDS in all), naming what changed.
 */
async function answered<P>(
  ctx: ToolContext,
  request: ChangeRequest<P>,
  reply: FormReply,
): Promise<Decision<P>> {
  const { tool } = request;
  const again = `Nothing was changed. Call ${callOf(ctx, tool)} again with the arguments the person is to confirm, and no earlier form's answer, for a fresh form.`;
  const state = reply.state as FormState;
  if (state?.tool !== tool || state.identity !== ctx.identity) {
    throw new ToolInputError(
      "the form's answer belongs to another tool's or person's form",
      undefined,
      again,
    );
  }
  const changedArgs = differing(digests(request.args), state.argDigests);
  if (changedArgs.length > 0) {
    throw new ToolInputError(
      `the form was shown for other arguments (different now: ${changedArgs.join(", ")})`,
      undefined,
      again,
    );
  }
  const refusal = refusalIn(ctx, reply.answer);
  if (refusal) return { kind: "declined", proposal: await request.propose(), text: refusal };
  // Taken atomically: of two calls bringing the same answer, only one may send the change.
  const open = await ctx.store
    .take(formKey(ctx, state.nonce))
    .catch(saying("check the form's answer"));
  if (open === undefined) {
    throw new ToolInputError(
      "this form's answer was already used (a form confirms one change, once)",
      undefined,
      `Nothing was sent this time. Check with ${request.check ?? "the read tool"} whether the change was made before calling ${tool} again.`,
    );
  }
  // The form may have been open for minutes: read the platform again before sending.
  const now = await request.propose();
  await refuseWhileUnknown(ctx, request);
  const changed = differing(digests(now.facts), state.factDigests);
  if (changed.length === 0) return { kind: "confirmed", proposal: now };
  const note = changedLine(changed, now, "while the form was open", state.shown);
  if (state.round >= FORM_ROUNDS) {
    return {
      kind: "changed",
      proposal: now,
      changed,
      text: `${note} Call ${tool} again to see the change as it is now.`,
    };
  }
  return askInForm(ctx, request, now, state.round + 1, note);
}

/** Why a form's answer confirms nothing, or undefined when the person ticked the box. */
function refusalIn(ctx: ToolContext, answer: ElicitResult): string | undefined {
  const confirm = answer.content?.confirm;
  if (answer.action === "accept" && typeof confirm !== "boolean") {
    // The answer is the client's, checked here: one that does not fit the form is not ours to fix.
    ctx.logger.warning("a form's answer did not fit the form");
  }
  if (
    answer.action === "unreadable" ||
    (answer.action === "accept" && typeof confirm !== "boolean")
  ) {
    return "Not confirmed: the form's answer could not be read; nothing changed.";
  }
  if (answer.action === "accept" && confirm === true) return undefined;
  const why =
    answer.action === "accept"
      ? "the box was left unticked"
      : answer.action === "decline"
        ? "the person declined"
        : "the person cancelled";
  return `Not confirmed (${why}): nothing was changed.`;
}

/** A form's single-use mark, under whose form it is and a digest of its nonce. */
const formKey = (ctx: ToolContext, nonce: string) => `form:${ctx.identity}:${hash(nonce)}`;

/** "Nothing was sent: since the preview, these changed on the platform: rate (now "DKK 8,200.00")." */
function changedLine<P>(
  changed: string[],
  now: Proposal<P>,
  when: string,
  before?: Record<string, Fact>,
): string {
  const items = changed.map((label) => {
    const was = before && label in before ? `was ${factText(before[label])}, ` : "";
    const is = label in now.facts ? `now ${factText(now.facts[label])}` : "no longer shown";
    return `${label} (${was}${is})`;
  });
  return `Nothing was sent: ${when}, this changed on the platform: ${items.join("; ")}.`;
}

/** A fact as text, whole: a string quoted, a list of strings quoted one by one. */
function factText(value: Fact | undefined): string {
  if (value === undefined || value === null) return "none";
  if (typeof value === "string") return whole(value);
  if (Array.isArray(value)) return `[${value.map((v) => whole(v)).join(", ")}]`;
  return String(value);
}

/** A platform value the person decides on: one line, quoted, never cut. */
export const whole = (value: unknown) => quoted(value, Number.POSITIVE_INFINITY);

/** A preview or form cut by the answer budget would hide what the person decides on. */
function refuseTooLong(ctx: ToolContext, text: string): void {
  const bytes = Buffer.byteLength(text);
  const limit = ctx.config.maxAnswerBytes - 4096;
  if (bytes <= limit) return;
  throw new ToolInputError(
    `the preview would be ${bytes} bytes, too long to show whole (at most ${limit})`,
    undefined,
    "Nothing was changed. Shorten the text arguments; a preview is never cut, since the person must see everything that is sent.",
  );
}

/**
 * A preview's answer as the tool's result: status "preview", the tool's own fields, the token and
 * when it expires; the text is the preview itself.
 */
export function previewResult<F extends object>(
  answer: { token: string; expiresAt: string; text: string },
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

/**
 * The answer when a fact changed before the change was sent: status "changed", nothing sent, what
 * changed, and the fresh preview's token (on the token path).
 */
export function changedResult<F extends object, P>(
  decision: Extract<Decision<P>, { kind: "changed" }>,
  fields: F,
) {
  return {
    structured: {
      status: "changed" as const,
      ...fields,
      changedSincePreview: decision.changed,
      ...(decision.token
        ? { confirmationToken: decision.token, expiresAt: decision.expiresAt }
        : {}),
    },
    text: decision.text,
  };
}

interface PendingConfirmation {
  tool: string;
  /** Digest of each argument given: the same set and values, or the token is refused. */
  argDigests: Record<string, string>;
  /** Digest of each platform fact the preview showed: the same when confirmed, or nothing is sent. */
  factDigests?: Record<string, string>;
  expiresAt: number;
}

/**
 * Where issued tokens wait to be used: the server's state store, in Redis when replicas share it
 * (a token minted on one replica is accepted once on any), else one process's memory. The key is
 * a digest of the token and the entry holds only digests, never the arguments' or facts' text.
 */
function storeOf(ctx: ToolContext) {
  // Bound to whose calls these are: a token minted for one person is unknown to another.
  const key = (token: string) => `confirm:${ctx.identity}:${hash(token)}`;
  return {
    async put(token: string, entry: PendingConfirmation) {
      await ctx.store
        .set(key(token), JSON.stringify(entry), entry.expiresAt - Date.now())
        .catch(saying("keep a confirmation token for the preview"));
    },
    /** Removes and returns the entry in one atomic step: a token can be taken once. */
    async take(token: string): Promise<PendingConfirmation | undefined> {
      const raw = await ctx.store.take(key(token)).catch(saying("check the confirmation token"));
      if (raw === undefined) return undefined;
      const entry = JSON.parse(raw) as PendingConfirmation;
      return entry.expiresAt > Date.now() ? entry : undefined;
    },
  };
}

// Say what could not be done in the person's terms, not the store's.
const saying = (action: string) => (error: unknown) => {
  throw error instanceof SharedStateUnavailableError
    ? new SharedStateUnavailableError(action, { cause: error.cause })
    : error;
};

/** The marker a write with an unknown outcome leaves: whose, which change, until when. */
const unknownKey = (ctx: ToolContext, tool: string, target: string) =>
  `unknown-outcome:${ctx.identity}:${tool}:${hash(target)}`;

/** Only times: the target and the read tool may name a person, and stay out of shared state. */
interface UnknownOutcome {
  sentAt: number;
  until: number;
}

/**
 * Refuses (OutcomeStillUnknownError) while an earlier attempt at the same change has an unknown
 * outcome. confirmChange and sendWrite call it; a tool that would answer "already done" from a read
 * before either calls it first.
 */
export async function refuseWhileUnknown(
  ctx: ToolContext,
  request: { tool: string; target: string; check?: string },
): Promise<void> {
  const raw = await ctx.store
    .get(unknownKey(ctx, request.tool, request.target))
    .catch(saying("check for an earlier change whose outcome is unknown"));
  if (raw === undefined) return;
  const marker = JSON.parse(raw) as UnknownOutcome;
  throw new OutcomeStillUnknownError(
    `${request.tool} for ${request.target}`,
    new Date(marker.sentAt).toISOString(),
    new Date(marker.until).toISOString(),
    request.check ?? "the read tool the earlier answer named",
  );
}

export interface WriteRequest<T, R> {
  tool: string;
  /** What the change is to, as in the confirmation, e.g. "hire hire_001". */
  target: string;
  /** The read tool a person uses to see what happened, e.g. "get_hire (hireId hire_001)". */
  check: string;
  send(): Promise<T>;
  /** Reads the record as it is now. */
  readBack(): Promise<R>;
  /** Whether what was read shows the change made. */
  applied(state: R): boolean;
  /**
   * Other changes held with this one when its outcome is unknown, e.g. each hire and day of a set of
   * timesheet rows: other rows for the same days must wait too.
   */
  alsoHolds?: readonly string[];
}

export type WriteOutcome<T, R> =
  | { kind: "sent"; data: T }
  /** The answer was lost, and reading the record back shows the change made. */
  | { kind: "read-back"; state: R }
  /**
   * The answer was lost and no read showed the change: the platform may still make it. Another
   * attempt at the same change is refused until `until` unless a read shows what happened.
   */
  | { kind: "unknown"; until: string; text: string };

/**
 * Sends a write once. When the platform's answer is lost (the outcome is unknown), the write is not
 * sent again: the record is read back with back-off for a bounded time (progress reported). A
 * definite refusal from the platform is thrown as it is. While an earlier attempt at the same
 * change has an unknown outcome, nothing is sent (OutcomeStillUnknownError).
 */
export async function sendWrite<T, R>(
  ctx: ToolContext,
  request: WriteRequest<T, R>,
): Promise<WriteOutcome<T, R>> {
  // A write sent without a preview is held back here, as a confirmed one is by confirmChange.
  await refuseWhileUnknown(ctx, request);
  const sentAt = ctx.clock.now();
  try {
    return { kind: "sent", data: await request.send() };
  } catch (error) {
    if (!isPlatformError(error) || !isOutcomeUnknown(error)) throw error;
  }
  const reads = READ_BACK_DELAYS_MS.length;
  for (const [i, delay] of READ_BACK_DELAYS_MS.entries()) {
    // A cancelled wait ends the read-back, never the answer: what was sent stays unknown and held.
    if (
      delay > 0 &&
      !(await ctx.clock.sleep(delay, ctx.signal).then(
        () => true,
        () => false,
      ))
    ) {
      break;
    }
    await ctx.reportProgress(
      i + 1,
      reads,
      `The platform's answer was lost; reading back whether the change was made (${i + 1} of ${reads}).`,
    );
    try {
      const state = await request.readBack();
      if (request.applied(state)) return { kind: "read-back", state };
    } catch {
      // A failed read shows nothing either way; the next one may.
    }
    if (ctx.signal.aborted) break;
  }
  const until = sentAt + UNKNOWN_OUTCOME_HOLD_MS;
  const marker: UnknownOutcome = { sentAt, until };
  for (const target of [request.target, ...(request.alsoHolds ?? [])]) {
    await ctx.store
      .set(unknownKey(ctx, request.tool, target), JSON.stringify(marker), until - sentAt)
      .catch(() => {
        // The answer below says not to resend either way; the hold is a second line of defence.
      });
  }
  const untilText = new Date(until).toISOString();
  return {
    kind: "unknown",
    until: untilText,
    text: `The outcome is UNKNOWN: the request was sent, its answer was lost, and reading it back did not show the change yet. The platform may still make it. Do not send it again: check with ${request.check}. This server refuses another attempt at the same change until ${untilText}; if a read then still does not show it, it did not happen.`,
  };
}

/** Digests of each entry given (absent ones are left out, as if never passed). */
function digests(values: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, hash(canonical(v))]),
  );
}

/** The names whose digests differ between the two, sorted. */
function differing(a: Record<string, string>, b: Record<string, string>): string[] {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter((k) => a[k] !== b[k]).sort();
}

const hash = (text: string) => createHash("sha256").update(text).digest("hex");

/** A digest of a value that does not depend on the order of its object keys. */
export const contentDigest = (value: unknown) => hash(canonical(value));

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
