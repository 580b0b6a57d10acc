import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { createServer } from "../server.js";
import { openPlatform } from "./embedded-sandbox.js";

/** Serves one client on stdin/stdout. stdout carries the protocol and nothing else. */
export async function serveStdio(config: Config, logger: Logger, version: string): Promise<void> {
  const platform = await openPlatform(config, logger);
  if (!platform.token) throw new Error("WORKFORCE_TOKEN is not set.");
  const workforce = createServer(config, {
    client: platform.createClient(platform.token, logger),
    logger,
    sandbox: platform.sandbox,
    version,
  });
  const transport = new StdioServerTransport();

  let stopping: Promise<void> | undefined;
  const stop = (why: string) => {
    stopping ??= (async () => {
      logger.debug(`stopping: ${why}`);
      await workforce.close().catch(() => {});
      await platform.close().catch(() => {});
    })();
    return stopping;
  };
  process.once("SIGINT", () => void stop("SIGINT").then(() => process.exit(0)));
  process.once("SIGTERM", () => void stop("SIGTERM").then(() => process.exit(0)));
  // The client closing stdin ends the session; the embedded sandbox would keep the process alive.
  process.stdin.once("end", () => void stop("stdin closed").then(() => process.exit(0)));
  transport.onclose = () => void stop("transport closed");

  await workforce.server.connect(transport);
  logger.info(`workforce-mcp ${version} serving MCP over stdio.`);
}
