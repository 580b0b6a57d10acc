import type { PlatformClient, PlatformClientOptions } from "./types.js";

/**
 * A platform client whose module (graphql-request and graphql, large) loads with its first
 * request instead of when the server starts: listing tools needs neither.
 */
export function createLazyPlatformClient(options: PlatformClientOptions): PlatformClient {
  let real: Promise<PlatformClient> | undefined;
  const client = () => {
    real ??= import("./client.js").then((m) => m.createPlatformClient(options));
    return real;
  };
  return {
    async request(operation, variables, requestOptions) {
      return (await client()).request(operation, variables, requestOptions);
    },
    async run(operation, variables, requestOptions) {
      return (await client()).run(operation, variables, requestOptions);
    },
    async introspect(requestOptions) {
      return (await client()).introspect(requestOptions);
    },
  };
}
