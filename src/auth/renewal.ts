// Renewing a platform token pair, once for both places that keep one: `workforce-mcp login`'s
// sign-in in the user's file (src/auth/token-source.ts) and the team server's grants in the shared
// store (src/auth/remote/grants.ts). The access token is renewed before it expires (15 days) and
// once after the platform answered `Unauthenticated.`, with the refresh token, for as long as the
// platform allows (90 days from the sign-in). Where the pair is kept, and how other processes or
// replicas are kept from spending the same refresh token twice, is the caller's PairKeeper.
import { AuthenticationError, NetworkError } from "../client/errors.js";
import type { Logger } from "../logger.js";
import {
  type OAuthClientSettings,
  refreshGrant,
  type TokenAnswer,
  TokenEndpointError,
} from "./oauth-client.js";
import { DAY_MS, SIGN_IN_PERIOD_MS } from "./store.js";

/** Renew when less than this is left (or half the token's lifetime, when that is shorter). */
const RENEW_MARGIN_MS = DAY_MS;

/** The platform's token pair, as both sign-ins keep it. Times are epoch milliseconds. */
export interface TokenPair {
  tokenType: string;
  accessToken: string;
  refreshToken?: string;
  accessTokenIssuedAt: number;
  accessTokenExpiresAt: number;
  /** When the person approved it; renewing works until renewBy (the platform's 90 days). */
  signedInAt: number;
  renewBy: number;
  refreshedAt?: number;
  /** Set when the platform refused to renew it: only signing in again helps. */
  ended?: { at: number; reason: string };
}

/** A new sign-in's pair, from the platform's answer to the authorization code at `now`. */
export function signedInPair(answer: TokenAnswer, now: number): TokenPair {
  return {
    tokenType: answer.tokenType,
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    accessTokenIssuedAt: now,
    accessTokenExpiresAt: now + answer.expiresInMs,
    signedInAt: now,
    renewBy: now + SIGN_IN_PERIOD_MS,
  };
}

/** The times of an access token, in epoch milliseconds. */
type AccessTokenTimes = Pick<TokenPair, "accessTokenIssuedAt" | "accessTokenExpiresAt">;

/** Whether the token is due for renewal at `now`. */
function renewalDue(t: AccessTokenTimes, now: number): boolean {
  const lifetime = t.accessTokenExpiresAt - t.accessTokenIssuedAt;
  const margin = Math.min(RENEW_MARGIN_MS, Math.max(0, lifetime / 2));
  return now >= t.accessTokenExpiresAt - margin;
}

/** Whether the token has expired at `now`. */
function accessTokenExpired(t: AccessTokenTimes, now: number): boolean {
  return now >= t.accessTokenExpiresAt;
}

/** Where one caller keeps its pairs (by key), and how it keeps others from renewing at once. */
export interface PairKeeper<P extends TokenPair> {
  /** The pair in use now (the file's is held in memory; the shared store's is read). */
  held(key: string): Promise<P | undefined>;
  /** The pair as stored now, read again; inside `exclusively`, the one it guards. */
  latest(key: string): Promise<P | undefined>;
  /**
   * Runs `renew` while no other process or replica renews the token `replacing`: under the file's
   * lock, or after claiming the renewal in the shared store (or waiting for whoever claimed it).
   */
  exclusively(key: string, replacing: string, renew: () => Promise<string>): Promise<string>;
  /** Keeps the renewed pair (called inside `exclusively`). */
  save(key: string, pair: P): Promise<void>;
  /** The pair can never be renewed (marked ended, or deleted; called inside `exclusively`). */
  end(key: string, pair: P, reason: string): Promise<void>;
  /** The error for a pair that has ended (for `reason`), or is gone (no reason). */
  ended(key: string, reason?: string): AuthenticationError;
  /** Names the pair in log lines and errors ("the sign-in to …"), with fields for log lines. */
  label(key: string): { text: string; fields?: Record<string, unknown> };
}

export interface TokenRenewalOptions<P extends TokenPair> {
  keeper: PairKeeper<P>;
  /** The OAuth client that renews this pair at the platform. */
  settings: (pair: P) => OAuthClientSettings;
  /** Time-out of one request to the platform's token endpoint. */
  timeoutMs: number;
  logger?: Logger;
  now?: () => number;
}

export class TokenRenewal<P extends TokenPair> {
  private readonly now: () => number;
  /** Renewals in flight in this process, by key: callers of one pair share one. */
  private readonly renewing = new Map<string, Promise<string>>();

