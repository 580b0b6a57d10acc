import { randomUUID, timingSafeEqual } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { hostHeaderValidation } from "@modelcontextprotocol/express";
import {
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
  toWebRequest,
} from "@modelcontextprotocol/node";
import {
  type AuthInfo,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
} from "@modelcontextprotocol/server";
import express, { type NextFunction, type Request, type Response } from "express";
import { LRUCache } from "lru-cache";

import { clientAddress } from "../auth/remote/address-key.js";
import type { ClientMetadataOptions } from "../auth/remote/client-metadata.js";
import { PersonalTokens } from "../auth/remote/personal-tokens.js";
import type { SignInIdentity } from "../auth/store.js";

import { createSchemaCache, createSchemaSource } from "../client/schema/introspection.js";
import { CHANGES_URI } from "../client/schema/uris.js";
import { TEAM_CHANGES_PATH } from "../client/team-changes.js";
import type { Config } from "../config.js";
import { createChildLogger, type Logger } from "../logger.js";
import { createServer, type WorkforceServer } from "../server.js";
import { createStateStore } from "../state/index.js";
import { sealingKeyFor } from "../state/sealing-key.js";
import type { StateStore } from "../state/store.js";
import { loadCatalog } from "../tools/catalog.js";
import type { Clock } from "../tools/define-tool.js";
import { changesEndpoint } from "./changes-endpoint.js";
import { confirmationStateFor } from "./confirmation-state.js";
import { type HttpSession, SessionRegistry } from "./http-sessions.js";
import {
  type StatelessCall,
  type StatelessContext,
  serveStatelessRequest,
  statelessServer,
} from "./http-stateless.js";
import { refusalWarner, sendHumanPage, wantsHumanPage } from "./human-page.js";
import { openPlatform } from "./platform.js";
import { createRemoteAuth, type RemoteAuth, type RequestCredential } from "./remote-auth.js";
import { sha256 } from "./sha256.js";
import { createWebhookReceiver, WEBHOOK_PATH } from "./webhook-receiver.js";

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

export interface HttpServerHandle {
  /** Base URL, for example `http://127.0.0.1:3333`; MCP is served at `<url>/mcp`. */
  url: string;
  close(): Promise<void>;
}

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

const REALM = 'Bearer realm="workforce-mcp"';

/** The largest request body /mcp reads, in either protocol version. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** What a 2026-07-28 request's server is built from (passed through the SDK as authInfo.extra). */
interface ModernCall {
  call: StatelessCall;
  opened(workforce: WorkforceServer): void;
}

