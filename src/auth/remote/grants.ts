// A person's platform sign-in at the team server (`--auth oauth`): the platform's token pair,
// sealed in the shared store under a grant id that the server's own tokens point to. It renews
// as `workforce-mcp login`'s sign-in does (src/auth/renewal.ts). Replicas share the grant, so a renewal
// is claimed first (one replica per token being replaced); the others wait for its result. When
// the platform refuses to renew (90 days over, grant or client revoked), the grant is deleted, and
// with it every token of this server that points to it: the person's next request gets a 401.
import { setTimeout as sleep } from "node:timers/promises";
import { AuthenticationError, NetworkError } from "../../client/errors.js";
import type { TokenSource } from "../../client/types.js";
import type { Logger } from "../../logger.js";
import type { OAuthClientSettings } from "../oauth-client.js";
import { type PairKeeper, type TokenPair, TokenRenewal } from "../renewal.js";
import type { SignInIdentity } from "../store.js";
import { digestKey, type SealedStore } from "./sealed-store.js";

/** A grant is kept until its renewBy (the store forgets it then), so it never shows `ended`. */
export interface PlatformGrant extends TokenPair {
  id: string;
  /** The MCP client the person approved. */
  clientId: string;
  identity: SignInIdentity;
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
  private readonly renewal: TokenRenewal<PlatformGrant>;

  constructor(private readonly options: PlatformGrantsOptions) {
    this.now = options.now ?? Date.now;
    this.renewal = new TokenRenewal({
      keeper: this.keeper(),
      settings: () => options.settings,
      timeoutMs: options.timeoutMs,
      logger: options.logger,
      now: this.now,
    });
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
      current: async () => protect(await this.renewal.current(grant.id)),
      refreshAfterUnauthenticated: async (rejected) =>
        protect(await this.renewal.afterUnauthenticated(grant.id, rejected)),
    };
  }

  /**
   * The grant with an access token that is not due for renewal (renewed first when it is).
   * Throws AuthenticationError when the grant has ended, NetworkError when the platform could not
   * be asked and the current token has expired.
   */
  async fresh(id: string): Promise<PlatformGrant> {
    await this.renewal.current(id);
    const grant = await this.get(id);
    if (!grant) throw this.ended("it was ended meanwhile");
    return grant;
  }

  /** The shared store as the renewal's keeper: every replica reads the grant from it. */
  private keeper(): PairKeeper<PlatformGrant> {
    return {
      held: (id) => this.get(id),
      latest: (id) => this.get(id),
      exclusively: (id, replacing, renew) => this.claimed(id, replacing, renew),
      save: (_id, grant) => this.save(grant),
      end: (id, _grant, reason) => this.end(id, reason),
      ended: (_id, reason) => this.ended(reason ?? "the sign-in is gone"),
      label: (id) => ({ text: "a sign-in at the platform", fields: { grant: id.slice(0, 8) } }),
    };
  }

  /**
   * Renews once across replicas: the claim is per token being replaced, so a later renewal of the
   * next token never waits for an old claim to run out.
   */
  private async claimed(
    id: string,
    replacing: string,
    renew: () => Promise<string>,
  ): Promise<string> {
    const leaseMs = this.options.timeoutMs + 5_000;
    const wait = await this.options.store.state.claimWindowSlot(
      digestKey(`oauth:renewing:${id}:`, replacing),
      1,
      leaseMs,
    );
    if (wait > 0) return this.awaitRenewal(id, replacing, Math.min(wait, leaseMs));
    return renew();
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
      await sleep(POLL_MS);
    }
  }

  private ended(reason: string): AuthenticationError {
    return new AuthenticationError(
      `Your sign-in at the platform has ended: ${reason.replace(/\.$/, "")}.`,
      { credential: "team-sign-in" },
    );
  }
}
