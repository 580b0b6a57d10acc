#!/usr/bin/env node
// `npm start` and `npm run sandbox` in a clone: builds dist/ first when it is missing or older than
// what it is built from. The build moved from `prepare` to `prepack` (an installed package must not
// carry an install-time script), so `npm install` alone no longer builds.
// Everything the build prints goes to stderr: over stdio, stdout belongs to the MCP protocol.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
// The same list as BUILD_INPUTS in test/helpers/build.ts.
const inputs = [
  "src",
  "scripts/bundle.mjs",
  "scripts/make-executable.mjs",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
];

function newest(file) {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let time = stat.mtimeMs;
  for (const entry of readdirSync(file)) time = Math.max(time, newest(join(file, entry)));
  return time;
}

const output = join(root, "dist", "cli.js");
const built = existsSync(output) ? statSync(output).mtimeMs : 0;
if (inputs.some((input) => newest(join(root, input)) > built)) {
  process.stderr.write("workforce-mcp: building dist/ first (npm run build)\n");
  // npm sets npm_execpath for scripts: the same npm, without relying on PATH or a shell.
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, "run", "--silent", "build"], {
        cwd: root,
        stdio: ["ignore", 2, 2],
      })
    : spawnSync("npm", ["run", "--silent", "build"], {
        cwd: root,
        stdio: ["ignore", 2, 2],
        shell: process.platform === "win32",
      });
  if (result.status !== 0) {
    process.stderr.write("workforce-mcp: the build failed; see its output above\n");
    process.exit(result.status ?? 1);
  }
}
