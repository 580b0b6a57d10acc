import { createLazyPlatformClient as createPlatformClient } from "../client/lazy-client.js";
import type { PlatformClient, TokenSource } from "../client/types.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { SandboxInfo } from "../server.js";
import type { StateStore } from "../state/store.js";

/** What the instructions say about the sandbox's tokens, so the assistant knows who it acts as. */
export function sandboxInfo(): SandboxInfo {
  return {
    identities: [
      "The sandbox's full token acts as a company administrator who may see everything and make changes.",
      "The sandbox's limited token acts as a Nordlys-only user who may not see rates, terminate, cancel or create hires, but may submit timesheets for Nordlys hires.",
    ],
  };
}

/** The platform this process talks to: the configured one, or the embedded sandbox. */
export interface Platform {
  apiUrl: string;
  /**
   * The server's own credential: a fixed token, or the stored sign-in of `workforce-mcp login`,
   * which renews itself; undefined when each HTTP session must bring one.
   */
  token: string | TokenSource | undefined;
  sandbox: SandboxInfo | undefined;
  /**
   * The embedded sandbox only: registers an OAuth client with this redirect URL on it, as an
   * administrator would on the platform (for `--auth oauth`).
   */
  registerOAuthClient?(redirectUri: string): { id: string; secret: string };
  createClient(token: string | TokenSource, logger: Logger): PlatformClient;
  close(): Promise<void>;
}

export interface OpenPlatformOptions {
  /** Shared state (Redis): the rate budget of each credential is then shared by every replica. */
  stateStore?: StateStore;
  /** For tests: a rate-limit window shorter than a minute. */
  rateLimitWindowMs?: number;
}

export async function openPlatform(
  config: Config,
  logger: Logger,
  options: OpenPlatformOptions = {},
): Promise<Platform> {
  const createClient = (apiUrl: string) => (token: string | TokenSource, clientLogger: Logger) =>
    createPlatformClient({
      apiUrl,
      token,
      // For the advice when the platform refuses it: WORKFORCE_TOKEN is a personal access token.
      credential:
        !config.useSandbox && config.token !== undefined && token === config.token
          ? "personal-access-token"
          : undefined,
      timeoutMs: config.timeoutMs,
      retryBaseMs: config.retryBaseMs,
      maxRetries: config.maxRetries,
      rateLimitPerMinute: config.rateLimitPerMinute,
      rateLimitWindowMs: options.rateLimitWindowMs,
      maxResponseBytes: config.maxResponseBytes,
      logger: clientLogger,
      stateStore: options.stateStore,
    });

  if (!config.useSandbox) {
    if (!config.apiUrl) throw new Error("WORKFORCE_API_URL is not set.");
    logger.addSecret(config.token);
    let token: string | TokenSource | undefined = config.token;
    if (!token && config.signedIn) {
      const [{ openSignIn }, { SignInStore, when }] = await Promise.all([
        import("../auth/token-source.js"),
        import("../auth/store.js"),
      ]);
      const store = new SignInStore(config.configDir, (m) => logger.warning(m));
      const source = openSignIn({
        store,
        apiUrl: config.apiUrl,
        logger,
        timeoutMs: config.timeoutMs,
      });
      if (!source) {
        throw new Error(
          `The sign-in for ${config.apiUrl} is gone from ${store.path}. Run \`workforce-mcp login\` again.`,
        );
      }
      const { identity, renewBy } = source.summary;
      logger.info(
        `Signed in as ${identity.name} <${identity.email}> (workforce-mcp login); the sign-in is renewed automatically until ${when(renewBy)}.`,
      );
      token = source;
    }
    logger.info(`Using the platform at ${config.apiUrl}.`);
    return {
      apiUrl: config.apiUrl,
      token,
      sandbox: undefined,
      createClient: createClient(config.apiUrl),
      close: async () => {},
    };
  }

  const { startSandbox } = await import("../sandbox/index.js");
  const sandbox = await startSandbox({ rateLimitPerMinute: config.sandboxRateLimitPerMinute });
  const apiUrl = sandbox.url.replace(/\/+$/, "").replace(/\/graphql$/, "");
  logger.addSecret(sandbox.tokens.full);
  logger.addSecret(sandbox.tokens.limited);
  logger.info(
    config.apiUrl || config.token
      ? `--sandbox: using the embedded sandbox platform at ${apiUrl} with sample data, not WORKFORCE_API_URL.`
      : `WORKFORCE_API_URL and WORKFORCE_TOKEN are not set: using the embedded sandbox platform at ${apiUrl} with sample data.`,
  );
  return {
    apiUrl,
    token: sandbox.tokens.full,
    sandbox: sandboxInfo(),
    registerOAuthClient: (redirectUri) =>
      sandbox.oauth.registerClient({ name: "workforce-mcp team server", redirectUri }),
    createClient: createClient(apiUrl),
    close: () => sandbox.close(),
  };
}
