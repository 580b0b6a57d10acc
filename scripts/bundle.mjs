// Bundles the CLI into dist/cli.js plus shared chunks, after tsc has type-checked and emitted dist/.
// Why: finding and reading hundreds of separate modules in node_modules took most of a cold start;
// one bundle with lazily loaded chunks (HTTP transport, sandbox) spares that.
// The rest of dist/ stays as tsc wrote it, for the benchmark and scripts that import modules directly.
import { rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
rmSync(new URL("../dist/chunks", import.meta.url), { recursive: true, force: true });
// tsc's map for cli.js would describe the unbundled file this build replaces.
rmSync(new URL("../dist/cli.js.map", import.meta.url), { force: true });

// The tool catalog (list entries, instruction lines, toolsets), built now from tsc's output so that
// a start lists every tool without loading one; test/meta/tool-catalog.test.ts checks it.
const { loadCatalog } = await import("../dist/tools/catalog.js");
const catalog = await loadCatalog();
writeFileSync(
  new URL("../dist/tool-catalog.json", import.meta.url),
  `${JSON.stringify(catalog)}\n`,
);

// The MCP Apps views' browser script (src/web/views/view-app.ts with the ext-apps App class),
// built once and carried by the chunk that serves the views, so a read needs no esbuild.
const { VIEW_SCRIPT_BUILD } = await import("../dist/web/view-script-build.js");
const views = await build({
  ...VIEW_SCRIPT_BUILD,
  absWorkingDir: root,
  entryPoints: ["src/web/views/view-app.ts"],
  logLevel: "warning",
});
const viewScript = views.outputFiles[0]?.text ?? "";

const result = await build({
  absWorkingDir: root,
  define: {
    __WORKFORCE_TOOL_CATALOG__: JSON.stringify(JSON.stringify(catalog)),
    __WORKFORCE_VIEW_SCRIPT__: JSON.stringify(viewScript),
  },
  // ES modules first (graphql ships both): they load faster and only the parts used are kept.
  mainFields: ["module", "main"],
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
  metafile: Boolean(process.env.BUNDLE_METAFILE),
  // Bundled CommonJS dependencies (ajv, express) call require() for Node built-ins.
  banner: {
    js: 'import { createRequire as __workforceRequire } from "node:module"; const require = __workforceRequire(import.meta.url);',
  },
});

// BUNDLE_METAFILE=path: esbuild's account of which module landed in which chunk, for size work.
if (process.env.BUNDLE_METAFILE)
  writeFileSync(process.env.BUNDLE_METAFILE, JSON.stringify(result.metafile));
