// The client's `logging/setLevel` and WORKFORCE_LOG_LEVEL are two separate levels (MCP spec
// 2025-06-18, server utilities / logging): the client's decides its notifications, the setting
// decides stderr. Through the built binary, as a desktop assistant starts it.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { until } from "../helpers/until.js";

const cli = path.resolve(process.cwd(), "dist/cli.js");

describe("WORKFORCE_LOG_LEVEL=error with a client that asks for debug", () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let client: Client;
  const stderr: string[] = [];
  const messages: { level: string; data: unknown }[] = [];

  beforeAll(async () => {
    if (!existsSync(cli)) throw new Error("dist/cli.js is missing: run `npm run build` first.");
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli],
      env: {
        WORKFORCE_API_URL: sandbox.url,
        WORKFORCE_TOKEN: sandbox.tokens.full,
        WORKFORCE_LOG_LEVEL: "error",
      },
      cwd: mkdtempSync(path.join(tmpdir(), "workforce-mcp-e2e-")),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
    client = new Client({ name: "log-levels", version: "0" });
    client.setNotificationHandler("notifications/message", (n) => {
      messages.push({ level: n.params.level, data: n.params.data });
    });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
  });

  it("sends the client debug lines, keeps them off stderr, and never sends the token", async () => {
    await client.setLoggingLevel("debug");
    const result = await client.callTool({ name: "search_hires", arguments: {} });
    expect(result.isError).toBeFalsy();
    const said = () => JSON.stringify(messages);
    await until(() => said().includes("search_hires answered"), "the tool's debug line arrived");
    expect(messages.filter((m) => m.level === "debug").map((m) => m.data)).toContainEqual(
      expect.objectContaining({ message: "platform request", outcome: "ok" }),
    );
    expect(said()).not.toContain(sandbox.tokens.full);
    expect(stderr.join("")).not.toMatch(/debug:|info:/);
  });

  it("follows the client's level down as well as up", async () => {
    await client.setLoggingLevel("error");
    const before = messages.length;
    await client.callTool({ name: "search_hires", arguments: {} });
    await client.ping();
    expect(messages.slice(before)).toEqual([]);
  });
});
