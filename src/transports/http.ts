import type { Config } from "../config.js";
import type { Logger } from "../logger.js";

// Placeholder until the MCP server lands (issue 4).
export async function serveHttp(_config: Config, logger: Logger, _version: string): Promise<void> {
  logger.warning("The MCP server is not built yet (issue 4); nothing to serve.");
}
