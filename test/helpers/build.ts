// Keeps dist/ in step with src/ for the tests that run the built server (dist/cli.js) or import
// tsc's output (test/auth/fixtures/renew-worker.mjs): test/global-setup.ts calls ensureBuilt()
// once per vitest run, so a test never passes or fails on a build older than the code it tests.
import { spawn } from "node:child_process";
import path from "node:path";
import lockfile from "proper-lockfile";

import { BUILD_OUTPUT, staleBecause } from "../../scripts/lib/build-freshness.mjs";

export { BUILD_OUTPUT, staleBecause };

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
