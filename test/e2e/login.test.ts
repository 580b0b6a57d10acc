// As a new user would: `workforce-mcp sandbox` in one process, `workforce-mcp login` against it in
// another (the test plays the browser), then `status`, the MCP server with no WORKFORCE_TOKEN,
// and `logout`. All from dist/cli.js, each with a temporary config folder and home.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN_FILE, type StoredSignIn } from "../../src/auth/store.js";
import { Browser, expectNoSecret, freePort } from "../auth/helpers.js";

const cli = path.resolve(process.cwd(), "dist/cli.js");
const home = mkdtempSync(path.join(tmpdir(), "workforce-mcp-login-e2e-"));
const configDir = path.join(home, "config");
const cwd = mkdtempSync(path.join(tmpdir(), "workforce-mcp-login-cwd-"));
/** Everything the person saw from every command except the sandbox's own listing. */
const outputs: string[] = [];
let sandbox: ChildProcess;
let sandboxOut = "";
const loginEnv: Record<string, string> = {};
let stored: StoredSignIn | undefined;
let code = "";

function baseEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: home, WORKFORCE_CONFIG_DIR: configDir };
}

function run(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    env: { ...baseEnv(), ...env },
    encoding: "utf8",
    input: "",
    timeout: 15_000,
  });
  outputs.push(result.stdout, result.stderr);
  return result;
}

