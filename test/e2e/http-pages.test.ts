// A person who opens the server's address in a browser gets a page that says what it is and how to
// connect an assistant; MCP clients' requests are answered as before. A refused Host or Origin is
// logged once, with the setting that would allow it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { httpConfig, messages, openSession, raw } from "./http-helpers.js";

const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

describe("the HTTP transport's pages for people", () => {
  let server: HttpServerHandle;
  const lines: string[] = [];

  beforeAll(async () => {
    server = await startHttpServer(
      httpConfig({ useSandbox: true }),
      createLogger("info", (line) => void lines.push(line)),
      "9.9.9",
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(["/", "/mcp"])(
    "a browser's GET %s gets a page naming the URL to connect",
    async (path) => {
      const res = await raw(`${server.url}${path}`, { headers: { accept: browserAccept } });
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.headers["content-security-policy"]).toContain("default-src 'none'");
      expect(res.body).toContain("MCP server");
      expect(res.body).toContain(`${server.url}/mcp`);
      expect(res.body).toContain("claude mcp add --transport http");
    },
  );

  it("leaves MCP clients' requests to /mcp as they were", async () => {
    const stream = await raw(`${server.url}/mcp`, { headers: { accept: "text/event-stream" } });
    expect(stream.status).toBe(400);
    expect(messages(stream)[0]).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
    const session = await openSession(server.url);
    const list = await raw(`${server.url}/mcp`, {
      body: { jsonrpc: "2.0", id: 2, method: "tools/list" },
      headers: session,
    });
    expect(JSON.stringify(messages(list))).toContain("search_hires");
  });

  it("logs a refused Host once, with the --allowed-hosts entry that allows it", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await raw(`${server.url}/mcp`, { headers: { host: "workforce.lan:3333" } });
      expect(res.status).toBe(403);
    }
    const warnings = lines.filter((l) => l.includes("Host is not allowed"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("--allowed-hosts workforce.lan");
  });

  it("logs a refused Origin once, with the --allowed-hosts entry that allows it", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await raw(`${server.url}/mcp`, {
        body: { jsonrpc: "2.0", id: 1, method: "ping" },
        headers: { origin: "http://localhost:5173" },
      });
      expect(res.status).toBe(403);
    }
    const warnings = lines.filter((l) => l.includes("Origin is not allowed"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("--allowed-hosts http://localhost:5173");
  });
});
