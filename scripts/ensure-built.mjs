#!/usr/bin/env node
// `npm start` and `npm run sandbox` in a clone: builds dist/ first when it is missing or older than
// what it is built from, then runs it in this same process. The build moved from `prepare` to
// `prepack` (an installed package must not carry an install-time script), so `npm install` alone
// no longer builds. Everything the build prints goes to stderr: over stdio, stdout belongs to the
// MCP protocol.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { staleBecause } from "./lib/build-freshness.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
if (staleBecause(root)) {
  process.stderr.write("workforce-mcp: building dist/ first (npm run build)\n");
  // npm sets npm_execpath for scripts: the same npm, without relying on PATH or a shell.
  const npm = process.env.npm_execpath;
  const [command, args] = npm
    ? [process.execPath, [npm, "run", "--silent", "build"]]
    : ["npm", ["run", "--silent", "build"]];
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: ["ignore", 2, 2],
    shell: !npm && process.platform === "win32",
  });
  if (result.status !== 0) {
    process.stderr.write("workforce-mcp: the build failed; see its output above\n");
    process.exit(result.status ?? 1);
  }
}
// The server reads its arguments from process.argv.slice(2), which are this script's.
await import("../dist/cli.js");
