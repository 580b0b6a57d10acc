import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { hostHeaderValidation } from "@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import express, { type NextFunction, type Request, type Response } from "express";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { createSchemaSource } from "../resources/index.js";
import { createServer, type WorkforceServer } from "../server.js";
import { openPlatform } from "./embedded-sandbox.js";
import { createSessionLogger } from "./session-logger.js";

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

export interface HttpServerHandle {
  /** Base URL, for example `http://127.0.0.1:3333`; MCP is served at `<url>/mcp`. */
  url: string;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  workforce: WorkforceServer;
}

/** Starts Streamable HTTP at /mcp (one McpServer per session) and /healthz. */
export async function startHttpServer(
  config: Config,
  logger: Logger,
  version: string,
): Promise<HttpServerHandle> {
  const platform = await openPlatform(config, logger);
  // With the server's own token every session sees the same platform: introspect it once.
  const sharedSchema = platform.token
    ? createSchemaSource(platform.createClient(platform.token, logger))
    : undefined;
  const sessions = new Map<string, Session>();
  const allowed = [...LOOPBACK, ...config.allowedHosts.map(hostnameOf)];

  const app = express();
  app.disable("x-powered-by");
  app.use(hostHeaderValidation(allowed));
  app.use(originValidation(allowed));
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok", version, sandbox: platform.sandbox !== undefined });
  });
  app.use("/mcp", express.json({ limit: "4mb" }));
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

    let token = platform.token;
    if (!token) {
      token = bearerToken(req);
      if (!token) {
        res.setHeader("WWW-Authenticate", 'Bearer realm="workforce-mcp"');
        return rpcError(
          res,
          401,
          -32001,
          "This server has no platform token of its own. Send your platform personal access token as 'Authorization: Bearer <token>' with the initialize request.",
        );
      }
    }
    // The session's token lives only in its client and its logger's redaction list.
    const sessionLogger = createSessionLogger(logger, platform.token ? undefined : token);
    const workforce = createServer(config, {
      client: platform.createClient(token, sessionLogger),
      logger: sessionLogger,
      sandbox: platform.sandbox,
      version,
      schemaSource: sharedSchema,
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, workforce });
        logger.debug("MCP session started", { sessions: sessions.size });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void workforce.close();
    };
    await workforce.server.connect(transport);
    await transport.handleRequest(req, res, req.body);
    if (!transport.sessionId || !sessions.has(transport.sessionId)) await workforce.close();
  }

  const server = await listen(app, config.port, config.host);
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  logger.debug(`listening on ${url}/mcp`);

  let closing: Promise<void> | undefined;
  return {
    url,
    close() {
      closing ??= (async () => {
        await Promise.allSettled([...sessions.values()].map((s) => s.transport.close()));
        sessions.clear();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await platform.close();
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

/** Browsers send Origin; a page from any other site must not drive this local server. */
function originValidation(allowed: string[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.header("origin");
    if (origin === undefined) return next();
    let hostname: string | undefined;
    try {
      hostname = new URL(origin).hostname;
    } catch {
      hostname = undefined;
    }
    if (hostname === undefined || !allowed.includes(hostname)) {
      return rpcError(res, 403, -32000, `Origin not allowed: ${origin}`);
    }
    next();
  };
}

function hostnameOf(entry: string): string {
  try {
    return new URL(entry.includes("://") ? entry : `http://${entry}`).hostname;
  } catch {
    return entry.toLowerCase();
  }
}

function bearerToken(req: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.header("authorization") ?? "");
  return match?.[1];
}

function rpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: "2.0", error: { code, message }, id: null });
}
