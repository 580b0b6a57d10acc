// A plain `mcpb pack` of the repository (what someone who knows mcpb but not this project runs)
// makes the small bundle: .mcpbignore keeps only the built server, which needs no node_modules.
// In a tree that is not built it stops, instead of packing a bundle with no server.
import { execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectWithTypeError } from "../helpers/build.js";

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
    expect(readdirSync(path.join(unpacked, "dist")).sort()).toEqual([
      "chunks",
      "cli.js",
      "icon.png",
    ]);
  });

  it("carries a manifest that mcpb validates", () => {
    const out = execFileSync(mcpb, ["validate", path.join(unpacked, "manifest.json")], {
      encoding: "utf8",
    });
    expect(out).toMatch(/Manifest schema validation passes/);
  });

  it("starts from the unpacked bundle and serves the tools its manifest names: listed, or found", async () => {
    expect(client.getInstructions()).toMatch(/SANDBOX MODE/);
    const { tools } = await client.listTools();
    const manifest = JSON.parse(readFileSync(path.join(unpacked, "manifest.json"), "utf8"));
    // A core is listed at first; find_tools names every other tool the server reaches.
    const found = await client.callTool({ name: "find_tools", arguments: {} });
    const out = found.structuredContent as { tools: { name: string }[]; more: string[] };
    const unlisted = [...out.tools.map((t) => t.name), ...out.more];
    expect([...tools.map((t) => t.name), ...unlisted].sort()).toEqual(
      manifest.tools.map((tool: { name: string }) => tool.name).sort(),
    );
    expect(protocolErrors).toEqual([]);
  });

  it("offers the prompts its manifest names, with their descriptions and arguments", async () => {
    const { prompts } = await client.listPrompts();
    const manifest = JSON.parse(readFileSync(path.join(unpacked, "manifest.json"), "utf8"));
    expect(prompts.length).toBeGreaterThan(0);
    expect(
      prompts.map((p) => ({
        name: p.name,
        description: p.description,
        arguments: (p.arguments ?? []).map((a) => a.name),
      })),
    ).toEqual(
      manifest.prompts.map((p: { name: string; description: string; arguments?: string[] }) => ({
        name: p.name,
        description: p.description,
        arguments: p.arguments ?? [],
      })),
    );
    expect(manifest.prompts_generated).not.toBe(true);
    expect(protocolErrors).toEqual([]);
  });
});

describe("a plain `mcpb pack` of a tree that is not built", () => {
  /** A clone's files as git has them (no dist/), packed with mcpb as it stands. */
  function packClone(withDist: (dir: string) => void = () => {}) {
    const clone = mkdtempSync(path.join(tmpdir(), "workforce-mcp-unbuilt-"));
    for (const file of ["manifest.json", ".mcpbignore", "package.json", "README.md", "LICENSE"])
      copyFileSync(path.join(root, file), path.join(clone, file));
    withDist(clone);
    const bundle = path.join(clone, "workforce.mcpb");
    const pack = spawnSync(mcpb, ["pack", clone, bundle], { cwd: clone, encoding: "utf8" });
    return { status: pack.status, output: pack.stdout + pack.stderr, packed: existsSync(bundle) };
  }

  it("stops with an error naming the missing built file, and writes no bundle", () => {
    const pack = packClone();
    expect(pack.status).not.toBe(0);
    expect(pack.output).toContain("Icon file not found at path: dist/icon.png");
    expect(pack.packed).toBe(false);
  });

  it("stops too when a failed build left tsc's dist/cli.js behind", () => {
    const pack = packClone((clone) => {
      mkdirSync(path.join(clone, "dist"));
      writeFileSync(path.join(clone, "dist", "cli.js"), "// tsc's output, not bundled\n");
    });
    expect(pack.status).not.toBe(0);
    expect(pack.packed).toBe(false);
  });

  it("`npm run pack:bundle` stops when the build fails, and packs nothing", () => {
    const clone = projectWithTypeError([
      "scripts/pack-bundle.mjs",
      "scripts/build.mjs",
      "scripts/lib",
      "manifest.json",
    ]);
    const pack = spawnSync(process.execPath, [path.join(clone, "scripts/pack-bundle.mjs")], {
      cwd: clone,
      encoding: "utf8",
    });
    expect(pack.status).not.toBe(0);
    expect(pack.stderr).toContain("the build failed (see above); no bundle was made");
    expect(readdirSync(clone).filter((file) => file.endsWith(".mcpb"))).toEqual([]);
  });
});
