// Platform tokens that HTTP clients bring themselves (token passthrough: `Authorization: Bearer` in
// per-client mode, `X-Workforce-Token` beside `--auth oauth`), checked with the platform's `viewer`
// before any session, state or platform request is made for them. An answer is remembered by the
// token's SHA-256 digest (successes for a few minutes, refusals for one), in two bounded maps, so a
// flood of made-up tokens cannot push out the tokens that work. Tokens nobody checked lately cost a
// platform request each: those checks are limited per client address, in the shared state store,
// so that every replica counts against the same limit.
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { createPlatformClient } from "../../client/client.js";
import { AuthenticationError, isPlatformError } from "../../client/errors.js";
import { viewerQuery } from "../../client/operations/index.js";
import type { Logger } from "../../logger.js";
import { SharedStateUnavailableError, type StateStore } from "../../state/store.js";
import type { SignInIdentity } from "../store.js";
import { addressKey } from "./address-key.js";

const MINUTE = 60_000;
/** A token the platform accepted is not asked about again for this long. */
export const ACCEPTED_FOR_MS = 5 * MINUTE;
/** A token the platform refused is refused without asking for this long. */
export const REFUSED_FOR_MS = MINUTE;
/** Checks of tokens not remembered, per client address and window (the platform's `viewer`). */
const CHECKS_PER_WINDOW = 20;
const CHECK_WINDOW_MS = MINUTE;
/** Remembered answers of each kind, at most; the least recently used go first. */
export const CACHE_SIZE = 1_000;

/** What became of a token. */
export type TokenCheck =
  | { ok: true; identity: SignInIdentity }
  /** The platform refused it (now or within REFUSED_FOR_MS), or it was empty. */
  | { ok: false; reason: "refused" }
  /** Too many unknown tokens from this address: nothing was asked, try again after this long. */
  | { ok: false; reason: "rate-limited"; retryAfterSeconds: number }
  /** The platform or the shared state could not answer; nothing is remembered. */
  | { ok: false; reason: "unavailable"; message: string };

export interface PersonalTokensOptions {
  apiUrl: string;
  timeoutMs: number;
  /** Where the per-address limit is counted (Redis when replicas share one). */
  state: StateStore;
  logger: Logger;
  now?: () => number;
  checksPerWindow?: number;
  windowMs?: number;
  /** Who the platform says a token belongs to; the default asks its `viewer`. */
  whoIs?: (token: string) => Promise<SignInIdentity>;
}

/**
 * A bounded map that forgets its least recently used entry first, and each entry after `ttl` on the
 * injected clock (read on every lookup: ttlResolution 0).
 */
function recent<V extends {}>(now: () => number, ttl: number): LRUCache<string, V> {
  return new LRUCache<string, V>({ max: CACHE_SIZE, ttl, ttlResolution: 0, perf: { now } });
}

export class PersonalTokens {
  private readonly accepted: LRUCache<string, SignInIdentity>;
  private readonly refused: LRUCache<string, true>;
  /** Checks under way, so that a burst with one new token asks the platform once. */
  private readonly pending = new Map<string, Promise<TokenCheck>>();

  constructor(private readonly options: PersonalTokensOptions) {
    const now = options.now ?? Date.now;
    this.accepted = recent(now, ACCEPTED_FOR_MS);
    this.refused = recent(now, REFUSED_FOR_MS);
  }

  /** Whose token this is, asking the platform only when it is not remembered. */
  async check(token: string, clientAddress: string): Promise<TokenCheck> {
    if (!token) return { ok: false, reason: "refused" };
    const key = digest(token);
    const identity = this.accepted.get(key);
    if (identity) return { ok: true, identity };
    if (this.refused.get(key)) return { ok: false, reason: "refused" };
    const under = this.pending.get(key);
    if (under) return under;
    const checking = this.ask(token, key, clientAddress).finally(() => this.pending.delete(key));
    this.pending.set(key, checking);
    return checking;
  }

  private async ask(token: string, key: string, address: string): Promise<TokenCheck> {
    const { state, logger } = this.options;
    const windowMs = this.options.windowMs ?? CHECK_WINDOW_MS;
    let wait: number;
    try {
      wait = await state.claimWindowSlot(
        `token-check:${addressKey(address)}`,
        this.options.checksPerWindow ?? CHECKS_PER_WINDOW,
        windowMs,
      );
    } catch (error) {
      if (error instanceof SharedStateUnavailableError) {
        return { ok: false, reason: "unavailable", message: error.message };
      }
      throw error;
    }
    if (wait > 0) return { ok: false, reason: "rate-limited", retryAfterSeconds: seconds(wait) };
    try {
      const identity = await (
        this.options.whoIs ?? ((t) => whoIs(this.options.apiUrl, t, this.options.timeoutMs))
      )(token);
      this.accepted.set(key, identity);
      this.refused.delete(key);
      return { ok: true, identity };
    } catch (error) {
      if (error instanceof AuthenticationError) {
        this.refused.set(key, true);
        return { ok: false, reason: "refused" };
      }
      const message = isPlatformError(error) ? error.message : "the check failed";
      logger.warning("Could not check a client's platform token with the platform", {
        why: message,
      });
      return { ok: false, reason: "unavailable", message };
    }
  }
}

/**
 * Who the platform says a token belongs to (`viewer`). Throws the platform client's error:
 * AuthenticationError when the platform refuses the token.
 */
export async function whoIs(
  apiUrl: string,
  token: string,
  timeoutMs: number,
): Promise<SignInIdentity> {
  const client = createPlatformClient({
    apiUrl,
    token,
    timeoutMs,
    maxRetries: 1,
    retryBaseMs: 500,
  });
  const { data } = await client.run(viewerQuery, {});
  return { id: data.viewer.id, name: data.viewer.name, email: data.viewer.email };
}

/** The key a token is remembered (and a session bound) by: never the token itself. */
function digest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
