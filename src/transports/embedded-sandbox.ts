// The embedded sandbox as the platform: started in this process, with sample data and its two
// fixed tokens (the server uses the full one).
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { SandboxInfo } from "../server.js";
import type { ClientFactory, Platform } from "./platform.js";

/** What the instructions say about the sandbox's tokens, so the assistant knows who it acts as. */
export function sandboxInfo(): SandboxInfo {
  return {
    identities: [
      "The sandbox's full token acts as a company administrator who may see everything and make changes.",
      "The sandbox's limited token acts as a Nordlys-only user who may not see rates, terminate, cancel or create hires, but may submit timesheets for Nordlys hires.",
    ],
  };
}

export async function openEmbeddedSandbox(
  config: Config,
  logger: Logger,
  clientsFor: ClientFactory,
): Promise<Platform> {
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
    createClient: clientsFor(apiUrl),
    close: () => sandbox.close(),
  };
}
