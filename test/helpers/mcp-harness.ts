// Shared harness: a real SDK Client talking to createServer over an in-memory transport pair,
// against an in-process sandbox platform. Owned by the server work; other tests import it.
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import type {
  ClientCapabilities,
  ElicitRequest,
  ElicitResult,
  ServerNotification,
} from "@modelcontextprotocol/client";
import { createPlatformClient } from "../../src/client/index.js";
import type { PlatformClient } from "../../src/client/types.js";
import { type Config, parseConfig } from "../../src/config.js";
import { createLogger, type Logger } from "../../src/logger.js";
import { type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";
import { createServer, type WorkforceServer } from "../../src/server.js";
import { loadCatalog } from "../../src/tools/catalog.js";
import type { Clock } from "../../src/tools/define-tool.js";
import type { AnyToolDefinition } from "../../src/tools/registry.js";
import { catalogOf } from "../../src/tools/tool-list.js";
import { sandboxInfo } from "../../src/transports/embedded-sandbox.js";

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export interface HarnessOptions {
  /** The sandbox's "today", pinned so dates in fixtures are stable. Default 2026-11-22. */
  today?: string;
  /** Which sandbox token the platform client uses. Default "full". */
  token?: "full" | "limited";
  readOnly?: boolean;
  /** The sandbox's own limit per token and minute; default 0 = off. */
  rateLimitPerMinute?: number;
  /** Capabilities the test client declares, for example `{ elicitation: {} }`. */
  clientCapabilities?: ClientCapabilities;
  /** Answers elicitation requests; registered only when given. */
  onElicit?: (params: ElicitRequest["params"]) => ElicitResult | Promise<ElicitResult>;
  /** Overrides on top of the parsed configuration. */
  config?: Partial<Config>;
  /** Whether the server presents itself as the sandbox (notice in every answer). Default true. */
  sandboxMode?: boolean;
  /** The platform client's own rate budget and window; default 10,000 a minute (out of the way). */
  clientRateLimit?: { perWindow: number; windowMs: number };
  /** Tools to serve instead of the registry's (for testing the server's wrapper itself). */
  tools?: AnyToolDefinition[];
  /** Changes the sandbox's seeded data, for example to plant hostile names. */
  seedPatch?: SandboxOptions["seedPatch"];
  /** The tools' clock; by default the real time with waits that end at once (no test sleeps). */
  clock?: Clock;
}

/** Real time, but a wait ends at once: read-backs after a lost answer do not hold a test up. */
const noWaitClock: Clock = {
  now: () => Date.now(),
  sleep: async (_ms, signal) => {
    if (signal.aborted) throw signal.reason;
  },
};

export interface Harness {
  client: Client;
  sandbox: Sandbox;
  /** Every notification the client received (progress, log messages, ...), in order. */
  notifications: ServerNotification[];
  /** Every line the server's logger wrote (what stderr would show). */
  stderr: string[];
  logger: Logger;
  platform: PlatformClient;
  config: Config;
  workforce: WorkforceServer;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({
    today: options.today ?? "2026-11-22",
    rateLimitPerMinute: options.rateLimitPerMinute ?? 0,
    seedPatch: options.seedPatch,
  });
  const token = sandbox.tokens[options.token ?? "full"];
  const stderr: string[] = [];
  try {
    const base = parseConfig([], { WORKFORCE_API_URL: sandbox.url, WORKFORCE_TOKEN: token });
    const config: Config = {
      ...base,
      readOnly: options.readOnly ?? false,
      retryBaseMs: 1,
      rateLimitPerMinute: 10_000,
      ...options.config,
    };
    const logger = createLogger(config.logLevel, (line) => {
      stderr.push(line);
    });
    logger.addSecret(token);
    const platform = createPlatformClient({
      apiUrl: config.apiUrl ?? sandbox.url,
      token,
      timeoutMs: config.timeoutMs,
      retryBaseMs: config.retryBaseMs,
      maxRetries: config.maxRetries,
      rateLimitPerMinute: options.clientRateLimit?.perWindow ?? config.rateLimitPerMinute,
      rateLimitWindowMs: options.clientRateLimit?.windowMs,
      maxResponseBytes: config.maxResponseBytes,
      logger,
    });
    const workforce = createServer(config, {
      client: platform,
      logger,
      sandbox: options.sandboxMode === false ? undefined : sandboxInfo(),
      version: "0.0.0-test",
      tools: options.tools,
      clock: options.clock ?? noWaitClock,
      catalog: options.tools ? catalogOf(options.tools) : await loadCatalog(),
    });

    const client = new Client(
      { name: "workforce-mcp-tests", version: "0.0.0" },
      { capabilities: options.clientCapabilities ?? {} },
    );
    const { onElicit } = options;
    if (onElicit) client.setRequestHandler("elicitation/create", (req) => onElicit(req.params));
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await workforce.server.connect(serverTransport);
    await client.connect(clientTransport);

    // Record notifications before the Client consumes them (progress ones never reach a fallback).
    const notifications: ServerNotification[] = [];
    const deliver = clientTransport.onmessage;
    clientTransport.onmessage = (message, extra) => {
      if ("method" in message && !("id" in message)) {
        notifications.push(message as ServerNotification);
      }
      deliver?.(message, extra);
    };

    return {
      client,
      sandbox,
      notifications,
      stderr,
      logger,
      platform,
      config,
      workforce,
      async close() {
        await client.close();
        await workforce.close();
        await sandbox.close();
      },
    };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}
