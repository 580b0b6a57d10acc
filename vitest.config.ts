import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Builds dist/ first when src/ changed since the last build: the end-to-end tests run it.
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    // Most files wait on servers and child processes, so more workers than cores keep both cores
    // busy; a worker keeps the modules it loaded for its next file instead of loading them again
    // (no test depends on a module's fresh state: each builds its own servers, stores and clocks).
    maxWorkers: 3,
    isolate: false,
    // Loaded as it is, graphql-http would get another copy of graphql-js than the code under test,
    // and neither would recognise the other's errors and types. Inlined, it imports the same one
    // (the bundle holds one graphql-js too).
    server: { deps: { inline: ["graphql-http"] } },
  },
});
