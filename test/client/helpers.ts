import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createPlatformClient } from "../../src/client/index.js";
import type { Operation, PlatformClientOptions } from "../../src/client/types.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";

// Test-only operations: a read-back of one hire (with the restricted `rate`) and documents that
// deliberately no longer fit the schema.

export interface HireData {
  hire: { id: string; status: string; terminationDate: string | null; rate: number | null } | null;
}

export const hireQuery: Operation<HireData, { id: string }> = {
  name: "TestHire",
  type: "query",
  safeToRepeat: true,
  document: /* GraphQL */ `
    query TestHire($id: ID!) {
      hire(id: $id) {
        id
        status
        terminationDate
        rate
      }
    }
  `,
};

export const hireStatusQuery: Operation<HireData, { id: string }> = {
  name: "TestHireStatus",
  type: "query",
  safeToRepeat: true,
  document: /* GraphQL */ `
    query TestHireStatus($id: ID!) {
      hire(id: $id) {
        id
        status
        terminationDate
      }
    }
  `,
};

export const missingFieldQuery: Operation<unknown, { id: string }> = {
  name: "TestMissingField",
  type: "query",
  safeToRepeat: true,
  document: /* GraphQL */ `
    query TestMissingField($id: ID!) {
      hire(id: $id) {
        id
        hourlyWage
      }
    }
  `,
};

export const parseFailQuery: Operation<unknown, Record<string, unknown>> = {
  name: "TestParseFail",
  type: "query",
  safeToRepeat: true,
  document: "query TestParseFail { viewer { id ",
};

/** Fast defaults for tests: millisecond back-off and no client-side budget in the way. */
export function fastClient(
  sandbox: { url: string },
  overrides: Partial<PlatformClientOptions> = {},
) {
  return createPlatformClient({
    apiUrl: sandbox.url.replace(/\/graphql\/?$/, ""),
    token: overrides.token ?? "sandbox-full-4f1c9d2e7b",
    retryBaseMs: 2,
    timeoutMs: 5_000,
    rateLimitPerMinute: 10_000,
    ...overrides,
  });
}

export async function sandboxFor(
  options: Parameters<typeof startSandbox>[0] = {},
): Promise<Sandbox> {
  return startSandbox({ rateLimitPerMinute: 0, ...options });
}

/** A tiny HTTP server for answers the sandbox cannot give. */
export async function stubServer(
  answer: (
    body: string,
    request: { method: string; url: string; headers: IncomingHttpHeaders },
  ) => { status: number; contentType: string; body: string },
): Promise<{ url: string; hits: number; close(): Promise<void> }> {
  const state = { hits: 0 };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => {
      state.hits++;
      const a = answer(body, {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
      });
      res.writeHead(a.status, { "content-type": a.contentType });
      res.end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get hits() {
      return state.hits;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
