// Reads the flags, the environment and `.env` into one validated Config. The rules live in
// config/: each setting's own and those between settings (settings-schema.ts, url-rules.ts,
// cross-setting-checks.ts), what `.env` may set (dotenv-policy.ts) and the help text (usage.ts).
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import envPaths from "env-paths";
import { ConfigError } from "./config/config-error.js";
import { DEFAULT_TOOLSETS, DEFAULTS, TOOLSETS } from "./config/defaults.js";
import { type DotenvSource, mergeDotenv } from "./config/dotenv-policy.js";
import { type Config, configSchema } from "./config/settings-schema.js";
import { apiUrlSchema } from "./config/url-rules.js";

export { ConfigError } from "./config/config-error.js";
export { DEFAULTS, TOOLSETS, type Toolset } from "./config/defaults.js";
export type { DotenvSource } from "./config/dotenv-policy.js";
export type { Config } from "./config/settings-schema.js";
export { USAGE } from "./config/usage.js";

/** The stored sign-ins parseConfig needs to know about: which platforms have one. */
export interface SignInIndex {
  apiUrls: readonly string[];
}

/** Where sign-ins live: WORKFORCE_CONFIG_DIR from the real environment, else the user's config folder. */
function configDirFrom(realEnv: NodeJS.ProcessEnv): string {
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
  const commands = ["sandbox", "login", "logout", "status", "doctor"] as const;
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
    (command === "serve" || command === "doctor") &&
    !token &&
    apiUrl &&
    readSignIns &&
    auth !== "oauth" &&
    !tokenPassthrough
  ) {
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

  // Each setting as given, or its default; the schema checks them and lists every problem.
  const result = configSchema.safeParse({
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
    auth,
    tokenPassthrough,
    trustProxy: values["trust-proxy"] ?? blankToUndefined(env.WORKFORCE_TRUST_PROXY),
    publicUrl: blankToUndefined(env.WORKFORCE_PUBLIC_URL),
    encryptionKey: blankToUndefined(env.WORKFORCE_ENCRYPTION_KEY),
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
    redisUrl: blankToUndefined(env.WORKFORCE_REDIS_URL),
    teamUrl: values["team-url"] ?? blankToUndefined(env.WORKFORCE_TEAM_URL),
    webhookSecrets: (env.WORKFORCE_WEBHOOK_SECRETS ?? "")
      .split(",")
      .map((secret) => secret.trim())
      .filter(Boolean),
    webhookRetentionDays:
      blankToUndefined(env.WORKFORCE_WEBHOOK_RETENTION_DAYS) ?? DEFAULTS.webhookRetentionDays,
    webhookMaxEvents:
      blankToUndefined(env.WORKFORCE_WEBHOOK_MAX_EVENTS) ?? DEFAULTS.webhookMaxEvents,
    webhookMaxBytes: blankToUndefined(env.WORKFORCE_WEBHOOK_MAX_BYTES) ?? DEFAULTS.webhookMaxBytes,
    webhookCompanyMaxBytes:
      blankToUndefined(env.WORKFORCE_WEBHOOK_COMPANY_MAX_BYTES) ?? DEFAULTS.webhookCompanyMaxBytes,
    stateless:
      Boolean(values.stateless) ||
      isTrue(env.WORKFORCE_STATELESS) ||
      blankToUndefined(env.WORKFORCE_REDIS_URL) !== undefined,
  });
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => issue.message).join("\n"));
  }
  return result.data;
}

const isTrue = (v: string | undefined) => /^(1|true|yes|on)$/i.test(v?.trim() ?? "");

/** "all" is every toolset; unset (or "default" in a list) the default ones, which are all of them. */
function parseToolsets(list: string | undefined): string[] {
  const names = (list ?? "default")
    .split(",")
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  if (names.includes("all")) return [...TOOLSETS];
  const named = names.length === 0 ? ["default"] : names;
  return [
    ...new Set(named.flatMap((n): string[] => (n === "default" ? [...DEFAULT_TOOLSETS] : [n]))),
  ];
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
      "team-url": { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
}
