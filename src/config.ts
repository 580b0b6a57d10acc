// Validated by hand, without zod: the configuration is parsed at every start, and building ~60 zod
// schemas plus compiling its object parser cost ~5 ms of a ~80 ms cold start; these plain checks
// cost a fraction of a millisecond. Messages name the setting and never echo a URL or a secret.
import { isIP } from "node:net";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import envPaths from "env-paths";
import { LOG_LEVELS, type LogLevel } from "./logger.js";

export const DEFAULTS = {
  httpPort: 3333,
  host: "127.0.0.1",
  timeoutMs: 30_000,
  rateLimitPerMinute: 60,
  retryBaseMs: 1_000,
  maxRetries: 3,
  timesheetChunkSize: 100,
  maxSessions: 1_000,
  sessionIdleMinutes: 30,
  maxResponseBytes: 5 * 1024 * 1024,
  maxAnswerBytes: 128 * 1024,
  /** Where `workforce-mcp login` receives the platform's answer; register it with the OAuth client. */
  redirectUri: "http://127.0.0.1:41793/callback",
} as const;

export const TOOLSETS = [
  "accounts",
  "hires",
  "contracts",
  "invoices",
  "timesheets",
  "talent",
  "jobs",
  "platform",
] as const;
export type Toolset = (typeof TOOLSETS)[number];

/**
 * How a change that needs confirmation is confirmed: `token` (the default) asks the person with a
 * form when the client can show one, else returns a preview and a single-use token; `elicitation`
 * refuses such changes unless the client can show the form, so the model alone can never confirm.
 */
export const CONFIRM_MODES = ["token", "elicitation"] as const;

/**
 * How HTTP clients authenticate: `token` (the default) uses WORKFORCE_TOKEN, a stored sign-in, or
 * (only with --token-passthrough) each client's platform token as a bearer; `oauth` makes the
 * server an OAuth resource and authorization server where each person signs in with the
 * platform's own OAuth.
 */
export const AUTH_MODES = ["token", "oauth"] as const;

/** The validated configuration, with every URL normalised. */
export interface Config {
  command: "serve" | "sandbox" | "login" | "logout" | "status" | "help" | "version";
  transport: "stdio" | "http";
  apiUrl?: string;
  token?: string;
  /** A stored sign-in (`workforce-mcp login`) for apiUrl is used: no WORKFORCE_TOKEN was given. */
  signedIn: boolean;
  /**
   * OAuth, for `login`: where to sign in (WORKFORCE_AUTH_URL, else apiUrl), the registered client,
   * and its redirect URL.
   */
  authUrl: string | undefined;
  clientId?: string;
  clientSecret?: string;
  redirectUri: string;
  /** `login` opens the browser; --no-browser only prints the address. */
  openBrowser: boolean;
  /** Where sign-ins are stored (WORKFORCE_CONFIG_DIR, else the user's config directory). */
  configDir: string;
  useSandbox: boolean;
  logLevel: LogLevel;
  host: string;
  port: number;
  allowedHosts: string[];
  readOnly: boolean;
  auth: (typeof AUTH_MODES)[number];
  /**
   * HTTP: accept platform tokens that clients bring themselves and pass them on to the platform
   * (per-client bearer without WORKFORCE_TOKEN; X-Workforce-Token with --auth oauth). Off unless
   * asked for: the MCP authorization spec has a server accept only tokens issued for it.
   */
  tokenPassthrough: boolean;
  /**
   * HTTP: the proxies whose X-Forwarded-For names the client (Express's "trust proxy": loopback,
   * addresses or subnets, or a number of hops). Unset, the client is the connection's address.
   */
  trustProxy?: string;
  /** `--auth oauth`: the address people's assistants use; default http://<host>:<port>. */
  publicUrl?: string;
  /** `--auth oauth`: encrypts the platform tokens the server keeps (never logged). */
  encryptionKey?: string;
  confirm: (typeof CONFIRM_MODES)[number];
  toolsets: Toolset[];
  timeoutMs: number;
  rateLimitPerMinute: number;
  retryBaseMs: number;
  maxRetries: number;
  timesheetChunkSize: number;
  sandboxRateLimitPerMinute: number;
  maxSessions: number;
  sessionIdleMinutes: number;
  maxResponseBytes: number;
  maxAnswerBytes: number;
  /** Shared state for replicas (rate budget, confirmations, caches); never logged whole. */
  redisUrl?: string;
  /** HTTP: no sessions, any request may reach any replica; on whenever redisUrl is set. */
  stateless: boolean;
}

/**
 * Reads settings and collects their problems, one message each, in the order they are read. A
 * value that cannot be read at all (no number, no URL, not one of its choices) makes the checks
 * between settings pointless, so it skips them; one read but not allowed (out of range, empty, no
 * valid key) does not.
 * What a reader returns for a bad value is never used: any problem makes parseConfig throw.
 */
