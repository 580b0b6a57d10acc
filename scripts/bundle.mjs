// Bundles the CLI into dist/cli.js plus shared chunks, after tsc has type-checked and emitted dist/.
// Why: loading ~400 separate modules from node_modules cost more than half of the cold start;
// one bundle with lazily loaded chunks (HTTP transport, sandbox) starts in well under half the time.
// The rest of dist/ stays as tsc wrote it, for the benchmark and scripts that import modules directly.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const packageVersion = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
).version;
const CLI_FILE = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const CHUNKS_DIR = fileURLToPath(new URL("../dist/chunks", import.meta.url));
const REQUIRE_BANNER =
  'import { createRequire as __workforceRequire } from "node:module"; const require = __workforceRequire(import.meta.url);';
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

// The SDK's server imports three things this server never runs, ~410 KB that every start would
// parse: ajv as the default validator of form answers (createServer passes its own, which loads
// ajv on the first form), and zod 3 with its JSON Schema converter, which the SDK keeps for tools
// written in zod 3 (every schema here is zod 4). Each is replaced by a module that throws if ever
// reached; test/meta/start-path.test.ts checks that none of them is in a file a start loads.
const UNUSED_IN_SDK_SERVER = [
  {
    path: /^\.\.\/validation\/ajv-provider\.js$/,
    importer: /@modelcontextprotocol\/sdk\/dist\/esm\/server\/index\.js$/,
    contents:
      'export class AjvJsonSchemaValidator { constructor() { throw new Error("workforce-mcp passes its own jsonSchemaValidator"); } }',
  },
  {
    path: /^zod\/v3$/,
    importer: /@modelcontextprotocol\/sdk\/dist\/esm\/server\/zod-compat\.js$/,
    contents:
      'export function object() { throw new Error("workforce-mcp defines every schema in zod 4"); }',
  },
  {
    path: /^zod-to-json-schema$/,
    importer: /@modelcontextprotocol\/sdk\/dist\/esm\/server\/zod-json-schema-compat\.js$/,
    contents:
      'export function zodToJsonSchema() { throw new Error("workforce-mcp defines every schema in zod 4"); }',
  },
];
const withoutUnusedSdkParts = {
  name: "without-unused-sdk-parts",
  setup(build) {
    UNUSED_IN_SDK_SERVER.forEach((entry, index) => {
      build.onResolve({ filter: entry.path }, (args) =>
        entry.importer.test(args.importer)
          ? { path: String(index), namespace: "unused-in-sdk-server" }
          : undefined,
      );
    });
    build.onLoad({ filter: /.*/, namespace: "unused-in-sdk-server" }, (args) => ({
      contents: UNUSED_IN_SDK_SERVER[Number(args.path)].contents,
      loader: "js",
    }));
  },
};

const result = await build({
  absWorkingDir: root,
  define: {
    __WORKFORCE_TOOL_CATALOG__: JSON.stringify(JSON.stringify(catalog)),
    // Read here once rather than through require() at every start.
    __WORKFORCE_VERSION__: JSON.stringify(packageVersion),
  },
  // ES modules first (graphql ships both): they load faster and only the parts used are kept.
  mainFields: ["module", "main"],
  plugins: [withoutZodLocales, withoutUnusedSdkParts],
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
  banner: { js: REQUIRE_BANNER },
});

// The banner goes on every file, but only the few holding CommonJS code use it; elsewhere it
// would build a require() at every start for nothing (16 files, ~0.5 ms).
for (const file of [CLI_FILE, ...readdirSync(CHUNKS_DIR).map((name) => join(CHUNKS_DIR, name))]) {
  if (!file.endsWith(".js")) continue;
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(REQUIRE_BANNER);
  if (at < 0) continue;
  const rest = text.slice(at + REQUIRE_BANNER.length);
  if (!/\brequire\b/.test(rest)) writeFileSync(file, text.slice(0, at) + rest.replace(/^\n/, ""));
}
// BUNDLE_METAFILE=path: esbuild's account of which module landed in which chunk, for size work.
if (process.env.BUNDLE_METAFILE)
  writeFileSync(process.env.BUNDLE_METAFILE, JSON.stringify(result.metafile));
