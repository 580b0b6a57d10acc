// The stored sign-in as the platform client's token source. Renewing (src/auth/renewal.ts)
// happens under the store's lock and starts by reading the file again, so two processes of the
// same person never spend the same refresh token twice: the second one finds the pair the first
// one stored.
import { AuthenticationError } from "../client/errors.js";
import type { TokenSource } from "../client/types.js";
import type { Logger } from "../logger.js";
import { type PairKeeper, TokenRenewal } from "./renewal.js";
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

type Outcome = { token: string } | { error: unknown };

export class SignInTokenSource implements TokenSource {
  readonly kind = "oauth" as const;
  private signIn: StoredSignIn;
  /** The file's sign-ins while this process holds its lock (what a renewal reads and changes). */
  private locked: Record<string, StoredSignIn> | undefined;
  private readonly renewal: TokenRenewal<StoredSignIn>;

  constructor(
    private readonly options: SignInTokenSourceOptions,
    signIn: StoredSignIn,
  ) {
    this.signIn = signIn;
    this.protect(signIn);
    this.renewal = new TokenRenewal({
      keeper: this.keeper(),
      settings: (s) => s,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      logger: options.logger,
      now: options.now,
    });
  }

  /** Who this sign-in acts as, and until when it can be renewed (nothing secret). */
  get summary(): Pick<StoredSignIn, "apiUrl" | "identity" | "renewBy" | "accessTokenExpiresAt"> {
    const { apiUrl, identity, renewBy, accessTokenExpiresAt } = this.signIn;
    return { apiUrl, identity, renewBy, accessTokenExpiresAt };
  }

  current(): Promise<string> {
    return this.renewal.current(this.options.apiUrl);
  }

  refreshAfterUnauthenticated(rejected: string): Promise<string | undefined> {
    return this.renewal.afterUnauthenticated(this.options.apiUrl, rejected);
  }

  /** The sign-in file as the renewal's keeper: the pair in use is held in memory. */
  private keeper(): PairKeeper<StoredSignIn> {
    const { store, apiUrl } = this.options;
    return {
      held: async () => this.signIn,
      latest: async () => {
        let latest: StoredSignIn | undefined;
        try {
          latest = this.locked ? this.locked[apiUrl] : store.get(apiUrl);
        } catch {
          return undefined;
        }
        if (latest) this.adopt(latest);
        return latest;
      },
      exclusively: async (_key, _replacing, renew) => {
        // Errors are returned, not thrown, so that what the renewal changed is still written.
        const outcome = await store.update<Outcome>(async (signIns) => {
          this.locked = signIns;
          try {
            return { token: await renew() };
          } catch (error) {
            return { error };
          } finally {
            this.locked = undefined;
          }
        });
        if ("error" in outcome) throw outcome.error;
        return outcome.token;
      },
      save: async (_key, renewed) => {
        if (this.locked) this.locked[apiUrl] = renewed;
        this.adopt(renewed);
      },
      end: async (_key, signIn, reason) => {
        // Kept in the file: only `workforce-mcp login` helps now.
        signIn.ended = { at: (this.options.now ?? Date.now)(), reason };
        this.adopt(signIn);
      },
      ended: (_key, reason) =>
        new AuthenticationError(
          reason === undefined
            ? `There is no sign-in for ${apiUrl} any more (\`workforce-mcp logout\` removed it).`
            : `The sign-in to ${apiUrl} could not be renewed: ${reason.replace(/\.$/, "")}.`,
          { credential: "oauth" },
        ),
      label: () => ({ text: `the sign-in to ${apiUrl}` }),
    };
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
}

/** The stored sign-in for apiUrl as a token source, or undefined when there is none. */
export function openSignIn(options: SignInTokenSourceOptions): SignInTokenSource | undefined {
  const signIn = options.store.get(options.apiUrl);
  return signIn ? new SignInTokenSource(options, signIn) : undefined;
}