/** Starts Streamable HTTP at /mcp (one MCP server per session) and /healthz. */
export async function startHttpServer(
  config: Config,
  logger: Logger,
  version: string,
  options: HttpServerOptions = {},
): Promise<HttpServerHandle> {
  // Redis when configured (replicas share it); a process without it keeps its own. --auth oauth
  // keeps its clients, codes and sealed tokens there too, and every mode the limit on checking
  // the platform tokens clients bring.
  const store = options.stateStore ?? (await createStateStore(config, logger));
  // Every session lists the same tools: read the catalog once for the process.
  const catalog = await loadCatalog();
  // One key seals every form's state: a form answered in another session or request still opens.
  const sealingKey = sealingKeyFor(config.encryptionKey);
  const platform = await openPlatform(config, logger, {
    stateStore: config.redisUrl ? store : undefined,
    rateLimitWindowMs: options.rateLimitWindowMs,
  }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  // A token a client brings is checked with the platform once, before anything is made for it.
  const clientTokens = new PersonalTokens({
    apiUrl: platform.apiUrl,
    timeoutMs: config.timeoutMs,
    state: store,
    logger,
    now: options.now,
    checksPerWindow: options.tokenChecksPerWindow,
  });
  // The platform's webhooks (off without WORKFORCE_WEBHOOK_SECRETS): every server made here reads
  // the events it keeps, for list_changes and workforce://changes.
  const receiver = createWebhookReceiver({ config, logger, store, sealingKey, now: options.now });
  const events = receiver.events;
  // One place for every session's and request's confirmations and attempts at changes.
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
    events,
    registeredSecrets: receiver.registeredSecrets,
  };
  const stateless = config.stateless ? perRequest : undefined;
  // 2026-07-28 requests: a server per request from the SDK's entry; 2025 ones keep the routes below.
  const modern = createMcpHandler(
    ({ authInfo }) => {
      // Always set by handleModern below, the only caller of the handler.
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
  // 2026-07-28 clients listening to workforce://changes (subscriptions/listen) hear of each new event
  // through the handler's in-process notifier. Every replica hears of every event (Redis publish
  // and subscribe), so each tells its own listeners; whose companies a person may see is filtered
  // when they read the feed, never in the notification, which names only the feed.
  const stopAnnouncing = events
    ? await events
        .listen(() => modern.notify.resourceUpdated(CHANGES_URI))
        .catch(async (error: unknown) => {
          await platform.close();
          await store.close();
          throw error;
        })
    : undefined;
  const serveModern = toNodeHandler(modern, {
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (error) => logger.error("HTTP request failed", { error: String(error) }),
  });
  if (stateless) {
    logger.info(
      "Stateless HTTP: no sessions, so any replica may answer any request; 2025-11-25 clients confirm changes with single-use tokens, 2026-07-28 clients in forms.",
    );
  }
  if (!platform.token && config.auth !== "oauth") {
    if (!config.tokenPassthrough) {
      // parseConfig refuses this already; a configuration built another way must not slip through.
      await platform.close();
      await store.close();
      throw new Error(
        "--http without WORKFORCE_TOKEN or a sign-in would pass each client's own platform token through to the platform. Run with --auth oauth so that each person signs in, or opt in with --token-passthrough.",
      );
    }
    logger.info(
      "Token passthrough (--token-passthrough): each client must send its own platform token as 'Authorization: Bearer <token>' on every request, starting with initialize; it is checked with the platform before a session opens.",
    );
  }
  // With the server's own token every session sees the same platform: introspect it once.
  const sharedSchema =
    platform.token && config.auth !== "oauth"
      ? createSchemaSource(platform.createClient(platform.token, logger))
      : undefined;
  const idleMs = options.sessionIdleMs ?? config.sessionIdleMinutes * 60_000;
  const clock = options.now ?? Date.now;
  // Evictions are logged at most once a second, each line counting those since the last.
  let evictedUnlogged = 0;
  let lastEvictionLine = Number.NEGATIVE_INFINITY;
  const sessions = new SessionRegistry({
    maxSessions: config.maxSessions,
    maxPerOwner: options.sessionsPerOwner,
    idleMs,
    now: options.now,
    onReclaim: (_session, idle) =>
      logger.debug("MCP session ended after being idle", {
        idleSeconds: Math.round(idle / 1000),
        sessions: sessions.size,
      }),
    onEvict: (_session, reason, idle) => {
      evictedUnlogged++;
      if (clock() - lastEvictionLine < 1_000) return;
      lastEvictionLine = clock();
      logger.info(
        reason === "cap"
          ? "HTTP session limit reached: ended the least recently used idle MCP session to make room for a new one; its client gets 404 and starts a new session."
          : "One client reached its share of HTTP sessions: ended its own least recently used idle MCP session to make room for its new one.",
        {
          idleSeconds: Math.round(idle / 1000),
          sessions: sessions.size,
          maxSessions: config.maxSessions,
          endedSinceLastLine: evictedUnlogged,
        },
      );
      evictedUnlogged = 0;
    },
  });
  let lastCapWarning = Number.NEGATIVE_INFINITY;
  const allowedHostnames = [
    ...LOOPBACK,
    ...config.allowedHosts.map(hostnameOf),
    ...(config.publicUrl ? [new URL(config.publicUrl).hostname] : []),
  ];
  // --auth oauth: set once listening (its addresses may name the port).
  let remoteAuth: RemoteAuth | undefined;
  // Set once listening; no request arrives before that.
  let listenPort = 0;

  const app = express();
  app.disable("x-powered-by");
  // Behind the named proxies, req.ip is the client's address (X-Forwarded-For); otherwise the
  // header is ignored, so that a client cannot choose the address its limits are counted by.
  if (config.trustProxy) {
    const hops = /^\d+$/.test(config.trustProxy) ? Number(config.trustProxy) : undefined;
    app.set("trust proxy", hops ?? config.trustProxy.split(",").map((p) => p.trim()));
  }
  const warnRefused = refusalWarner(logger);
  const checkHost = hostHeaderValidation(allowedHostnames);
  app.use((req, res, next) => {
    let passed = false;
    checkHost(req, res, () => {
      passed = true;
      next();
    });
    // The SDK's check answers synchronously; only a refused Host is looked at again, to log it.
    if (passed) return;
    const hostname = hostnameOfHeader(req.headers.host);
    if (hostname !== undefined) {
      warnRefused("Host", req.headers.host ?? "", hostname.length <= 253 ? hostname : undefined);
    }
  });
  // The platform's webhooks: signed, raw body, no Origin (docs/hosting.md, "Live changes").
  app.use(WEBHOOK_PATH, receiver.handler);
  // The OAuth endpoints serve browsers and web clients of any origin (the SDK's handlers set CORS).
  if (config.auth === "oauth") {
    app.use((req, res, next) => (remoteAuth ? remoteAuth.router(req, res, next) : next()));
  }
  app.use(
    originValidation(() => listenPort, config.allowedHosts.map(parseAllowedOrigin), warnRefused),
  );
  // A person who opens the address in a browser learns what it is and how to connect an assistant.
  app.get(["/", "/mcp"], (req, res, next) => {
    if (req.path === "/mcp" && !wantsHumanPage(req)) return next();
    sendHumanPage(req, res, {
      publicUrl: config.publicUrl,
      signIn: config.auth === "oauth" ? "oauth" : platform.token ? "server-token" : "client-token",
    });
  });
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok", version, sandbox: platform.sandbox !== undefined });
  });
  // Local servers' view of the events (WORKFORCE_TEAM_URL), each person's own.
  app.use(
    TEAM_CHANGES_PATH,
    changesEndpoint({
      ...{ events, store, platform, logger, tokens: clientTokens },
      retentionDays: config.webhookRetentionDays,
      remoteAuth: config.auth === "oauth" ? () => remoteAuth : undefined,
    }),
  );
  app.use("/mcp", express.json({ limit: MAX_BODY_BYTES }));
  app.all("/mcp", async (req, res) => {
    try {
      await handleMcp(req, res);
    } catch (error) {
      logger.error("HTTP request failed", { error: String(error) });
      if (!res.headersSent) rpcError(res, 500, -32603, "Internal server error.");
    }
  });
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const status = (error as { status?: number }).status ?? 500;
    if (status === 400) return rpcError(res, 400, -32700, "Parse error: the body is not JSON.");
    if (status === 413) return rpcError(res, 413, -32600, "The request body is too large.");
    logger.error("HTTP request failed", { error: String(error) });
    rpcError(res, 500, -32603, "Internal server error.");
  });

  async function handleMcp(req: Request, res: Response): Promise<void> {
    // The SDK would answer [] with 202 and nothing; JSON-RPC says an empty batch is invalid.
    if (req.method === "POST" && Array.isArray(req.body) && req.body.length === 0) {
      return rpcError(res, 400, -32600, "Invalid Request: empty batch.");
    }
    let credential: RequestCredential | undefined;
    if (config.auth === "oauth") {
      if (!remoteAuth) return rpcError(res, 503, -32000, "The server is starting; try again.");
      // 401 with the resource metadata's address, or who the request acts as.
      credential = await remoteAuth.authenticate(req, res);
      if (!credential) return;
    }
    // The SDK's own test of which protocol a request speaks (2026-07-28 carries it in _meta).
    if (
      req.method === "POST" &&
      !(await isLegacyRequest(await toWebRequest(req, req.body), req.body))
    ) {
      return handleModern(req, res, credential);
    }
    if (stateless) return handleStateless(req, res, stateless, credential);
    const sessionId = req.header("mcp-session-id");
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session) {
        return rpcError(
          res,
          404,
          -32001,
          "Session not found: it has ended or never existed. Start a new session with an initialize request.",
        );
      }
      const sameCredential = (digest: Buffer) =>
        credential ? timingSafeEqual(credential.key, digest) : bearerMatches(req, digest);
      if (session.bearerDigest && !sameCredential(session.bearerDigest)) {
        res.setHeader("WWW-Authenticate", REALM);
        return rpcError(
          res,
          401,
          -32001,
          credential
            ? "Unauthorized: this session was opened by another sign-in or token. Start a new session with an initialize request."
            : "Unauthorized: send the same 'Authorization: Bearer <token>' this session was opened with on every request.",
        );
      }
      if (req.method === "GET") {
        // The event stream keeps the session only while it carries something.
        const stream = sessions.openStream(sessionId);
        const write = res.write.bind(res) as (...args: unknown[]) => boolean;
        res.write = ((...args: unknown[]) => {
          stream.carried();
          return write(...args);
        }) as typeof res.write;
        whenClosed(res, stream.end);
      } else {
        // Busy until the response (or its SSE stream) closes, whichever way it ends.
        whenClosed(res, sessions.begin(sessionId));
      }
      return session.transport.handleRequest(req, res, req.body);
    }
    if (req.method !== "POST" || !isInitializeRequest(req.body)) {
      return rpcError(
        res,
        400,
        -32000,
        "Bad request: no mcp-session-id header. Start a session with an initialize request first.",
      );
    }

    // With --auth oauth the request's own credential, never the server's.
    let token = credential ? undefined : platform.token;
    let person = credential?.identity.id;
    if (!token && !credential) {
      token = bearerToken(req);
      if (!token) {
        res.setHeader("WWW-Authenticate", REALM);
        return rpcError(
          res,
          401,
          -32001,
          "This server has no platform token of its own. Send your platform personal access token as 'Authorization: Bearer <token>' with the initialize request and every request after it.",
        );
      }
      const identity = await admitClientToken(req, res, token);
      if (!identity) return;
      person = identity.id;
    }

    // Only a digest stays on the session; the token itself lives in its client and redaction list.
    const bearer = credential ? credential.secret : platform.token ? undefined : (token as string);
    const bearerDigest = credential
      ? credential.key
      : bearer === undefined
        ? undefined
        : sha256(bearer);
    // Whose share of the sessions this one counts against: the person (the platform identity,
    // however many sign-ins or tokens they hold), else the client's address group (the server's
    // own token serves everyone alike; clientAddress groups an IPv6 client's whole /56).
    const owner = person !== undefined ? `person:${person}` : `addresses:${clientAddress(req)}`;
    const slot = sessions.reserve(owner);
    if (!slot.ok) {
      if (slot.reason === "cap" && clock() - lastCapWarning >= 60_000) {
        lastCapWarning = clock();
        logger.warning("HTTP session limit reached and every session is busy; refusing new ones", {
          maxSessions: config.maxSessions,
        });
      }
      res.setHeader("Retry-After", String(slot.retryAfterSeconds));
      return rpcError(
        res,
        503,
        -32000,
        slot.reason === "cap"
          ? `Every session on this server is busy with a request (it holds at most ${config.maxSessions}). Retry in ${slot.retryAfterSeconds} seconds.`
          : `All of your sessions on this server are busy with requests, and you have the most one client may hold. Retry in ${slot.retryAfterSeconds} seconds, or end a session you no longer use with DELETE /mcp.`,
      );
    }
    const { reservation } = slot;
    const sessionLogger = createChildLogger(logger, bearer);
    const workforce = createServer(config, {
      client: platform.createClient(
        credential ? credential.token(sessionLogger) : (token as NonNullable<typeof token>),
        sessionLogger,
      ),
      logger: sessionLogger,
      sandbox: platform.sandbox,
      version,
      schemaSource: sharedSchema,
      catalog,
      sealingKey,
      confirmations,
      clock: options.toolClock,
      events,
      registeredSecrets: receiver.registeredSecrets,
    });
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        const session: HttpSession = { id, transport, workforce, bearerDigest };
        reservation.commit(session);
        whenClosed(res, sessions.begin(id));
        logger.debug("MCP session started", { sessions: sessions.size });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void workforce.close();
    };
    try {
      await workforce.server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } finally {
      reservation.release();
    }
    if (!transport.sessionId || sessions.get(transport.sessionId) === undefined) {
      await workforce.close();
    }
  }

  /** A 2026-07-28 request: its credential checked here, then the SDK's entry serves it. */
  async function handleModern(
    req: Request,
    res: Response,
    credential: RequestCredential | undefined,
  ) {
    const call = await requestCall(req, res, credential);
    if (!call) return;
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
    await serveModern(Object.assign(req, { auth }), res, req.body);
  }

  /**
   * Who a request without a session acts as: the signed-in person, the server's own token, or
   * the client's own platform token (checked with the platform). Undefined once answered (401).
   */
  async function requestCall(
    req: Request,
    res: Response,
    credential: RequestCredential | undefined,
  ): Promise<StatelessCall | undefined> {
    if (credential) return { token: credential.token(), bearer: credential.secret };
    if (platform.token) return { token: platform.token };
    const bearer = bearerToken(req);
    if (!bearer) {
      res.setHeader("WWW-Authenticate", REALM);
      rpcError(
        res,
        401,
        -32001,
        "This server has no platform token of its own. Send your platform personal access token as 'Authorization: Bearer <token>' with every request.",
      );
      return undefined;
    }
    if (!(await admitClientToken(req, res, bearer))) return undefined;
    return { token: bearer, bearer };
  }

  /** Each request stands alone: its own credential check, server and transport. */
  async function handleStateless(
    req: Request,
    res: Response,
    context: StatelessContext,
    credential: RequestCredential | undefined,
  ) {
    if (req.method !== "POST") {
      res.setHeader("Allow", "POST");
      return rpcError(
        res,
        405,
        -32000,
        "Method not allowed: this server is stateless (no sessions, no server-initiated stream); send each request as a POST.",
      );
    }
    const call = await requestCall(req, res, credential);
    if (call) await serveStatelessRequest(context, req, res, call);
  }

  /**
   * A client's own platform token (per-client bearer mode): checked with the platform, once in a
   * while, before any session or platform request is made for it: whose it is, or undefined once
   * answered (401, 429, 503); the answer never repeats the token.
   */
  async function admitClientToken(
    req: Request,
    res: Response,
    token: string,
  ): Promise<SignInIdentity | undefined> {
    const check = await clientTokens.check(token, clientAddress(req));
    if (check.ok) return check.identity;
    if (check.reason === "refused") {
      res.setHeader(
        "WWW-Authenticate",
        `${REALM}, error="invalid_token", error_description="The platform did not accept the token"`,
      );
      rpcError(
        res,
        401,
        -32001,
        "Unauthorized: the platform did not accept the token in 'Authorization: Bearer <token>': it is wrong, expired or revoked. Send a valid platform personal access token.",
      );
    } else if (check.reason === "rate-limited") {
      res.setHeader("Retry-After", String(check.retryAfterSeconds));
      rpcError(
        res,
        429,
        -32000,
        `Too many unknown tokens from your address: the server checks only a few new tokens a minute with the platform. Retry in ${check.retryAfterSeconds} seconds.`,
      );
    } else {
      rpcError(
        res,
        503,
        -32000,
        `Could not check your platform token with the platform: ${check.message}. Try again shortly.`,
      );
    }
    return undefined;
  }

  const server = await listen(app, config.port, config.host);
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  listenPort = address.port;
  const url = `http://${host}:${address.port}`;
  logger.debug(`listening on ${url}/mcp`);
  if (config.auth === "oauth") {
    try {
      remoteAuth = createRemoteAuth({
        config,
        logger,
        platform,
        state: store,
        tokens: clientTokens,
        publicUrl: config.publicUrl ?? url,
        clientMetadata: options.clientMetadata,
      });
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await platform.close();
      await store.close();
      throw error;
    }
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    close() {
      closing ??= (async () => {
        await sessions.closeAll();
        await stopAnnouncing?.();
        await modern.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await platform.close();
        await store.close();
      })();
      return closing;
    },
  };
}

