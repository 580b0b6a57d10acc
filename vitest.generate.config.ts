import { defineConfig } from "vitest/config";

// The runs that write generated files (npm run generate:operations, generate:sandbox-types,
// generate:tools, snapshots:update). They read src/ only, so they start no build: a build first
// would stop on the types or the tool list they are about to write.
export default defineConfig({
  test: {
    include: [
      "test/client/operation-types.test.ts",
      "test/sandbox/resolver-types.test.ts",
      "test/meta/generated-tool-files.test.ts",
      "test/meta/tool-snapshots.test.ts",
    ],
    // One graphql for the sandbox and graphql-http: see vitest.config.ts.
    server: { deps: { inline: ["graphql-http"] } },
  },
});
