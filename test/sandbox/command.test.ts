// Runs the real CLI from dist (test/global-setup.ts rebuilds it when src/ changed) and talks to the sandbox it starts.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const cli = path.resolve(process.cwd(), "dist/cli.js");
let child: ChildProcess;
let stdout = "";
let stderr = "";

function waitFor(pattern: RegExp, timeoutMs = 10_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`timed out waiting for ${pattern}; stdout: ${stdout}; stderr: ${stderr}`)),
      timeoutMs,
    );
    const check = () => {
      const m = stdout.match(pattern);
      if (m) {
        clearTimeout(timer);
        child.stdout?.off("data", check);
        resolve(m);
      }
    };
    child.stdout?.on("data", check);
    check();
  });
}

beforeAll(() => {
  if (!existsSync(cli)) throw new Error("dist/cli.js is missing: run `npm run build` first.");
  const env: NodeJS.ProcessEnv = { ...process.env, WORKFORCE_SANDBOX_RATE_LIMIT: "7" };
  delete env.WORKFORCE_API_URL;
  delete env.WORKFORCE_TOKEN;
  child = spawn(process.execPath, [cli, "sandbox", "--port", "0"], { env, stdio: "pipe" });
  child.stdout?.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  child.stderr?.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
});

afterAll(() => {
  if (child.exitCode === null) child.kill("SIGKILL");
});

describe("workforce-mcp sandbox", () => {
  it("prints the URL, both tokens, a curl example and how to point the server at it", async () => {
    await waitFor(/Press Ctrl\+C/);
    const url = stdout.match(/GraphQL endpoint: (http:\/\/127\.0\.0\.1:\d+\/graphql)/)?.[1];
    expect(url).toBeDefined();
    expect(stdout).toContain("sandbox-full-4f1c9d2e7b");
    expect(stdout).toContain("sandbox-limited-8a3e6b0c51");
    expect(stdout).toMatch(/Maja Lindqvist/);
    expect(stdout).toMatch(/Oskar Berg/);
    expect(stdout).toMatch(/curl -s http:\/\/127\.0\.0\.1:\d+\/graphql/);
    expect(stdout).toMatch(
      /WORKFORCE_API_URL=http:\/\/127\.0\.0\.1:\d+ WORKFORCE_TOKEN=sandbox-full-4f1c9d2e7b/,
    );
    expect(stdout).toMatch(/7 requests a minute per token/);
    expect(stderr).not.toContain("sandbox-full-4f1c9d2e7b");

    const res = await fetch(url as string, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: "Bearer sandbox-limited-8a3e6b0c51",
      },
      body: JSON.stringify({ query: "{ viewer { name } }" }),
    });
    expect(await res.json()).toEqual({ data: { viewer: { name: "Oskar Berg" } } });
  });

  it("stops cleanly on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => resolve(code)),
    );
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
