import { type Agent, request } from "node:http";
import { createServer } from "node:net";
import { type Config, parseConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  agent?: Agent;
  /** The client's own address, such as another loopback address (127.0.0.2) for "another client". */
  localAddress?: string;
}

/** node:http, not fetch: fetch will not send a Host header of our choosing. */
export function raw(url: string, options: RawOptions = {}): Promise<RawResponse> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? (payload ? "POST" : "GET"),
        agent: options.agent,
        localAddress: options.localAddress,
        headers: {
          ...(payload
            ? { "content-type": "application/json", accept: "application/json, text/event-stream" }
            : {}),
          ...options.headers,
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** The JSON-RPC messages in a response: a JSON body, or the data lines of an SSE body. */
export function messages(res: RawResponse): Array<Record<string, unknown>> {
  const type = String(res.headers["content-type"] ?? "");
  if (type.includes("text/event-stream")) {
    return res.body
      .split("\n")
      .filter((line) => line.startsWith("data: ") && line.length > 6)
      .map((line) => JSON.parse(line.slice(6)));
  }
  return res.body ? [JSON.parse(res.body)] : [];
}

export const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw-test", version: "0" },
  },
};

export const quietLogger = () => createLogger("warning", () => {});

export function httpConfig(overrides: Partial<Config> = {}, env: NodeJS.ProcessEnv = {}): Config {
  return { ...parseConfig(["--http", "--port", "0"], env), retryBaseMs: 1, ...overrides };
}

/** Opens a session the way a client does (initialize, then initialized); returns its headers. */
export async function openSession(
  baseUrl: string,
  headers: Record<string, string> = {},
): Promise<Record<string, string>> {
  const init = await raw(`${baseUrl}/mcp`, { body: initialize, headers });
  if (init.status !== 200) throw new Error(`initialize answered ${init.status}: ${init.body}`);
  const session = {
    ...headers,
    "mcp-session-id": String(init.headers["mcp-session-id"]),
    "mcp-protocol-version": "2025-06-18",
  };
  await raw(`${baseUrl}/mcp`, {
    body: { jsonrpc: "2.0", method: "notifications/initialized" },
    headers: session,
  });
  return session;
}

/**
 * A port that was free a moment ago. Racy: another process may take it before it is used. Servers
 * listen on port 0 and report their address instead; this is only for an address that must be
 * known before the server starts (an OAuth redirect or public URL registered in advance), through
 * startOnFreePort, or for an address nothing is meant to listen on.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server whose own address must be known before it starts (its OAuth redirect or public
 * URL is registered first): on a port that was free a moment ago, and on another when something took
 * that one in between (EADDRINUSE), so the race freePort has cannot fail a test.
 */
export async function startOnFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (error) {
      if (attempt >= 5 || (error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    }
  }
}