class Reader {
  readonly problems: string[] = [];
  unreadable = false;

  /**
   * A whole number within [min, max], read with Number(): "1e3" and "0x10" count, a blank --port is
   * 0. Each rule broken is its own line, so 0.5 where 1 is the least gives two.
   */
  wholeNumber(raw: string | number, min: number, max: number, messages: NumberMessages): number {
    const n = Number(raw);
    if (!Number.isFinite(n)) {
      this.problems.push(messages.notNumber);
      this.unreadable = true;
    } else {
      if (!Number.isInteger(n)) this.problems.push(messages.notWhole);
      if (n < min || n > max) this.problems.push(messages.outOfRange);
    }
    return n;
  }

  /** A whole number within [min, max]; the message names the setting and the range. */
  intRange(name: string, raw: string | number, min: number, max: number): number {
    const m = `${name} must be a whole number from ${min} to ${max}`;
    return this.wholeNumber(raw, min, max, { notNumber: m, notWhole: m, outOfRange: m });
  }

  /** One of `choices`, exactly as written. */
  oneOf<T extends string>(choices: readonly T[], value: string, message: string): T {
    if (!(choices as readonly string[]).includes(value)) {
      this.problems.push(message);
      this.unreadable = true;
    }
    return value as T;
  }

  /** A string setting, if given, that `ok` accepts. */
  check<T extends string | undefined>(value: T, ok: (v: string) => boolean, message: string): T {
    if (value !== undefined && !ok(value)) this.problems.push(message);
    return value;
  }

  /** A URL setting, if given: its normalised form. */
  url<T extends string | undefined>(raw: T, read: (raw: string) => UrlReading): T {
    if (raw === undefined) return raw;
    const reading = read(raw);
    if (reading.ok) return reading.value as T;
    this.problems.push(reading.message);
    this.unreadable = true;
    return raw;
  }
}

type NumberMessages = { notNumber: string; notWhole: string; outOfRange: string };

/** --port's messages, which name no range when the value is no number or a fraction. */
const PORT_MESSAGES: NumberMessages = {
  notNumber: "--port must be a number",
  notWhole: "--port must be a whole number",
  outOfRange: "--port must be between 0 and 65535",
};

/** A URL setting once read: its normalised form, or the whole message for its first problem. */
type UrlReading = { ok: true; value: string } | { ok: false; message: string };

/**
 * A URL setting: `invalid` when the value is no URL, else the first problem `check` finds (a whole
 * message), else `normalize`'s form of it. The URL itself is never echoed in a message, since it
 * may carry credentials.
 */
function urlSetting(
  invalid: string,
  check: (url: URL) => string | undefined,
  normalize: (url: URL, raw: string) => string,
): (raw: string) => UrlReading {
  return (raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { ok: false, message: invalid };
    }
    const problem = check(url);
    return problem ? { ok: false, message: problem } : { ok: true, value: normalize(url, raw) };
  };
}

/** The platform's address: http or https only, and no user name or password in it. */
const apiUrlSetting = urlSetting(
  "WORKFORCE_API_URL must be a URL such as https://api.example.com",
  (url) =>
    url.protocol !== "https:" && url.protocol !== "http:"
      ? `WORKFORCE_API_URL must start with https:// or http://, not ${url.protocol}//`
      : url.username || url.password
        ? "WORKFORCE_API_URL must not contain a user name or password; the platform takes its token from WORKFORCE_TOKEN. Remove the credentials from the URL."
        : url.search || url.hash
          ? "WORKFORCE_API_URL must not have a query string or #fragment."
          : undefined,
  (url) => `${url.origin}${url.pathname}`.replace(/\/+$/, "").replace(/\/graphql$/, ""),
);

/**
 * Where replicas keep their shared state: redis:// or rediss:// (TLS). The URL may hold a password,
 * so it is never echoed; logs show only its host, port and database.
 */
const redisUrlSetting = urlSetting(
  "WORKFORCE_REDIS_URL must be a URL such as redis://127.0.0.1:6379 or rediss://user:password@redis.example.com:6380.",
  (url) => {
    const problem =
      url.protocol !== "redis:" && url.protocol !== "rediss:"
        ? `must start with redis:// or rediss:// (TLS), not ${url.protocol}//`
        : !url.hostname
          ? "must name the Redis host, such as redis://127.0.0.1:6379"
          : url.search || url.hash
            ? "must not have a query string or #fragment"
            : !/^\/?\d*$/.test(url.pathname)
              ? "may end only in a database number, such as redis://127.0.0.1:6379/0"
              : undefined;
    return problem && `WORKFORCE_REDIS_URL ${problem}.`;
  },
  (_url, raw) => raw,
);

