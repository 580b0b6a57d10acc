import { resolve } from "node:path";
import { parseArgs } from "node:util";
import envPaths from "env-paths";
import { z } from "zod";
import { LOG_LEVELS } from "./logger.js";

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

/** A whole number within [min, max]; the message names the setting and the range. */
const intRange = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from ${min} to ${max}` })
    .int(`${name} must be a whole number from ${min} to ${max}`)
    .min(min, `${name} must be a whole number from ${min} to ${max}`)
    .max(max, `${name} must be a whole number from ${min} to ${max}`);

/**
 * The platform's address: http or https only, and no user name or password in it. The URL itself
 * is never echoed in the message, since it may carry credentials.
 */
const apiUrlSchema = z.string().transform((raw, ctx) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    ctx.addIssue({
      code: "custom",
      message: "WORKFORCE_API_URL must be a URL such as https://api.example.com",
    });
    return z.NEVER;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    ctx.addIssue({
      code: "custom",
      message: `WORKFORCE_API_URL must start with https:// or http://, not ${url.protocol}//`,
    });
    return z.NEVER;
  }
  if (url.username || url.password) {
    ctx.addIssue({
      code: "custom",
      message:
        "WORKFORCE_API_URL must not contain a user name or password; the platform takes its token from WORKFORCE_TOKEN. Remove the credentials from the URL.",
    });
    return z.NEVER;
  }
  if (url.search || url.hash) {
    ctx.addIssue({
      code: "custom",
      message: "WORKFORCE_API_URL must not have a query string or #fragment.",
    });
    return z.NEVER;
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "").replace(/\/graphql$/, "");
});

/** Loopback names a browser and this machine agree on; only these may use plain http for sign-in. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * The authorization server's address. The client secret and refresh tokens go there, so plain
 * http is allowed only on this machine. Never echoed, like WORKFORCE_API_URL.
 */
const authUrlSchema = z.string().transform((raw, ctx) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    ctx.addIssue({
      code: "custom",
      message: "WORKFORCE_AUTH_URL must be a URL such as https://auth.example.com",
    });
    return z.NEVER;
  }
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
  if (problem) {
    ctx.addIssue({ code: "custom", message: `WORKFORCE_AUTH_URL ${problem}.` });
    return z.NEVER;
  }
  return `${url.origin}${url.pathname}`
    .replace(/\/+$/, "")
    .replace(/\/oauth(\/(authorize|token))?$/, "");
});

/** Where the browser brings the sign-in's answer: a port on this machine, as registered. */
const redirectUriSchema = z.string().transform((raw, ctx) => {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {}
  if (
    url?.protocol !== "http:" ||
    !LOOPBACK_HOSTS.has(url.hostname) ||
    url.port === "" ||
    url.port === "0" ||
    url.username ||
    url.password ||
    url.search ||
    url.hash
  ) {
    ctx.addIssue({
      code: "custom",
      message: `WORKFORCE_REDIRECT_URI must be an http address on this machine with a port, such as ${DEFAULTS.redirectUri}, exactly as registered with the platform's OAuth client.`,
    });
    return z.NEVER;
  }
  return url.href;
});

const port = z.coerce
  .number({ error: "--port must be a number" })
  .int("--port must be a whole number")
  .min(0, "--port must be between 0 and 65535")
  .max(65_535, "--port must be between 0 and 65535");

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

