#!/usr/bin/env node
// `npm test`'s checks before the tests: typecheck, then biome and knip, side by side; then, when
// dist/ is stale, the build the end-to-end tests run (their global setup then finds it fresh).
// The build's tsc only emits (`--no-check`): the typecheck that just passed covered src with the
// same compiler options. Each one's output is shown when it ends, not interleaved; the exit code is
// non-zero when any of them failed, and a failed check builds nothing.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { staleBecause } from "./lib/build-freshness.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
// npm sets npm_execpath for scripts: the same npm, without relying on PATH or a shell.
const npm = process.env.npm_execpath;

/** `npm run <script> [-- args]`, its output kept until it ends; resolves to whether it passed. */
function run(script, args = []) {
  const started = Date.now();
  const npmArgs = ["run", "--silent", script, ...(args.length > 0 ? ["--", ...args] : [])];
  const [command, commandArgs] = npm ? [process.execPath, [npm, ...npmArgs]] : ["npm", npmArgs];
  const child = spawn(command, commandArgs, {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    shell: !npm && process.platform === "win32",
  });
  const output = [];
  child.stdout.on("data", (chunk) => output.push(chunk));
  child.stderr.on("data", (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.once("error", (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      resolve(false);
    });
    child.once("close", (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const outcome = code === 0 ? "passed" : `FAILED (${signal ?? `exit ${code}`})`;
      process.stdout.write(`\n> npm run ${script}: ${outcome} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });
}

const [typed, linted] = await Promise.all([
  run("typecheck"),
  run("check").then(async (passed) => (await run("unused")) && passed),
]);
if (!typed || !linted) {
  process.stderr.write("\nnpm test: the checks above failed; no test ran\n");
  process.exit(1);
}
const stale = staleBecause(root);
if (stale) {
  process.stdout.write(`\nbuilding dist/: ${stale}\n`);
  if (!(await run("build", ["--no-check"]))) process.exit(1);
}
