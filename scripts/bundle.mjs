// Bundles the CLI into dist/cli.js plus shared chunks, after tsc has type-checked and emitted dist/.
// Why: loading ~400 separate modules from node_modules cost more than half of the cold start;
// one bundle with lazily loaded chunks (HTTP transport, sandbox) starts in well under half the time.
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

// zod re-exports every locale (~250 modules) as a namespace that the SDK's `import * as
// z` keeps alive; nothing here reads them (English messages are built in), so they stay out.
const withoutZodLocales = {
  name: "without-zod-locales",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /zod\/v4\/(classic|mini|core)\//.test(args.importer)
        ? { path: "zod-locales", namespace: "empty" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "empty" }, () => ({
      contents: "export {};",
      loader: "js",
    }));
  },
};

await build({
  absWorkingDir: root,
  define: { __WORKFORCE_TOOL_CATALOG__: JSON.stringify(catalog) },
  // ES modules first (graphql ships both): they load faster and only the parts used are kept.
  mainFields: ["module", "main"],
  plugins: [withoutZodLocales],
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
