// The configuration's schema: each setting's own rules, then the rules between settings. zod lists
// the problems in the fields' order, one message each; a value that cannot be read at all (no
// number, no URL, not one of its choices) skips the rules between settings, which would only
// repeat it, while one that is read but not allowed (out of range, empty) does not.
import { isIP } from "node:net";
import * as z from "zod";
import { LOG_LEVELS } from "../logger.js";
import { checkTogether } from "./cross-setting-checks.js";
import { AUTH_MODES, CONFIRM_MODES, TOOLSETS } from "./defaults.js";
import {
  apiUrlSchema,
  authUrlSchema,
  publicUrlSchema,
  redirectUriSchema,
  redisUrlSchema,
  teamUrlSchema,
} from "./url-rules.js";

/**
 * A whole number within [min, max], read with Number(): "1e3" and "0x10" count. Each rule broken is
 * its own line, so 0.5 where 1 is the least gives two.
 */
function wholeNumber(min: number, max: number, messages: NumberMessages) {
  return z.coerce
    .number({ error: messages.notNumber })
    .refine(Number.isInteger, messages.notWhole)
    .min(min, messages.outOfRange)
    .max(max, messages.outOfRange);
}

type NumberMessages = { notNumber: string; notWhole: string; outOfRange: string };

/** A whole number within [min, max]; the message names the setting and the range. */
function intRange(name: string, min: number, max: number) {
  const m = `${name} must be a whole number from ${min} to ${max}`;
  return wholeNumber(min, max, { notNumber: m, notWhole: m, outOfRange: m });
}

const SECRET_FORM =
  "each entry of WORKFORCE_WEBHOOK_SECRETS is <company id>:<secret>, the secret 16 to 255 characters long (no commas)";

/**
 * `<company id>:<secret>`, split at the first colon. A secret alone (the form before secrets were
 * bound to companies) is refused: the receiver must know whose events a secret may sign.
 */
const companySecretSchema = z.string().transform((entry, ctx) => {
  const colon = entry.indexOf(":");
  const companyId = colon > 0 ? entry.slice(0, colon).trim() : "";
  const secret = colon > 0 ? entry.slice(colon + 1).trim() : "";
  if (companyId === "") {
    ctx.addIssue({
      code: "custom",
      message: `${SECRET_FORM}: an entry names no company. A secret signs one company's webhook, and only that company's events are accepted with it; write the company's id (list_accounts shows it) and a colon before the secret.`,
    });
    return z.NEVER;
  }
  if (secret.length < 16 || secret.length > 255) {
    ctx.addIssue({ code: "custom", message: `${SECRET_FORM}: company ${companyId}'s is not.` });
    return z.NEVER;
  }
  return { companyId, secret };
});

/** --port names no range when the value is no number or a fraction; a blank --port is 0. */
const portSchema = wholeNumber(0, 65_535, {
  notNumber: "--port must be a number",
  notWhole: "--port must be a whole number",
  outOfRange: "--port must be between 0 and 65535",
});

/** A flag given empty, such as `--host ""`, names nothing; the environment's blanks are unset. */
const notEmpty = (flag: string) => z.string().min(1, `${flag} must not be empty`);

/** 32 random bytes in base64 (or base64url); the value itself never appears in a message. */
const encryptionKeySchema = z
  .string()
  .refine(
    (raw) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(raw) && Buffer.from(raw, "base64").length === 32,
    "WORKFORCE_ENCRYPTION_KEY must be 32 random bytes in base64, for example the output of `openssl rand -base64 32`.",
  );

const PROXY_SUBNET_NAMES = ["loopback", "linklocal", "uniquelocal"];
/** As Express's "trust proxy" takes it: a number of hops, or names, addresses and subnets. */
const trustProxySchema = z.string().refine(
  (raw) =>
    /^\d{1,2}$/.test(raw) ||
    raw.split(",").every((part) => {
      const [address, prefix, ...rest] = part.trim().split("/");
      if (PROXY_SUBNET_NAMES.includes(part.trim())) return true;
      if (rest.length > 0 || !address || isIP(address) === 0) return false;
      return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= 128);
    }),
  "--trust-proxy must be loopback, linklocal, uniquelocal, addresses or subnets (such as 10.0.0.0/8), comma-separated, or a number of proxies such as 1",
);

