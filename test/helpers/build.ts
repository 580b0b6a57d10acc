// Keeps dist/ in step with src/ for the tests that run the built server (dist/cli.js) or import
// tsc's output (test/auth/fixtures/renew-worker.mjs): test/global-setup.ts calls ensureBuilt()
// once per vitest run, so a test never passes or fails on a build older than the code it tests.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import lockfile from "proper-lockfile";

/** What the build reads, besides node_modules: a change to any of them makes dist/ stale. */
const BUILD_INPUTS = [
  "src",
  "scripts/bundle.mjs",
  "scripts/make-executable.mjs",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
];

/** The file the build writes last (bundle.mjs, then make-executable.mjs): its time is the build's. */
export const BUILD_OUTPUT = "dist/cli.js";

/** The newest modification time under `file` (folders count too: a deleted file changes its folder). */
function newestMtime(file: string): number {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(file)) {
    newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}

/** Why dist/ must be built again, or undefined when it is newer than everything it is built from. */
export function staleBecause(root: string): string | undefined {
  const output = path.join(root, BUILD_OUTPUT);
  if (!existsSync(output)) return `${BUILD_OUTPUT} is missing`;
  const built = statSync(output).mtimeMs;
  for (const input of BUILD_INPUTS) {
    if (newestMtime(path.join(root, input)) > built) return `${input} changed since the last build`;
  }
  return undefined;
}

/** `npm run build`, its output shown; rejects when it fails (a run must not go on with an old dist/). */
function npmRunBuild(root: string, reason: string): Promise<void> {
  console.error(`[global setup] building dist/: ${reason}`);
  return new Promise((resolve, reject) => {
    // Asynchronous, so that the lock's heartbeat goes on while tsc and esbuild run.
    const child = spawn("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new Error(`npm run build failed (${signal ?? `exit ${code}`}); see its output above`),
          ),
    );
  });
}

/**
 * Builds when dist/ is stale. The lock keeps two vitest runs in the same folder (or a run and a
 * watch rerun) from building over each other; the second waits, then finds dist/ fresh.
 */
export async function ensureBuilt(
  root: string,
  build: (reason: string) => Promise<void> = (reason) => npmRunBuild(root, reason),
): Promise<"fresh" | "built"> {
  if (!staleBecause(root)) return "fresh";
  const release = await lockfile.lock(root, {
    lockfilePath: path.join(root, ".build.lock"),
    // A build takes well under a minute; a lock older than `stale` was left by a killed run.
    stale: 120_000,
    update: 10_000,
    retries: { retries: 600, minTimeout: 200, maxTimeout: 200 },
  });
  try {
    const reason = staleBecause(root);
    if (!reason) return "fresh";
    await build(reason);
    return "built";
  } finally {
    await release();
  }
}
