import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { TEAM_CHANGES_PATH } from "../client/team-changes.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { changesEndpoint } from "./changes-endpoint.js";
import { McpRoute } from "./http-mcp-route.js";
import { hostValidation, originValidation } from "./http-origins.js";
import { rpcError } from "./http-replies.js";
import {
  closeServer,
  type HttpServerOptions,
  type HttpShared,
  MAX_BODY_BYTES,
  openHttpShared,
} from "./http-shared.js";
import { refusalWarner, sendHumanPage, wantsHumanPage } from "./human-page.js";
import { createRemoteAuth, type RemoteAuth } from "./remote-auth.js";
import { WEBHOOK_PATH } from "./webhook-receiver.js";

export interface HttpServerHandle {
  /** Base URL, for example `http://127.0.0.1:3333`; MCP is served at `<url>/mcp`. */
  url: string;
  close(): Promise<void>;
}

/** Starts Streamable HTTP at /mcp (one MCP server per session) and /healthz. */
export async function startHttpServer(
  config: Config,
  logger: Logger,
  version: string,
  options: HttpServerOptions = {},
): Promise<HttpServerHandle> {
  const shared = await openHttpShared(config, logger, version, options);
  // --auth oauth: set once listening (its addresses may name the port).
  let remoteAuth: RemoteAuth | undefined;
  // Set once listening; no request arrives before that.
  let listenPort = 0;
  const route = new McpRoute(shared, () => remoteAuth);
  const app = httpApp(shared, route, {
    remoteAuth: () => remoteAuth,
    listenPort: () => listenPort,
  });

  const server = await listen(app, config.port, config.host).catch(async (error: unknown) => {
    await shared.close();
    throw error;
  });
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
        platform: shared.platform,
        state: shared.store,
        tokens: shared.clientTokens,
        publicUrl: config.publicUrl ?? url,
        clientMetadata: options.clientMetadata,
      });
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await shared.close();
      throw error;
    }
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    close() {
      closing ??= (async () => {
        await route.sessions.closeAll();
        await closeServer(server);
        await shared.close();
      })();
      return closing;
    },
  };
}

/** The express app: Host and Origin checks, webhooks, OAuth, the human page, /healthz and /mcp. */
function httpApp(
  shared: HttpShared,
  route: McpRoute,
  late: { remoteAuth(): RemoteAuth | undefined; listenPort(): number },
): express.Express {
  const { config, logger, platform, version } = shared;
  const app = express();
  app.disable("x-powered-by");
  // Behind the named proxies, req.ip is the client's address (X-Forwarded-For); otherwise the
  // header is ignored, so that a client cannot choose the address its limits are counted by.
  if (config.trustProxy) {
    const hops = /^\d+$/.test(config.trustProxy) ? Number(config.trustProxy) : undefined;
    app.set("trust proxy", hops ?? config.trustProxy.split(",").map((p) => p.trim()));
  }
  const warnRefused = refusalWarner(logger);
  app.use(hostValidation(config, warnRefused));
  // The platform's webhooks: signed, raw body, no Origin (docs/hosting.md, "Live changes").
  app.use(WEBHOOK_PATH, shared.receiver.handler);
  // The OAuth endpoints serve browsers and web clients of any origin (the SDK's handlers set CORS).
  if (config.auth === "oauth") {
    app.use((req, res, next) => {
      const remoteAuth = late.remoteAuth();
      return remoteAuth ? remoteAuth.router(req, res, next) : next();
    });
  }
  app.use(originValidation(late.listenPort, config.allowedHosts, warnRefused));
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
      ...{ events: shared.receiver.events, store: shared.store, platform, logger },
      tokens: shared.clientTokens,
      retentionDays: config.webhookRetentionDays,
      remoteAuth: config.auth === "oauth" ? late.remoteAuth : undefined,
    }),
  );
  app.use("/mcp", express.json({ limit: MAX_BODY_BYTES }));
  app.all("/mcp", async (req, res) => {
    try {
      await route.handle(req, res);
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
  return app;
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
