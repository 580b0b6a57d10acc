// Bundles the CLI into dist/cli.js plus shared chunks, after tsc has type-checked and emitted dist/.
// Why: loading ~400 separate modules from node_modules cost more than half of the cold start;
// one bundle with lazily loaded chunks (HTTP transport, sandbox) starts in well under half the time.
// The rest of dist/ stays as tsc wrote it, for the benchmark and scripts that import modules directly.
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
rmSync(new URL("../dist/chunks", import.meta.url), { recursive: true, force: true });
// tsc's map for cli.js would describe the unbundled file this build replaces.
rmSync(new URL("../dist/cli.js.map", import.meta.url), { force: true });

await build({
  absWorkingDir: root,
  entryPoints: { cli: "src/cli.ts" },
  outdir: "dist",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minifySyntax: true,
  legalComments: "linked",
  logLevel: "warning",
  // Bundled CommonJS dependencies (ajv, express) call require() for Node built-ins.
  banner: {
    js: 'import { createRequire as __workforceRequire } from "node:module"; const require = __workforceRequire(import.meta.url);',
  },
});
