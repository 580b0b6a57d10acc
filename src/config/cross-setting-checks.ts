// The rules between settings, checked once each setting has passed its own; one message per problem.
import type { Settings } from "./settings-schema.js";
import { LOOPBACK_HOSTS } from "./url-rules.js";

/** The checks between settings; `issue` takes one message per problem. */
export function checkTogether(c: Settings, issue: (message: string) => void): void {
  if (c.command === "serve" && c.stateless && c.transport !== "http" && !c.redisUrl) {
    issue("--stateless works with --http only: over stdio there is one client and one process.");
  }
  const http = c.transport === "http";
  if (c.webhookCompanyMaxBytes > c.webhookMaxBytes) {
    issue(
      "WORKFORCE_WEBHOOK_COMPANY_MAX_BYTES must not be more than WORKFORCE_WEBHOOK_MAX_BYTES: one company's events are part of all of them.",
    );
  }
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
  if (c.command === "serve" && c.teamUrl && http) {
    issue(
      "WORKFORCE_TEAM_URL is for a local server (stdio), which reads the team server's changes there; a server with --http receives the platform's events itself. Unset one of them.",
    );
  } else if (c.command === "serve" && c.teamUrl && c.useSandbox) {
    issue(
      "WORKFORCE_TEAM_URL sends your own platform credential to the team server, which shows the changes it may read: set WORKFORCE_API_URL to the team's platform and WORKFORCE_TOKEN (or sign in with `workforce-mcp login`); the embedded sandbox's token is no one's.",
    );
  }
  // --auth oauth asks for the key itself, saying what else it seals.
  if (c.command === "serve" && http && c.redisUrl && !c.encryptionKey && c.auth !== "oauth") {
    issue(
      "--http with WORKFORCE_REDIS_URL (several replicas) needs WORKFORCE_ENCRYPTION_KEY, the same on every replica: 32 random bytes in base64 (for example `openssl rand -base64 32`). It seals the state a confirmation form carries between calls, so a form shown by one replica can be completed on another.",
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
function checkRemoteSignIn(c: Settings, issue: (message: string) => void): void {
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
