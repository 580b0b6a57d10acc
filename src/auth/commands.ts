// The `login`, `status` and `logout` commands: what the person sees. Nothing here prints a token,
// a code or the client secret; every line also goes through the logger's redactor.
import { createPlatformClient } from "../client/client.js";
import { isPlatformError } from "../client/errors.js";
import { viewerQuery } from "../client/operations/index.js";
import type { TokenSource } from "../client/types.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { LOGIN_TIMEOUT_MS, login } from "./login.js";
import { SignInStore, type StoredSignIn, when } from "./store.js";
import { openSignIn } from "./token-source.js";

export interface CommandIo {
  /** One line for the person (stdout). */
  out: (line: string) => void;
  openBrowser?: (url: string) => Promise<boolean>;
  now?: () => number;
  loginTimeoutMs?: number;
  signal?: AbortSignal;
}

function storeFor(config: Config, logger: Logger): SignInStore {
  return new SignInStore(config.configDir, (message) => logger.warning(message));
}

export async function runLogin(config: Config, logger: Logger, io: CommandIo): Promise<void> {
  const say = (line: string) => io.out(logger.redact(line));
  // parseConfig checked these; the types do not know it.
  const { apiUrl, authUrl, clientId, clientSecret } = config;
  if (!apiUrl || !authUrl || !clientId || !clientSecret) {
    throw new Error(
      "login needs WORKFORCE_API_URL, WORKFORCE_CLIENT_ID and WORKFORCE_CLIENT_SECRET.",
    );
  }
  logger.addSecret(clientSecret);
  const store = storeFor(config, logger);
  const signIn = await login(
    { apiUrl, authUrl, clientId, clientSecret, redirectUri: config.redirectUri },
    {
      store,
      logger,
      say,
      openBrowser: config.openBrowser ? (io.openBrowser ?? openInBrowser) : undefined,
      timeoutMs: io.loginTimeoutMs ?? LOGIN_TIMEOUT_MS,
      requestTimeoutMs: config.timeoutMs,
      now: io.now,
      signal: io.signal,
    },
  );
  say("");
  say(`Signed in to ${signIn.apiUrl} as ${who(signIn)}.`);
  say(
    `The access token is valid until ${when(signIn.accessTokenExpiresAt)} and is renewed automatically; the sign-in must be renewed with \`workforce-mcp login\` by ${when(signIn.renewBy)} (90 days).`,
  );
  say(`Stored in ${store.path} (readable only by you).`);
  say(
    `The server uses it when WORKFORCE_API_URL is ${signIn.apiUrl} and WORKFORCE_TOKEN is not set.`,
  );
  if (config.token) {
    say(
      "Note: WORKFORCE_TOKEN is set and takes precedence over the sign-in; remove it to use the sign-in.",
    );
  }
}

