#!/usr/bin/env node
// `npm test`'s checks before the tests: typecheck, biome, knip and, when dist/ is stale, the build
// the end-to-end tests run (the tests' global setup then finds it fresh). None depends on another,
// so they run at once: on two cores the whole takes about as long as the longest. Each one's output
// is shown when it ends, not interleaved; the exit code is non-zero when any of them failed.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { staleBecause } from "./lib/build-freshness.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const scripts = ["typecheck", "check", "unused"];
const stale = staleBecause(root);
if (stale) scripts.push("build");

// npm sets npm_execpath for scripts: the same npm, without relying on PATH or a shell.
const npm = process.env.npm_execpath;

/** `npm run <script>`, its output kept until it ends; resolves to its exit code. */
function run(script) {
  const started = Date.now();
  const [command, args] = npm
    ? [process.execPath, [npm, "run", "--silent", script]]
    : ["npm", ["run", "--silent", script]];
  const child = spawn(command, args, {
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
      resolve(1);
    });
    child.once("close", (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const outcome = code === 0 ? "passed" : `FAILED (${signal ?? `exit ${code}`})`;
      process.stdout.write(`\n> npm run ${script}: ${outcome} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

if (stale) process.stdout.write(`building dist/ beside the checks: ${stale}\n`);
const codes = await Promise.all(scripts.map(run));
const failed = scripts.filter((_, i) => codes[i] !== 0);
if (failed.length > 0) {
  process.stderr.write(`\nfailed: ${failed.map((s) => `npm run ${s}`).join(", ")}\n`);
  process.exit(1);
}
