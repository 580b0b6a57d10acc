// What every session and request of one HTTP server shares: the state store, the platform, the
// catalog, the sealing key, the webhook events, the confirmations, and the SDK's 2026-07-28 entry.
import type { Server } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { type AuthInfo, createMcpHandler } from "@modelcontextprotocol/server";
import type { Request, Response } from "express";
import { LRUCache } from "lru-cache";
import type { ClientMetadataOptions } from "../auth/remote/client-metadata.js";
import { PersonalTokens } from "../auth/remote/personal-tokens.js";
import {
  createSchemaCache,
  createSchemaSource,
  type SchemaSource,
} from "../client/schema/introspection.js";
import { CHANGES_URI } from "../client/schema/uris.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { WorkforceServer } from "../server.js";
import { createStateStore } from "../state/index.js";
import { sealingKeyFor } from "../state/sealing-key.js";
import type { KeyValueStore, StateStore } from "../state/store.js";
import { type CatalogEntry, loadCatalog } from "../tools/catalog.js";
import type { Clock } from "../tools/define-tool.js";
import { confirmationStateFor } from "./confirmation-state.js";
import { whenClosed } from "./http-replies.js";
import { type StatelessCall, type StatelessContext, statelessServer } from "./http-stateless.js";
import { openPlatform, type Platform } from "./platform.js";
import { createWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.js";

/** For tests: a clock and an idle time finer than config.sessionIdleMinutes. */
export interface HttpServerOptions {
  now?: () => number;
  sessionIdleMs?: number;
  /** A rate-limit window shorter than a minute, so that replica tests need not wait minutes. */
  rateLimitWindowMs?: number;
  /** The state store to use instead of the configured one (tests look into it); closed with the server. */
  stateStore?: StateStore;
  /** `--auth oauth`: how Client ID Metadata Documents are fetched (tests allow loopback). */
  clientMetadata?: ClientMetadataOptions;
  /** Checks of unknown client tokens allowed per client address and minute (tests lower it). */
  tokenChecksPerWindow?: number;
  /** Sessions one client may hold; a quarter of config.maxSessions by default. */
  sessionsPerOwner?: number;
  /** The tools' clock (tests pass one whose waits end at once); the real one by default. */
  toolClock?: Clock;
}

/** The largest request body /mcp reads, in either protocol version. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** What a 2026-07-28 request's server is built from (passed through the SDK as authInfo.extra). */
interface ModernCall {
  call: StatelessCall;
  opened(workforce: WorkforceServer): void;
}

export interface HttpShared {
  config: Config;
  logger: Logger;
  version: string;
  options: HttpServerOptions;
  store: StateStore;
  /** Every session lists the same tools: the catalog is read once for the process. */
  catalog: readonly CatalogEntry[];
  /** One key seals every form's state: a form answered in another session or request still opens. */
  sealingKey: Buffer;
  platform: Platform;
  /** A token a client brings is checked with the platform once, before anything is made for it. */
  clientTokens: PersonalTokens;
  receiver: WebhookReceiver;
  /** One place for every session's and request's confirmations and attempts at changes. */
  confirmations: KeyValueStore;
  /** What a server made for one request is built from. */
  perRequest: StatelessContext;
  /** With the server's own token every session sees the same platform: introspected once. */
  sharedSchema: SchemaSource | undefined;
  /** Serves one 2026-07-28 request acting for `call` (the SDK's entry, a server per request). */
  serveModern(req: Request, res: Response, call: StatelessCall): Promise<void>;
  /** Closes what was opened here, the store last. */
  close(): Promise<void>;
}

/** Opens what the HTTP server shares; on a failure, closes what it had opened. */
export async function openHttpShared(
  config: Config,
  logger: Logger,
  version: string,
  options: HttpServerOptions,
): Promise<HttpShared> {
  // Redis when configured (replicas share it); a process without it keeps its own. --auth oauth
  // keeps its clients, codes and sealed tokens there too, and every mode the limit on checking
  // the platform tokens clients bring.
  const store = options.stateStore ?? (await createStateStore(config, logger));
  const closers: (() => Promise<void>)[] = [() => store.close()];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer();
  };
  try {
    const catalog = await loadCatalog();
    const sealingKey = sealingKeyFor(config.encryptionKey);
    const platform = await openPlatform(config, logger, {
      stateStore: config.redisUrl ? store : undefined,
      rateLimitWindowMs: options.rateLimitWindowMs,
    });
    closers.push(() => platform.close());
    refuseUnsafePassthrough(config, platform, logger);
    const clientTokens = new PersonalTokens({
      apiUrl: platform.apiUrl,
      timeoutMs: config.timeoutMs,
      state: store,
      logger,
      now: options.now,
      checksPerWindow: options.tokenChecksPerWindow,
    });
    // The platform's webhooks (off without WORKFORCE_WEBHOOK_SECRETS): every server made here
    // reads the events it keeps, for list_changes and workforce://changes.
    const receiver = createWebhookReceiver({ config, logger, store, sealingKey, now: options.now });
    const confirmations =
      confirmationStateFor(config, logger, { sandbox: platform.sandbox !== undefined, store }) ??
      store;
    // Requests of MCP 2026-07-28 stand alone on every replica, as --stateless makes 2025 ones do.
    const perRequest: StatelessContext = {
      config,
      logger,
      version,
      platform,
      store,
      confirmations,
      clock: options.toolClock,
      // Bounded: a credential seen once costs one entry until newer ones push it out.
      people: new LRUCache<string, Promise<string>>({ max: 1000 }),
      schemas: createSchemaCache({ store }),
      catalog,
      sealingKey,
      events: receiver.events,
      registeredSecrets: receiver.registeredSecrets,
    };
    const serveModern = await openModernEntry(perRequest, closers);
    const sharedSchema =
      platform.token && config.auth !== "oauth"
        ? createSchemaSource(platform.createClient(platform.token, logger))
        : undefined;
    return {
      config,
      logger,
      version,
      options,
      store,
      catalog,
      sealingKey,
      platform,
      clientTokens,
      receiver,
      confirmations,
      perRequest,
      sharedSchema,
      serveModern,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A server that would pass each client's token through must have been asked to. */
function refuseUnsafePassthrough(config: Config, platform: Platform, logger: Logger): void {
  if (config.stateless) {
    logger.info(
      "Stateless HTTP: no sessions, so any replica may answer any request; 2025-11-25 clients confirm changes with single-use tokens, 2026-07-28 clients in forms.",
    );
  }
  if (platform.token || config.auth === "oauth") return;
  if (!config.tokenPassthrough) {
    // parseConfig refuses this already; a configuration built another way must not slip through.
    throw new Error(
      "--http without WORKFORCE_TOKEN or a sign-in would pass each client's own platform token through to the platform. Run with --auth oauth so that each person signs in, or opt in with --token-passthrough.",
    );
  }
  logger.info(
    "Token passthrough (--token-passthrough): each client must send its own platform token as 'Authorization: Bearer <token>' on every request, starting with initialize; it is checked with the platform before a session opens.",
  );
}

/**
 * The SDK's entry for 2026-07-28 requests: a server per request. Clients listening to
 * workforce://changes (subscriptions/listen) hear of each new event through its in-process
 * notifier. Every replica hears of every event (Redis publish and subscribe), so each tells its own
 * listeners; whose companies a person may see is filtered when they read the feed, never in the
 * notification, which names only the feed.
 */
async function openModernEntry(
  perRequest: StatelessContext,
  closers: (() => Promise<void>)[],
): Promise<HttpShared["serveModern"]> {
  const { logger, events } = perRequest;
  const modern = createMcpHandler(
    ({ authInfo }) => {
      // Always set by serveModern below, the only caller of the handler.
      const { call, opened } = (authInfo as AuthInfo).extra as unknown as ModernCall;
      const workforce = statelessServer(perRequest, call);
      opened(workforce);
      return workforce.server;
    },
    {
      legacy: "reject",
      maxRequestBodySize: MAX_BODY_BYTES,
      onerror: (error) =>
        logger.debug("MCP 2026-07-28 request refused or failed", { error: error.message }),
    },
  );
  closers.push(() => modern.close());
  if (events) {
    const stopAnnouncing = await events.listen(() => modern.notify.resourceUpdated(CHANGES_URI));
    closers.push(stopAnnouncing);
  }
  const serve = toNodeHandler(modern, {
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (error) => logger.error("HTTP request failed", { error: String(error) }),
  });
  return async (req, res, call) => {
    const opened: WorkforceServer[] = [];
    whenClosed(res, () => {
      for (const workforce of opened) void workforce.close();
    });
    const auth: AuthInfo = {
      token: "",
      clientId: "workforce-mcp",
      scopes: [],
      extra: { call, opened: (workforce) => opened.push(workforce) } satisfies ModernCall,
    };
    await serve(Object.assign(req, { auth }), res, req.body);
  };
}

/** Closes a listening server and every connection it holds. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
