import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatformClient, type PlatformError } from "../../src/client/index.js";
import type {
  ContractTerminationReason,
  TerminateHireMutationVariables,
} from "../../src/client/operation-types.generated.js";
import { terminateHireMutation, viewerQuery } from "../../src/client/operations/index.js";
import type { Logger, LogLevel } from "../../src/logger.js";
import { type FaultKind, SANDBOX_TOKENS, type Sandbox } from "../../src/sandbox/index.js";
import {
  closedPort,
  hireQuery,
  missingFieldQuery,
  parseFailQuery,
  sandboxFor,
  stubServer,
} from "./helpers.js";

// The known token goes through every error path; it must not come back in any form.

const TOKEN = SANDBOX_TOKENS.full;
const LIMITED = SANDBOX_TOKENS.limited;

/** Records raw lines and ignores addSecret, so a leak cannot hide behind redaction. */
function rawLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = (level: LogLevel) => (message: string, data?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${JSON.stringify(data ?? {})}`);
  };
  const logger: Logger = {
    level: "debug",
    debug: log("debug"),
    info: log("info"),
    warning: log("warning"),
    error: log("error"),
    addSecret: () => {},
    addSink: () => () => {},
    redact: (t) => t,
  };
  return { logger, lines };
}

function everyForm(error: unknown): string[] {
  const forms: string[] = [String(error), JSON.stringify(error)];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 10; depth++) {
    if (current instanceof Error) {
      forms.push(current.message, current.stack ?? "", String(current));
      forms.push(JSON.stringify(current, Object.getOwnPropertyNames(current)));
      const hint = (current as Partial<PlatformError>).hint;
      if (hint) forms.push(hint);
    } else {
      forms.push(JSON.stringify(current) ?? "", String(current));
    }
    current = (current as { cause?: unknown } | null)?.cause;
  }
  return forms;
}

let sandbox: Sandbox;
const { logger, lines } = rawLogger();
beforeAll(async () => {
  sandbox = await sandboxFor();
});
afterAll(async () => {
  await sandbox.close();
});

const client = (token: string = TOKEN, apiUrl?: string, timeoutMs = 2_000) =>
  createPlatformClient({
    apiUrl: apiUrl ?? sandbox.url.replace(/\/graphql\/?$/, ""),
    token,
    retryBaseMs: 1,
    maxRetries: 1,
    timeoutMs,
    rateLimitPerMinute: 10_000,
    logger,
  });

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

const terminate: TerminateHireMutationVariables = {
  input: { hire: "hire_001", reason: "OTHER", date: "1999-01-01" },
};

describe("the token never appears", () => {
  const cases: [string, () => Promise<unknown>][] = [
    ["validation", () => client().run(terminateHireMutation, terminate)],
    ["authentication", () => client(`${TOKEN}-wrong`).run(viewerQuery, {})],
    ["authorization", () => client(LIMITED).run(hireQuery, { id: "hire_002" })],
    ["schema mismatch", () => client().run(missingFieldQuery, { id: "hire_001" })],
    ["parse failure", () => client().run(parseFailQuery, {})],
    [
      "bad user input",
      // A reason the schema does not know, on purpose: the platform's complaint must not echo it.
      () =>
        client().run(terminateHireMutation, {
          input: { ...terminate.input, reason: TOKEN as ContractTerminationReason },
        }),
    ],
    ["cancelled", () => client().run(viewerQuery, {}, { signal: AbortSignal.abort() })],
  ];
  const faults: FaultKind[] = [
    "internal-error",
    "rate-limit",
    "html-500",
    "non-json-200",
    "drop-connection",
  ];
  for (const kind of faults) {
    cases.push([
      `fault ${kind}`,
      () => {
        sandbox.faults.inject(kind, { count: 2 });
        return client().run(viewerQuery, {});
      },
    ]);
    cases.push([
      `fault ${kind} on a write`,
      () => {
        sandbox.faults.inject(kind, { count: 1 });
        return client().run(terminateHireMutation, terminate);
      },
    ]);
  }
  cases.push([
    "timeout",
    () => {
      sandbox.faults.inject("slow", { count: 2, delayMs: 300 });
      return client(TOKEN, undefined, 50).run(viewerQuery, {});
    },
  ]);
  cases.push([
    "closed port",
    async () => {
      const port = await closedPort();
      return client(TOKEN, `http://127.0.0.1:${port}`).run(viewerQuery, {});
    },
  ]);
  cases.push([
    "stub echoing the request",
    async () => {
      // A server that echoes the Authorization header back into its error message.
      const stub = await stubServer((_body, request) => ({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({
          errors: [
            {
              message: `bad ${request.headers.authorization}`,
              extensions: { code: "BAD_REQUEST" },
            },
          ],
        }),
      }));
      try {
        return await client(TOKEN, stub.url).run(viewerQuery, {});
      } finally {
        await stub.close();
      }
    },
  ]);

  it.each(cases)("%s", async (_name, call) => {
    const error = await caught(call());
    sandbox.faults.clear();
    expect((error as PlatformError).kind).toEqual(expect.any(String));
    for (const form of everyForm(error)) {
      expect(form).not.toContain(TOKEN);
      expect(form).not.toContain(LIMITED);
    }
  });

  it("nor in any log line", () => {
    expect(lines.length).toBeGreaterThan(10);
    // One debug line per request: operation, attempt, status and duration, never the variables.
    const request = lines.find((l) => l.includes("platform request") && l.includes('"Viewer"'));
    expect(request).toMatch(/"attempt":\d+.*"status":\d+.*"durationMs":\d+/);
    expect(lines.some((l) => l.includes("1999-01-01"))).toBe(false);
    for (const line of lines) {
      expect(line).not.toContain(TOKEN);
      expect(line).not.toContain(LIMITED);
    }
  });
});
