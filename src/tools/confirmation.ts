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
import { sealCard, sealRequestState } from "../state/sealing.js";
import { SharedStateUnavailableError } from "../state/store.js";
import { CARD_META_KEY } from "../web/app-views.js";
import type {
  ElicitResult,
  FormAnswer,
  FormReply,
  ToolContext,
  ToolOutput,
} from "./define-tool.js";
import { ToolInputError } from "./define-tool.js";
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
    }
  /** Nothing was changed; the call ends with a form for the person (see FormAnswer). */
  | { kind: "form"; proposal: Proposal<P>; answer: FormAnswer }
  /**
   * Nothing was changed; the client renders MCP Apps, so the preview comes with a card the person
   * confirms on, its state sealed in the result's `_meta` (never in what the model reads).
   */
  | { kind: "card"; proposal: Proposal<P>; text: string; card: CardMeta };

/** What the confirmation card receives in the tool result's `_meta` (CARD_META_KEY). */
interface CardMeta {
  tool: string;
  /** Sealed: the tool, its arguments and the form state the card's Confirm brings back. */
  state: string;
  lines: string[];
  facts: Record<string, Fact>;
  consequence: string;
  question: string;
}

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
    /** The earlier attempt has had no answer yet: it may still be on its way. */
    readonly inFlight = false,
  ) {
    super(
      inFlight
        ? `an earlier ${change} was sent at ${sentAt} and has had no answer yet, so its outcome is not known`
        : `an earlier ${change} was sent at ${sentAt} and its outcome is not known yet`,
    );
  }
}

/**
 * Asks for, or checks, the person's confirmation of a change. Without a token: reads the platform
 * (propose), then asks in a form when the client can (the call ends with it), else returns a
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
  // A card shows more than a form (tables, money per currency) and is as much the person's own.
  if (ctx.apps) return offerCard(ctx, request, proposal, 1);
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
  const text = shownText(
    ctx,
    proposal,
    undefined,
    `Nothing has been changed yet. Show this preview to the person and wait for their answer. Only if they clearly confirm, call ${callOf(ctx, request.tool)} again with exactly the same arguments and confirmationToken: ${token} (single use, valid 5 minutes).`,
  );
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
  /** "card": the confirmation card of an MCP Apps client asked, and asks again if need be. */
  via?: "card";
}

/** Ends the call with a form, its state sealed for the call that answers it. */
async function askInForm<P>(
  ctx: ToolContext,
  request: ChangeRequest<P>,
  proposal: Proposal<P>,
  round: number,
  changedNote?: string,
): Promise<Decision<P>> {
  const message = shownText(ctx, proposal, changedNote);
  const state = await openForm(ctx, request, proposal, round);
  const form: FormAnswer["form"] = {
    message,
    requestedSchema: {
      type: "object",
      properties: { confirm: { type: "boolean", title: proposal.question } },
      required: ["confirm"],
    },
    requestState: sealRequestState(ctx.sealingKey, state),
  };
  return { kind: "form", proposal, answer: { form } };
}

/** A form's state, its single-use mark kept in the state store until it is answered. */
async function openForm<P>(
  ctx: ToolContext,
  request: ChangeRequest<P>,
  proposal: Proposal<P>,
  round: number,
  via?: "card",
): Promise<FormState> {
  const nonce = randomUUID();
  const state: FormState = {
    tool: request.tool,
    identity: await ctx.identity(),
    argDigests: digests(request.args),
    factDigests: digests(proposal.facts),
    shown: proposal.facts,
    nonce,
    round,
    expiresAt: ctx.clock.now() + FORM_TTL_MS,
    ...(via ? { via } : {}),
  };
  await ctx.confirmations
    .set(await formKey(ctx, nonce), "open", FORM_TTL_MS)
    .catch(saying("keep the form's confirmation"));
  return state;
}

/**
 * The preview with a confirmation card: the same form state as a form's, sealed with the tool and
 * its arguments for confirm_change, which only the card calls. The model reads the preview and no
 * token: the person confirms on the card, or nothing is sent.
 */
