// `workforce-mcp doctor`: checks what the first tool call needs (the address answers GraphQL, the
// credential is accepted and sees accounts, the rate budget fits the platform's) and prints one
// line per check with what to fix. It writes to stdout: it is a command, not the MCP server.
// No line holds a token: each goes through the logger's redactor, which knows them.
import { createPlatformClient } from "../client/client.js";
import {
  AuthenticationError,
  AuthorizationError,
  isPlatformError,
  NetworkError,
  type PlatformError,
  RateLimitedError,
} from "../client/errors.js";
import { listAccountsQuery } from "../client/operations/accounts.js";
import type { Operation, TokenSource } from "../client/types.js";
import { DEFAULTS } from "../config/defaults.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { DAY_MS, SignInStore, when } from "./store.js";
import { openSignIn } from "./token-source.js";

export interface DoctorIo {
  /** One line for the person (stdout). */
  out: (line: string) => void;
  now?: () => number;
}

/** The platform's own limit per token and minute (the sandbox's default mirrors it). */
const PLATFORM_PER_MINUTE = 60;
// Long enough for a slow platform, short enough that a black hole does not hold the check.
const CHECK_TIMEOUT_MS = 10_000;
// A sign-in due for renewal within this is flagged, so it does not end unnoticed.
const RENEW_SOON_MS = 7 * DAY_MS;

// The smallest GraphQL request: any GraphQL answer to it, even a refusal, proves the address.
const pingQuery: Operation<{ __typename: string }, Record<string, never>> = {
  name: "WorkforceDoctor",
  type: "query",
  safeToRepeat: true,
  document: "query WorkforceDoctor { __typename }",
};

type Outcome = "ok" | "problem" | "skipped";

/** Runs every check and prints one line each; resolves to whether all passed. */
export async function runDoctor(config: Config, logger: Logger, io: DoctorIo): Promise<boolean> {
  const now = io.now ?? Date.now;
  let passed = true;
  const line = (outcome: Outcome, what: string, text: string) => {
    if (outcome === "problem") passed = false;
    io.out(logger.redact(`${outcome.padEnd(8)}${what}: ${text}`));
  };

  if (config.useSandbox) {
    line(
      "ok",
      "platform",
      "nothing is configured (or --sandbox), so the server uses the embedded sandbox with sample data. For a real platform, set WORKFORCE_API_URL and WORKFORCE_TOKEN, or run `workforce-mcp login`.",
    );
    return passed;
  }
  const apiUrl = config.apiUrl;
  if (!apiUrl) {
    line(
      "problem",
      "address",
      "WORKFORCE_API_URL is not set. Set it to the platform's base URL (its GraphQL API is at <base>/graphql).",
    );
    return passed;
  }

  const credential = openCredential(config, logger, now);
  const client = (token: string | TokenSource) =>
    createPlatformClient({
      apiUrl,
      token,
      credential: typeof token === "string" ? "personal-access-token" : undefined,
      timeoutMs: Math.min(config.timeoutMs, CHECK_TIMEOUT_MS),
      maxRetries: 0,
      logger,
    });

  // 1. The address: reachable, TLS, and GraphQL answering.
  const endpoint = `${apiUrl}/graphql`;
  const secure = endpoint.startsWith("https:") ? "over HTTPS" : "over plain HTTP";
  // Without a credential, a placeholder: the platform's refusal still proves it answers GraphQL.
  const reached = await failureOf(() =>
    client(credential?.token ?? "workforce-mcp-doctor").run(pingQuery, {}),
  );
  let rateLimited = reached instanceof RateLimitedError ? reached : undefined;
  if (reached === undefined || answeredGraphQL(reached)) {
    line("ok", "address", `${endpoint} answers GraphQL ${secure}.`);
  } else {
    line("problem", "address", describeAddress(reached, endpoint));
    line("skipped", "credential", "needs an address that answers.");
    line("skipped", "accounts", "needs an address that answers.");
    line("skipped", "rate budget", "needs an address that answers.");
    return passed;
  }

  // 2. The credential: who the platform says it is, and which accounts it sees.
  if (!credential) {
    line(
      "problem",
      "credential",
      `neither WORKFORCE_TOKEN nor a sign-in for ${apiUrl}. Run \`workforce-mcp login\`, or set WORKFORCE_TOKEN to a personal access token from the platform's settings.`,
    );
    line("skipped", "accounts", "needs a credential.");
  } else if (credential.problem) {
    line("problem", "credential", credential.problem);
    line("skipped", "accounts", "needs a credential.");
  } else {
    const result = await client(credential.token)
      .run(listAccountsQuery, {})
      .catch((error: unknown) => {
        if (isPlatformError(error)) return error;
        throw error;
      });
    if (!isPlatformError(result)) {
      const { viewer, accounts } = result.data;
      line(
        "ok",
        "credential",
        `${credential.label} accepted: ${viewer.name} <${viewer.email}> (${viewer.id}). ${credential.expiry}`,
      );
      if (accounts.length === 0) {
        line(
          "problem",
          "accounts",
          `${viewer.name} sees no accounts, so every search comes back empty. Ask an administrator on the platform to add them to a company or organisation.`,
        );
      } else {
        const names = accounts.map((a) => `${a.name} (${a.__typename}, ${a.id})`);
        line("ok", "accounts", `${accounts.length}: ${names.join(", ")}.`);
      }
    } else {
      if (result instanceof RateLimitedError) rateLimited = result;
      line(
        "problem",
        "credential",
        `${credential.label}: ${result instanceof RateLimitedError ? "not checked: " : ""}${describe(result)}`,
      );
      line("skipped", "accounts", "needs an accepted credential.");
    }
  }

  // 3. The rate budget: this server's own pace against the platform's limit.
  const perMinute = config.rateLimitPerMinute;
  if (rateLimited) {
    const seconds = Math.max(1, Math.ceil(rateLimited.retryAfterMs / 1000));
    line(
      "problem",
      "rate budget",
      `the platform refused with its rate limit (${PLATFORM_PER_MINUTE} requests a minute per token): something else is spending this token's budget. Try again in ${seconds} s; give each assistant or script its own token.`,
    );
  } else if (perMinute > PLATFORM_PER_MINUTE) {
    line(
      "problem",
      "rate budget",
      `WORKFORCE_RATE_LIMIT is ${perMinute} a minute, above the platform's ${PLATFORM_PER_MINUTE}: requests past ${PLATFORM_PER_MINUTE} in a minute are refused. Set it to ${PLATFORM_PER_MINUTE} or less (default ${DEFAULTS.rateLimitPerMinute}).`,
    );
  } else {
    line(
      "ok",
      "rate budget",
      `this server sends at most ${perMinute} requests a minute per token; the platform allows ${PLATFORM_PER_MINUTE}.`,
    );
  }
  return passed;
}