/** Loopback names a browser and this machine agree on; only these may use plain http for sign-in. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * The authorization server's address. The client secret and refresh tokens go there, so plain
 * http is allowed only on this machine. Never echoed, like WORKFORCE_API_URL.
 */
const authUrlSetting = urlSetting(
  "WORKFORCE_AUTH_URL must be a URL such as https://auth.example.com",
  (url) => {
    const problem =
      url.protocol !== "https:" && url.protocol !== "http:"
        ? `must start with https://, not ${url.protocol}//`
        : url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)
          ? "must start with https:// (http:// only for 127.0.0.1 or localhost): the client secret and refresh tokens are sent there"
          : url.username || url.password
            ? "must not contain a user name or password"
            : url.search || url.hash
              ? "must not have a query string or #fragment"
              : undefined;
    return problem && `WORKFORCE_AUTH_URL ${problem}.`;
  },
  (url) =>
    `${url.origin}${url.pathname}`
      .replace(/\/+$/, "")
      .replace(/\/oauth(\/(authorize|token))?$/, ""),
);

/**
 * The team server's address as people's assistants reach it (`--auth oauth`): the resource its
 * tokens are bound to, and the base of its sign-in endpoints. An origin only: the SDK serves the
 * OAuth endpoints and metadata at the root. https, or http on this machine. Never echoed.
 */
const publicUrlSetting = urlSetting(
  "WORKFORCE_PUBLIC_URL must be a URL such as https://mcp.example.com.",
  (url) => {
    const problem =
      url.protocol !== "https:" && url.protocol !== "http:"
        ? `must start with https://, not ${url.protocol}//`
        : url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)
          ? "must start with https:// (http:// only for 127.0.0.1 or localhost): sign-in codes and tokens travel to it"
          : url.username || url.password || url.search || url.hash
            ? "must not contain a user name, password, query string or #fragment"
            : url.pathname !== "/"
              ? "must be the server's base address with no path (such as https://mcp.example.com): MCP is served at <address>/mcp and the sign-in endpoints at its root"
              : undefined;
    return problem && `WORKFORCE_PUBLIC_URL ${problem}.`;
  },
  (url) => url.origin,
);

/** Where the browser brings the sign-in's answer: a port on this machine, as registered. */
const REDIRECT_URI_MESSAGE = `WORKFORCE_REDIRECT_URI must be an http address on this machine with a port, such as ${DEFAULTS.redirectUri}, exactly as registered with the platform's OAuth client.`;
const redirectUriSetting = urlSetting(
  REDIRECT_URI_MESSAGE,
  (url) =>
    url.protocol !== "http:" ||
    !LOOPBACK_HOSTS.has(url.hostname) ||
    url.port === "" ||
    url.port === "0" ||
    url.username ||
    url.password ||
    url.search ||
    url.hash
      ? REDIRECT_URI_MESSAGE
      : undefined,
  (url) => url.href,
);

/** 32 random bytes in base64 (or base64url); the value itself never appears in a message. */
const isEncryptionKey = (raw: string) =>
  /^[A-Za-z0-9+/_-]+={0,2}$/.test(raw) && Buffer.from(raw, "base64").length === 32;

/** A flag given empty, such as `--host ""`, names no host; the environment's blanks are unset. */
const notEmpty = (value: string) => value !== "";

const PROXY_SUBNET_NAMES = ["loopback", "linklocal", "uniquelocal"];
/** As Express's "trust proxy" takes it: a number of hops, or names, addresses and subnets. */
const isTrustedProxyList = (raw: string) =>
  /^\d{1,2}$/.test(raw) ||
  raw.split(",").every((part) => {
    const [address, prefix, ...rest] = part.trim().split("/");
    if (PROXY_SUBNET_NAMES.includes(part.trim())) return true;
    if (rest.length > 0 || !address || isIP(address) === 0) return false;
    return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= 128);
  });

