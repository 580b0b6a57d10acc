// The platform this process talks to, opened once at start: the configured one (with its token or
// `workforce-mcp login`'s sign-in) or, when none is configured or --sandbox asks, the embedded
// sandbox. Either way, clients for it are made the same way.
import { createLazyPlatformClient as createPlatformClient } from "../client/lazy-client.js";
import type { PlatformClient, TokenSource } from "../client/types.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { SandboxInfo } from "../server.js";
import type { StateStore } from "../state/store.js";
import { openConfiguredPlatform } from "./configured-platform.js";
import { openEmbeddedSandbox } from "./embedded-sandbox.js";

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

/** Makes the clients of a platform at apiUrl. */
export type ClientFactory = (apiUrl: string) => Platform["createClient"];

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
  const clientsFor: ClientFactory = (apiUrl) => (token, clientLogger) =>
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
  return config.useSandbox
    ? openEmbeddedSandbox(config, logger, clientsFor)
    : openConfiguredPlatform(config, logger, clientsFor);
}
