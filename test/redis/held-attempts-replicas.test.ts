// Two replicas sharing one real Redis: an attempt whose answer was lost on one is held on the
// other, for the same person (CWE-841: a change applied twice). Exactly one mutation is sent.
import { randomBytes } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import type { Clock } from "../../src/tools/define-tool.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { quietLogger } from "../e2e/http-helpers.js";
import { REDIS_MISSING, type RedisServer, startRedis } from "./helpers.js";

const TERMINATE = { hireId: "hire_001", reason: "PROJECT_COMPLETED_EARLY", date: "2026-12-31" };
/** Real time, but the waits between read-backs end at once. */
const noWait: Clock = { now: () => Date.now(), sleep: async () => {} };

let redis: RedisServer;
let sandbox: Sandbox;
const replicas: HttpServerHandle[] = [];

beforeAll(async () => {
  if (REDIS_MISSING) return;
  redis = await startRedis();
  sandbox = await startSandbox({ rateLimitPerMinute: 0, today: "2026-11-22" });
  const config = {
    ...parseConfig(["--http", "--port", "0"], {
      WORKFORCE_API_URL: sandbox.url,
      WORKFORCE_TOKEN_PASSTHROUGH: "1",
      WORKFORCE_REDIS_URL: redis.url,
      WORKFORCE_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    }),
    retryBaseMs: 1,
  };
  for (const _ of ["A", "B"]) {
    replicas.push(await startHttpServer(config, quietLogger(), "test", { toolClock: noWait }));
  }
}, 30_000);

afterAll(async () => {
  await Promise.allSettled(replicas.map((r) => r.close()));
  await sandbox?.close();
  await redis?.close();
});

async function connect(replica: HttpServerHandle, version?: "2026-07-28"): Promise<Client> {
  const client = new Client(
    { name: "held-replicas", version: "0" },
    version ? { versionNegotiation: { mode: { pin: version } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${replica.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${sandbox.tokens.full}` } },
    }),
  );
  return client;
}

const textOf = (r: { content?: unknown }) =>
  ((r.content ?? []) as { text: string }[]).map((c) => c.text).join("\n");

describe.skipIf(REDIS_MISSING)("an unknown outcome across replicas", () => {
  it("is held on replica B after replica A lost the answer; one mutation in all", async () => {
    const [a, b] = replicas as [HttpServerHandle, HttpServerHandle];
    const onA = await connect(a);
    const preview = await onA.callTool({ name: "terminate_hire", arguments: TERMINATE });
    const token = (preview.structuredContent as { confirmationToken: string }).confirmationToken;
    sandbox.faults.inject("drop-connection", { operationName: "TerminateHire", later: true });
    const lost = await onA.callTool({
      name: "terminate_hire",
      arguments: { ...TERMINATE, confirmationToken: token },
    });
    expect((lost.structuredContent as { status: string }).status, textOf(lost)).toBe(
      "outcome-unknown",
    );
    for (const client of [await connect(b), await connect(b, "2026-07-28")]) {
      const again = await client.callTool({ name: "terminate_hire", arguments: TERMINATE });
      expect(again.isError).toBe(true);
      expect(textOf(again)).toContain("outcome is not known yet");
      await client.close();
    }
    await onA.close();
    expect(sandbox.countRequests("TerminateHire")).toBe(1);
  });
});
