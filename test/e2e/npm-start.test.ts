// `npm start` is the quick start's way to serve over stdio; `npm start --silent` is what someone
// puts in a client's configuration when running from a clone (the README says so): every line it
// writes to stdout must be protocol. npm prints its script banner on stdout unless it is silent
// (or in json mode, which the project no longer sets: that put npm's own JSON on stdout instead).
import { spawn, spawnSync } from "node:child_process";
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

// Without the npm_* variables of the `npm test` running this: npm behaves as it would for a person.
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !/^npm_/i.test(name) && !name.startsWith("WORKFORCE_"),
  ),
);

describe("npm start --silent over stdio", () => {
  it("writes only JSON-RPC messages to stdout", async () => {
    const child = spawn("npm", ["start", "--silent"], { cwd: process.cwd(), env, stdio: "pipe" });
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
    expect(stderr).not.toContain("> workforce-mcp@");
    expect(code).toBe(0);
  }, 60_000);

  it("writes nothing to stdout when the server stops with an error, not even npm's own JSON", () => {
    const run = spawnSync("npm", ["start", "--silent", "--", "--no-such-option"], {
      cwd: process.cwd(),
      env,
      input: "",
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("Unknown option '--no-such-option'");
  });

  it("the project sets no npm json mode, so `npm install` prints npm's usual summary", () => {
    const json = spawnSync("npm", ["config", "get", "json"], {
      cwd: process.cwd(),
      env,
      encoding: "utf8",
    });
    expect(json.stdout.trim()).toBe("false");
  });
});