/** Each setting's own rules, in the order their problems are listed. */
const settingsSchema = z.object({
  command: z.enum(["serve", "sandbox", "login", "logout", "status", "doctor", "help", "version"]),
  transport: z.enum(["stdio", "http"]),
  apiUrl: apiUrlSchema.optional(),
  token: z.string().optional(),
  /** A stored sign-in (`workforce-mcp login`) for apiUrl is used: no WORKFORCE_TOKEN was given. */
  signedIn: z.boolean(),
  /**
   * OAuth, for `login`: where to sign in (WORKFORCE_AUTH_URL, else apiUrl), the registered client,
   * and its redirect URL.
   */
  authUrl: authUrlSchema.optional(),
  clientId: notEmpty("--client-id").optional(),
  clientSecret: notEmpty("--client-secret").optional(),
  redirectUri: redirectUriSchema,
  /** `login` opens the browser; --no-browser only prints the address. */
  openBrowser: z.boolean(),
  /** Where sign-ins are stored (WORKFORCE_CONFIG_DIR, else the user's config directory). */
  configDir: z.string(),
  useSandbox: z.boolean(),
  logLevel: z.enum(LOG_LEVELS, { error: `log level must be one of: ${LOG_LEVELS.join(", ")}` }),
  host: notEmpty("--host"),
  port: portSchema,
  allowedHosts: z.array(z.string()),
  readOnly: z.boolean(),
  auth: z.enum(AUTH_MODES, { error: `--auth must be one of: ${AUTH_MODES.join(", ")}` }),
  /**
   * HTTP: accept platform tokens that clients bring themselves and pass them on to the platform
   * (per-client bearer without WORKFORCE_TOKEN; X-Workforce-Token with --auth oauth). Off unless
   * asked for: the MCP authorization spec has a server accept only tokens issued for it.
   */
  tokenPassthrough: z.boolean(),
  /**
   * HTTP: the proxies whose X-Forwarded-For names the client (Express's "trust proxy": loopback,
   * addresses or subnets, or a number of hops). Unset, the client is the connection's address.
   */
  trustProxy: trustProxySchema.optional(),
  /** `--auth oauth`: the address people's assistants use; default http://<host>:<port>. */
  publicUrl: publicUrlSchema.optional(),
  /** `--auth oauth`: encrypts the platform tokens the server keeps (never logged). */
  encryptionKey: encryptionKeySchema.optional(),
  confirm: z.enum(CONFIRM_MODES, {
    error: `WORKFORCE_CONFIRM must be one of: ${CONFIRM_MODES.join(", ")}`,
  }),
  // One line for each name that is not a toolset.
  toolsets: z.array(
    z.enum(TOOLSETS, {
      error: `toolsets must be a comma-separated list of: ${TOOLSETS.join(", ")} (or default, or all)`,
    }),
  ),
  // Node's timers overflow past 2^31 ms and fire at once; ten minutes is already generous.
  timeoutMs: intRange("WORKFORCE_TIMEOUT_MS", 100, 600_000),
  rateLimitPerMinute: intRange("WORKFORCE_RATE_LIMIT", 1, 10_000),
  retryBaseMs: z.number(),
  maxRetries: z.number(),
  timesheetChunkSize: intRange("WORKFORCE_TIMESHEET_CHUNK_SIZE", 1, 1_000),
  sandboxRateLimitPerMinute: intRange("--rate-limit", 0, 100_000),
  maxSessions: intRange("WORKFORCE_MAX_SESSIONS", 1, 100_000),
  sessionIdleMinutes: intRange("WORKFORCE_SESSION_IDLE_MINUTES", 1, 24 * 60),
  maxResponseBytes: intRange("WORKFORCE_MAX_RESPONSE_BYTES", 64 * 1024, 256 * 1024 * 1024),
  maxAnswerBytes: intRange("WORKFORCE_MAX_ANSWER_BYTES", 8 * 1024, 4 * 1024 * 1024),
  /** Shared state for replicas (rate budget, confirmations, caches); never logged whole. */
  redisUrl: redisUrlSchema.optional(),
  /**
   * stdio: the team's HTTP server, whose live changes list_changes and workforce://changes read
   * with this person's own credential (GET <teamUrl>/changes), filtered there.
   */
  teamUrl: teamUrlSchema.optional(),
  /** HTTP: no sessions, any request may reach any replica; on whenever redisUrl is set. */
  stateless: z.boolean(),
  /**
   * HTTP: the shared secrets of the platform's webhooks, each with the company whose webhook it
   * signs (several while one is replaced); none turns the receiver at /webhooks/platform off.
   * Never logged, never quoted in a message.
   */
  webhookSecrets: z.array(companySecretSchema).superRefine((entries, ctx) => {
    const companyOf = new Map<string, string>();
    for (const { companyId, secret } of entries) {
      const other = companyOf.get(secret);
      if (other !== undefined && other !== companyId) {
        ctx.addIssue({
          code: "custom",
          message: `WORKFORCE_WEBHOOK_SECRETS gives companies ${other} and ${companyId} the same secret: whoever may read one company's webhook secret could then sign the other's events. Give each company's webhook a secret of its own.`,
        });
      }
      companyOf.set(secret, companyId);
    }
  }),
  webhookRetentionDays: intRange("WORKFORCE_WEBHOOK_RETENTION_DAYS", 1, 90),
  webhookMaxEvents: intRange("WORKFORCE_WEBHOOK_MAX_EVENTS", 10, 1_000_000),
  webhookMaxBytes: intRange("WORKFORCE_WEBHOOK_MAX_BYTES", 1024 * 1024, 16 * 1024 * 1024 * 1024),
  webhookCompanyMaxBytes: intRange(
    "WORKFORCE_WEBHOOK_COMPANY_MAX_BYTES",
    64 * 1024,
    16 * 1024 * 1024 * 1024,
  ),
});

/** The settings once each has passed its own rules, before the rules between them. */
export type Settings = z.output<typeof settingsSchema>;

export const configSchema = settingsSchema
  .superRefine((settings, ctx) =>
    checkTogether(settings, (message) => ctx.addIssue({ code: "custom", message })),
  )
  .transform((settings) => ({ ...settings, authUrl: settings.authUrl ?? settings.apiUrl }));

/** The validated configuration, with every URL normalised. */
export type Config = z.output<typeof configSchema>;
