// What `npm publish` would ship, installed the way a person or `npx` installs it: the packed tarball
// into an empty folder, then started over stdio with nothing configured (the embedded sandbox).
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TOKENS } from "../../src/sandbox/index.js";
import { Browser, freePort } from "../auth/helpers.js";
import { REDIS_MISSING, type RedisServer, startRedis } from "../redis/helpers.js";

const root = process.cwd();

function sizeOf(file: string): number {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(file).reduce((sum, entry) => sum + sizeOf(path.join(file, entry)), 0);
}
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

describe("the npm package, packed and installed into an empty folder", () => {
  const work = mkdtempSync(path.join(tmpdir(), "workforce-mcp-package-"));
  const project = path.join(work, "project");
  let tarball: string;
  let installLog: string;
  let files: string[] = [];
  let client: Client;
  const stderr: string[] = [];
  const protocolErrors: Error[] = [];

  beforeAll(async () => {
    // --ignore-scripts: global setup built dist/ already; `prepack` would rebuild it under the feet
    // of the other end-to-end tests running now.
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], {
        cwd: root,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      }),
    ) as { filename: string; files: { path: string }[] }[];
    tarball = path.join(work, packed[0]?.filename ?? "");
    files = packed[0]?.files.map((f) => f.path) ?? [];

    mkdirSync(project);
    writeFileSync(path.join(project, "package.json"), '{ "name": "empty", "private": true }\n');
    // From npm's cache where it can (CI's `npm ci` filled it); the network only for what is missing.
    const install = spawnSync(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball],
      { cwd: project, encoding: "utf8", timeout: 240_000 },
    );
    installLog = `${install.stdout}${install.stderr}`;
    if (install.status !== 0) throw new Error(`npm install failed:\n${installLog}`);

    console.log(
      `[npm package] tarball ${mb(statSync(tarball).size)}, installed ${mb(sizeOf(path.join(project, "node_modules")))}`,
    );

    const transport = new StdioClientTransport({
      command: path.join(project, "node_modules", ".bin", "workforce-mcp"),
      args: [],
      env: {},
      cwd: project,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
    client = new Client({ name: "package-e2e", version: "0" });
    client.onerror = (error) => protocolErrors.push(error);
    await client.connect(transport);
  }, 300_000);

  afterAll(async () => {
    await client?.close();
  });

  it("ships the built server and its license, not tsc's output or the sources", () => {
    expect(files).toEqual(
      expect.arrayContaining(["dist/cli.js", "package.json", "LICENSE", "README.md"]),
    );
    for (const file of files) expect(file).toMatch(/^(dist\/cli\.js|dist\/chunks\/|[A-Z]|package)/);
  });

  it("installs without a warning about an install-time script of its own", () => {
    expect(installLog).not.toMatch(/install-scripts|prepare|workforce-mcp@[\d.]+ \(/);
  });

  it("starts over stdio on the sandbox and lists its tools, stdout kept for the protocol", async () => {
    expect(client.getInstructions()).toMatch(/SANDBOX MODE/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("search_hires");
    expect(protocolErrors).toEqual([]);
  });

  it("installs nothing but itself: every dependency is inside the built server", () => {
    const installed = readdirSync(path.join(project, "node_modules")).filter(
      (d) => !d.startsWith("."),
    );
    expect(installed).toEqual(["workforce-mcp"]);
    // The bundle with its chunks, unminified so that stack traces stay readable, and the MCP Apps
    // views' browser script (minified; the ext-apps App class brings its own schemas).
    expect(sizeOf(path.join(project, "node_modules"))).toBeLessThan(6 * 1024 * 1024);
  });

  it("publishes cleanly (`npm publish --dry-run`) once the owner's fields are set", () => {
    // The tarball as packed, with the owner's fields filled the way a maintainer fills them
    // (scripts/set-owner.mjs); --ignore-scripts: the tarball has no sources to build again, and the
    // `prepublishOnly` check is tested in test/meta/server-json.test.ts.
    const unpacked = path.join(work, "publish");
    mkdirSync(unpacked);
    execFileSync("tar", ["xzf", tarball, "-C", unpacked]);
    const dir = path.join(unpacked, "package");
    copyFileSync(path.join(root, "server.json"), path.join(dir, "server.json"));
    const owner = spawnSync(
      process.execPath,
      [path.join(root, "scripts", "set-owner.mjs"), "acme-co"],
      {
        env: { ...process.env, WORKFORCE_PROJECT_DIR: dir },
        encoding: "utf8",
      },
    );
    expect(owner.status, owner.stderr).toBe(0);
    const publish = spawnSync("npm", ["publish", "--dry-run", "--ignore-scripts", "--json"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, npm_config_loglevel: "notice" },
    });
    expect(publish.status, publish.stderr).toBe(0);
    const published = JSON.parse(publish.stdout) as Record<string, { id: string }>;
    expect(Object.values(published)[0]?.id).toMatch(/^workforce-mcp@\d/);
    // The one warning left is this machine's: nobody is logged in to the registry.
    const warnings = publish.stderr
      .split("\n")
      .filter((line) => /npm warn/i.test(line))
      .filter((line) => !/requires you to be logged in/.test(line));
    expect(warnings).toEqual([]);
  });

  describe("every other start path of the installed binary", () => {
    const bin = () => path.join(project, "node_modules", ".bin", "workforce-mcp");
    const home = mkdtempSync(path.join(tmpdir(), "workforce-mcp-package-home-"));
    const baseEnv = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      WORKFORCE_CONFIG_DIR: path.join(home, "config"),
    };
    const children: ChildProcess[] = [];
    let redis: RedisServer | undefined;
    const loginEnv: Record<string, string> = {};

    /** Starts the installed binary; resolves with what it printed once `pattern` shows. */
    function start(args: string[], env: Record<string, string>, pattern: RegExp) {
      const child = spawn(bin(), args, {
        cwd: project,
        env: { ...baseEnv, ...env },
        stdio: "pipe",
      });
      children.push(child);
      let out = "";
      return new Promise<{ match: RegExpMatchArray; out: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${pattern} in:\n${out}`)), 20_000);
        const check = (chunk: Buffer) => {
          out += chunk.toString("utf8");
          const match = out.match(pattern);
          if (match) {
            clearTimeout(timer);
            resolve({ match, out });
          }
        };
        child.stdout?.on("data", check);
        child.stderr?.on("data", check);
        child.on("exit", (code) => reject(new Error(`exited ${code}:\n${out}`)));
      });
    }

    async function serves(url: string, version: string, headers?: Record<string, string>) {
      const http = new Client(
        { name: "package-http", version: "0" },
        version === "2026-07-28" ? { versionNegotiation: { mode: { pin: version } } } : {},
      );
      await http.connect(
        new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
      );
      try {
        expect(http.getNegotiatedProtocolVersion()).toBe(version);
        const result = await http.callTool({ name: "get_hire", arguments: { hireId: "hire_001" } });
        expect(result.isError).toBeFalsy();
      } finally {
        await http.close();
      }
    }

    beforeAll(async () => {
      const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
      const { out: listing } = await start(
        ["sandbox", "--port", "0", "--rate-limit", "0", "--redirect-uri", redirectUri],
        {},
        /Press Ctrl\+C/,
      );
      for (const m of listing.matchAll(/export (WORKFORCE_[A-Z_]+)=(\S+)/g)) {
        loginEnv[m[1] as string] = m[2] as string;
      }
      if (!REDIS_MISSING) redis = await startRedis();
    }, 60_000);
    afterAll(async () => {
      for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
      await redis?.close();
    });

    it("sandbox: serves the platform with its OAuth client", () => {
      expect(loginEnv.WORKFORCE_API_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
      expect(loginEnv.WORKFORCE_CLIENT_ID).toBeTruthy();
    });

    it("login and status: signs in through the browser, then says who", async () => {
      const {
        match: [address],
      } = await start(["login", "--no-browser"], loginEnv, /http:\/\/\S+\/oauth\/authorize\?\S+/);
      const browser = await new Browser().signIn(address, { identity: "limited" });
      expect(browser.text).toContain("Signed in to");
      const status = spawnSync(bin(), ["status"], {
        cwd: project,
        env: { ...baseEnv, WORKFORCE_API_URL: loginEnv.WORKFORCE_API_URL ?? "" },
        encoding: "utf8",
        timeout: 15_000,
      });
      expect(status.stdout).toMatch(/Identity: +Oskar Berg/);
    }, 30_000);

    it("--http: serves both protocol versions on the embedded sandbox", async () => {
      const {
        match: [, url],
      } = await start(["--http", "--port", "0"], {}, /listening on (http:\/\/\S+\/mcp)/);
      await serves(url as string, "2026-07-28");
      await serves(url as string, "2025-11-25");
    });

    it.skipIf(REDIS_MISSING)("--http with Redis: loads the shared store and serves", async () => {
      const {
        match: [, url],
      } = await start(
        ["--http", "--port", "0", "--token-passthrough"],
        {
          WORKFORCE_API_URL: loginEnv.WORKFORCE_API_URL ?? "",
          WORKFORCE_REDIS_URL: redis?.url ?? "",
          WORKFORCE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
        },
        /listening on (http:\/\/\S+\/mcp)/,
      );
      await serves(url as string, "2026-07-28", { Authorization: `Bearer ${SANDBOX_TOKENS.full}` });
    });
  });
});