export async function runStatus(config: Config, logger: Logger, io: CommandIo): Promise<void> {
  const say = (line: string) => io.out(logger.redact(line));
  const now = io.now ?? Date.now;
  const store = storeFor(config, logger);
  const signIns = store.list();
  const shown = config.apiUrl ? signIns.filter((s) => s.apiUrl === config.apiUrl) : signIns;

  if (config.apiUrl && config.token) {
    logger.addSecret(config.token);
    say(`Platform:   ${config.apiUrl}`);
    say(
      "Credential: personal access token from WORKFORCE_TOKEN (it takes precedence over any sign-in).",
    );
    say(
      "Expiry:     personal access tokens last 6 months from creation; the platform does not tell this one's date.",
    );
    say(`Identity:   ${await check(config, logger, config.token, config.apiUrl)}`);
    say("");
  }
  if (shown.length === 0) {
    say(
      config.apiUrl
        ? `No sign-in is stored for ${config.apiUrl}. Run \`workforce-mcp login\` to sign in.`
        : "No sign-in is stored. Set WORKFORCE_API_URL and run `workforce-mcp login` to sign in.",
    );
    return;
  }
  for (const stored of shown) {
    say(`Platform:   ${stored.apiUrl}`);
    say(`Identity:   ${who(stored)} (as stored at sign-in)`);
    say(`Credential: OAuth access token (client ${stored.clientId}), renewed automatically`);
    const t = now();
    if (stored.ended) {
      say(
        `Expiry:     the sign-in has ended (${stored.ended.reason.replace(/\.$/, "")}). Run \`workforce-mcp login\` again.`,
      );
    } else if (t >= stored.renewBy) {
      say(
        `Expiry:     the sign-in ended on ${when(stored.renewBy)} (90 days). Run \`workforce-mcp login\` again.`,
      );
    } else {
      say(
        `Expiry:     access token ${t >= stored.accessTokenExpiresAt ? "expired on" : "valid until"} ${when(stored.accessTokenExpiresAt)}; sign in again by ${when(stored.renewBy)}`,
      );
      const source = openSignIn({
        store,
        apiUrl: stored.apiUrl,
        logger,
        now,
        timeoutMs: config.timeoutMs,
      });
      if (source) say(`Check:      ${await check(config, logger, source, stored.apiUrl)}`);
    }
    say(`Stored in:  ${store.path}`);
    say("");
  }
  const mode = store.permissions()?.mode;
  if (mode !== undefined && (mode & 0o077) !== 0) {
    say(
      `Warning: ${store.path} can be read by other users (mode ${mode.toString(8)}); run \`chmod 600 ${store.path}\`.`,
    );
  }
}

export async function runLogout(config: Config, logger: Logger, io: CommandIo): Promise<void> {
  const say = (line: string) => io.out(logger.redact(line));
  const store = storeFor(config, logger);
  const removed = await store.update((signIns) => {
    const gone: StoredSignIn[] = [];
    for (const [apiUrl, signIn] of Object.entries(signIns)) {
      if (config.apiUrl && apiUrl !== config.apiUrl) continue;
      gone.push(signIn);
      delete signIns[apiUrl];
    }
    return gone;
  });
  if (removed.length === 0) {
    say(
      config.apiUrl
        ? `No sign-in was stored for ${config.apiUrl}; nothing to forget.`
        : "No sign-in was stored; nothing to forget.",
    );
    return;
  }
  for (const signIn of removed) {
    say(`Signed out of ${signIn.apiUrl} (${who(signIn)}): its tokens are forgotten.`);
  }
  say(
    "To end the grant on the platform itself before it expires, revoke it on the platform's token page.",
  );
}

/** Asks `viewer` with the credential: who the platform says it is, or why it could not tell. */
async function check(
  config: Config,
  logger: Logger,
  token: string | TokenSource,
  apiUrl: string,
): Promise<string> {
  const client = createPlatformClient({
    apiUrl,
    token,
    credential: typeof token === "string" ? "personal-access-token" : undefined,
    timeoutMs: Math.min(config.timeoutMs, 15_000),
    maxRetries: 0,
    logger,
  });
  try {
    const { data } = await client.run(viewerQuery, {});
    return `the platform accepts it: ${data.viewer.name} <${data.viewer.email}> (${data.viewer.id})`;
  } catch (error) {
    if (isPlatformError(error)) {
      return `${error.message.replace(/\.$/, "")}. ${error.hint}`;
    }
    return "the check failed unexpectedly.";
  }
}

function who(signIn: StoredSignIn): string {
  const { name, email, id } = signIn.identity;
  return `${name} <${email}> (${id})`;
}

/**
 * Opens the system browser with the `open` package. Not on a Linux machine without a display:
 * xdg-open would start a text browser in this terminal. The address is printed either way.
 */
async function openInBrowser(url: string): Promise<boolean> {
  if (process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return false;
  }
  try {
    const { default: open } = await import("open");
    const child = await open(url);
    child.on("error", () => {});
    return true;
  } catch {
    return false;
  }
}
