// A real browser: headless Chromium (the Debian package) opens the sandbox's consent page,
// approves, follows the redirect to `workforce-mcp login`'s listener, and the login finishes.
// Skipped, with the reason printed, where /usr/bin/chromium is not installed.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignInStore } from "../../src/auth/store.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { registerClient } from "../auth/helpers.js";
import { chromiumAvailable, launchChromium } from "../helpers/chromium.js";

const available = chromiumAvailable("login-browser");

const cli = path.resolve(process.cwd(), "dist/cli.js");

describe.skipIf(!available)("login with headless Chromium", () => {
  let sandbox: Sandbox;
  let login: ChildProcess | undefined;

  beforeAll(async () => {
    if (!existsSync(cli)) throw new Error("dist/cli.js is missing: run `npm run build` first.");
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
  });
  afterAll(async () => {
    if (login && login.exitCode === null) login.kill("SIGTERM");
    await sandbox?.close();
  });

  it("opens the consent page, approves, and the login finishes", async () => {
    const client = await registerClient(sandbox, "workforce-mcp (Chromium test)");
    const home = mkdtempSync(path.join(tmpdir(), "workforce-mcp-chromium-"));
    const configDir = path.join(home, "config");
    const child = spawn(process.execPath, [cli, "login", "--no-browser"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        WORKFORCE_CONFIG_DIR: configDir,
        WORKFORCE_API_URL: sandbox.url,
        WORKFORCE_CLIENT_ID: client.id,
        WORKFORCE_CLIENT_SECRET: client.secret,
        WORKFORCE_REDIRECT_URI: client.redirectUri,
      },
      stdio: "pipe",
    });
    login = child;
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (d: string) => {
      out += d;
    });
    child.stderr?.setEncoding("utf8").on("data", (d: string) => {
      out += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address printed: ${out}`)), 15_000);
      const check = () => {
        const m = /http:\/\/\S+\/oauth\/authorize\?\S+/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[0]);
        }
      };
      child.stdout?.on("data", check);
      check();
    });

    const context = await launchChromium();
    try {
      const page = await context.newPage();
      await page.goto(address);
      expect(await page.title()).toBe("Sign in to the sandbox platform");
      expect(await page.textContent("body")).toContain("workforce-mcp (Chromium test)");
      await page.check("#identity-full");
      await Promise.all([
        page.waitForURL((url) => url.href.startsWith(client.redirectUri)),
        page.click("#approve"),
      ]);
      await page.waitForSelector("#result");
      expect(await page.textContent("#result")).toBe("Signed in");
      expect(await page.textContent("body")).toContain("Maja Lindqvist");
    } finally {
      await context.close();
    }

    expect(await exited, out).toBe(0);
    expect(out).toMatch(/Signed in to http:\/\/127\.0\.0\.1:\d+ as Maja Lindqvist/);
    const stored = new SignInStore(configDir).get(sandbox.url);
    expect(stored?.identity.name).toBe("Maja Lindqvist");
    expect(out).not.toContain(stored?.accessToken ?? "?");
    expect(out).not.toContain(client.secret);
  }, 60_000);
});