/** `workforce-mcp --http`: serves until SIGINT/SIGTERM. */
export async function serveHttp(config: Config, logger: Logger, version: string): Promise<void> {
  const handle = await startHttpServer(config, logger, version);
  process.stderr.write(`workforce-mcp ${version} listening on ${handle.url}/mcp\n`);
  const stop = (signal: string) => {
    logger.info(`${signal}: shutting down.`);
    handle.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

function listen(app: express.Express, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (error?: Error) =>
      error ? reject(error) : resolve(server),
    );
    server.once("error", reject);
  });
}

interface AllowedOrigin {
  hostname: string;
  /** Undefined when the entry names no port (and no scheme): any port of that host. */
  port: string | undefined;
}

/**
 * Browsers send Origin; a page from any other site must not drive this local server. A loopback
 * origin must also be on this server's own port (or one named in --allowed-hosts): another local
 * port is another, untrusted, app.
 */
function originValidation(
  listenPort: () => number,
  allowed: AllowedOrigin[],
  warnRefused: ReturnType<typeof refusalWarner>,
) {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.header("origin");
    if (origin === undefined) return next();
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    const port = url ? effectivePort(url) : undefined;
    // A loopback entry opens only the port it names, so `--allowed-hosts localhost` opens none.
    const loopback = url !== undefined && LOOPBACK.includes(url.hostname);
    const ok =
      url !== undefined &&
      port !== undefined &&
      ((loopback && port === String(listenPort())) ||
        allowed.some(
          (a) =>
            a.hostname === url.hostname && (a.port === undefined ? !loopback : a.port === port),
        ));
    if (!ok) {
      // The origin itself, scheme and port included, is an entry --allowed-hosts accepts.
      const allowWith = url && url.origin !== "null" ? url.origin : undefined;
      warnRefused("Origin", origin, allowWith);
      return rpcError(res, 403, -32000, `Origin not allowed: ${origin}`);
    }
    next();
  };
}

