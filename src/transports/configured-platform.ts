// The platform at WORKFORCE_API_URL, with WORKFORCE_TOKEN or `workforce-mcp login`'s sign-in (or
// neither, when each HTTP session brings its own credential).
import type { TokenSource } from "../client/types.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { ClientFactory, Platform } from "./platform.js";

export async function openConfiguredPlatform(
  config: Config,
  logger: Logger,
  clientsFor: ClientFactory,
): Promise<Platform> {
  if (!config.apiUrl) throw new Error("WORKFORCE_API_URL is not set.");
  logger.addSecret(config.token);
  let token: string | TokenSource | undefined = config.token;
  if (!token && config.signedIn) {
    // Loaded only here: a start with a token never reads the sign-in code.
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
    createClient: clientsFor(config.apiUrl),
    close: async () => {},
  };
}
