// A plain `mcpb pack` of the repository (what someone who knows mcpb but not this project runs)
// makes the small bundle: .mcpbignore keeps only the built server, which needs no node_modules.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = process.cwd();
const mcpb = path.join(root, "node_modules", ".bin", "mcpb");

describe("the bundle a plain `mcpb pack` makes", () => {
  const work = mkdtempSync(path.join(tmpdir(), "workforce-mcp-mcpb-"));
  const bundle = path.join(work, "workforce.mcpb");
  // Unpacked where no parent folder has a node_modules: the server must bring what it needs.
  const unpacked = path.join(work, "unpacked");
  let client: Client;
  const protocolErrors: Error[] = [];

  beforeAll(async () => {
    execFileSync(mcpb, ["pack", root, bundle], { cwd: root, stdio: "pipe" });
    execFileSync(mcpb, ["unpack", bundle, unpacked], { cwd: work, stdio: "pipe" });
    console.log(`[mcpb bundle] ${(statSync(bundle).size / 1024 / 1024).toFixed(2)} MB`);

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(unpacked, "dist", "cli.js")],
      env: {},
      cwd: unpacked,
      stderr: "pipe",
    });
    client = new Client({ name: "mcpb-e2e", version: "0" });
    client.onerror = (error) => protocolErrors.push(error);
    await client.connect(transport);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
  });

  it("is small: the built server, its manifest and its papers, no node_modules", () => {
    expect(statSync(bundle).size).toBeLessThan(10 * 1024 * 1024);
    expect(readdirSync(unpacked).sort()).toEqual([
      "LICENSE",
      "README.md",
      "dist",
      "manifest.json",
      "package.json",
    ]);
    expect(readdirSync(path.join(unpacked, "dist")).sort()).toEqual(["chunks", "cli.js"]);
  });

  it("carries a manifest that mcpb validates", () => {
    const out = execFileSync(mcpb, ["validate", path.join(unpacked, "manifest.json")], {
      encoding: "utf8",
    });
    expect(out).toMatch(/Manifest schema validation passes/);
  });

  it("starts from the unpacked bundle and lists its tools", async () => {
    expect(client.getInstructions()).toMatch(/SANDBOX MODE/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("search_hires");
    expect(protocolErrors).toEqual([]);
  });
});
