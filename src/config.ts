import { parseArgs } from "node:util";
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
} as const;

const positiveInt = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .positive(`${name} must be greater than 0`);

const port = z.coerce
  .number({ error: "--port must be a number" })
  .int("--port must be a whole number")
  .min(0, "--port must be between 0 and 65535")
  .max(65_535, "--port must be between 0 and 65535");

export const TOOLSETS = ["hires", "contracts", "invoices", "timesheets"] as const;
export type Toolset = (typeof TOOLSETS)[number];

const ConfigSchema = z
  .object({
    command: z.enum(["serve", "sandbox", "help", "version"]),
    transport: z.enum(["stdio", "http"]),
    apiUrl: z
      .url({ error: "WORKFORCE_API_URL must be a URL such as https://api.example.com" })
      .transform((u) => u.replace(/\/+$/, "").replace(/\/graphql$/, ""))
      .optional(),
    token: z.string().min(1).optional(),
    useSandbox: z.boolean(),
    logLevel: z.enum(LOG_LEVELS, {
      error: `log level must be one of: ${LOG_LEVELS.join(", ")}`,
    }),
    host: z.string().min(1),
    port,
    allowedHosts: z.array(z.string().min(1)),
    readOnly: z.boolean(),
    toolsets: z.array(
      z.enum(TOOLSETS, {
        error: `toolsets must be a comma-separated list of: ${TOOLSETS.join(", ")} (or all)`,
      }),
    ),
    timeoutMs: positiveInt("WORKFORCE_TIMEOUT_MS"),
    rateLimitPerMinute: positiveInt("WORKFORCE_RATE_LIMIT"),
    retryBaseMs: z.coerce.number().min(0),
    maxRetries: z.coerce.number().int().min(0).max(10),
    timesheetChunkSize: positiveInt("WORKFORCE_TIMESHEET_CHUNK_SIZE").max(
      1_000,
      "WORKFORCE_TIMESHEET_CHUNK_SIZE must be at most 1000",
    ),
    sandboxRateLimitPerMinute: z.coerce.number().int().min(0),
  })
  .superRefine((c, ctx) => {
    if (c.command === "serve" && !c.useSandbox && (!c.apiUrl || !c.token)) {
      ctx.addIssue({
        code: "custom",
        message: c.apiUrl
          ? "WORKFORCE_TOKEN is not set. Create a personal access token on the platform and set WORKFORCE_TOKEN, or run with --sandbox."
          : "WORKFORCE_API_URL is not set. Set it to the platform's base URL, or run with --sandbox.",
      });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

export const USAGE = `Usage:
  workforce-mcp [options]               serve MCP over stdio (default)
  workforce-mcp --http [options]        serve MCP over Streamable HTTP at /mcp
  workforce-mcp sandbox [options]       run the embedded sandbox platform in the foreground

Options:
  --http                  use Streamable HTTP instead of stdio
  --host <host>           interface to listen on (default ${DEFAULTS.host})
  --port <n>              port to listen on (HTTP default ${DEFAULTS.httpPort}; sandbox default: any free port)
  --allowed-hosts <list>  comma-separated extra Host/Origin names the HTTP transport accepts
  --sandbox               use the embedded sandbox even if WORKFORCE_API_URL/WORKFORCE_TOKEN are set
  --read-only             expose only tools that do not change anything
  --toolsets <list>       comma-separated toolsets to expose: ${TOOLSETS.join(", ")} (default all)
  --log-level <level>     ${LOG_LEVELS.join(" | ")} (default info)
  --rate-limit <n>        sandbox only: its requests a minute per token (0 = off; default 60)
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
  WORKFORCE_TOOLSETS             same as --toolsets
  WORKFORCE_SANDBOX_RATE_LIMIT   same as --rate-limit, also for the embedded sandbox
`;

const blankToUndefined = (v: string | undefined) =>
  v === undefined || v.trim() === "" ? undefined : v.trim();

/** Flags and environment, parsed once into one validated object. Throws ConfigError. */
export function parseConfig(argv: string[], env: NodeJS.ProcessEnv): Config {
  let parsed: ReturnType<typeof parseFlags>;
  try {
    parsed = parseFlags(argv);
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1 || (positionals[0] !== undefined && positionals[0] !== "sandbox")) {
    throw new ConfigError(`Unknown command: ${positionals.join(" ")}`);
  }
  const command = values.help
    ? "help"
    : values.version
      ? "version"
      : positionals[0] === "sandbox"
        ? "sandbox"
        : "serve";
  const apiUrl = blankToUndefined(env.WORKFORCE_API_URL);
  const token = blankToUndefined(env.WORKFORCE_TOKEN);
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
    useSandbox: Boolean(values.sandbox) || (!apiUrl && !token),
    logLevel: values["log-level"] ?? blankToUndefined(env.WORKFORCE_LOG_LEVEL) ?? "info",
    host: values.host ?? DEFAULTS.host,
    port: values.port ?? defaultPort,
    allowedHosts: allowed,
    readOnly: Boolean(values["read-only"]) || isTrue(env.WORKFORCE_READ_ONLY),
    toolsets: parseToolsets(values.toolsets ?? blankToUndefined(env.WORKFORCE_TOOLSETS)),
    timeoutMs: blankToUndefined(env.WORKFORCE_TIMEOUT_MS) ?? DEFAULTS.timeoutMs,
    rateLimitPerMinute: blankToUndefined(env.WORKFORCE_RATE_LIMIT) ?? DEFAULTS.rateLimitPerMinute,
    retryBaseMs: DEFAULTS.retryBaseMs,
    maxRetries: DEFAULTS.maxRetries,
    timesheetChunkSize:
      blankToUndefined(env.WORKFORCE_TIMESHEET_CHUNK_SIZE) ?? DEFAULTS.timesheetChunkSize,
    sandboxRateLimitPerMinute:
      values["rate-limit"] ?? blankToUndefined(env.WORKFORCE_SANDBOX_RATE_LIMIT) ?? 60,
  });
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => i.message).join("\n"));
  }
  return result.data;
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
      toolsets: { type: "string" },
      "log-level": { type: "string" },
      "rate-limit": { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
}
