// The built binary over stdio when the client misbehaves: a message over the size limit is
// answered and the session goes on; a client that closes our stdout ends the process cleanly.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, ProtocolError } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAX_STDIO_MESSAGE_BYTES } from "../../src/transports/stdio-guard.js";

const cli = path.resolve(process.cwd(), "dist/cli.js");
const emptyDir = () => mkdtempSync(path.join(tmpdir(), "workforce-mcp-e2e-"));
const TEN_MIB = 10 * 1024 * 1024;

beforeAll(() => {
  if (!existsSync(cli)) throw new Error("dist/cli.js is missing: run `npm run build` first.");
});

/** The binary with nothing configured (embedded sandbox), spoken to line by line. */
class RawSession {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: Record<string, unknown>[] = [];
  readonly nonProtocol: string[] = [];
  stderr = "";
  private partial = "";
  private waiters: (() => void)[] = [];

  constructor() {
    // Only PATH and HOME: no WORKFORCE_*; an empty directory: no .env.
    this.child = spawn(process.execPath, [cli], {
      cwd: emptyDir(),
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
    });
    // Writing to a server that has exited is expected in the EPIPE test; not a test failure.
    this.child.stdin.on("error", () => {});
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString("utf8");
    });
    this.child.stdout.on("data", (chunk: Buffer) => {
      const lines = (this.partial + chunk.toString("utf8")).split("\n");
      this.partial = lines.pop() ?? "";
      for (const line of lines) {
        try {
          this.messages.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          this.nonProtocol.push(line);
        }
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  send(message: unknown): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  async waitFor(
    match: (m: Record<string, unknown>) => boolean,
    ms = 15_000,
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error("no such message from the server");
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  async initialize(): Promise<void> {
    this.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "stdio-robustness", version: "0" },
      },
    });
    await this.waitFor((m) => m.id === 1);
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  exited(ms = 15_000): Promise<{ code: number | null; signal: string | null }> {
    return new Promise((resolve, reject) => {
      if (this.child.exitCode !== null) {
        resolve({ code: this.child.exitCode, signal: null });
        return;
      }
      const timer = setTimeout(() => reject(new Error("the server did not exit")), ms);
      this.child.once("exit", (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal });
      });
    });
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
  }
}

let session: RawSession | undefined;
afterEach(() => {
  session?.kill();
  session = undefined;
});

const errorOf = (m: Record<string, unknown>) => m.error as { code: number; message: string };

describe("a stdio message over the size limit", () => {
  it("is answered with -32600 and the id, logged once, and the session serves the next call", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli],
      env: {},
      cwd: emptyDir(),
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const client = new Client({ name: "stdio-robustness", version: "0" });
    const protocolErrors: Error[] = [];
    client.onerror = (error) => protocolErrors.push(error);
    await client.connect(transport);
    try {
      // The TS SDK writes the id last, after the 10 MiB of params.
      const refused = await client
        .callTool({ name: "search_hires", arguments: { search: "x".repeat(TEN_MIB) } })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(refused).toBeInstanceOf(ProtocolError);
      expect((refused as ProtocolError).code).toBe(-32600);
      expect((refused as ProtocolError).message).toMatch(/message too large/);

      const after = await client.callTool({ name: "search_hires", arguments: { search: "Ana" } });
      expect(after.isError).toBeFalsy();
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);

      const refusals = stderr.split("\n").filter((l) => l.includes("Refused a stdio message"));
      expect(refusals).toHaveLength(1);
      expect(refusals[0]).toContain(String(MAX_STDIO_MESSAGE_BYTES));
      expect(protocolErrors).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("is answered without an id when none can be read, and later messages still work", async () => {
    session = new RawSession();
    await session.initialize();
    // The id sits between two big members: not worth parsing megabytes to find it.
    session.send({
      params: { name: "search_hires", arguments: { search: "x".repeat(3 * 1024 * 1024) } },
      id: 40,
      _meta: { padding: "x".repeat(3 * 1024 * 1024) },
      method: "tools/call",
      jsonrpc: "2.0",
    });
    // A notification just over the limit: it has no id to answer with.
    session.send({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { note: "y".repeat(MAX_STDIO_MESSAGE_BYTES) },
    });
    // A response (no method) keeps its id to itself: answering with it would confuse the client.
    session.send({ jsonrpc: "2.0", id: 5, result: { blob: "r".repeat(TEN_MIB) } });
    // The id first, as many non-TS clients write it.
    session.send({
      jsonrpc: "2.0",
      id: "big-one",
      method: "tools/call",
      params: { name: "search_hires", arguments: { search: "z".repeat(TEN_MIB) } },
    });
    session.send({ jsonrpc: "2.0", id: 41, method: "tools/list" });

    const listed = await session.waitFor((m) => m.id === 41);
    expect(listed.result).toBeDefined();
    const refusals = session.messages.filter((m) => m.error && errorOf(m).code === -32600);
    expect(refusals.map((m) => ("id" in m ? m.id : "no id"))).toEqual([
      "no id",
      "no id",
      "no id",
      "big-one",
    ]);
    for (const m of refusals) expect(errorOf(m).message).toMatch(/^message too large/);
    expect(session.nonProtocol).toEqual([]);
    expect(session.stderr.match(/Refused a stdio message/g)).toHaveLength(4);
  });
});

describe("a client that closes its end of stdout", () => {
  it("makes the server exit with 0, one line on stderr and no stack trace", async () => {
    session = new RawSession();
    await session.initialize();
    const before = session.stderr;
    session.child.stdout.destroy();
    // The answer to this request is the write that meets the closed pipe.
    session.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const { code, signal } = await session.exited();
    expect(signal).toBeNull();
    expect(code).toBe(0);
    const added = session.stderr.slice(before.length).trim();
    expect(added.split("\n").filter(Boolean).length).toBeLessThanOrEqual(1);
    expect(session.stderr).not.toMatch(/\n\s+at |EPIPE|Error:/);
  });
});