/** Resolves when the child's stdout matches. */
function waitForOutput(
  child: ChildProcess,
  read: () => string,
  pattern: RegExp,
  timeoutMs = 15_000,
) {
  return new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${pattern}`)),
      timeoutMs,
    );
    const check = () => {
      const m = read().match(pattern);
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

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error("dist/cli.js is missing: run `npm run build` first.");
  // Registered with the sandbox before `login` listens on it: the port must be known in advance
  // (see freePort in ../auth/helpers.ts).
  const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  sandbox = spawn(
    process.execPath,
    [cli, "sandbox", "--port", "0", "--rate-limit", "0", "--redirect-uri", redirectUri],
    { cwd, env: baseEnv(), stdio: "pipe" },
  );
  sandbox.stdout?.setEncoding("utf8").on("data", (d: string) => {
    sandboxOut += d;
  });
  await waitForOutput(sandbox, () => sandboxOut, /Press Ctrl\+C/);
  for (const m of sandboxOut.matchAll(/export (WORKFORCE_[A-Z_]+)=(\S+)/g)) {
    loginEnv[m[1] as string] = m[2] as string;
  }
});

afterAll(() => {
  if (sandbox && sandbox.exitCode === null) sandbox.kill("SIGTERM");
});

describe("signing in with the platform's OAuth, from the built binary", () => {
  it("the sandbox prints its OAuth client (id, secret, redirect URL) and the settings for login", () => {
    expect(sandboxOut).toMatch(/Client id: +sandbox-workforce-mcp/);
    expect(sandboxOut).toMatch(/Client secret: +\S+/);
    expect(Object.keys(loginEnv).sort()).toEqual([
      "WORKFORCE_API_URL",
      "WORKFORCE_CLIENT_ID",
      "WORKFORCE_CLIENT_SECRET",
      "WORKFORCE_REDIRECT_URI",
    ]);
  });

  it("login: a stray request first gets 400 (RFC 8252 §8.9), the browser approves, and it says who signed in and when to sign in again", async () => {
    const login = spawn(process.execPath, [cli, "login", "--no-browser"], {
      cwd,
      env: { ...baseEnv(), ...loginEnv },
      stdio: "pipe",
    });
    let out = "";
    let err = "";
    login.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d;
    });
    login.stderr.setEncoding("utf8").on("data", (d: string) => {
      err += d;
    });
    const exited = new Promise<number | null>((resolve) => login.on("exit", resolve));
    const [address] = await waitForOutput(login, () => out, /http:\/\/\S+\/oauth\/authorize\?\S+/);
    // Another local process, or a web page's <img>, reaches the listener before the browser.
    const stray = await fetch(new URL("/favicon.ico", loginEnv.WORKFORCE_REDIRECT_URI));
    expect(stray.status).toBe(400);
    const browser = await new Browser().signIn(address, { identity: "limited" });
    code = browser.location.searchParams.get("code") ?? "";
    expect(browser.text).toContain("Signed in to");
    expect(await exited, err).toBe(0);
    outputs.push(out, err, browser.text);

    expect(out).toMatch(/Open this address in your browser/);
    expect(out).toMatch(/Signed in to http:\/\/127\.0\.0\.1:\d+ as Oskar Berg <oskar\.berg@/);
    expect(out).toMatch(/renewed with `workforce-mcp login` by \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const file = path.join(configDir, SIGN_IN_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    stored = JSON.parse(readFileSync(file, "utf8")).signIns[loginEnv.WORKFORCE_API_URL ?? ""];
    expect(stored?.identity.name).toBe("Oskar Berg");
  });

  it("status shows the identity, the platform, the kind of token and its expiry, never the token", () => {
    const status = run(["status"], { WORKFORCE_API_URL: loginEnv.WORKFORCE_API_URL ?? "" });
    expect(status.status).toBe(0);
    expect(status.stdout).toContain(`Platform:   ${loginEnv.WORKFORCE_API_URL}`);
    expect(status.stdout).toMatch(/Identity: +Oskar Berg/);
    expect(status.stdout).toMatch(/Credential: OAuth access token/);
    expect(status.stdout).toMatch(/Expiry: +access token valid until \d{4}-/);
    expect(status.stdout).toMatch(/Check: +the platform accepts it: Oskar Berg/);
  });

  it("the MCP server uses the sign-in: no WORKFORCE_TOKEN anywhere", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli],
      env: { ...baseEnv(), WORKFORCE_API_URL: loginEnv.WORKFORCE_API_URL ?? "" },
      cwd,
      stderr: "pipe",
    });
    const stderr: string[] = [];
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
    const client = new Client({ name: "login-e2e", version: "0" });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: "search_hires", arguments: { first: 50 } });
      expect(result.isError).toBeFalsy();
      const text = JSON.stringify(result.content);
      // The limited identity sees Nordlys Energi only.
      expect(text).toContain("Nordlys");
      expect(text).not.toContain("Harbor & Pine");
      outputs.push(text);
    } finally {
      await client.close();
    }
    const log = stderr.join("");
    outputs.push(log);
    expect(log).toMatch(/Signed in as Oskar Berg/);
    expect(log).not.toMatch(/embedded sandbox/);
  });

  it("CWE-732: the server does not start from a sign-in others could have swapped in; it names the path and the fix", () => {
    const platform = { WORKFORCE_API_URL: loginEnv.WORKFORCE_API_URL ?? "" };
    const file = path.join(configDir, SIGN_IN_FILE);
    for (const [target, mode, fix] of [
      [configDir, 0o777, `chmod 700 ${configDir}`],
      [file, 0o666, `chmod 600 ${file}`],
    ] as const) {
      chmodSync(target, mode);
      try {
        const server = run([], platform);
        expect(server.status).toBe(2);
        // Stdio mode: stdout is the protocol's alone; the refusal goes to stderr.
        expect(server.stdout).toBe("");
        expect(server.stderr).toContain(`Refusing`);
        expect(server.stderr).toContain(`(mode ${mode.toString(8)})`);
        expect(server.stderr).toContain(fix);
        const status = run(["status"], platform);
        expect(status.status).toBe(1);
        expect(status.stderr).toContain(fix);
        expect(status.stdout).not.toMatch(/Oskar Berg/);
      } finally {
        chmodSync(target, target === configDir ? 0o700 : 0o600);
      }
    }
  });

  it("logout forgets the tokens; the server then says how to sign in", () => {
    const logout = run(["logout"], {});
    expect(logout.status).toBe(0);
    expect(logout.stdout).toMatch(/Signed out of http:\/\/127\.0\.0\.1:\d+ \(Oskar Berg/);
    expect(existsSync(path.join(configDir, SIGN_IN_FILE))).toBe(false);

    const server = run([], { WORKFORCE_API_URL: loginEnv.WORKFORCE_API_URL ?? "" });
    expect(server.status).toBe(2);
    expect(server.stderr).toMatch(
      /no sign-in for WORKFORCE_API_URL\. Sign in with `workforce-mcp login`/,
    );
  });

  it("printed no token, code or client secret anywhere", () => {
    expect(stored).toBeDefined();
    const secrets = [
      stored?.accessToken,
      stored?.refreshToken,
      loginEnv.WORKFORCE_CLIENT_SECRET,
      code,
    ].filter((s): s is string => Boolean(s));
    expect(secrets.length).toBe(4);
    expectNoSecret(outputs, secrets);
  });
});
