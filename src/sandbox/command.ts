import { type Config, DEFAULTS } from "../config.js";
import type { Logger } from "../logger.js";
import { type OAuthClientInfo, type Sandbox, startSandbox } from "./index.js";

/** The client a team server (`--http --auth oauth`) on this machine uses with the sandbox. */
const SANDBOX_TEAM_CLIENT = {
  id: "sandbox-team-server",
  secret: "sandbox-team-secret-3b9e07d1f5",
  name: "workforce-mcp team server (local)",
} as const;

/** Registers SANDBOX_TEAM_CLIENT with the callback of a team server at publicUrl. */
function registerTeamClient(sandbox: Sandbox, publicUrl: string): OAuthClientInfo {
  return sandbox.oauth.registerClient({
    ...SANDBOX_TEAM_CLIENT,
    redirectUri: `${publicUrl}/oauth/callback`,
  });
}

/** What `workforce-mcp sandbox` prints: where it listens, its tokens and how to use them. */
function describeSandbox(
  sandbox: Sandbox,
  rateLimitPerMinute: number,
  teamClient?: OAuthClientInfo,
): string {
  const limit =
    rateLimitPerMinute > 0 ? `${rateLimitPerMinute} requests a minute per token` : "off";
  return [
    "Sandbox platform running (sample data; nothing here is real).",
    "",
    `  GraphQL endpoint: ${sandbox.graphqlUrl}`,
    `  Rate limit:       ${limit}`,
    "",
    "Tokens:",
    `  full     ${sandbox.tokens.full}`,
    "           Maja Lindqvist: sees all companies and every field; may terminate, cancel and create hires and submit timesheets.",
    `  limited  ${sandbox.tokens.limited}`,
    "           Oskar Berg: sees Nordlys Energi only; rates are hidden; may submit timesheets but not terminate, cancel or create hires.",
    "",
    "Try it:",
    `  curl -s ${sandbox.graphqlUrl} -H 'Content-Type: application/json' \\`,
    `    -H 'Authorization: Bearer ${sandbox.tokens.full}' \\`,
    `    -d '{"query":"{ viewer { name } hires(first: 3) { data { id activeStatus worker { name } } } }"}'`,
    "",
    "Point the MCP server at it:",
    `  WORKFORCE_API_URL=${sandbox.url} WORKFORCE_TOKEN=${sandbox.tokens.full} workforce-mcp`,
    "",
    "Or sign in with OAuth instead of a token (authorization server at the same address):",
    `  OAuth client:     ${sandbox.oauth.client.name}`,
    `  Client id:        ${sandbox.oauth.client.id}`,
    `  Client secret:    ${sandbox.oauth.client.secret}`,
    `  Redirect URL:     ${sandbox.oauth.client.redirectUri}`,
    "  In another terminal:",
    `    export WORKFORCE_API_URL=${sandbox.url}`,
    `    export WORKFORCE_CLIENT_ID=${sandbox.oauth.client.id}`,
    `    export WORKFORCE_CLIENT_SECRET=${sandbox.oauth.client.secret}`,
    ...(sandbox.oauth.client.redirectUri === DEFAULTS.redirectUri
      ? []
      : [`    export WORKFORCE_REDIRECT_URI=${sandbox.oauth.client.redirectUri}`]),
    "    workforce-mcp login      # approve in the browser",
    "    workforce-mcp            # the MCP server, signed in; no WORKFORCE_TOKEN",
    "",
    ...(teamClient
      ? [
          'Or run a team server where each person signs in (README, "Hosting for a team"):',
          `  OAuth client:     ${teamClient.name}`,
          `  Redirect URL:     ${teamClient.redirectUri}`,
          "  In another terminal (one command):",
          `    WORKFORCE_API_URL=${sandbox.url} \\`,
          `    WORKFORCE_CLIENT_ID=${teamClient.id} WORKFORCE_CLIENT_SECRET=${teamClient.secret} \\`,
          `    WORKFORCE_PUBLIC_URL=${new URL(teamClient.redirectUri).origin} \\`,
          "    WORKFORCE_ENCRYPTION_KEY=$(openssl rand -base64 32) \\",
          `    workforce-mcp --http${new URL(teamClient.redirectUri).port ? ` --port ${new URL(teamClient.redirectUri).port}` : ""} --auth oauth`,
          "",
        ]
      : []),
    "Press Ctrl+C to stop.",
    "",
  ].join("\n");
}

/** Runs the sandbox in the foreground until SIGINT/SIGTERM. */
export async function runSandboxCommand(config: Config, logger: Logger): Promise<void> {
  const rateLimitPerMinute = config.sandboxRateLimitPerMinute;
  const sandbox = await startSandbox({
    host: config.host,
    port: config.port,
    rateLimitPerMinute,
    oauthRedirectUri: config.redirectUri,
  });
  const teamClient = registerTeamClient(
    sandbox,
    config.publicUrl ?? `http://127.0.0.1:${DEFAULTS.httpPort}`,
  );
  // This subcommand's purpose is to show the URL and tokens, so it prints them to stdout.
  process.stdout.write(describeSandbox(sandbox, rateLimitPerMinute, teamClient));
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      logger.info(`Received ${signal}; stopping the sandbox.`);
      void sandbox.close().then(resolve);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
