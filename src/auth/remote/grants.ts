// A person's platform sign-in at the team server (`--auth oauth`): the platform's token pair,
// sealed in the shared store under a grant id that the server's own tokens point to. It renews
// like `workforce-mcp login`'s sign-in (src/auth/token-source.ts): before the access token expires
// and once after the platform answered `Unauthenticated.`. Replicas share the grant, so a renewal
// is claimed first (one replica per token being replaced); the others wait for its result. When
// the platform refuses to renew (90 days over, grant or client revoked), the grant is deleted, and
// with it every token of this server that points to it: the person's next request gets a 401.
import { AuthenticationError, NetworkError } from "../../client/errors.js";
import type { TokenSource } from "../../client/types.js";
import type { Logger } from "../../logger.js";
import { type OAuthClientSettings, refreshGrant, TokenEndpointError } from "../oauth-client.js";
import { accessTokenExpired, renewalDue } from "../renewal.js";
import type { SignInIdentity } from "../store.js";
import { digestKey, type SealedStore } from "./sealed-store.js";

export interface PlatformGrant {
  id: string;
  /** The MCP client the person approved. */
  clientId: string;
  identity: SignInIdentity;
  tokenType: string;
  accessToken: string;
  refreshToken?: string;
  accessTokenIssuedAt: number;
  accessTokenExpiresAt: number;
  signedInAt: number;
  /** Renewing works until then (the platform's 90 days); the grant is not kept longer. */
  renewBy: number;
  refreshedAt?: number;
}

export interface PlatformGrantsOptions {
  store: SealedStore;
  /** The team server's own OAuth client at the platform. */
  settings: OAuthClientSettings;
  apiUrl: string;
  logger: Logger;
  /** Time-out of one request to the platform's token endpoint. */
  timeoutMs: number;
  now?: () => number;
}

const POLL_MS = 100;

const grantName = (id: string) => `grant:${id}`;

export class PlatformGrants {
  private readonly now: () => number;
  /** Renewals in flight in this process, by grant: callers of one grant share one. */
  private readonly renewing = new Map<string, Promise<string>>();

  constructor(private readonly options: PlatformGrantsOptions) {
    this.now = options.now ?? Date.now;
  }

  async save(grant: PlatformGrant): Promise<void> {
    await this.options.store.set(grantName(grant.id), grant, grant.renewBy - this.now());
  }

  async get(id: string): Promise<PlatformGrant | undefined> {
    return this.options.store.get<PlatformGrant>(grantName(id));
  }

  /** Ends the grant: the server's tokens for it stop working at once, on every replica. */
  async end(id: string, reason: string): Promise<void> {
    await this.options.store.delete(grantName(id));
    this.options.logger.info("A sign-in ended; its tokens no longer work", {
      grant: id.slice(0, 8),
      reason,
    });
  }

  /**
   * The platform token source for one grant, for the client of one of the person's MCP sessions.
   * The tokens it hands out are blanked from that session's log lines (not the process's: its
   * list of secrets would grow with every person and renewal).
   */
  tokenSource(grant: Pick<PlatformGrant, "id" | "identity">, sessionLogger?: Logger): TokenSource {
    const protect = <T extends string | undefined>(token: T): T => {
      sessionLogger?.addSecret(token);
      return token;
    };
    return {
      kind: "team-sign-in",
      // One rate budget per person on this platform, whatever session or replica asks.
      budgetKey: `${this.options.apiUrl}\n${grant.identity.id}`,
      current: async () => protect(await this.current(grant.id)),
      refreshAfterUnauthenticated: async (rejected) =>
        protect(await this.afterUnauthenticated(grant.id, rejected)),
    };
  }

  /**
   * The grant with an access token that is not due for renewal (renewed first when it is).
   * Throws AuthenticationError when the grant has ended, NetworkError when the platform could not
   * be asked and the current token has expired.
   */
  async fresh(id: string): Promise<PlatformGrant> {
    await this.current(id);
    const grant = await this.get(id);
    if (!grant) throw this.ended("it was ended meanwhile");
    return grant;
  }

  private async current(id: string): Promise<string> {
    const held = await this.get(id);
    if (!held) throw this.ended("the sign-in is gone");
    if (!this.due(held)) return held.accessToken;
    try {
      return await this.renew(id, held.accessToken);
    } catch (error) {
      if (error instanceof NetworkError && !this.expired(held)) {
        this.options.logger.warning(
          "Could not renew a sign-in at the platform yet; using its access token until it expires.",
          { grant: id.slice(0, 8), reason: error.message },
        );
        return held.accessToken;
      }
      throw error;
    }
  }

