#!/usr/bin/env node
// Builds the MCP bundle (.mcpb): builds dist/, then a plain `mcpb pack` of this folder, which
// .mcpbignore trims to the built server (esbuild bundled every dependency into it). A failed build
// stops it before anything is packed.
// Output: workforce-mcp-<version>.mcpb in the repository root.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { staleBecause } from "./lib/build-freshness.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const output = join(root, `workforce-mcp-${version}.mcpb`);
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: "inherit" });

try {
  run("npm", ["run", "build"]);
} catch {
  console.error("pack:bundle: the build failed (see above); no bundle was made.");
  process.exit(1);
}
const stale = staleBecause(root);
if (stale) {
  console.error(`pack:bundle: dist/ is not a finished build (${stale}); no bundle was made.`);
  process.exit(1);
}
rmSync(output, { force: true });
run(join(root, "node_modules", ".bin", "mcpb"), ["pack", root, output]);
const size = statSync(output).size;
console.log(`\nBundle: ${output} (${(size / 1024 / 1024).toFixed(2)} MB)`);
