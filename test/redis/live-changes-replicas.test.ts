// Live changes across two replicas sharing Redis: the sandbox delivers a signed webhook to replica
// A, and a 2026-07-28 client on replica B hears of it (B's listener fires through Redis publish and
// subscribe, and B's handler tells its own listening streams) and reads it with list_changes. And a
// local server over stdio reads them from a replica's GET /changes, never from the team's Redis.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { contractAccepted, deliver, SECRET, SECRET_SETTING } from "../helpers/webhooks.js";
import { REDIS_MISSING, type RedisServer, startRedis } from "./helpers.js";

const CHANGES = "workforce://changes";

let redis: RedisServer | undefined;
let sandbox: Sandbox | undefined;
const replicas: HttpServerHandle[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  if (REDIS_MISSING) return;
  redis = await startRedis();
  sandbox = await startSandbox({
    rateLimitPerMinute: 0,
    webhooks: { retryDelaysMs: [5, 5, 5, 5], timeoutMs: 5_000 },
  });
  const config = {
    ...parseConfig(["--http", "--port", "0"], {
      WORKFORCE_API_URL: sandbox.url,
      WORKFORCE_TOKEN_PASSTHROUGH: "1",
      WORKFORCE_REDIS_URL: redis.url,
      WORKFORCE_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      WORKFORCE_WEBHOOK_SECRETS: SECRET_SETTING,
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

describe.skipIf(REDIS_MISSING)("live changes on two replicas sharing Redis", () => {
  it("an event replica A receives reaches a 2026-07-28 client listening on replica B within a second, and B's list_changes shows it", async () => {
    const [a, b] = replicas as [HttpServerHandle, HttpServerHandle];
    const box = sandbox as Sandbox;
    // The platform delivers to A.
    const created = await fetch(box.graphqlUrl, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${box.tokens.full}` },
      body: JSON.stringify({
        query: `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { id } }`,
        variables: {
          input: {
            title: "replica A",
            company: "cmp_nordlys",
            url: `${a.url}/webhooks/platform`,
            secret: SECRET,
            subscribedEvents: ["CONTRACT_ACCEPTED"],
          },
        },
      }),
    });
    expect(((await created.json()) as { errors?: unknown }).errors).toBeUndefined();

    const client = new Client(
      { name: "replica-b", version: "0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${b.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${box.tokens.full}` } },
      }),
    );
    clients.push(client);
    const heard = new Promise<{ uri: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no resource update within 1000 ms")), 1_000);
      client.setNotificationHandler("notifications/resources/updated", (n) => {
        clearTimeout(timer);
        resolve(n.params);
      });
    });
    const subscription = await client.listen({ resourceSubscriptions: [CHANGES] });

    let hire = { id: "", worker: "" };
    box.edit((d) => {
      const h = [...d.hires.values()].find(
        (x) => x.status === "OFFERED" && x.companyId === "cmp_nordlys",
      );
      const w = h ? d.workers.get(h.workerId) : undefined;
      if (h && w) hire = { id: h.id, worker: `${w.firstName} ${w.lastName}` };
    });
    box.acceptContract(hire.id);
    expect(await heard).toMatchObject({ uri: CHANGES });

    const r = await client.callTool({ name: "list_changes", arguments: { hireId: hire.id } });
    const t = (r.content as { text: string }[]).map((c) => c.text).join("\n");
    expect(t).toContain(`contractAccepted: hire ${hire.id}`);
    expect(t).toContain(`"${hire.worker}"`);
    expect(t).toContain('"Nordlys Energi A/S"');
    await subscription.close();
  });
});

/** A local server over stdio, the built CLI, with only the given settings. */
async function localServer(env: Record<string, string>): Promise<Client> {
  const dir = mkdtempSync(path.join(tmpdir(), "workforce-mcp-live-"));
  const client = new Client({ name: "stdio-live", version: "0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve(process.cwd(), "dist/cli.js")],
      env: { WORKFORCE_TOOLSETS: "default,live", WORKFORCE_CONFIG_DIR: dir, ...env },
      cwd: dir,
      stderr: "ignore",
    }),
  );
  clients.push(client);
  return client;
}

describe.skipIf(REDIS_MISSING)(
  "issue 33, finding 6: a local server (stdio) gets the team's feed without the team's Redis",
  () => {
    it("with WORKFORCE_TEAM_URL naming replica B, list_changes shows the event replica A received, as the person's own credential may read it; it holds no Redis URL", async () => {
      const [a, b] = replicas as [HttpServerHandle, HttpServerHandle];
      const box = sandbox as Sandbox;
      const body = JSON.stringify(contractAccepted("hire_001", "cmp_nordlys", "ctr_stdio_team"));
      expect((await deliver(`${a.url}/webhooks/platform`, body)).status).toBe(200);
      const client = await localServer({
        WORKFORCE_API_URL: box.url,
        WORKFORCE_TOKEN: box.tokens.limited,
        WORKFORCE_TEAM_URL: b.url,
      });
      const r = await client.callTool({ name: "list_changes", arguments: { hireId: "hire_001" } });
      const t = (r.content as { text: string }[]).map((c) => c.text).join("\n");
      expect(r.isError).toBeFalsy();
      expect(t).toContain("contractAccepted: hire hire_001");
      expect(t).toContain("ctr_stdio_team");
      expect(t).toContain('"Nordlys Energi A/S"');
    });

    it("OWASP API1:2023 (CWE-639): with only the team's WORKFORCE_REDIS_URL, a local server reads none of the events kept there and says to use WORKFORCE_TEAM_URL", async () => {
      const [a] = replicas as [HttpServerHandle, HttpServerHandle];
      const body = JSON.stringify(contractAccepted("hire_001", "cmp_nordlys", "ctr_stdio_redis"));
      expect((await deliver(`${a.url}/webhooks/platform`, body)).status).toBe(200);
      // The embedded sandbox (nothing configured), whose full token reads Nordlys.
      const client = await localServer({ WORKFORCE_REDIS_URL: (redis as RedisServer).url });
      const r = await client.callTool({ name: "list_changes", arguments: {} });
      const t = (r.content as { text: string }[]).map((c) => c.text).join("\n");
      expect(r.isError).toBe(true);
      expect(t).toContain("WORKFORCE_TEAM_URL");
      expect(t).not.toContain("ctr_stdio");
    });
  },
);
