// The /mcp route: who a request acts as, then a 2026-07-28 request to the SDK's entry, a stateless
// 2025 request to a server of its own, or a 2025 session (opened by initialize, then found by its
// mcp-session-id and held to the credential that opened it).
import { randomUUID, timingSafeEqual } from "node:crypto";
import { NodeStreamableHTTPServerTransport, toWebRequest } from "@modelcontextprotocol/node";
import { isInitializeRequest, isLegacyRequest } from "@modelcontextprotocol/server";
import type { Request, Response } from "express";
import { clientAddress } from "../auth/remote/address-key.js";
import type { SignInIdentity } from "../auth/store.js";
import { createChildLogger } from "../logger.js";
import { createServer } from "../server.js";
import { bearerMatches, bearerToken, REALM, rpcError, whenClosed } from "./http-replies.js";
import { type HttpSession, SessionRegistry } from "./http-sessions.js";
import type { HttpShared } from "./http-shared.js";
import { type StatelessCall, serveStatelessRequest } from "./http-stateless.js";
import type { RemoteAuth, RequestCredential } from "./remote-auth.js";
import { sha256 } from "./sha256.js";

export class McpRoute {
  readonly sessions: SessionRegistry;
  private readonly clock: () => number;
  private lastCapWarning = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly shared: HttpShared,
    /** --auth oauth: set once the server listens (its addresses may name the port). */
    private readonly remoteAuth: () => RemoteAuth | undefined,
  ) {
    this.clock = shared.options.now ?? Date.now;
    this.sessions = loggedSessions(shared, this.clock);
  }

  async handle(req: Request, res: Response): Promise<void> {
    // The SDK would answer [] with 202 and nothing; JSON-RPC says an empty batch is invalid.
    if (req.method === "POST" && Array.isArray(req.body) && req.body.length === 0) {
      return rpcError(res, 400, -32600, "Invalid Request: empty batch.");
    }
    let credential: RequestCredential | undefined;
    if (this.shared.config.auth === "oauth") {
      const remoteAuth = this.remoteAuth();
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
      const call = await this.requestCall(req, res, credential);
      if (call) await this.shared.serveModern(req, res, call);
      return;
    }
    if (this.shared.config.stateless) return this.handleStateless(req, res, credential);
    const sessionId = req.header("mcp-session-id");
    if (sessionId !== undefined) return this.continueSession(req, res, sessionId, credential);
    if (req.method !== "POST" || !isInitializeRequest(req.body)) {
      return rpcError(
        res,
        400,
        -32000,
        "Bad request: no mcp-session-id header. Start a session with an initialize request first.",
      );
    }
    return this.openSession(req, res, credential);
  }

  /** A request of an open session, from the credential that opened it. */
  private async continueSession(
    req: Request,
    res: Response,
    sessionId: string,
    credential: RequestCredential | undefined,
  ): Promise<void> {
    const session = this.sessions.get(sessionId);
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
      const stream = this.sessions.openStream(sessionId);
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      res.write = ((...args: unknown[]) => {
        stream.carried();
        return write(...args);
      }) as typeof res.write;
      whenClosed(res, stream.end);
    } else {
      // Busy until the response (or its SSE stream) closes, whichever way it ends.
      whenClosed(res, this.sessions.begin(sessionId));
    }
    return session.transport.handleRequest(req, res, req.body);
  }

  /** An initialize request: a session of its own, counted against its owner's share. */
  private async openSession(
    req: Request,
    res: Response,
    credential: RequestCredential | undefined,
  ): Promise<void> {
    const { config, platform, logger } = this.shared;
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
      const identity = await this.admitClientToken(req, res, token);
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
    const slot = this.sessions.reserve(owner);
    if (!slot.ok) {
      if (slot.reason === "cap" && this.clock() - this.lastCapWarning >= 60_000) {
        this.lastCapWarning = this.clock();
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
      version: this.shared.version,
      schemaSource: this.shared.sharedSchema,
      catalog: this.shared.catalog,
      sealingKey: this.shared.sealingKey,
      confirmations: this.shared.confirmations,
      clock: this.shared.options.toolClock,
      events: this.shared.receiver.events,
      registeredSecrets: this.shared.receiver.registeredSecrets,
    });
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        const session: HttpSession = { id, transport, workforce, bearerDigest };
        reservation.commit(session);
        whenClosed(res, this.sessions.begin(id));
        logger.debug("MCP session started", { sessions: this.sessions.size });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
      void workforce.close();
    };
    try {
      await workforce.server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } finally {
      reservation.release();
    }
    if (!transport.sessionId || this.sessions.get(transport.sessionId) === undefined) {
      await workforce.close();
    }
  }

  /**
   * Who a request without a session acts as: the signed-in person, the server's own token, or
   * the client's own platform token (checked with the platform). Undefined once answered (401).
   */
  private async requestCall(
    req: Request,
    res: Response,
    credential: RequestCredential | undefined,
  ): Promise<StatelessCall | undefined> {
    if (credential) return { token: credential.token(), bearer: credential.secret };
    const { platform } = this.shared;
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
    if (!(await this.admitClientToken(req, res, bearer))) return undefined;
    return { token: bearer, bearer };
  }

  /** Each request stands alone: its own credential check, server and transport. */
  private async handleStateless(
    req: Request,
    res: Response,
    credential: RequestCredential | undefined,
  ): Promise<void> {
    if (req.method !== "POST") {
      res.setHeader("Allow", "POST");
      return rpcError(
        res,
        405,
        -32000,
        "Method not allowed: this server is stateless (no sessions, no server-initiated stream); send each request as a POST.",
      );
    }
    const call = await this.requestCall(req, res, credential);
    if (call) await serveStatelessRequest(this.shared.perRequest, req, res, call);
  }

  /**
   * A client's own platform token (per-client bearer mode): checked with the platform, once in a
   * while, before any session or platform request is made for it: whose it is, or undefined once
   * answered (401, 429, 503); the answer never repeats the token.
   */
  private async admitClientToken(
    req: Request,
    res: Response,
    token: string,
  ): Promise<SignInIdentity | undefined> {
    const check = await this.shared.clientTokens.check(token, clientAddress(req));
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
}

/** The session registry, logging reclaimed and evicted sessions (evictions at most once a second). */
function loggedSessions(shared: HttpShared, clock: () => number): SessionRegistry {
  const { config, logger, options } = shared;
  let evictedUnlogged = 0;
  let lastEvictionLine = Number.NEGATIVE_INFINITY;
  const sessions: SessionRegistry = new SessionRegistry({
    maxSessions: config.maxSessions,
    maxPerOwner: options.sessionsPerOwner,
    idleMs: options.sessionIdleMs ?? config.sessionIdleMinutes * 60_000,
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
  return sessions;
}
