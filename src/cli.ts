#!/usr/bin/env node
import { createRequire } from "node:module";
import { config as loadDotenv } from "dotenv";
import { type Config, ConfigError, parseConfig, USAGE } from "./config.js";
import { createLogger } from "./logger.js";

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

async function main(): Promise<void> {
  // quiet: dotenv would otherwise print a banner to stdout, which belongs to the protocol.
  loadDotenv({ quiet: true });
  let config: Config;
  try {
    config = parseConfig(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`workforce-mcp: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw error;
  }

  if (config.command === "help") {
    process.stdout.write(USAGE);
    return;
  }
  if (config.command === "version") {
    process.stdout.write(`${version}\n`);
    return;
  }

  const logger = createLogger(config.logLevel);
  logger.addSecret(config.token);

  if (config.command === "sandbox") {
    const { runSandboxCommand } = await import("./sandbox/command.js");
    await runSandboxCommand(config, logger);
    return;
  }
  if (config.transport === "http") {
    const { serveHttp } = await import("./transports/http.js");
    await serveHttp(config, logger, version);
  } else {
    const { serveStdio } = await import("./transports/stdio.js");
    await serveStdio(config, logger, version);
  }
}

main().catch((error: unknown) => {
  // No stack traces for people: one line that says what failed.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`workforce-mcp: ${message}\n`);
  process.exit(1);
});