  constructor(private readonly options: TokenRenewalOptions<P>) {
    this.now = options.now ?? Date.now;
  }

  /** Whether a pair's access token is due for renewal now. */
  due(pair: P): boolean {
    return renewalDue(pair, this.now());
  }

  /** A pair whose access token may be sent now. */
  usable(pair: P): boolean {
    return !accessTokenExpired(pair, this.now()) && !pair.ended;
  }

  /**
   * An access token that is not due for renewal (renewed first when it is). When renewing fails
   * for another reason than the pair having ended, the current token is used until it expires.
   */
  async current(key: string): Promise<string> {
    const { keeper, logger } = this.options;
    const held = await keeper.held(key);
    if (!held) throw keeper.ended(key);
    if (!this.due(held)) return held.accessToken;
    // Another process may have renewed it already, or the person signed in again.
    const latest = await keeper.latest(key);
    if (latest && latest.accessToken !== held.accessToken && !this.due(latest)) {
      return latest.accessToken;
    }
    try {
      return await this.renew(key, held.accessToken);
    } catch (error) {
      const still = error instanceof AuthenticationError ? undefined : await keeper.held(key);
      if (!still || !this.usable(still)) throw error;
      const { text, fields } = keeper.label(key);
      logger?.warning(`Could not renew ${text} yet; using its access token until it expires.`, {
        ...fields,
        reason: error instanceof Error ? error.message : String(error),
      });
      return still.accessToken;
    }
  }

  /** After the platform refused `rejected`: a newer token, or undefined when there is none. */
  async afterUnauthenticated(key: string, rejected: string): Promise<string | undefined> {
    const latest = await this.options.keeper.latest(key);
    if (latest && latest.accessToken !== rejected && this.usable(latest)) {
      return latest.accessToken;
    }
    try {
      return await this.renew(key, rejected);
    } catch (error) {
      if (error instanceof AuthenticationError) return undefined;
      throw error;
    }
  }

  /** One renewal of a pair at a time in this process; others wait for it. */
  private renew(key: string, replacing: string): Promise<string> {
    let running = this.renewing.get(key);
    if (!running) {
      running = this.options.keeper
        .exclusively(key, replacing, () => this.renewNow(key, replacing))
        .finally(() => this.renewing.delete(key));
      this.renewing.set(key, running);
    }
    return running;
  }

  private async renewNow(key: string, replacing: string): Promise<string> {
    const { keeper, logger, timeoutMs } = this.options;
    const latest = await keeper.latest(key);
    if (!latest) throw keeper.ended(key);
    // Someone else renewed (or signed in again) while this one waited.
    if (latest.accessToken !== replacing && this.usable(latest)) return latest.accessToken;
    if (latest.ended) throw keeper.ended(key, latest.ended.reason);
    if (!latest.refreshToken) return this.end(key, latest, "the platform gave no refresh token");
    const now = this.now();
    let answer: Awaited<ReturnType<typeof refreshGrant>>;
    try {
      answer = await refreshGrant(
        this.options.settings(latest),
        latest.refreshToken,
        latest.accessToken,
        timeoutMs,
      );
    } catch (error) {
      const failure =
        error instanceof TokenEndpointError
          ? error
          : new TokenEndpointError("renewing failed", "unreachable");
      if (failure.failure === "refused") {
        // Another replica may have spent this refresh token first (its claim ran out).
        const again = await keeper.latest(key);
        if (again && again.accessToken !== latest.accessToken && this.usable(again)) {
          return again.accessToken;
        }
        // 90 days are over, or the client or the refresh token was revoked.
        return this.end(key, latest, failure.message);
      }
      throw new NetworkError(
        `Could not renew ${keeper.label(key).text}: ${failure.message}. The request was not sent.`,
      );
    }
    const renewed: P = {
      ...latest,
      tokenType: answer.tokenType,
      accessToken: answer.accessToken,
      // Rotation: the platform sends a new refresh token; keep the old one only if it did not.
      refreshToken: answer.refreshToken ?? latest.refreshToken,
      accessTokenIssuedAt: now,
      accessTokenExpiresAt: now + answer.expiresInMs,
      refreshedAt: now,
    };
    await keeper.save(key, renewed);
    const { text, fields } = keeper.label(key);
    logger?.info(`Renewed ${text}.`, fields);
    return renewed.accessToken;
  }

  private async end(key: string, pair: P, reason: string): Promise<never> {
    await this.options.keeper.end(key, pair, reason);
    throw this.options.keeper.ended(key, reason);
  }
}
