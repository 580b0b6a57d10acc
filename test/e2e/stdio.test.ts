import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TOKENS } from "../../src/sandbox/index.js";

const cli = path.resolve(process.cwd(), "dist/cli.js");

describe("the built binary over stdio, with nothing configured", () => {
  let client: Client;
  let transport: StdioClientTransport;
  const stderr: string[] = [];
  const protocolErrors: Error[] = [];

  beforeAll(async () => {
    if (!existsSync(cli)) throw new Error("dist/cli.js is missing: run `npm run build` first.");
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli],
      // Only the SDK's safe defaults (PATH, HOME, ...): no WORKFORCE_*; an empty directory: no .env.
      env: {},
      cwd: mkdtempSync(path.join(tmpdir(), "workforce-mcp-e2e-")),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
    client = new Client({ name: "stdio-e2e", version: "0" });
    // Anything on stdout that is not a protocol message surfaces here.
    client.onerror = (error) => protocolErrors.push(error);
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("starts the embedded sandbox and says so on stderr, not stdout", async () => {
    expect(client.getInstructions()).toMatch(/SANDBOX MODE/);
    expect(stderr.join("")).toMatch(/embedded sandbox/);
  });

  it("lists tools, calls search_hires and reads workforce://schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("search_hires");

    const result = await client.callTool({ name: "search_hires", arguments: {} });
    expect(result.isError).toBeFalsy();
    const text = JSON.stringify(result.content);
    expect(text).toContain("[Sandbox]");

    const schema = await client.readResource({ uri: "workforce://schema" });
    const first = schema.contents[0];
    expect(first && "text" in first ? first.text : "").toMatch(/## Queries\n[\s\S]*hires\(/);
  });

  it("kept stdout for the protocol and the token out of stderr", () => {
    expect(protocolErrors).toEqual([]);
    const log = stderr.join("");
    for (const token of Object.values(SANDBOX_TOKENS)) expect(log).not.toContain(token);
  });
});
