import {
  StdioServerTransport,
  serveStdio as serveMcpStdio,
} from "@modelcontextprotocol/server/stdio";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { createServer, type WorkforceServer } from "../server.js";
import { createStateStore } from "../state/index.js";
import { sealingKeyFor } from "../state/sealing-key.js";
import { loadCatalog } from "../tools/catalog.js";
import { confirmationStateFor } from "./confirmation-state.js";
import { openPlatform } from "./platform.js";
import { INVALID_REQUEST, MAX_STDIO_MESSAGE_BYTES, StdinLineGuard } from "./stdio-guard.js";

/** Serves one client on stdin/stdout. stdout carries the protocol and nothing else. */
export async function serveStdio(config: Config, logger: Logger, version: string): Promise<void> {
  // With WORKFORCE_REDIS_URL, this process spends the same rate budget as the team's replicas.
  const store = config.redisUrl ? await createStateStore(config, logger) : undefined;
  const platform = await openPlatform(config, logger, { stateStore: store });
  if (!platform.token) throw new Error("WORKFORCE_TOKEN is not set.");
  const deps = {
    client: platform.createClient(platform.token, logger),
    logger,
    sandbox: platform.sandbox,
    version,
    catalog: await loadCatalog(),
    sealingKey: sealingKeyFor(config.encryptionKey),
    confirmations: confirmationStateFor(config, logger, {
      sandbox: platform.sandbox !== undefined,
      store,
    }),
    // The team server's events, as it filters them for this person's own credential. Never read
    // from the team's Redis: it holds every company's events, and no one person may read them all.
    teamChanges:
      config.teamUrl !== undefined
        ? // Loaded only when named: a start without it loads no HTTP client before the first list.
          (await import("../client/team-changes.js")).createTeamChanges({
            url: config.teamUrl,
            token: platform.token,
            timeoutMs: config.timeoutMs,
          })
        : undefined,
  };
  if (config.redisUrl && !config.teamUrl) {
    logger.warning(
      "WORKFORCE_REDIS_URL is set, but a local server does not read the platform's events from it: that Redis holds every company's events, for the team's replicas and operators only. Set WORKFORCE_TEAM_URL to the team server's address to see the events your own credential may read.",
    );
  }
  // The SDK's entry calls this for the connection (and once more for a discarded probe): both
  // protocol versions are served from the same server.
  const servers: WorkforceServer[] = [];
  const build = ({ era }: { era: "legacy" | "modern" }) => {
    // A 2026-07-28 connection hears of changes on its subscriptions/listen stream, which the SDK
    // fills from this server's sendResourceUpdated; a 2025 one subscribes with resources/subscribe.
    const workforce = createServer(config, { ...deps, announceChanges: era === "modern" });
    servers.push(workforce);
    return workforce.server;
  };
  // The SDK closes the session on a line over its buffer cap; the guard answers it instead.
  const guard = new StdinLineGuard(MAX_STDIO_MESSAGE_BYTES, ({ bytes, id }) => {
    logger.warning(
      `Refused a stdio message of ${bytes} bytes: the limit is ${MAX_STDIO_MESSAGE_BYTES} bytes.`,
    );
    // MCP omits the id it could not read (JSON-RPC's null fails the SDK clients' parsing).
    void transport
      .send({
        jsonrpc: "2.0",
        ...(id === undefined ? {} : { id }),
        error: {
          code: INVALID_REQUEST,
          message: `message too large: ${bytes} bytes, the limit is ${MAX_STDIO_MESSAGE_BYTES} bytes`,
          data: { bytes, limitBytes: MAX_STDIO_MESSAGE_BYTES },
        },
      })
      .catch(() => {});
  });
  process.stdin.pipe(guard);
  const transport = new StdioServerTransport(guard, process.stdout);

  let stopping: Promise<void> | undefined;
  let handle: { close(): Promise<void> } | undefined;
  const stop = (why: string) => {
    stopping ??= (async () => {
      logger.debug(`stopping: ${why}`);
      await handle?.close().catch(() => {});
      await Promise.allSettled(servers.map((workforce) => workforce.close()));
      await platform.close().catch(() => {});
      await store?.close().catch(() => {});
    })();
    return stopping;
  };
  // A client that closed our stdout (EPIPE) is gone: stop quietly, not with a stack trace.
  let stdoutFailed = false;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (stdoutFailed) return;
    stdoutFailed = true;
    const gone = error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED";
    logger.info(
      gone
        ? "The client closed its end of stdout; stopping."
        : `stdout failed (${error.code ?? error.message}); stopping.`,
    );
    void stop("stdout closed").then(() => process.exit(gone ? 0 : 1));
  });
  // Nothing can be reported once stderr is gone; never crash over it.
  process.stderr.on("error", () => {});
  process.once("SIGINT", () => void stop("SIGINT").then(() => process.exit(0)));
  process.once("SIGTERM", () => void stop("SIGTERM").then(() => process.exit(0)));
  // The client closing stdin ends the session; the embedded sandbox would keep the process alive.
  process.stdin.once("end", () => void stop("stdin closed").then(() => process.exit(0)));
  // The entry owns the transport from here on, its close included (stdin's end, above).
  handle = serveMcpStdio(build, {
    transport,
    onerror: (error) => logger.debug("stdio", { error: error.message }),
  });
  logger.info(`workforce-mcp ${version} serving MCP over stdio.`);
}