async function offerCard<P>(
  ctx: ToolContext,
  request: ChangeRequest<P>,
  proposal: Proposal<P>,
  round: number,
  changedNote?: string,
): Promise<Decision<P>> {
  const text = shownText(
    ctx,
    proposal,
    changedNote,
    "Nothing has been changed yet. The person confirms or cancels on the card shown with this preview (valid 10 minutes); nothing is sent unless they press Confirm there. There is no token to pass back: do not confirm for them.",
  );
  const form = await openForm(ctx, request, proposal, round, "card");
  const state = sealCard(ctx.sealingKey, {
    tool: request.tool,
    args: request.args,
    form,
    expiresAt: form.expiresAt,
  });
  const card: CardMeta = {
    tool: request.tool,
    state,
    lines: [...(changedNote ? [changedNote] : []), ...proposal.lines],
    facts: proposal.facts,
    consequence: proposal.consequence,
    question: proposal.question,
  };
  return { kind: "card", proposal, text, card };
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
  if (state?.tool !== tool || state.identity !== (await ctx.identity())) {
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
  // Taken atomically, whatever the answer: of two calls bringing the same form's answer, only the
  // first counts, so a declined form cannot be answered again with "accept".
  const open = await ctx.confirmations
    .take(await formKey(ctx, state.nonce))
    .catch(saying("check the form's answer"));
  if (open === undefined) {
    throw new ToolInputError(
      "this form's answer was already used (a form confirms one change, once)",
      undefined,
      `Nothing was sent this time. Check with ${request.check ?? "the read tool"} whether the change was made before calling ${callOf(ctx, tool)} again.`,
    );
  }
  const refusal = refusalIn(ctx, reply.answer);
  if (refusal) return { kind: "declined", proposal: await request.propose(), text: refusal };
  // The form may have been open for minutes: read the platform again before sending.
  const now = await request.propose();
  await refuseWhileUnknown(ctx, request);
  const changed = differing(digests(now.facts), state.factDigests);
  if (changed.length === 0) return { kind: "confirmed", proposal: now };
  const meanwhile = state.via === "card" ? "while the card was open" : "while the form was open";
  const note = changedLine(changed, now, meanwhile, state.shown);
  if (state.round >= FORM_ROUNDS) {
    return {
      kind: "changed",
      proposal: now,
      changed,
      text: `${note} Call ${callOf(ctx, tool)} again to see the change as it is now.`,
    };
  }
  return state.via === "card"
    ? offerCard(ctx, request, now, state.round + 1, note)
    : askInForm(ctx, request, now, state.round + 1, note);
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
const formKey = async (ctx: ToolContext, nonce: string) =>
  `form:${await ctx.identity()}:${hash(nonce)}`;

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
/**
 * What a preview, form or card shows: what changed meanwhile (if anything), the change, what to do
 * next (if anything) and its consequence; refused whole when too long.
 */
function shownText<P>(
  ctx: ToolContext,
  proposal: Proposal<P>,
  changedNote?: string,
  next?: string,
): string {
  const text = [
    ...(changedNote ? [changedNote] : []),
    ...proposal.lines,
    ...(next ? [next] : []),
    proposal.consequence,
  ].join("\n");
  refuseTooLong(ctx, text);
  return text;
}

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

/** What a write tool declares; confirmedWrite owns every answer but the one after sending. */
export interface ConfirmedWrite<P, F extends object, D extends object, A> {
  /** The tool's name: its confirmation works for it alone. */
  tool: string;
  /** Every argument of the call but the token; the confirmation binds all of them. */
  args: Record<string, unknown>;
  /** The token from an earlier preview, when the model passes one back. */
  token: string | undefined;
  /** What the change is to, e.g. "hire hire_001" (see sendWrite). */
  target: string;
  /** The read tool that shows whether the change happened, e.g. "get_hire (hireId hire_001)". */
  check: string;
  /** Reads what the person decides on (see ChangeRequest.propose). */
  propose(): Promise<Proposal<P>>;
  /** What every answer about this change carries besides its status: ids, the preview. */
  fields(preview: P): F;
  /** After "Not confirmed … nothing was changed": what stays as it was, and any further fields. */
  declined?(preview: P): { text?: string; fields?: D };
  /**
   * Sends what the person confirmed and says what happened: most tools with `send`, which is
   * sendChange for this tool, target and check.
   */
  apply(proposal: Proposal<P>, send: BoundSend): Promise<A>;
}

/** sendChange with the tool, target and check of the change being confirmed. */
export type BoundSend = <T, R, F extends object, A>(
  change: ChangeSend<T, R, F, A>,
) => ReturnType<typeof sendChange<T, R, F, A>>;

/**
 * The one way a change is confirmed: preview (with a token) or form, declined, changed since the
 * preview, or confirmed and applied. A tool declares what differs; every answer but the applied
 * one is shaped here.
 */
export async function confirmedWrite<P, F extends object, D extends object, A>(
  ctx: ToolContext,
  write: ConfirmedWrite<P, F, D, A>,
) {
  const decision = await confirmChange(ctx, write);
  const { preview } = decision.proposal;
  switch (decision.kind) {
    case "confirmed":
      return write.apply(decision.proposal, (change) =>
        sendChange(ctx, { tool: write.tool, target: write.target, check: write.check, ...change }),
      );
    case "form":
      return decision.answer;
    case "card":
      return {
        structured: { status: "preview" as const, ...write.fields(preview) },
        text: decision.text,
        meta: { [CARD_META_KEY]: decision.card },
      };
    case "preview":
      return {
        structured: {
          status: "preview" as const,
          ...write.fields(preview),
          confirmationToken: decision.token,
          expiresAt: decision.expiresAt,
        },
        text: decision.text,
      };
    case "changed":
      return {
        structured: {
          status: "changed" as const,
          ...write.fields(preview),
          changedSincePreview: decision.changed,
          ...(decision.token
            ? { confirmationToken: decision.token, expiresAt: decision.expiresAt }
            : {}),
        },
        text: decision.text,
      };
    case "declined": {
      const kept = write.declined?.(preview);
      return {
        structured: {
          status: "declined" as const,
          ...write.fields(preview),
          ...(kept?.fields as D),
        },
        text: kept?.text ? `${decision.text} ${kept.text}` : decision.text,
      };
    }
  }
}

/** One write sent for a confirmed change: what to send, how to read it back, what to answer. */
export interface ChangeSend<T, R, F extends object, A> extends WriteSteps<T, R> {
  /** What the change was, e.g. "Termination of hire hire_001": an unknown outcome starts with it. */
  what: string;
  /** The fields every answer about this change carries (as confirmedWrite's `fields`). */
  fields: F;
  /** The answer when the platform answered, or when reading back after a lost answer shows it. */
  done(result: Exclude<WriteOutcome<T, R>, { kind: "unknown" }>): A;
}

/**
 * Sends one write (sendWrite) and answers: the tool's own answer when it is known to be done, else
 * an error saying the outcome is unknown and how to check.
 */
async function sendChange<T, R, F extends object, A>(
  ctx: ToolContext,
  change: ChangeSend<T, R, F, A> & WriteTarget,
) {
  const sent = await sendWrite(ctx, change);
  if (sent.kind === "unknown") return unknownAnswer(change.what, change.fields, sent.text);
  return change.done(sent);
}

/** An unknown outcome as the tool's answer: an error, with what was sent and how to check. */
export function unknownAnswer<F extends object>(
  what: string,
  fields: F,
  note: string,
): ToolOutput<F & { status: "outcome-unknown"; note: string }> {
  return {
    isError: true,
    structured: { status: "outcome-unknown" as const, ...fields, note },
    text: `${what}: ${note}`,
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
  const key = async (token: string) => `confirm:${await ctx.identity()}:${hash(token)}`;
  return {
    async put(token: string, entry: PendingConfirmation) {
      await ctx.confirmations
        .set(await key(token), JSON.stringify(entry), entry.expiresAt - Date.now())
        .catch(saying("keep a confirmation token for the preview"));
    },
    /** Removes and returns the entry in one atomic step: a token can be taken once. */
    async take(token: string): Promise<PendingConfirmation | undefined> {
      const raw = await ctx.confirmations
        .take(await key(token))
        .catch(saying("check the confirmation token"));
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

/** Where an attempt at a change is recorded: whose, which tool, and a digest of its target. */
const attemptKey = async (ctx: ToolContext, tool: string, target: string) =>
  `attempt:${await ctx.identity()}:${tool}:${hash(target)}`;

/**
 * An attempt at a change, recorded before it is sent. Only times and a state: the target and the
 * read tool may name a person, and stay out of shared state.
 */
interface Attempt {
  /** When the send began. */
  sentAt: number;
  /** Until when another attempt at the same change is refused unless a read shows what happened. */
  until: number;
  /**
   * "sending": no answer yet (or its server stopped before one came); "unknown": the answer was
   * lost and reading back did not show the change.
   */
  state: "sending" | "unknown";
}

/** The attempt recorded for a change, while its hold lasts (its stated end is its end). */
async function attemptAt(
  ctx: ToolContext,
  tool: string,
  target: string,
): Promise<Attempt | undefined> {
  const raw = await ctx.confirmations
    .get(await attemptKey(ctx, tool, target))
    .catch(saying("check for an earlier change whose outcome is unknown"));
  if (raw === undefined) return undefined;
  const attempt = JSON.parse(raw) as Attempt;
  return attempt.until > ctx.clock.now() ? attempt : undefined;
}

const stillUnknown = (request: HeldChange, target: string, attempt: Attempt) =>
  new OutcomeStillUnknownError(
    `${request.tool} for ${target}`,
    new Date(attempt.sentAt).toISOString(),
    new Date(attempt.until).toISOString(),
    request.check ?? "the read tool the earlier answer named",
    attempt.state === "sending",
  );

/** A change as its hold names it; `check` is the read tool that shows what happened. */
interface HeldChange {
  tool: string;
  target: string;
  check?: string;
}

/**
 * Refuses (OutcomeStillUnknownError) while an earlier attempt at the same change is being sent or
 * has an unknown outcome. confirmChange and sendWrite call it; a tool that would answer "already
 * done" from a read before either calls it first.
 */
export async function refuseWhileUnknown(ctx: ToolContext, request: HeldChange): Promise<void> {
  const attempt = await attemptAt(ctx, request.tool, request.target);
  if (attempt) throw stillUnknown(request, request.target, attempt);
}

/**
 * Records the attempt under each of its targets before anything is sent, each only if no other
 * attempt holds it: of two confirmations racing for one change, one sends and the other is refused,
 * naming the first. Resolves to the function that records how the attempt ended.
 */
async function recordAttempt(
  ctx: ToolContext,
  request: HeldChange & { alsoHolds?: readonly string[] },
  attempt: Attempt,
): Promise<(outcome: "done" | "unknown") => Promise<void>> {
  const targets = [...new Set([request.target, ...(request.alsoHolds ?? [])])];
  const keys: string[] = [];
  const release = () =>
    Promise.all(keys.map((key) => ctx.confirmations.delete(key).catch(() => {})));
  for (const target of targets) {
    const key = await attemptKey(ctx, request.tool, target);
    const claimed = await ctx.confirmations
      .setIfAbsent(key, JSON.stringify(attempt), UNKNOWN_OUTCOME_HOLD_MS)
      .catch(async (error) => {
        await release();
        return saying("record the attempt before sending it")(error);
      });
    if (!claimed) {
      // A record past its stated end that the store still keeps holds nothing: replace it once.
      const earlier = await attemptAt(ctx, request.tool, target).catch(async (error) => {
        await release();
        throw error;
      });
      const replaced =
        !earlier &&
        (await ctx.confirmations
          .delete(key)
          .then(() =>
            ctx.confirmations.setIfAbsent(key, JSON.stringify(attempt), UNKNOWN_OUTCOME_HOLD_MS),
          )
          .catch(() => false));
      if (!replaced) {
        await release();
        // Taken meanwhile by another attempt, or not written: either way nothing is sent.
        const now = earlier ?? (await attemptAt(ctx, request.tool, target).catch(() => undefined));
        throw now
          ? stillUnknown(request, target, now)
          : new SharedStateUnavailableError("record the attempt before sending it");
      }
    }
    keys.push(key);
  }
  return async (outcome) => {
    if (outcome === "done") {
      // Left behind, a record would only hold the next change for a while: never a resend.
      await release();
      return;
    }
    const held: Attempt = { ...attempt, state: "unknown" };
    for (const key of keys) {
      await ctx.confirmations
        .set(key, JSON.stringify(held), holdLeft(ctx, attempt.until))
        .catch(() => {
          // Still recorded as being sent, which holds as long; the answer says not to resend.
        });
    }
  };
}

/**
 * How long the store keeps a hold that ends at `until`: from now, since the read-back took time
 * after the send began; never less than a moment, so the record is written at all.
 */
const holdLeft = (ctx: ToolContext, until: number) => Math.max(until - ctx.clock.now(), 1_000);

/** Which change a write is, for the hold on an unknown outcome and the advice on checking it. */
interface WriteTarget {
  tool: string;
  /** What the change is to, as in the confirmation, e.g. "hire hire_001". */
  target: string;
  /** The read tool a person uses to see what happened, e.g. "get_hire (hireId hire_001)". */
  check: string;
}

export interface WriteRequest<T, R> extends WriteTarget, WriteSteps<T, R> {}

/** What to send, and how to tell from a read whether it was made. */
interface WriteSteps<T, R> {
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
  // Recorded before it is sent, in state every process and session of this person shares: a
  // write with a hold (sent without a preview, or racing another confirmation) is refused here.
  const sentAt = ctx.clock.now();
  const until = sentAt + UNKNOWN_OUTCOME_HOLD_MS;
  const ended = await recordAttempt(ctx, request, { sentAt, until, state: "sending" });
  try {
    const data = await request.send();
    await ended("done");
    return { kind: "sent", data };
  } catch (error) {
    if (!isPlatformError(error) || !isOutcomeUnknown(error)) {
      await ended("done");
      throw error;
    }
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
      if (request.applied(state)) {
        await ended("done");
        return { kind: "read-back", state };
      }
    } catch {
      // A failed read shows nothing either way; the next one may.
    }
    if (ctx.signal.aborted) break;
  }
  await ended("unknown");
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
