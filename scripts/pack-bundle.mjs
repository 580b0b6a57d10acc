#!/usr/bin/env node
// Builds the MCP bundle (.mcpb): builds dist/, then a plain `mcpb pack` of this folder, which
// .mcpbignore trims to the built server (esbuild bundled every dependency into it).
// Output: workforce-mcp-<version>.mcpb in the repository root.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const output = join(root, `workforce-mcp-${version}.mcpb`);
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: "inherit" });

run("npm", ["run", "build"]);
rmSync(output, { force: true });
run(join(root, "node_modules", ".bin", "mcpb"), ["pack", root, output]);
const size = statSync(output).size;
console.log(`\nBundle: ${output} (${(size / 1024 / 1024).toFixed(2)} MB)`);
