// When dist/ must be built again: the one rule for `npm start` (scripts/ensure-built.mjs) and the
// tests' global setup (test/helpers/build.ts).
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

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
  const output = join(root, BUILD_OUTPUT);
  if (!existsSync(output)) return `${BUILD_OUTPUT} is missing`;
  const built = statSync(output).mtimeMs;
  for (const input of BUILD_INPUTS) {
    if (newestMtime(join(root, input)) > built) return `${input} changed since the last build`;
  }
  return undefined;
}