const ConfigSchema = z
  .object({
    command: z.enum(["serve", "sandbox", "login", "logout", "status", "help", "version"]),
    transport: z.enum(["stdio", "http"]),
    apiUrl: apiUrlSchema.optional(),
    token: z.string().min(1).optional(),
    /** A stored sign-in (`workforce-mcp login`) for apiUrl is used: no WORKFORCE_TOKEN was given. */
    signedIn: z.boolean(),
    /** OAuth, for `login`: where to sign in, the registered client, and its redirect URL. */
    authUrl: authUrlSchema.optional(),
    clientId: z.string().min(1).optional(),
    clientSecret: z.string().min(1).optional(),
    redirectUri: redirectUriSchema,
    /** `login` opens the browser; --no-browser only prints the address. */
    openBrowser: z.boolean(),
    /** Where sign-ins are stored (WORKFORCE_CONFIG_DIR, else the user's config directory). */
    configDir: z.string().min(1),
    useSandbox: z.boolean(),
    logLevel: z.enum(LOG_LEVELS, {
      error: `log level must be one of: ${LOG_LEVELS.join(", ")}`,
    }),
    host: z.string().min(1),
    port,
    allowedHosts: z.array(z.string().min(1)),
    readOnly: z.boolean(),
    confirm: z.enum(CONFIRM_MODES, {
      error: `WORKFORCE_CONFIRM must be one of: ${CONFIRM_MODES.join(", ")}`,
    }),
    toolsets: z.array(
      z.enum(TOOLSETS, {
        error: `toolsets must be a comma-separated list of: ${TOOLSETS.join(", ")} (or all)`,
      }),
    ),
    // Node's timers overflow past 2^31 ms and fire at once; ten minutes is already generous.
    timeoutMs: intRange("WORKFORCE_TIMEOUT_MS", 100, 600_000),
    rateLimitPerMinute: intRange("WORKFORCE_RATE_LIMIT", 1, 10_000),
    retryBaseMs: z.coerce.number().min(0),
    maxRetries: z.coerce.number().int().min(0).max(10),
    timesheetChunkSize: intRange("WORKFORCE_TIMESHEET_CHUNK_SIZE", 1, 1_000),
    sandboxRateLimitPerMinute: intRange("--rate-limit", 0, 100_000),
    maxSessions: intRange("WORKFORCE_MAX_SESSIONS", 1, 100_000),
    sessionIdleMinutes: intRange("WORKFORCE_SESSION_IDLE_MINUTES", 1, 24 * 60),
    maxResponseBytes: intRange("WORKFORCE_MAX_RESPONSE_BYTES", 64 * 1024, 256 * 1024 * 1024),
    maxAnswerBytes: intRange("WORKFORCE_MAX_ANSWER_BYTES", 8 * 1024, 4 * 1024 * 1024),
  })
  .superRefine((c, ctx) => {
    // Over HTTP without a token of its own, each client brings its token as a bearer.
    const perClientToken = c.transport === "http" && c.apiUrl !== undefined;
    if (
      c.command === "serve" &&
      !c.useSandbox &&
      (!c.apiUrl || (!c.token && !c.signedIn && !perClientToken))
    ) {
      ctx.addIssue({
        code: "custom",
        message: c.apiUrl
          ? "WORKFORCE_TOKEN is not set and there is no sign-in for WORKFORCE_API_URL. Sign in with `workforce-mcp login`, set WORKFORCE_TOKEN to a personal access token, run with --http so that each client sends its own token, or run with --sandbox."
          : "WORKFORCE_API_URL is not set. Set it to the platform's base URL, or run with --sandbox.",
      });
    }
    if (c.command === "login") {
      const missing = [
        c.apiUrl ? undefined : "WORKFORCE_API_URL (the platform's base URL)",
        c.clientId ? undefined : "WORKFORCE_CLIENT_ID",
        c.clientSecret ? undefined : "WORKFORCE_CLIENT_SECRET",
      ].filter((m): m is string => m !== undefined);
      if (missing.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `login needs ${missing.join(", ")}: set ${missing.length > 1 ? "them" : "it"} from the OAuth client registered on the platform (see the README, "Signing in").`,
        });
      }
      // The default auth URL is the API's; a plain-http API elsewhere must not get the secret.
      if (c.apiUrl && !c.authUrl) {
        const api = new URL(c.apiUrl);
        if (api.protocol === "http:" && !LOOPBACK_HOSTS.has(api.hostname)) {
          ctx.addIssue({
            code: "custom",
            message:
              "login sends the client secret to WORKFORCE_AUTH_URL, which defaults to WORKFORCE_API_URL; that is plain http on another machine. Set WORKFORCE_AUTH_URL to the platform's https address.",
          });
        }
      }
    }
  })
  .transform((c) => ({ ...c, authUrl: c.authUrl ?? c.apiUrl }));

