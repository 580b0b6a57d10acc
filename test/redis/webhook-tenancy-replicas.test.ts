// Issue 33, findings 2 and 3 across two replicas sharing Redis: an event is the company's whose
// secret signed it, and hire details one person's credential read on replica A are never shown on
// replica B to a person who may not read that hire's company (2026-07-28 requests and 2025-11-25
// sessions alike stand alone with Redis).
import { randomBytes } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import {
  contractAccepted,
  deliver,
  SECRET,
  sign,
  TWO_SECRETS_SETTING,
} from "../helpers/webhooks.js";
import { REDIS_MISSING, type RedisServer, startRedis } from "./helpers.js";

let redis: RedisServer | undefined;
let sandbox: Sandbox | undefined;
const replicas: HttpServerHandle[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  if (REDIS_MISSING) return;
  redis = await startRedis();
  sandbox = await startSandbox({ rateLimitPerMinute: 0 });
  const config = {
    ...parseConfig(["--http", "--port", "0"], {
      WORKFORCE_API_URL: sandbox.url,
      WORKFORCE_TOKEN_PASSTHROUGH: "1",
      WORKFORCE_REDIS_URL: redis.url,
      WORKFORCE_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      WORKFORCE_WEBHOOK_SECRETS: TWO_SECRETS_SETTING,
      WORKFORCE_TOOLSETS: "default,live",
    }),
    retryBaseMs: 1,
  };
  for (let i = 0; i < 2; i++) {
    replicas.push(
      await startHttpServer(
        config,
        createLogger("error", () => {}),
        "test",
      ),
    );
  }
}, 30_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await Promise.allSettled(replicas.map((r) => r.close()));
  await sandbox?.close();
  await redis?.close();
});

async function connect(url: string, token: "full" | "limited", modern: boolean) {
  const box = sandbox as Sandbox;
  const client = new Client(
    { name: "tenancy-replicas", version: "0" },
    modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${box.tokens[token]}` } },
    }),
  );
  clients.push(client);
  return client;
}

const listed = async (client: Client) => {
  const r = await client.callTool({ name: "list_changes", arguments: { first: 50 } });
  return (r.content as { text: string }[]).map((c) => c.text).join("\n");
};

describe.skipIf(REDIS_MISSING)(
  "OWASP API1:2023 BOLA (CWE-639) on two replicas sharing Redis",
  () => {
    it("an event naming another company than its signer's is refused (403) by either replica; Harbor's hire named in Nordlys's event, read by a reader of both on A, is shown to nobody on B", async () => {
      const [a, b] = replicas as [HttpServerHandle, HttpServerHandle];
      const box = sandbox as Sandbox;
      let hire = { id: "", worker: "" };
      box.edit((d) => {
        const h = [...d.hires.values()].find((x) => x.companyId === "cmp_harbor");
        const w = h ? d.workers.get(h.workerId) : undefined;
        if (h && w) hire = { id: h.id, worker: `${w.firstName} ${w.lastName}` };
      });
      const forged = JSON.stringify(contractAccepted(hire.id, "cmp_harbor", "ctr_forged"));
      for (const replica of [a, b]) {
        const res = await deliver(`${replica.url}/webhooks/platform`, forged, {
          signature: sign(forged, SECRET),
        });
        expect(res.status).toBe(403);
      }
      const body = JSON.stringify(contractAccepted(hire.id, "cmp_nordlys", "ctr_on_replicas"));
      expect(
        (await deliver(`${a.url}/webhooks/platform`, body, { signature: sign(body, SECRET) }))
          .status,
      ).toBe(200);
      for (const modern of [true, false]) {
        const both = await listed(await connect(a.url, "full", modern));
        expect(both).toContain("ctr_on_replicas");
        expect(both).not.toContain("ctr_forged");
        expect(both).not.toContain(hire.worker);
        const mine = await listed(await connect(b.url, "limited", modern));
        expect(mine).toContain("ctr_on_replicas");
        expect(mine).not.toContain(hire.worker);
        expect(mine).not.toContain("Harbor");
      }
    });
  },
);
