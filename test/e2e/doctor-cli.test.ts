// `workforce-mcp doctor` as a person runs it: the lines on stdout, the exit code, no token anywhere.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { closedPort } from "../client/helpers.js";

const cli = path.resolve(process.cwd(), "dist/cli.js");

/** Runs the built binary without blocking: the sandbox answers from this process. */
function doctor(env: Record<string, string>) {
  const cwd = mkdtempSync(path.join(tmpdir(), "workforce-mcp-doctor-"));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [cli, "doctor"],
      { cwd, env: { PATH: process.env.PATH ?? "", WORKFORCE_CONFIG_DIR: cwd, ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
  });
}

let sandbox: Sandbox;
beforeAll(async () => {
  if (!existsSync(cli)) throw new Error("dist/cli.js is missing: run `npm run build` first.");
  sandbox = await startSandbox({ rateLimitPerMinute: 0 });
});
afterAll(() => sandbox.close());

describe("workforce-mcp doctor", () => {
  it("exits 0 with a good token, one ok line per check on stdout", async () => {
    const run = await doctor({
      WORKFORCE_API_URL: sandbox.url,
      WORKFORCE_TOKEN: sandbox.tokens.full,
    });
    expect(run.code).toBe(0);
    expect(
      run.stdout
        .trim()
        .split("\n")
        .map((l) => l.split(":")[0]),
    ).toEqual(["ok      address", "ok      credential", "ok      accounts", "ok      rate budget"]);
    expect(run.stdout + run.stderr).not.toContain(sandbox.tokens.full);
  });

  it("ends quietly when its reader stops early (| head -1): no stack trace", async () => {
    const child = spawn(process.execPath, [cli, "doctor"], {
      env: {
        PATH: process.env.PATH ?? "",
        WORKFORCE_API_URL: sandbox.url,
        WORKFORCE_TOKEN: sandbox.tokens.full,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    // Like `head -1`: read the first line, then close the pipe.
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).not.toMatch(/EPIPE|at .*\.js:\d+/);
    expect(code).toBe(0);
  });

  it("exits 1 with a bad token, saying so and never printing it", async () => {
    const token = "wf_pat_mistyped_token_0042";
    const run = await doctor({ WORKFORCE_API_URL: sandbox.url, WORKFORCE_TOKEN: token });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^problem credential: .*refused it/m);
    expect(run.stdout + run.stderr).not.toContain(token);
  });

  it("exits 1 on an unreachable address, naming the host", async () => {
    const port = await closedPort();
    const run = await doctor({
      WORKFORCE_API_URL: `http://127.0.0.1:${port}`,
      WORKFORCE_TOKEN: sandbox.tokens.full,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(`^problem address: Nothing accepted the connection at 127\\.0\\.0\\.1:${port}`),
    );
  });
});
