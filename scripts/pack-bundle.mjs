#!/usr/bin/env node
// Builds the MCP bundle (.mcpb): stages the built server with its production dependencies only,
// then packs it with mcpb. Output: workforce-mcp-<version>.mcpb in the repository root.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const output = join(root, `workforce-mcp-${version}.mcpb`);
const stage = mkdtempSync(join(tmpdir(), "workforce-bundle-"));
const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: "inherit" });

try {
  run("npm", ["run", "build"], root);
  for (const entry of ["dist", "package.json", "package-lock.json", "manifest.json", "README.md"]) {
    cpSync(join(root, entry), join(stage, entry), { recursive: true });
  }
  if (existsSync(join(root, "LICENSE"))) cpSync(join(root, "LICENSE"), join(stage, "LICENSE"));
  // Source maps and type declarations help nobody running the bundle.
  run("find", [
    join(stage, "dist"),
    "(",
    "-name",
    "*.map",
    "-o",
    "-name",
    "*.d.ts",
    ")",
    "-delete",
  ]);
  // --ignore-scripts: the staged server is built already; nothing should run at install time.
  run("npm", ["ci", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund"], stage);
  rmSync(output, { force: true });
  run(join(root, "node_modules", ".bin", "mcpb"), ["pack", stage, output], root);
  const size = statSync(output).size;
  console.log(`\nBundle: ${output} (${(size / 1024 / 1024).toFixed(2)} MB)`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
