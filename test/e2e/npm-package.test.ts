// What `npm publish` would ship, installed the way a person or `npx` installs it: the packed tarball
// into an empty folder, then started over stdio with nothing configured (the embedded sandbox).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

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
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--json=false", tarball],
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
});
