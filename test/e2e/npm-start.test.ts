// `npm start` is the quick start's way to serve over stdio, and what someone puts in a client's
// configuration when running from a clone: every line it writes to stdout must be protocol.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "npm-start-e2e", version: "0" },
  },
};

describe("npm start over stdio", () => {
  it("writes only JSON-RPC messages to stdout (npm's script banner goes to stderr)", async () => {
    // Without the npm_* variables of the `npm test` running this: the project's own npm settings
    // must do it, as they would for a person typing `npm start`.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) => !/^npm_/i.test(name) && !name.startsWith("WORKFORCE_"),
      ),
    );
    const child = spawn("npm", ["start"], { cwd: process.cwd(), env, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const answered = new Promise<void>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString("utf8");
        if (stdout.includes('"id":1')) resolve();
      });
    });
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    await answered;
    // End of input ends the server, and npm with it.
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));

    const lines = stdout.split("\n").filter((line) => line.trim() !== "");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({
      id: 1,
      result: { protocolVersion: "2025-06-18" },
    });
    expect(stderr).toContain("> workforce-mcp@");
    expect(code).toBe(0);
  }, 60_000);
});
