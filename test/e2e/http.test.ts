import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { httpConfig, initialize, quietLogger, raw } from "./http-helpers.js";

async function connect(url: string, headers?: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "http-test", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

describe("Streamable HTTP with the embedded sandbox", () => {
  let server: HttpServerHandle;
  beforeAll(async () => {
    server = await startHttpServer(httpConfig({ useSandbox: true }), quietLogger(), "9.9.9");
  });
  afterAll(() => server.close());

  it("listens on 127.0.0.1 and answers /healthz", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await raw(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: "ok", version: "9.9.9", sandbox: true });
  });

  it("serves an SDK client: list tools, call one", async () => {
    const client = await connect(server.url);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("search_hires");
      const result = await client.callTool({ name: "search_hires", arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toBeDefined();
    } finally {
      await client.close();
    }
  });

  it("refuses a Host that is not loopback", async () => {
    const res = await raw(`${server.url}/mcp`, {
      body: initialize,
      headers: { host: "evil.example" },
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error.message).toMatch(/evil\.example/);
  });

  it("refuses an Origin that is not loopback, accepts a loopback one on its own port", async () => {
    const evil = await raw(`${server.url}/mcp`, {
      body: initialize,
      headers: { origin: "http://evil.example" },
    });
    expect(evil.status).toBe(403);
    const port = new URL(server.url).port;
    const local = await raw(`${server.url}/mcp`, {
      body: initialize,
      headers: { origin: `http://localhost:${port}` },
    });
    expect(local.status).toBe(200);
  });

  it("answers 404 for an unknown session and for an ended one", async () => {
    const unknown = await raw(`${server.url}/mcp`, {
      body: { jsonrpc: "2.0", id: 2, method: "tools/list" },
      headers: { "mcp-session-id": "no-such-session" },
    });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.message).toMatch(/Session not found/);

    const init = await raw(`${server.url}/mcp`, { body: initialize });
    expect(init.status).toBe(200);
    const sessionId = String(init.headers["mcp-session-id"]);
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
    await raw(`${server.url}/mcp`, {
      body: { jsonrpc: "2.0", method: "notifications/initialized" },
      headers,
    });
    const listed = await raw(`${server.url}/mcp`, {
      body: { jsonrpc: "2.0", id: 2, method: "tools/list" },
      headers,
    });
    expect(listed.status).toBe(200);
    const deleted = await raw(`${server.url}/mcp`, { method: "DELETE", headers });
    expect(deleted.status).toBe(200);
    const after = await raw(`${server.url}/mcp`, {
      body: { jsonrpc: "2.0", id: 3, method: "tools/list" },
      headers,
    });
    expect(after.status).toBe(404);
  });

  it("asks for an initialize request when there is no session", async () => {
    const res = await raw(`${server.url}/mcp`, {
      body: { jsonrpc: "2.0", id: 2, method: "tools/list" },
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.message).toMatch(/initialize/);
  });
});

describe("Streamable HTTP with --allowed-hosts", () => {
  it("accepts the named Host and Origin", async () => {
    const server = await startHttpServer(
      httpConfig({ useSandbox: true, allowedHosts: ["mcp.internal.example"] }),
      quietLogger(),
      "9.9.9",
    );
    try {
      const res = await raw(`${server.url}/mcp`, {
        body: initialize,
        headers: { host: "mcp.internal.example:8443", origin: "https://mcp.internal.example" },
      });
      expect(res.status).toBe(200);
      const other = await raw(`${server.url}/mcp`, {
        body: initialize,
        headers: { host: "evil.example" },
      });
      expect(other.status).toBe(403);
    } finally {
      await server.close();
    }
  });
});

describe("Streamable HTTP without a token of its own", () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let server: HttpServerHandle;
  const stderr: string[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    const config = httpConfig(
      { token: undefined, tokenPassthrough: true },
      { WORKFORCE_API_URL: sandbox.url, WORKFORCE_TOKEN: "placeholder" },
    );
    const logger = createLogger("debug", (line) => {
      stderr.push(line);
    });
    server = await startHttpServer(config, logger, "9.9.9");
  });
  afterAll(async () => {
    await server.close();
    await sandbox.close();
  });

  it("uses the token a session brings, and never logs it", async () => {
    const client = await connect(server.url, { authorization: `Bearer ${sandbox.tokens.full}` });
    try {
      const result = await client.callTool({ name: "search_hires", arguments: {} });
      expect(result.isError).toBeFalsy();
      const health = JSON.parse((await raw(`${server.url}/healthz`)).body);
      expect(health.sandbox).toBe(false);
    } finally {
      await client.close();
    }
    expect(stderr.length).toBeGreaterThan(0);
    expect(stderr.join("")).not.toContain(sandbox.tokens.full);
  });

  it("refuses a session without a token with 401 and a clear message", async () => {
    const res = await raw(`${server.url}/mcp`, { body: initialize });
    expect(res.status).toBe(401);
    expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(JSON.parse(res.body).error.message).toMatch(/Authorization: Bearer/);
  });

  it("refuses a wrong token at initialize with 401, checked with the platform, naming no token", async () => {
    const res = await raw(`${server.url}/mcp`, {
      body: initialize,
      headers: { authorization: "Bearer not-a-valid-token" },
    });
    expect(res.status).toBe(401);
    expect(res.headers["www-authenticate"]).toMatch(/error="invalid_token"/);
    expect(JSON.parse(res.body).error.message).toMatch(/personal access token/);
    expect(res.body).not.toContain("not-a-valid-token");
  });
});
