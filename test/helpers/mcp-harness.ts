// Shared harness: a real SDK Client talking to createServer, against an in-process sandbox platform.
// MCP 2025-11-25 (the default) over an in-memory transport pair, one server for the connection; or
// MCP 2026-07-28 through createMcpHandler's fetch, a server per request as over HTTP (nothing
// dialled). Owned by the server work; other tests import it.
import { randomBytes } from "node:crypto";
import type {
  ClientCapabilities,
  ElicitRequest,
  ElicitResult,
  ServerNotification,
} from "@modelcontextprotocol/client";
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { createPlatformClient } from "../../src/client/index.js";
import type { PlatformClient } from "../../src/client/types.js";
import { type Config, parseConfig } from "../../src/config.js";
import { createLogger, type Logger } from "../../src/logger.js";
import { type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";
import { createServer, type ServerDeps, type WorkforceServer } from "../../src/server.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import type { KeyValueStore, StateStore } from "../../src/state/store.js";
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
  /**
   * The protocol revision: "2025-11-25" (default) connects over an in-memory pair; "2026-07-28"
   * serves each request with a server of its own through createMcpHandler, sharing a state store
   * and a sealing key as replicas do.
   */
  protocol?: "2025-11-25" | "2026-07-28";
  /** The platform's webhook events, as the HTTP server's receiver keeps them (list_changes). */
  events?: ServerDeps["events"];
  /** The state store and sealing key the server uses (2025-11-25), for tests that look into them. */
  state?: { store: StateStore; sealingKey: Buffer };
  /** Where confirmations and attempts are kept, as a restarted server would find them again. */
  confirmations?: KeyValueStore;
  /** A sandbox already running (left running at close), as the platform a restarted server finds. */
  sandbox?: Sandbox;
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
  /** Whose calls the servers built from now on serve (2026-07-28 only: a server per request). */
  identity: string;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sandbox =
    options.sandbox ??
    (await startSandbox({
      today: options.today ?? "2026-11-22",
      rateLimitPerMinute: options.rateLimitPerMinute ?? 0,
      seedPatch: options.seedPatch,
    }));
  const closeSandbox = () => (options.sandbox ? Promise.resolve() : sandbox.close());
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
    const deps: ServerDeps = {
      client: platform,
      logger,
      sandbox: options.sandboxMode === false ? undefined : sandboxInfo(),
      version: "0.0.0-test",
      tools: options.tools,
      clock: options.clock ?? noWaitClock,
      catalog: options.tools ? catalogOf(options.tools) : await loadCatalog(),
      events: options.events,
      confirmations: options.confirmations,
      ...options.state,
    };
    const workforce = createServer(config, deps);
    const modern = options.protocol === "2026-07-28";

    const client = new Client(
      { name: "workforce-mcp-tests", version: "0.0.0" },
      {
        capabilities: options.clientCapabilities ?? {},
        ...(modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
      },
    );
    const { onElicit } = options;
    if (onElicit) client.setRequestHandler("elicitation/create", (req) => onElicit(req.params));
    const notifications: ServerNotification[] = [];
    let stop: (() => Promise<void>) | undefined;
    const harness: Harness = {
      client,
      sandbox,
      notifications,
      stderr,
      logger,
      platform,
      config,
      workforce,
      identity: "local",
      async close() {
        await client.close();
        await stop?.();
        await workforce.close();
        await closeSandbox();
      },
    };
    if (modern) {
      // As replicas behind a load balancer: one store and one key, a server per request.
      const shared = { store: createMemoryStore(), sealingKey: randomBytes(32) };
      const handler = createMcpHandler(
        () => createServer(config, { ...deps, ...shared, identity: harness.identity }).server,
      );
      stop = () => handler.close();
      await client.connect(
        new StreamableHTTPClientTransport(new URL("http://test.local/mcp"), {
          fetch: (url, init) => handler.fetch(new Request(url, init)),
        }),
      );
      return harness;
    }
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await workforce.server.connect(serverTransport);
    await client.connect(clientTransport);

    // Record notifications before the Client consumes them (progress ones never reach a fallback).
    const deliver = clientTransport.onmessage;
    clientTransport.onmessage = (message, extra) => {
      if ("method" in message && !("id" in message)) {
        notifications.push(message as ServerNotification);
      }
      deliver?.(message, extra);
    };
    return harness;
  } catch (error) {
    await closeSandbox();
    throw error;
  }
}
