#!/usr/bin/env node
// The MCP Inspector CLI signs in to the built server in `--http --auth oauth` mode (embedded
// sandbox as the platform) and calls list_accounts as the person who signed in: it discovers the
// metadata from the 401, registers itself, and runs the authorization-code flow with PKCE. This
// script plays the person's browser for it: this server's consent page, then the sandbox's, then
// back to the Inspector's callback listener. Once in each protocol era (2025-11-25 with a session,
// 2026-07-28 stateless), each with a fresh server and Inspector state. Needs `npm run build` first.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { INSPECTOR, NODE22 } from "./lib/external.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const TIME_LIMIT_MS = 120_000;
const work = mkdtempSync(join(tmpdir(), "workforce-inspector-oauth-"));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function check(condition, message) {
  if (!condition) throw new Error(`Assertion failed: ${message}`);
  console.log(`  ok  ${message}`);
}

/** A browser with a cookie jar that does not follow redirects by itself. */
class Browser {
  cookies = new Map();
  async request(url, init = {}) {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers ?? {}), ...(cookie ? { cookie } : {}) },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq > 0) this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  }
  postForm(url, form) {
    return this.request(url, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: new URL(url).origin,
      },
      body: new URLSearchParams(form),
    });
  }
}

/** From the Inspector's "navigate to" address to its callback listener, approving both pages. */
async function playBrowser(authorizeUrl) {
  const browser = new Browser();
  const consent = await browser.request(authorizeUrl);
  const page = await consent.text();
  check(consent.status === 200, "this server shows its own consent page naming the client");
  const request = /name="request" value="([^"]+)"/.exec(page)?.[1];
  const approved = await browser.postForm(new URL("/oauth/consent", authorizeUrl).href, {
    request,
    decision: "approve",
  });
  const platformAuthorize = approved.headers.get("location");
  check(
    approved.status === 302 && platformAuthorize?.includes("/oauth/authorize"),
    "approving it sends the browser to the platform's /oauth/authorize",
  );
  const platformPage = await browser.request(platformAuthorize);
  const platformHtml = await platformPage.text();
  const platformRequest = /name="request" value="([^"]+)"/.exec(platformHtml)?.[1];
  check(platformRequest !== undefined, "the platform (sandbox) shows its consent page");
  const platformApproved = await browser.postForm(
    new URL("/oauth/authorize", platformAuthorize).href,
    { request: platformRequest, identity: "limited", decision: "approve" },
  );
  const serverCallback = platformApproved.headers.get("location");
  check(serverCallback?.includes("/oauth/callback?code="), "the platform answers with a code");
  const back = await browser.request(serverCallback);
  const inspectorCallback = back.headers.get("location");
  check(
    back.status === 302 && inspectorCallback?.includes("code="),
    "this server sends the browser to the Inspector's callback with its own code",
  );
  const done = await fetch(inspectorCallback);
  check(done.ok, "the Inspector's callback listener accepts it");
}

/** The Inspector's --protocol-era values, with the protocol version each one speaks. */
const ERAS = [
  { era: "legacy", version: "2025-11-25" },
  { era: "modern", version: "2026-07-28" },
];

let server;
let inspector;

/** One sign-in, with a server and Inspector state of its own, in one protocol era. */
async function signIn({ era, version }) {
  const dir = join(work, era);
  mkdirSync(dir);
  const port = await freePort();
  const callbackPort = await freePort();
  const serverUrl = `http://127.0.0.1:${port}/mcp`;
  console.log(
    `\n--- ${version}: server: workforce-mcp --http --auth oauth on ${serverUrl} (embedded sandbox)`,
  );
  server = spawn(process.execPath, [CLI, "--http", "--port", String(port), "--auth", "oauth"], {
    cwd: dir,
    env: {
      ...process.env,
      WORKFORCE_API_URL: "",
      WORKFORCE_TOKEN: "",
      WORKFORCE_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise((resolve, reject) => {
    let text = "";
    server.stderr.on("data", (chunk) => {
      text += chunk;
      if (text.includes("listening on")) resolve();
    });
    server.once("exit", (code) => reject(new Error(`the server exited (${code}): ${text}`)));
  });

  console.log(
    `--- ${version}: Inspector CLI (--protocol-era ${era}): tools/call list_accounts, signing in with OAuth`,
  );
  inspector = spawn(
    "npx",
    [
      "-y",
      "-p",
      NODE22,
      "-p",
      INSPECTOR,
      "mcp-inspector",
      "--cli",
      "--format",
      "json",
      "--protocol-era",
      era,
      "--server-url",
      serverUrl,
      "--method",
      "tools/call",
      "--tool-name",
      "list_accounts",
      "--callback-url",
      `http://127.0.0.1:${callbackPort}/oauth/callback`,
    ],
    {
      cwd: dir,
      env: {
        ...process.env,
        npm_config_update_notifier: "false",
        npm_config_json: "false",
        // Interactive OAuth without a terminal: the Inspector "opens a browser" with $BROWSER,
        // here a command that does nothing (and no display), while this script plays it.
        MCP_AUTO_OPEN_ENABLED: "true",
        BROWSER: "true",
        DISPLAY: "",
        WAYLAND_DISPLAY: "",
        MCP_INSPECTOR_SECRET_STORE: "memory",
        MCP_STORAGE_DIR: dir,
        MCP_INSPECTOR_OAUTH_STATE_PATH: join(dir, "oauth-state.json"),
        MCP_CATALOG_PATH: join(dir, "mcp.json"),
        MCP_CLIENT_CONFIG_PATH: join(dir, "client.json"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  let browsing;
  inspector.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  inspector.stderr.on("data", (chunk) => {
    stderr += chunk;
    // The address may be wrapped in terminal styling; the URL itself has no spaces.
    const match = /navigate to:\s*(?:\S*?)(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes
      stderr.replace(/\u001b\[[0-9;]*m|\u001b\]8;;[^\u0007\u001b]*(\u0007|\u001b\\)/g, ""),
    );
    if (match && !browsing) {
      check(true, "the Inspector discovered the metadata and asks the person to sign in");
      browsing = playBrowser(match[1]);
      browsing.catch(() => {});
    }
  });
  const code = await Promise.race([
    new Promise((resolve) => inspector.once("close", resolve)),
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error("the Inspector did not finish in time")), TIME_LIMIT_MS),
    ),
  ]);
  if (browsing) await browsing;
  if (code !== 0) throw new Error(`the Inspector exited with ${code}\n${stderr}\n${stdout}`);
  const parsed = JSON.parse(stdout);
  const result = parsed.result ?? parsed;
  check(result.isError !== true, "list_accounts answers after signing in");
  check(
    result.structuredContent?.viewer?.name === "Oskar Berg",
    "… as the identity approved at the platform (the sandbox's limited user, Oskar Berg)",
  );
  check(
    (result._meta?.["io.modelcontextprotocol/serverInfo"] !== undefined) ===
      (version === "2026-07-28"),
    `… spoken in ${version}`,
  );
  inspector = undefined;
  await stop(server);
  server = undefined;
}

/** Ends a child process this script started, and waits until it has. */
async function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill();
  await exited;
}

let failed = false;
try {
  for (const era of ERAS) await signIn(era);
  console.log("\nInspector OAuth sign-in (2025-11-25 and 2026-07-28): OK");
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
  console.error("\nInspector OAuth sign-in: FAILED");
} finally {
  await stop(inspector);
  await stop(server);
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
