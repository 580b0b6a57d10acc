// Keeps dist/ in step with src/ for the tests that run the built server (dist/cli.js) or import
// tsc's output (test/auth/fixtures/renew-worker.mjs): test/global-setup.ts calls ensureBuilt()
// once per vitest run, so a test never passes or fails on a build older than the code it tests.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import lockfile from "proper-lockfile";

import { BUILD_MARK, staleBecause } from "../../scripts/lib/build-freshness.mjs";

export { BUILD_MARK, staleBecause };

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

/**
 * A one-file project whose only source has a type error, holding copies of `scripts` (paths in this
 * repository) and this repository's node_modules: this project's build scripts run as they are.
 */
export function projectWithTypeError(scripts: readonly string[]): string {
  const here = process.cwd();
  const root = mkdtempSync(path.join(tmpdir(), "workforce-type-error-"));
  for (const file of scripts)
    cpSync(path.join(here, file), path.join(root, file), { recursive: true });
  symlinkSync(path.join(here, "node_modules"), path.join(root, "node_modules"), "dir");
  const packageJson = {
    name: "type-error",
    version: "0.0.1",
    type: "module",
    scripts: { build: "node scripts/build.mjs" },
  };
  writeFileSync(path.join(root, "package.json"), JSON.stringify(packageJson));
  mkdirSync(path.join(root, "src"));
  writeFileSync(path.join(root, "src/cli.ts"), 'export const port: number = "not a number";\n');
  const compilerOptions = {
    rootDir: "src",
    outDir: "dist",
    module: "nodenext",
    types: [],
    skipLibCheck: true,
  };
  writeFileSync(
    path.join(root, "tsconfig.build.json"),
    JSON.stringify({ compilerOptions, include: ["src"] }),
  );
  return root;
}