  private async afterUnauthenticated(id: string, rejected: string): Promise<string | undefined> {
    const latest = await this.get(id);
    if (!latest) return undefined;
    if (latest.accessToken !== rejected && !this.expired(latest)) return latest.accessToken;
    try {
      return await this.renew(id, rejected);
    } catch (error) {
      if (error instanceof AuthenticationError) return undefined;
      throw error;
    }
  }

  private due(g: PlatformGrant): boolean {
    return renewalDue(g, this.now());
  }

  private expired(g: PlatformGrant): boolean {
    return accessTokenExpired(g, this.now());
  }

  private renew(id: string, replacing: string): Promise<string> {
    let running = this.renewing.get(id);
    if (!running) {
      running = this.renewShared(id, replacing).finally(() => this.renewing.delete(id));
      this.renewing.set(id, running);
    }
    return running;
  }

  /**
   * Renews once across replicas: the claim is per token being replaced, so a later renewal of the
   * next token never waits for an old claim to run out.
   */
  private async renewShared(id: string, replacing: string): Promise<string> {
    const { store, settings, timeoutMs, logger } = this.options;
    const leaseMs = timeoutMs + 5_000;
    const wait = await store.state.claimWindowSlot(
      digestKey(`oauth:renewing:${id}:`, replacing),
      1,
      leaseMs,
    );
    if (wait > 0) return this.awaitRenewal(id, replacing, Math.min(wait, leaseMs));

    const latest = await this.get(id);
    if (!latest) throw this.ended("the sign-in is gone");
    // Renewed (or signed in again) meanwhile.
    if (latest.accessToken !== replacing && !this.expired(latest)) return latest.accessToken;
    if (!latest.refreshToken) {
      await this.end(id, "no refresh token");
      throw this.ended("the platform gave no refresh token");
    }
    const now = this.now();
    if (now >= latest.renewBy) {
      await this.end(id, "90 days are over");
      throw this.ended("sign-ins last 90 days");
    }
    let answer: Awaited<ReturnType<typeof refreshGrant>>;
    try {
      answer = await refreshGrant(settings, latest.refreshToken, latest.accessToken, timeoutMs);
    } catch (error) {
      const failure =
        error instanceof TokenEndpointError
          ? error
          : new TokenEndpointError("renewing failed", "unreachable");
      if (failure.failure === "refused") {
        // Another replica may have spent this refresh token first (its claim ran out).
        const again = await this.get(id);
        if (again && again.accessToken !== latest.accessToken && !this.expired(again)) {
          return again.accessToken;
        }
        await this.end(id, failure.message);
        throw this.ended(failure.message);
      }
      throw new NetworkError(
        `Could not renew your sign-in at the platform: ${failure.message}. The request was not sent.`,
      );
    }
    const renewed: PlatformGrant = {
      ...latest,
      tokenType: answer.tokenType,
      accessToken: answer.accessToken,
      // Rotation: the platform sends a new refresh token; keep the old one only if it did not.
      refreshToken: answer.refreshToken ?? latest.refreshToken,
      accessTokenIssuedAt: now,
      accessTokenExpiresAt: now + answer.expiresInMs,
      refreshedAt: now,
    };
    await this.save(renewed);
    logger.info("Renewed a sign-in at the platform", { grant: id.slice(0, 8) });
    return renewed.accessToken;
  }

  /** Another replica renews: wait (bounded) until the grant carries a new token, or is gone. */
  private async awaitRenewal(id: string, replacing: string, maxMs: number): Promise<string> {
    const deadline = this.now() + maxMs;
    for (;;) {
      const latest = await this.get(id);
      if (!latest) throw this.ended("it was ended by another server");
      if (latest.accessToken !== replacing) return latest.accessToken;
      if (this.now() >= deadline) {
        throw new NetworkError(
          "Your sign-in at the platform is being renewed by another server and it did not finish in time. The request was not sent; try again.",
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private ended(reason: string): AuthenticationError {
    return new AuthenticationError(
      `Your sign-in at the platform has ended: ${reason.replace(/\.$/, "")}.`,
      { credential: "team-sign-in" },
    );
  }
}
