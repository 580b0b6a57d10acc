// The text of `workforce-mcp --help`.
import { LOG_LEVELS } from "../logger.js";
import { DEFAULTS, TOOLSETS } from "./defaults.js";

export const USAGE = `Usage:
  workforce-mcp [options]               serve MCP over stdio (default)
  workforce-mcp --http [options]        serve MCP over Streamable HTTP at /mcp
  workforce-mcp sandbox [options]       run the embedded sandbox platform in the foreground
  workforce-mcp login [options]         sign in to WORKFORCE_API_URL with the platform's OAuth (browser)
  workforce-mcp status                  show who is signed in where, the credential and its expiry
  workforce-mcp logout                  forget the stored sign-in (WORKFORCE_API_URL's, else all)
  workforce-mcp doctor                  check the address, the token or sign-in, the accounts and the
                                        rate budget, one line each with what to fix (exit 1 on a problem)

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
  --toolsets <list>       comma-separated toolsets the assistant may reach: ${TOOLSETS.join(", ")};
                          "all" (or "default", the default) is all. A core is listed at first, the
                          rest found with find_tools
  --team-url <url>        stdio: the team's HTTP server (https); list_changes and workforce://changes
                          show its webhook events that your own credential may read (no Redis needed)
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
  WORKFORCE_ENCRYPTION_KEY       32 bytes in base64 sealing stored tokens and forms: --auth oauth, --http with Redis (never logged)
  WORKFORCE_CONFIRM              same as --confirm
  WORKFORCE_TOOLSETS             same as --toolsets
  WORKFORCE_SANDBOX_RATE_LIMIT   same as --rate-limit, also for the embedded sandbox
  WORKFORCE_MAX_SESSIONS         HTTP: live sessions at most (default ${DEFAULTS.maxSessions})
  WORKFORCE_SESSION_IDLE_MINUTES HTTP: a session idle this long is ended (default ${DEFAULTS.sessionIdleMinutes})
  WORKFORCE_MAX_RESPONSE_BYTES   largest platform answer read (default ${DEFAULTS.maxResponseBytes})
  WORKFORCE_MAX_ANSWER_BYTES     largest tool answer sent to the assistant (default ${DEFAULTS.maxAnswerBytes})
  WORKFORCE_REDIS_URL            redis:// or rediss:// URL: replicas share rate budgets, confirmations and
                                 caches there, and --http becomes stateless (credentials never logged).
                                 For the team's replicas and operators only: it holds every company's events
  WORKFORCE_TEAM_URL             same as --team-url
  WORKFORCE_STATELESS            true = same as --stateless
  WORKFORCE_WEBHOOK_SECRETS      HTTP: comma-separated <company id>:<secret> of the platform's webhooks (each
                                 secret 16 to 255 characters; two while one is replaced); a secret is
                                 accepted only for its company's events; turns on the receiver at
                                 /webhooks/platform (never logged)
  WORKFORCE_WEBHOOK_RETENTION_DAYS  received webhook events are kept this many days (default ${DEFAULTS.webhookRetentionDays})
  WORKFORCE_WEBHOOK_MAX_EVENTS   received webhook events kept at most per company (default ${DEFAULTS.webhookMaxEvents})
  WORKFORCE_WEBHOOK_MAX_BYTES    bytes all received events may take (default ${DEFAULTS.webhookMaxBytes})
  WORKFORCE_WEBHOOK_COMPANY_MAX_BYTES  bytes one company's received events may take (default ${DEFAULTS.webhookCompanyMaxBytes})
  WORKFORCE_AUTH_URL             same as --auth-url
  WORKFORCE_CLIENT_ID            same as --client-id
  WORKFORCE_CLIENT_SECRET        same as --client-secret (never logged)
  WORKFORCE_REDIRECT_URI         same as --redirect-uri
  WORKFORCE_CONFIG_DIR           where sign-ins are stored (default the user's config folder; not from .env)

With neither WORKFORCE_API_URL nor WORKFORCE_TOKEN set, the server uses the embedded sandbox: sample
data, nothing real ('workforce-mcp doctor' says which platform and credential it would use).

Without WORKFORCE_TOKEN, the sign-in stored by 'workforce-mcp login' for WORKFORCE_API_URL is used
and renewed automatically.

A .env file may not set WORKFORCE_API_URL, WORKFORCE_ALLOWED_HOSTS or WORKFORCE_TEAM_URL when
WORKFORCE_TOKEN comes from the real environment, nor WORKFORCE_API_URL or WORKFORCE_AUTH_URL when the client secret does:
it would choose where that token or secret is sent. Nor may it set WORKFORCE_REDIS_URL when
WORKFORCE_TOKEN comes from the real environment: that store decides which changes count as confirmed.
WORKFORCE_CONFIG_DIR never comes from .env.
`;