/** The checks between settings, once each has been read; one message per problem. */
function checkTogether(c: Config, issue: (message: string) => void): void {
  if (c.command === "serve" && c.stateless && c.transport !== "http" && !c.redisUrl) {
    issue("--stateless works with --http only: over stdio there is one client and one process.");
  }
  const http = c.transport === "http";
  if (c.command === "serve" && c.tokenPassthrough && !http) {
    issue(
      "--token-passthrough works with --http only: over stdio the server uses WORKFORCE_TOKEN or your sign-in.",
    );
  }
  if (c.command === "serve" && c.tokenPassthrough && c.token && c.auth === "token") {
    issue(
      "--token-passthrough is set, but so is WORKFORCE_TOKEN, which the server would use for every client instead of their own tokens. Unset one of them.",
    );
  }
  // Over HTTP without a credential of its own: each person signs in (--auth oauth), or, only when
  // asked for, each client's own platform token is passed through.
  const ownCredential = c.token !== undefined || c.signedIn || (http && c.auth === "oauth");
  if (c.command === "serve" && !c.useSandbox && !c.apiUrl) {
    issue(
      "WORKFORCE_API_URL is not set. Set it to the platform's base URL, or run with --sandbox.",
    );
  } else if (c.command === "serve" && !c.useSandbox && !ownCredential && !c.tokenPassthrough) {
    issue(
      http
        ? '--http without WORKFORCE_TOKEN or a sign-in would pass each client\'s own platform token through to the platform, which the MCP authorization spec does not allow by default (a server accepts only tokens issued for it). Run with --auth oauth so that each person signs in (see the README, "Hosting for a team"), or opt in to token passthrough with --token-passthrough (WORKFORCE_TOKEN_PASSTHROUGH=1).'
        : "WORKFORCE_TOKEN is not set and there is no sign-in for WORKFORCE_API_URL. Sign in with `workforce-mcp login`, set WORKFORCE_TOKEN to a personal access token, serve a team with --http --auth oauth, or run with --sandbox.",
    );
  }
  if (c.command === "serve" && c.auth === "oauth") checkRemoteSignIn(c, issue);
  if (c.command === "login") {
    const missing = [
      c.apiUrl ? undefined : "WORKFORCE_API_URL (the platform's base URL)",
      c.clientId ? undefined : "WORKFORCE_CLIENT_ID",
      c.clientSecret ? undefined : "WORKFORCE_CLIENT_SECRET",
    ].filter((m): m is string => m !== undefined);
    if (missing.length > 0) {
      issue(
        `login needs ${missing.join(", ")}: set ${missing.length > 1 ? "them" : "it"} from the OAuth client registered on the platform (see the README, "Signing in").`,
      );
    }
    // The default auth URL is the API's; a plain-http API elsewhere must not get the secret.
    if (c.apiUrl && !c.authUrl) {
      const api = new URL(c.apiUrl);
      if (api.protocol === "http:" && !LOOPBACK_HOSTS.has(api.hostname)) {
        issue(
          "login sends the client secret to WORKFORCE_AUTH_URL, which defaults to WORKFORCE_API_URL; that is plain http on another machine. Set WORKFORCE_AUTH_URL to the platform's https address.",
        );
      }
    }
  }
}