interface Credential {
  token: string | TokenSource;
  /** What it is, for the lines: "WORKFORCE_TOKEN (personal access token)". */
  label: string;
  /** How long it lasts. */
  expiry: string;
  /** Why it cannot be used as it is (a sign-in that has ended). */
  problem?: string;
}

function openCredential(config: Config, logger: Logger, now: () => number): Credential | undefined {
  if (config.token) {
    logger.addSecret(config.token);
    return {
      token: config.token,
      label: "WORKFORCE_TOKEN (personal access token)",
      expiry:
        "Personal access tokens last 6 months from creation; the platform does not tell this one's date.",
    };
  }
  if (!config.apiUrl || !config.signedIn) return undefined;
  const store = new SignInStore(config.configDir, (m) => logger.warning(m));
  const stored = store.get(config.apiUrl);
  const source = openSignIn({
    store,
    apiUrl: config.apiUrl,
    logger,
    now,
    timeoutMs: Math.min(config.timeoutMs, CHECK_TIMEOUT_MS),
  });
  if (!stored || !source) return undefined;
  const label = "the sign-in of `workforce-mcp login`";
  const t = now();
  const again = "Run `workforce-mcp login` again.";
  if (stored.ended) {
    return {
      token: source,
      label,
      expiry: "",
      problem: `the sign-in has ended (${stored.ended.reason.replace(/\.$/, "")}). ${again}`,
    };
  }
  if (t >= stored.renewBy) {
    return {
      token: source,
      label,
      expiry: "",
      problem: `the sign-in ended on ${when(stored.renewBy)} (it lasts 90 days). ${again}`,
    };
  }
  const soon = stored.renewBy - t < RENEW_SOON_MS ? ` (soon: ${again})` : "";
  return {
    token: source,
    label,
    expiry: `It is renewed automatically; sign in again by ${when(stored.renewBy)}${soon}.`,
  };
}

/** How a check failed, or undefined when it passed. */
async function failureOf(run: () => Promise<unknown>): Promise<PlatformError | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    if (isPlatformError(error)) return error;
    throw error;
  }
}

/** Whether the failure still proves the platform's GraphQL API answered (it refused, in GraphQL). */
function answeredGraphQL(result: PlatformError): boolean {
  return (
    result instanceof AuthenticationError ||
    result instanceof AuthorizationError ||
    result instanceof RateLimitedError
  );
}

/** Why the address is not the platform's GraphQL API, in one line. */
function describeAddress(error: PlatformError, endpoint: string): string {
  // A 404 or 405 at the endpoint: the base URL is wrong (it ends in /graphql already, or a path).
  if (error.status !== undefined && error.status >= 400 && error.status < 500) {
    return `${endpoint} answered HTTP ${error.status}, so it is not the platform's GraphQL API. Set WORKFORCE_API_URL to the platform's base URL: /graphql is added to it.`;
  }
  return describe(error);
}

/** A failure in one line: an unreachable address in its own words, otherwise what and what to do. */
function describe(error: PlatformError): string {
  if (error instanceof NetworkError && error.unreachable) return error.unreachable;
  if (error instanceof AuthenticationError || error instanceof AuthorizationError) {
    return `the platform refused it. ${error.hint}`;
  }
  return `${error.message.replace(/\.$/, "")}. ${error.hint}`;
}
