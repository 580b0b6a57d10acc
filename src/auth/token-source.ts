// The stored sign-in as the platform client's token source. It renews the access token before it
// expires (15 days) and once after the platform answered `Unauthenticated.`, with the refresh
// token, for as long as the platform allows (90 days from the sign-in). Renewing happens under the
// store's lock and starts by reading the file again, so two processes of the same person never
// spend the same refresh token twice: the second one finds the pair the first one stored.
import { AuthenticationError, NetworkError } from "../client/errors.js";
import type { TokenSource } from "../client/types.js";
import type { Logger } from "../logger.js";
import { refreshGrant, TokenEndpointError } from "./oauth-client.js";
import { accessTokenExpired, renewalDue } from "./renewal.js";
import type { SignInStore, StoredSignIn } from "./store.js";

const DEFAULT_TIMEOUT_MS = 30_000;

export interface SignInTokenSourceOptions {
  store: SignInStore;
  apiUrl: string;
  logger?: Logger;
  /** The time (tests move it). */
  now?: () => number;
  /** Time-out of one request to the token endpoint. */
  timeoutMs?: number;
}

type Renewal = { token: string } | { error: AuthenticationError | NetworkError };

export class SignInTokenSource implements TokenSource {
  readonly kind = "oauth" as const;
  private signIn: StoredSignIn;
  private renewing: Promise<string> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly options: SignInTokenSourceOptions,
    signIn: StoredSignIn,
  ) {
    this.now = options.now ?? Date.now;
    this.signIn = signIn;
    this.protect(signIn);
  }

  /** Who this sign-in acts as, and until when it can be renewed (nothing secret). */
  get summary(): Pick<StoredSignIn, "apiUrl" | "identity" | "renewBy" | "accessTokenExpiresAt"> {
    const { apiUrl, identity, renewBy, accessTokenExpiresAt } = this.signIn;
    return { apiUrl, identity, renewBy, accessTokenExpiresAt };
  }

  async current(): Promise<string> {
    const held = this.signIn;
    if (!this.due(held)) return held.accessToken;
    // Another process may have renewed it already, or the person signed in again.
    const latest = this.reread();
    if (latest && latest.accessToken !== held.accessToken && !this.due(latest)) {
      this.adopt(latest);
      return latest.accessToken;
    }
    try {
      return await this.renew(held.accessToken);
    } catch (error) {
      // Not expired yet: keep using it, and try to renew again on the next request.
      if (!this.expired(this.signIn) && !this.signIn.ended) {
        this.options.logger?.warning(
          `Could not renew the sign-in to ${this.options.apiUrl} yet; using the current access token until it expires.`,
          { reason: error instanceof Error ? error.message : String(error) },
        );
        return this.signIn.accessToken;
      }
      throw error;
    }
  }

  async refreshAfterUnauthenticated(rejected: string): Promise<string | undefined> {
    const latest = this.reread();
    if (latest && latest.accessToken !== rejected && !this.expired(latest) && !latest.ended) {
      this.adopt(latest);
      return latest.accessToken;
    }
    try {
      return await this.renew(rejected);
    } catch (error) {
      if (error instanceof AuthenticationError) return undefined;
      throw error;
    }
  }

  private due(s: StoredSignIn): boolean {
    return renewalDue(s, this.now());
  }

  private expired(s: StoredSignIn): boolean {
    return accessTokenExpired(s, this.now());
  }

  private reread(): StoredSignIn | undefined {
    try {
      return this.options.store.get(this.options.apiUrl);
    } catch {
      return undefined;
    }
  }

  private adopt(s: StoredSignIn): void {
    this.protect(s);
    this.signIn = s;
  }

  /** Every secret this source holds is blanked from every log line. */
  private protect(s: StoredSignIn): void {
    const logger = this.options.logger;
    logger?.addSecret(s.accessToken);
    logger?.addSecret(s.refreshToken);
    logger?.addSecret(s.clientSecret);
  }

  /** One renewal at a time in this process; others wait for it. */
  private renew(rejected: string): Promise<string> {
    this.renewing ??= this.renewUnderLock(rejected).finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async renewUnderLock(rejected: string): Promise<string> {
    const { store, apiUrl } = this.options;
    const outcome = await store.update<Renewal>(async (signIns) => {
      const latest = signIns[apiUrl];
      if (!latest) {
        return {
          error: new AuthenticationError(
            `There is no sign-in for ${apiUrl} any more (\`workforce-mcp logout\` removed it).`,
            { credential: "oauth" },
          ),
        };
      }
      this.protect(latest);
      // Someone else renewed (or signed in again) while this process waited for the lock.
      if (latest.accessToken !== rejected && !this.expired(latest) && !latest.ended) {
        this.signIn = latest;
        return { token: latest.accessToken };
      }
      if (latest.ended || !latest.refreshToken) {
        this.signIn = latest;
        return { error: ended(apiUrl, latest.ended?.reason ?? "it has no refresh token") };
      }
      const now = this.now();
      let answer: Awaited<ReturnType<typeof refreshGrant>>;
      try {
        answer = await refreshGrant(
          latest,
          latest.refreshToken,
          latest.accessToken,
          this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        );
      } catch (error) {
        const failure =
          error instanceof TokenEndpointError
            ? error
            : new TokenEndpointError("renewing failed", "unreachable");
        if (failure.failure === "refused") {
          // 90 days are over, the client was revoked, or the refresh token was: only login helps.
          latest.ended = { at: now, reason: failure.message };
          this.signIn = latest;
          return { error: ended(apiUrl, failure.message) };
        }
        return {
          error: new NetworkError(
            `Could not renew the sign-in to ${apiUrl}: ${failure.message}. The request was not sent.`,
          ),
        };
      }
      const renewed: StoredSignIn = {
        ...latest,
        tokenType: answer.tokenType,
        accessToken: answer.accessToken,
        // Rotation: the platform sends a new refresh token; keep the old one only if it did not.
        refreshToken: answer.refreshToken ?? latest.refreshToken,
        accessTokenIssuedAt: now,
        accessTokenExpiresAt: now + answer.expiresInMs,
        refreshedAt: now,
      };
      this.protect(renewed);
      signIns[apiUrl] = renewed;
      this.signIn = renewed;
      this.options.logger?.info(`Renewed the sign-in to ${apiUrl}.`);
      return { token: renewed.accessToken };
    });
    if ("error" in outcome) throw outcome.error;
    return outcome.token;
  }
}

function ended(apiUrl: string, reason: string): AuthenticationError {
  return new AuthenticationError(
    `The sign-in to ${apiUrl} could not be renewed: ${reason.replace(/\.$/, "")}.`,
    { credential: "oauth" },
  );
}

/** The stored sign-in for apiUrl as a token source, or undefined when there is none. */
export function openSignIn(options: SignInTokenSourceOptions): SignInTokenSource | undefined {
  const signIn = options.store.get(options.apiUrl);
  return signIn ? new SignInTokenSource(options, signIn) : undefined;
}
