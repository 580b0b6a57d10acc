#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { readSignInIndex } from "./auth/store.js";
import { type Config, ConfigError, type DotenvSource, parseConfig, USAGE } from "./config.js";
import { createLogger } from "./logger.js";

// dist/cli.js, bundled or not, sits one folder below package.json.
const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

async function main(): Promise<void> {
  let config: Config;
  try {
    config = parseConfig(process.argv.slice(2), process.env, await readDotenv(), readSignInIndex);
  } catch (error) {
    if (error instanceof ConfigError) {
      // One line per problem, not the whole usage text: the problem is what matters.
      process.stderr.write(
        `workforce-mcp: ${error.message}\nRun 'workforce-mcp --help' for the options and settings.\n`,
      );
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
  logger.addSecret(config.clientSecret);
  logger.addSecret(config.encryptionKey);

  const printing = ["login", "logout", "status", "doctor"].includes(config.command);
  // A reader that stops early (`| head`) is not a failure of these commands: end quietly.
  if (printing) {
    process.stdout.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      process.exit(process.exitCode ?? 0);
    });
  }

  if (config.command === "login" || config.command === "logout" || config.command === "status") {
    const commands = await import("./auth/commands.js");
    const run = {
      login: commands.runLogin,
      logout: commands.runLogout,
      status: commands.runStatus,
    };
    const cancel = new AbortController();
    process.once("SIGINT", () => cancel.abort());
    await run[config.command](config, logger, {
      out: (line) => process.stdout.write(`${line}\n`),
      signal: cancel.signal,
    });
    return;
  }

  if (config.command === "doctor") {
    const { runDoctor } = await import("./auth/doctor.js");
    const passed = await runDoctor(config, logger, {
      out: (line) => process.stdout.write(`${line}\n`),
    });
    process.exitCode = passed ? 0 : 1;
    return;
  }
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

/** `.env` in the working directory, parsed but not put into process.env: the real env outranks it. */
async function readDotenv(): Promise<DotenvSource | undefined> {
  const path = resolve(".env");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  // dotenv loads only when there is a file to read. Bundled, a CommonJS module imported on
  // demand arrives as its default export; run from tsc's output, with its named exports too.
  const dotenv = await import("dotenv");
  const parse = dotenv.parse ?? (dotenv as unknown as { default: typeof dotenv }).default.parse;
  return { path, values: parse(text) };
}

main().catch((error: unknown) => {
  // No stack traces for people: one line that says what failed.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`workforce-mcp: ${message}\n`);
  process.exit(1);
});