export type Config = z.infer<typeof ConfigSchema>;

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
  --confirm <mode>        token (default) | elicitation: changes that need confirmation only by a
                          form the person answers (refused when the client cannot show one)
  --toolsets <list>       comma-separated toolsets to expose: ${TOOLSETS.join(", ")} (default all)
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
  WORKFORCE_CONFIRM              same as --confirm
  WORKFORCE_TOOLSETS             same as --toolsets
  WORKFORCE_SANDBOX_RATE_LIMIT   same as --rate-limit, also for the embedded sandbox
  WORKFORCE_MAX_SESSIONS         HTTP: live sessions at most (default ${DEFAULTS.maxSessions})
  WORKFORCE_SESSION_IDLE_MINUTES HTTP: a session idle this long is ended (default ${DEFAULTS.sessionIdleMinutes})
  WORKFORCE_MAX_RESPONSE_BYTES   largest platform answer read (default ${DEFAULTS.maxResponseBytes})
  WORKFORCE_MAX_ANSWER_BYTES     largest tool answer sent to the assistant (default ${DEFAULTS.maxAnswerBytes})
  WORKFORCE_AUTH_URL             same as --auth-url
  WORKFORCE_CLIENT_ID            same as --client-id
  WORKFORCE_CLIENT_SECRET        same as --client-secret (never logged)
  WORKFORCE_REDIRECT_URI         same as --redirect-uri
  WORKFORCE_CONFIG_DIR           where sign-ins are stored (default the user's config folder; not from .env)

Without WORKFORCE_TOKEN, the sign-in stored by 'workforce-mcp login' for WORKFORCE_API_URL is used
and renewed automatically.

A .env file may not set WORKFORCE_API_URL or WORKFORCE_ALLOWED_HOSTS when WORKFORCE_TOKEN comes
from the real environment, nor WORKFORCE_API_URL or WORKFORCE_AUTH_URL when the client secret does:
it would choose where that token or secret is sent. WORKFORCE_CONFIG_DIR never comes from .env.
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
  let signedIn = false;
  if (command === "serve" && !token && apiUrl && readSignIns) {
    // Compared as parsed, so that a trailing slash or /graphql does not hide a sign-in.
    const wanted = apiUrlSchema.safeParse(apiUrl);
    let index: SignInIndex;
    try {
      index = readSignIns(configDir);
    } catch (error) {
      throw new ConfigError(error instanceof Error ? error.message : String(error));
    }
    signedIn = wanted.success && index.apiUrls.includes(wanted.data);
  }
  const isSandboxCommand = command === "sandbox";
  const defaultPort = isSandboxCommand ? 0 : DEFAULTS.httpPort;
  const allowed = [values["allowed-hosts"], env.WORKFORCE_ALLOWED_HOSTS]
    .flatMap((v) => (v ? v.split(",") : []))
    .map((h) => h.trim())
    .filter(Boolean);

  const result = ConfigSchema.safeParse({
    command,
    transport: values.http ? "http" : "stdio",
    apiUrl,
    token,
    signedIn,
    authUrl: values["auth-url"] ?? blankToUndefined(env.WORKFORCE_AUTH_URL),
    clientId: values["client-id"] ?? blankToUndefined(env.WORKFORCE_CLIENT_ID),
    clientSecret: values["client-secret"] ?? blankToUndefined(env.WORKFORCE_CLIENT_SECRET),
    redirectUri:
      values["redirect-uri"] ??
      blankToUndefined(env.WORKFORCE_REDIRECT_URI) ??
      DEFAULTS.redirectUri,
    openBrowser: !values["no-browser"],
    configDir,
    useSandbox: Boolean(values.sandbox) || (!apiUrl && !token),
    logLevel: values["log-level"] ?? blankToUndefined(env.WORKFORCE_LOG_LEVEL) ?? "info",
    host: values.host ?? DEFAULTS.host,
    port: values.port ?? defaultPort,
    allowedHosts: allowed,
    readOnly: Boolean(values["read-only"]) || isTrue(env.WORKFORCE_READ_ONLY),
    confirm: (values.confirm ?? blankToUndefined(env.WORKFORCE_CONFIRM) ?? "token").toLowerCase(),
    toolsets: parseToolsets(values.toolsets ?? blankToUndefined(env.WORKFORCE_TOOLSETS)),
    timeoutMs: blankToUndefined(env.WORKFORCE_TIMEOUT_MS) ?? DEFAULTS.timeoutMs,
    rateLimitPerMinute: blankToUndefined(env.WORKFORCE_RATE_LIMIT) ?? DEFAULTS.rateLimitPerMinute,
    retryBaseMs: DEFAULTS.retryBaseMs,
    maxRetries: DEFAULTS.maxRetries,
    timesheetChunkSize:
      blankToUndefined(env.WORKFORCE_TIMESHEET_CHUNK_SIZE) ?? DEFAULTS.timesheetChunkSize,
    sandboxRateLimitPerMinute:
      values["rate-limit"] ?? blankToUndefined(env.WORKFORCE_SANDBOX_RATE_LIMIT) ?? 60,
    maxSessions: blankToUndefined(env.WORKFORCE_MAX_SESSIONS) ?? DEFAULTS.maxSessions,
    sessionIdleMinutes:
      blankToUndefined(env.WORKFORCE_SESSION_IDLE_MINUTES) ?? DEFAULTS.sessionIdleMinutes,
    maxResponseBytes:
      blankToUndefined(env.WORKFORCE_MAX_RESPONSE_BYTES) ?? DEFAULTS.maxResponseBytes,
    maxAnswerBytes: blankToUndefined(env.WORKFORCE_MAX_ANSWER_BYTES) ?? DEFAULTS.maxAnswerBytes,
  });
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => i.message).join("\n"));
  }
  return result.data;
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
      confirm: { type: "string" },
      toolsets: { type: "string" },
      "log-level": { type: "string" },
      "rate-limit": { type: "string" },
      "auth-url": { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      "redirect-uri": { type: "string" },
      "no-browser": { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
}
