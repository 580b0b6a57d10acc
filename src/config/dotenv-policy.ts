// What a `.env` file in the working directory may set. It is read beside the real environment,
// which outranks it, and may not choose where a token or secret from the real environment goes.
import { ConfigError } from "./config-error.js";

/** Settings read from a `.env` file, kept apart so that the real environment can outrank them. */
export interface DotenvSource {
  /** Where the file was, for messages. */
  path: string;
  values: Record<string, string>;
}

/** A .env file in the working directory may not redirect a token from the real environment. */
const TOKEN_ROUTING_KEYS = [
  "WORKFORCE_API_URL",
  "WORKFORCE_ALLOWED_HOSTS",
  "WORKFORCE_TEAM_URL",
] as const;
/** Nor choose where an OAuth client secret from elsewhere is sent (the auth URL defaults to the API's). */
const SECRET_ROUTING_KEYS = ["WORKFORCE_API_URL", "WORKFORCE_AUTH_URL"] as const;

const isSet = (v: string | undefined) => v !== undefined && v.trim() !== "";

/**
 * The real environment with `.env`'s settings beneath it; throws ConfigError when the file sets
 * something it may not.
 */
export function mergeDotenv(
  realEnv: NodeJS.ProcessEnv,
  dotenv: DotenvSource | undefined,
  secretFromFlag: boolean,
) {
  if (!dotenv) return realEnv;
  const fromFile = (key: string) => isSet(dotenv.values[key]) && !isSet(realEnv[key]);
  if (fromFile("WORKFORCE_CONFIG_DIR")) {
    throw new ConfigError(
      `WORKFORCE_CONFIG_DIR comes from ${dotenv.path}; a .env file may not choose where sign-in tokens are stored. Set it in the environment, or remove it from ${dotenv.path}.`,
    );
  }
  if (secretFromFlag || isSet(realEnv.WORKFORCE_CLIENT_SECRET)) {
    const redirecting = SECRET_ROUTING_KEYS.filter(fromFile);
    if (redirecting.length > 0) {
      const where = secretFromFlag ? "--client-secret" : "the environment";
      throw new ConfigError(
        `${redirecting.join(" and ")} ${redirecting.length > 1 ? "come" : "comes"} from ${dotenv.path} but the OAuth client secret comes from ${where}; a .env file may not choose where that secret and the tokens it obtains are sent. Set ${redirecting.join(" and ")} where the secret is set, or put WORKFORCE_CLIENT_SECRET in ${dotenv.path} too.`,
      );
    }
  }
  if (isSet(realEnv.WORKFORCE_TOKEN) && fromFile("WORKFORCE_REDIS_URL")) {
    // Whoever runs that Redis could mint confirmations and lift the rate budget for the token.
    throw new ConfigError(
      `WORKFORCE_REDIS_URL comes from ${dotenv.path} but WORKFORCE_TOKEN comes from the environment; a .env file may not choose the shared state store that confirms the changes made with that token. Set WORKFORCE_REDIS_URL where WORKFORCE_TOKEN is set, or put WORKFORCE_TOKEN in ${dotenv.path} too.`,
    );
  }
  if (isSet(realEnv.WORKFORCE_TOKEN)) {
    const redirecting = TOKEN_ROUTING_KEYS.filter(fromFile);
    if (redirecting.length > 0) {
      throw new ConfigError(
        `${redirecting.join(" and ")} ${redirecting.length > 1 ? "come" : "comes"} from ${dotenv.path} but WORKFORCE_TOKEN comes from the environment; a .env file may not choose where that token is sent. Set ${redirecting.join(" and ")} where WORKFORCE_TOKEN is set, or put WORKFORCE_TOKEN in ${dotenv.path} too.`,
      );
    }
  }
  return { ...dotenv.values, ...realEnv };
}
