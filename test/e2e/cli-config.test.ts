import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const cli = path.resolve(process.cwd(), "dist/cli.js");

/** Runs the built binary in a fresh folder with only the given environment (and PATH). */
function run(env: Record<string, string>, options: { args?: string[]; dotenv?: string } = {}) {
  const cwd = mkdtempSync(path.join(tmpdir(), "workforce-mcp-config-"));
  if (options.dotenv !== undefined) writeFileSync(path.join(cwd, ".env"), options.dotenv);
  const result = spawnSync(process.execPath, [cli, ...(options.args ?? [])], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
    input: "",
    timeout: 10_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, cwd };
}

const platform = { WORKFORCE_API_URL: "https://api.example.com", WORKFORCE_TOKEN: "pat-secret-1" };

describe("the built binary refuses a bad configuration with one clear line and exit 2", () => {
  beforeAll(() => {
    if (!existsSync(cli)) throw new Error("dist/cli.js is missing: run `npm run build` first.");
  });

  it.each([
    [
      "credentials in the URL",
      { WORKFORCE_API_URL: "http://user:hunter2@api.example.com" },
      /must not contain a user name or password/,
    ],
    [
      "an ftp URL",
      { WORKFORCE_API_URL: "ftp://api.example.com" },
      /must start with https:\/\/ or http:\/\/, not ftp:/,
    ],
    ["a file URL", { WORKFORCE_API_URL: "file:///etc/passwd" }, /not file:/],
    ["a javascript URL", { WORKFORCE_API_URL: "javascript:alert(1)" }, /not javascript:/],
    [
      "a time-out past Node's timers",
      { WORKFORCE_TIMEOUT_MS: "3000000000" },
      /WORKFORCE_TIMEOUT_MS must be a whole number from 100 to 600000/,
    ],
    [
      "a session cap of 0",
      { WORKFORCE_MAX_SESSIONS: "0" },
      /WORKFORCE_MAX_SESSIONS must be a whole number/,
    ],
    [
      "an unknown toolset",
      { WORKFORCE_TOOLSETS: "payroll" },
      /toolsets must be a comma-separated list/,
    ],
  ])("%s", (_what, env, message) => {
    const out = run({ ...platform, ...env });
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    const lines = out.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(message);
    expect(lines[1]).toMatch(/--help/);
    // Neither the token nor URL credentials are ever printed.
    expect(out.stderr).not.toContain("pat-secret-1");
    expect(out.stderr).not.toContain("hunter2");
  });

  it("refuses a .env that would send a token from the real environment elsewhere, naming both sources", () => {
    const out = run(
      { WORKFORCE_TOKEN: "pat-secret-1" },
      { dotenv: "WORKFORCE_API_URL=https://attacker.example\n" },
    );
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(
      /WORKFORCE_API_URL comes from .*\.env but WORKFORCE_TOKEN comes from the environment/,
    );
    expect(out.stderr).not.toContain("pat-secret-1");
  });

  it("still reads settings from .env when they redirect nothing", () => {
    const out = run({}, { dotenv: "WORKFORCE_TIMEOUT_MS=3000000000\n" });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/WORKFORCE_TIMEOUT_MS must be a whole number/);
  });
});

describe("--help", () => {
  it("names the doctor command and says that nothing configured means the sandbox", () => {
    const out = run({}, { args: ["--help"] });
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(
      /^ {2}workforce-mcp doctor {2,}check the address, the token or sign-in/m,
    );
    expect(out.stdout).toMatch(
      /With neither WORKFORCE_API_URL nor WORKFORCE_TOKEN set, the server uses the embedded sandbox: sample\ndata, nothing real/,
    );
  });
});
