// When dist/ must be built again: the one rule for `npm start` (scripts/ensure-built.mjs) and the
// tests' global setup (test/helpers/build.ts).
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** What the build reads, besides node_modules: a change to any of them makes dist/ stale. */
const BUILD_INPUTS = [
  "src",
  "scripts/build.mjs",
  "scripts/bundle.mjs",
  "assets",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
];

/**
 * Written by the build's last step and removed by its first (scripts/build.mjs): its time is the
 * build's. Not dist/cli.js: tsc writes that even when it fails, and a build that stopped halfway
 * must count as no build.
 */
export const BUILD_MARK = "dist/.build-complete";

/** The bundle's icon (manifest.json), copied in the same last step. */
export const BUILD_ICON = "dist/icon.png";

/** The newest modification time under `file` (folders count too: a deleted file changes its folder). */
function newestMtime(file) {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(file)) newest = Math.max(newest, newestMtime(join(file, entry)));
  return newest;
}

/** Why dist/ must be built again, or undefined when it is newer than everything it is built from. */
export function staleBecause(root) {
  const mark = join(root, BUILD_MARK);
  if (!existsSync(mark))
    return `${BUILD_MARK} is missing: no build finished since the last one began`;
  const built = statSync(mark).mtimeMs;
  for (const input of BUILD_INPUTS) {
    if (newestMtime(join(root, input)) > built) return `${input} changed since the last build`;
  }
  return undefined;
}