/** The Host header's name as the SDK's check reads it; undefined when missing or unreadable. */
function hostnameOfHeader(host: string | undefined): string | undefined {
  if (!host) return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/** `app.example.com` (any port), `app.example.com:8443`, or `https://app.example.com` (443). */
function parseAllowedOrigin(entry: string): AllowedOrigin {
  const hasScheme = entry.includes("://");
  try {
    const url = new URL(hasScheme ? entry : `http://${entry}`);
    const port = hasScheme || url.port !== "" ? effectivePort(url) : undefined;
    return { hostname: url.hostname, port };
  } catch {
    return { hostname: entry.toLowerCase(), port: undefined };
  }
}

function effectivePort(url: URL): string | undefined {
  if (url.port) return url.port;
  if (url.protocol === "http:") return "80";
  if (url.protocol === "https:") return "443";
  return undefined;
}

function hostnameOf(entry: string): string {
  try {
    return new URL(entry.includes("://") ? entry : `http://${entry}`).hostname;
  } catch {
    return entry.toLowerCase();
  }
}

/** Runs fn once the response is over; at once if the client already went away. */
function whenClosed(res: Response, fn: () => void): void {
  if (res.closed) fn();
  else res.once("close", fn);
}

/** Digests are always 32 bytes, so timingSafeEqual never throws and leaks no length. */
function bearerMatches(req: Request, digest: Buffer): boolean {
  const token = bearerToken(req);
  return token !== undefined && timingSafeEqual(sha256(token), digest);
}

function bearerToken(req: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.header("authorization") ?? "");
  return match?.[1];
}

function rpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: "2.0", error: { code, message }, id: null });
}