/** What `--auth oauth` needs besides the rest; one issue per problem, none echoing a secret. */
function checkRemoteSignIn(c: Config, issue: (message: string) => void): void {
  if (c.transport !== "http") {
    issue(
      "--auth oauth works with --http only: over stdio there is one person, who signs in with `workforce-mcp login`.",
    );
  }
  if (!c.encryptionKey) {
    issue(
      "--auth oauth needs WORKFORCE_ENCRYPTION_KEY: 32 random bytes in base64 (for example `openssl rand -base64 32`). It encrypts the platform tokens the server keeps for each person.",
    );
  }
  if (c.token) {
    issue(
      "WORKFORCE_TOKEN is set, but with --auth oauth each person signs in (or, with --token-passthrough, sends their own token as X-Workforce-Token). Unset WORKFORCE_TOKEN.",
    );
  }
  if (!c.publicUrl && !LOOPBACK_HOSTS.has(c.host)) {
    issue(
      `--auth oauth needs WORKFORCE_PUBLIC_URL when listening on ${c.host}: the https address people's assistants use, such as https://mcp.example.com.`,
    );
  }
  if (c.useSandbox) return;
  const missing = [
    c.clientId ? undefined : "WORKFORCE_CLIENT_ID",
    c.clientSecret ? undefined : "WORKFORCE_CLIENT_SECRET",
  ].filter((m): m is string => m !== undefined);
  if (missing.length > 0) {
    issue(
      `--auth oauth needs ${missing.join(" and ")}: the OAuth client registered on the platform for this server, with the redirect URL <WORKFORCE_PUBLIC_URL>/oauth/callback (see the README, "Hosting for a team").`,
    );
  }
  if (c.apiUrl && !c.authUrl) {
    const api = new URL(c.apiUrl);
    if (api.protocol === "http:" && !LOOPBACK_HOSTS.has(api.hostname)) {
      issue(
        "--auth oauth sends the client secret to WORKFORCE_AUTH_URL, which defaults to WORKFORCE_API_URL; that is plain http on another machine. Set WORKFORCE_AUTH_URL to the platform's https address.",
      );
    }
  }
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

export const USAGE = `Usage:
  workforce-mcp [options]               serve MCP over stdio (default)
  workforce-mcp --http [options]        serve MCP over Streamable HTTP at /mcp
  workforce-mcp sandbox [options]       run the embedded sandbox platform in the foreground
  workforce-mcp login [options]         sign in to WORKFORCE_API_URL with the platform's OAuth (browser)
  workforce-mcp status                  show who is signed in where, the credential and its expiry
  workforce-mcp logout                  forget the stored sign-in (WORKFORCE_API_URL's, else all)

Options:
  --http                  use Streamable HTTP instead of stdio
  --host <host>           interface to listen on (default ${DEFAULTS.host})
  --port <n>              port to listen on (HTTP default ${DEFAULTS.httpPort}; sandbox default: any free port)
  --allowed-hosts <list>  comma-separated extra Host/Origin names the HTTP transport accepts
  --sandbox               use the embedded sandbox even if WORKFORCE_API_URL/WORKFORCE_TOKEN are set
  --read-only             expose only tools that do not change anything
  --auth <mode>           HTTP: token (default: WORKFORCE_TOKEN or a sign-in) |
                          oauth: each person signs in with the platform's OAuth (see "Hosting for a team")
  --token-passthrough     HTTP: accept each client's own platform token and pass it on to the platform
                          ('Authorization: Bearer' without WORKFORCE_TOKEN; X-Workforce-Token with
                          --auth oauth). Off by default: MCP authorization has a server accept only
                          tokens issued for it
  --trust-proxy <list>    HTTP: the reverse proxies whose X-Forwarded-For names the client, for the
                          per-address limits: loopback, addresses or subnets, or a number of hops
  --confirm <mode>        token (default) | elicitation: changes that need confirmation only by a
                          form the person answers (refused when the client cannot show one)
  --toolsets <list>       comma-separated toolsets to expose: ${TOOLSETS.join(", ")} (default all)
  --stateless             HTTP: no sessions, so any request may reach any replica (on with WORKFORCE_REDIS_URL)
  --log-level <level>     ${LOG_LEVELS.join(" | ")} (default info)
  --rate-limit <n>        sandbox only: its requests a minute per token (0 = off; default 60)
  --auth-url <url>        login: the platform's authorization server (default WORKFORCE_API_URL)
  --client-id <id>        login: the OAuth client's id
  --client-secret <s>     login: the OAuth client's secret (visible to other local users; prefer the variable)
  --redirect-uri <url>    login: the OAuth client's redirect URL (default ${DEFAULTS.redirectUri})
  --no-browser            login: print the address to open instead of opening a browser
  -h, --help              show this help
  -v, --version           show the version

Environment (also read from .env in the working directory):
  WORKFORCE_API_URL              platform base URL; GraphQL is served at <base>/graphql
  WORKFORCE_TOKEN                personal access token (never logged)
  WORKFORCE_LOG_LEVEL            ${LOG_LEVELS.join(" | ")}
  WORKFORCE_TIMEOUT_MS           per-request time-out (default ${DEFAULTS.timeoutMs})
  WORKFORCE_RATE_LIMIT           requests a minute this process allows itself per token (default ${DEFAULTS.rateLimitPerMinute})
  WORKFORCE_TIMESHEET_CHUNK_SIZE registrations per createCustomTimesheet call (default ${DEFAULTS.timesheetChunkSize})
  WORKFORCE_ALLOWED_HOSTS        same as --allowed-hosts
  WORKFORCE_READ_ONLY            true = same as --read-only
  WORKFORCE_AUTH                 same as --auth
  WORKFORCE_TOKEN_PASSTHROUGH    true = same as --token-passthrough
  WORKFORCE_TRUST_PROXY          same as --trust-proxy
  WORKFORCE_PUBLIC_URL           --auth oauth: the server's address for people's assistants (default http://<host>:<port>)
  WORKFORCE_ENCRYPTION_KEY       --auth oauth: 32 bytes in base64 that encrypt stored platform tokens (never logged)
  WORKFORCE_CONFIRM              same as --confirm
  WORKFORCE_TOOLSETS             same as --toolsets
  WORKFORCE_SANDBOX_RATE_LIMIT   same as --rate-limit, also for the embedded sandbox
  WORKFORCE_MAX_SESSIONS         HTTP: live sessions at most (default ${DEFAULTS.maxSessions})
  WORKFORCE_SESSION_IDLE_MINUTES HTTP: a session idle this long is ended (default ${DEFAULTS.sessionIdleMinutes})
  WORKFORCE_MAX_RESPONSE_BYTES   largest platform answer read (default ${DEFAULTS.maxResponseBytes})
  WORKFORCE_MAX_ANSWER_BYTES     largest tool answer sent to the assistant (default ${DEFAULTS.maxAnswerBytes})
  WORKFORCE_REDIS_URL            redis:// or rediss:// URL: replicas share rate budgets, confirmations and
                                 caches there, and --http becomes stateless (credentials never logged)
  WORKFORCE_STATELESS            true = same as --stateless
  WORKFORCE_AUTH_URL             same as --auth-url
  WORKFORCE_CLIENT_ID            same as --client-id
  WORKFORCE_CLIENT_SECRET        same as --client-secret (never logged)
  WORKFORCE_REDIRECT_URI         same as --redirect-uri
  WORKFORCE_CONFIG_DIR           where sign-ins are stored (default the user's config folder; not from .env)

Without WORKFORCE_TOKEN, the sign-in stored by 'workforce-mcp login' for WORKFORCE_API_URL is used
and renewed automatically.

A .env file may not set WORKFORCE_API_URL or WORKFORCE_ALLOWED_HOSTS when WORKFORCE_TOKEN comes
from the real environment, nor WORKFORCE_API_URL or WORKFORCE_AUTH_URL when the client secret does:
it would choose where that token or secret is sent. Nor may it set WORKFORCE_REDIS_URL when
WORKFORCE_TOKEN comes from the real environment: that store decides which changes count as confirmed.
WORKFORCE_CONFIG_DIR never comes from .env.
`;

/** Settings read from a `.env` file, kept apart so that the real environment can outrank them. */
export interface DotenvSource {
  /** Where the file was, for messages. */
  path: string;
  values: Record<string, string>;
}

/** A .env file in the working directory may not redirect a token from the real environment. */
const TOKEN_ROUTING_KEYS = ["WORKFORCE_API_URL", "WORKFORCE_ALLOWED_HOSTS"] as const;
/** Nor choose where an OAuth client secret from elsewhere is sent (the auth URL defaults to the API's). */
const SECRET_ROUTING_KEYS = ["WORKFORCE_API_URL", "WORKFORCE_AUTH_URL"] as const;

/** The stored sign-ins parseConfig needs to know about: which platforms have one. */
export interface SignInIndex {
  apiUrls: readonly string[];
}

/** Where sign-ins live: WORKFORCE_CONFIG_DIR from the real environment, else the user's config folder. */
export function configDirFrom(realEnv: NodeJS.ProcessEnv): string {
  const chosen = blankToUndefined(realEnv.WORKFORCE_CONFIG_DIR);
  return chosen ? resolve(chosen) : envPaths("workforce-mcp", { suffix: "" }).config;
}

const blankToUndefined = (v: string | undefined) =>
  v === undefined || v.trim() === "" ? undefined : v.trim();

/**
 * Flags, environment and `.env`, parsed once into one validated object; the real environment wins
 * over `.env`. Throws ConfigError with one line per problem.
 */
export function parseConfig(
  argv: string[],
  realEnv: NodeJS.ProcessEnv,
  dotenv?: DotenvSource,
  readSignIns?: (configDir: string) => SignInIndex,
): Config {
  let parsed: ReturnType<typeof parseFlags>;
  try {
    parsed = parseFlags(argv);
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const env = mergeDotenv(realEnv, dotenv, values["client-secret"] !== undefined);
  const commands = ["sandbox", "login", "logout", "status"] as const;
  const named = commands.find((c) => c === positionals[0]);
  if (positionals.length > 1 || (positionals[0] !== undefined && named === undefined)) {
    throw new ConfigError(`Unknown command: ${positionals.join(" ")}`);
  }
  const command = values.help ? "help" : values.version ? "version" : (named ?? "serve");
  const apiUrl = blankToUndefined(env.WORKFORCE_API_URL);
  const token = blankToUndefined(env.WORKFORCE_TOKEN);
  const configDir = configDirFrom(realEnv);
  const auth = (values.auth ?? blankToUndefined(env.WORKFORCE_AUTH) ?? "token").toLowerCase();
  const tokenPassthrough =
    Boolean(values["token-passthrough"]) || isTrue(env.WORKFORCE_TOKEN_PASSTHROUGH);
  let signedIn = false;
  // With --auth oauth each person signs in, with --token-passthrough each client brings its own
  // token: this machine's own sign-in is not used.
  if (
    command === "serve" &&
    !token &&
    apiUrl &&
    readSignIns &&
    auth !== "oauth" &&
    !tokenPassthrough
  ) {
    // Compared as parsed, so that a trailing slash or /graphql does not hide a sign-in.
    const wanted = apiUrlSetting(apiUrl);
    let index: SignInIndex;
    try {
      index = readSignIns(configDir);
    } catch (error) {
      throw new ConfigError(error instanceof Error ? error.message : String(error));
    }
    signedIn = wanted.ok && index.apiUrls.includes(wanted.value);
  }
  const isSandboxCommand = command === "sandbox";
  const defaultPort = isSandboxCommand ? 0 : DEFAULTS.httpPort;
  const allowed = [values["allowed-hosts"], env.WORKFORCE_ALLOWED_HOSTS]
    .flatMap((v) => (v ? v.split(",") : []))
    .map((h) => h.trim())
    .filter(Boolean);

  // Each setting is read in Config's field order, so its problems are listed in that order. Strings
  // that blankToUndefined or the filter above has vetted cannot be empty and need no check.
  const r = new Reader();
  const envInt = (name: string, fallback: number, min: number, max: number) =>
    r.intRange(name, blankToUndefined(env[name]) ?? fallback, min, max);
  const c: Config = {
    command,
    transport: values.http ? "http" : "stdio",
    apiUrl: r.url(apiUrl, apiUrlSetting),
    token,
    signedIn,
    authUrl: r.url(values["auth-url"] ?? blankToUndefined(env.WORKFORCE_AUTH_URL), authUrlSetting),
    clientId: r.check(
      values["client-id"] ?? blankToUndefined(env.WORKFORCE_CLIENT_ID),
      notEmpty,
      "--client-id must not be empty",
    ),
    clientSecret: r.check(
      values["client-secret"] ?? blankToUndefined(env.WORKFORCE_CLIENT_SECRET),
      notEmpty,
      "--client-secret must not be empty",
    ),
    redirectUri: r.url(
      values["redirect-uri"] ??
        blankToUndefined(env.WORKFORCE_REDIRECT_URI) ??
        DEFAULTS.redirectUri,
      redirectUriSetting,
    ),
    openBrowser: !values["no-browser"],
    configDir,
    useSandbox: Boolean(values.sandbox) || (!apiUrl && !token),
    logLevel: r.oneOf(
      LOG_LEVELS,
      values["log-level"] ?? blankToUndefined(env.WORKFORCE_LOG_LEVEL) ?? "info",
      `log level must be one of: ${LOG_LEVELS.join(", ")}`,
    ),
    host: r.check(values.host ?? DEFAULTS.host, notEmpty, "--host must not be empty"),
    port: r.wholeNumber(values.port ?? defaultPort, 0, 65_535, PORT_MESSAGES),
    allowedHosts: allowed,
    readOnly: Boolean(values["read-only"]) || isTrue(env.WORKFORCE_READ_ONLY),
    auth: r.oneOf(AUTH_MODES, auth, `--auth must be one of: ${AUTH_MODES.join(", ")}`),
    tokenPassthrough,
    trustProxy: r.check(
      values["trust-proxy"] ?? blankToUndefined(env.WORKFORCE_TRUST_PROXY),
      isTrustedProxyList,
      "--trust-proxy must be loopback, linklocal, uniquelocal, addresses or subnets (such as 10.0.0.0/8), comma-separated, or a number of proxies such as 1",
    ),
    publicUrl: r.url(blankToUndefined(env.WORKFORCE_PUBLIC_URL), publicUrlSetting),
    encryptionKey: r.check(
      blankToUndefined(env.WORKFORCE_ENCRYPTION_KEY),
      isEncryptionKey,
      "WORKFORCE_ENCRYPTION_KEY must be 32 random bytes in base64, for example the output of `openssl rand -base64 32`.",
    ),
    confirm: r.oneOf(
      CONFIRM_MODES,
      (values.confirm ?? blankToUndefined(env.WORKFORCE_CONFIRM) ?? "token").toLowerCase(),
      `WORKFORCE_CONFIRM must be one of: ${CONFIRM_MODES.join(", ")}`,
    ),
    // One line for each name that is not a toolset.
    toolsets: parseToolsets(values.toolsets ?? blankToUndefined(env.WORKFORCE_TOOLSETS)).map((t) =>
      r.oneOf(
        TOOLSETS,
        t,
        `toolsets must be a comma-separated list of: ${TOOLSETS.join(", ")} (or all)`,
      ),
    ),
    // Node's timers overflow past 2^31 ms and fire at once; ten minutes is already generous.
    timeoutMs: envInt("WORKFORCE_TIMEOUT_MS", DEFAULTS.timeoutMs, 100, 600_000),
    rateLimitPerMinute: envInt("WORKFORCE_RATE_LIMIT", DEFAULTS.rateLimitPerMinute, 1, 10_000),
    retryBaseMs: DEFAULTS.retryBaseMs,
    maxRetries: DEFAULTS.maxRetries,
    timesheetChunkSize: envInt(
      "WORKFORCE_TIMESHEET_CHUNK_SIZE",
      DEFAULTS.timesheetChunkSize,
      1,
      1_000,
    ),
    sandboxRateLimitPerMinute: r.intRange(
      "--rate-limit",
      values["rate-limit"] ?? blankToUndefined(env.WORKFORCE_SANDBOX_RATE_LIMIT) ?? 60,
      0,
      100_000,
    ),
    maxSessions: envInt("WORKFORCE_MAX_SESSIONS", DEFAULTS.maxSessions, 1, 100_000),
    sessionIdleMinutes: envInt(
      "WORKFORCE_SESSION_IDLE_MINUTES",
      DEFAULTS.sessionIdleMinutes,
      1,
      24 * 60,
    ),
    maxResponseBytes: envInt(
      "WORKFORCE_MAX_RESPONSE_BYTES",
      DEFAULTS.maxResponseBytes,
      64 * 1024,
      256 * 1024 * 1024,
    ),
    maxAnswerBytes: envInt(
      "WORKFORCE_MAX_ANSWER_BYTES",
      DEFAULTS.maxAnswerBytes,
      8 * 1024,
      4 * 1024 * 1024,
    ),
    redisUrl: r.url(blankToUndefined(env.WORKFORCE_REDIS_URL), redisUrlSetting),
    stateless:
      Boolean(values.stateless) ||
      isTrue(env.WORKFORCE_STATELESS) ||
      blankToUndefined(env.WORKFORCE_REDIS_URL) !== undefined,
  };
  if (!r.unreadable) checkTogether(c, (problem) => r.problems.push(problem));
  if (r.problems.length > 0) throw new ConfigError(r.problems.join("\n"));
  c.authUrl ??= c.apiUrl;
  return c;
}

function mergeDotenv(
  realEnv: NodeJS.ProcessEnv,
  dotenv: DotenvSource | undefined,
  secretFromFlag: boolean,
) {
  if (!dotenv) return realEnv;
  const fromFile = (key: string) =>
    blankToUndefined(dotenv.values[key]) !== undefined &&
    blankToUndefined(realEnv[key]) === undefined;
  if (fromFile("WORKFORCE_CONFIG_DIR")) {
    throw new ConfigError(
      `WORKFORCE_CONFIG_DIR comes from ${dotenv.path}; a .env file may not choose where sign-in tokens are stored. Set it in the environment, or remove it from ${dotenv.path}.`,
    );
  }
  if (secretFromFlag || blankToUndefined(realEnv.WORKFORCE_CLIENT_SECRET) !== undefined) {
    const redirecting = SECRET_ROUTING_KEYS.filter(fromFile);
    if (redirecting.length > 0) {
      const where = secretFromFlag ? "--client-secret" : "the environment";
      throw new ConfigError(
        `${redirecting.join(" and ")} ${redirecting.length > 1 ? "come" : "comes"} from ${dotenv.path} but the OAuth client secret comes from ${where}; a .env file may not choose where that secret and the tokens it obtains are sent. Set ${redirecting.join(" and ")} where the secret is set, or put WORKFORCE_CLIENT_SECRET in ${dotenv.path} too.`,
      );
    }
  }
  if (blankToUndefined(realEnv.WORKFORCE_TOKEN) !== undefined && fromFile("WORKFORCE_REDIS_URL")) {
    // Whoever runs that Redis could mint confirmations and lift the rate budget for the token.
    throw new ConfigError(
      `WORKFORCE_REDIS_URL comes from ${dotenv.path} but WORKFORCE_TOKEN comes from the environment; a .env file may not choose the shared state store that confirms the changes made with that token. Set WORKFORCE_REDIS_URL where WORKFORCE_TOKEN is set, or put WORKFORCE_TOKEN in ${dotenv.path} too.`,
    );
  }
  if (blankToUndefined(realEnv.WORKFORCE_TOKEN) !== undefined) {
    const redirecting = TOKEN_ROUTING_KEYS.filter(fromFile);
    if (redirecting.length > 0) {
      throw new ConfigError(
        `${redirecting.join(" and ")} ${redirecting.length > 1 ? "come" : "comes"} from ${dotenv.path} but WORKFORCE_TOKEN comes from the environment; a .env file may not choose where that token is sent. Set ${redirecting.join(" and ")} where WORKFORCE_TOKEN is set, or put WORKFORCE_TOKEN in ${dotenv.path} too.`,
      );
    }
  }
  return { ...dotenv.values, ...realEnv };
}

const isTrue = (v: string | undefined) => /^(1|true|yes|on)$/i.test(v?.trim() ?? "");

function parseToolsets(list: string | undefined): string[] {
  const names = (list ?? "all")
    .split(",")
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  return names.length === 0 || names.includes("all") ? [...TOOLSETS] : [...new Set(names)];
}

function parseFlags(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      http: { type: "boolean" },
      host: { type: "string" },
      port: { type: "string" },
      "allowed-hosts": { type: "string" },
      sandbox: { type: "boolean" },
      "read-only": { type: "boolean" },
      auth: { type: "string" },
      "token-passthrough": { type: "boolean" },
      "trust-proxy": { type: "string" },
      confirm: { type: "string" },
      toolsets: { type: "string" },
      "log-level": { type: "string" },
      "rate-limit": { type: "string" },
      "auth-url": { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      "redirect-uri": { type: "string" },
      "no-browser": { type: "boolean" },
      stateless: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
}
