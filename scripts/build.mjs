#!/usr/bin/env node
// `npm run build`: tsc (type check, and dist/ for the bundle and the scripts that import modules),
// the bundle (scripts/bundle.mjs), then the finishing touches. tsc writes dist/ even when it fails,
// so dist/cli.js alone proves nothing: the build's last step writes BUILD_MARK, and its first step
// removes it, so a build that stops anywhere never passes for a finished one
// (scripts/lib/build-freshness.mjs reads the mark). The manifest's icon is copied in that last step
// too: a plain `mcpb pack` checks that the icon exists, so it refuses a tree that is not built.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILD_ICON, BUILD_MARK } from "./lib/build-freshness.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
rmSync(join(root, BUILD_MARK), { force: true });
rmSync(join(root, BUILD_ICON), { force: true });

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
// `--no-check`: only scripts/check.mjs passes it, once `npm run typecheck` (src with the same
// compiler options, and the tests) passed in the same run; tsc then emits without checking again.
const noCheck = process.argv.includes("--no-check") ? ["--noCheck"] : [];
const typecheck = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json", ...noCheck], {
  cwd: root,
  stdio: "inherit",
});
if (typecheck.status !== 0) {
  process.stderr.write("workforce-mcp: tsc failed; dist/ is not built\n");
  process.exit(typecheck.status ?? 1);
}

await import("./bundle.mjs");
// tsc drops the executable bit; the bin entry needs it.
chmodSync(join(root, "dist", "cli.js"), 0o755);
mkdirSync(join(root, "dist"), { recursive: true });
copyFileSync(join(root, "assets", "icon.png"), join(root, BUILD_ICON));
writeFileSync(join(root, BUILD_MARK), `${new Date().toISOString()}\n`);
