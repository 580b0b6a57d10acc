// Live changes across two replicas sharing Redis: the sandbox delivers a signed webhook to replica
// A, and a 2026-07-28 client on replica B hears of it (B's listener fires through Redis publish and
// subscribe, and B's handler tells its own listening streams) and reads it with list_changes. And a
// local server over stdio with the same Redis hears of the events the team's server receives.
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
import { createRedisStore } from "../../src/state/redis-store.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import {
  contractAccepted,
  deliver,
  SECRET,
  SECRET_SETTING,
  startReceiver,
} from "../helpers/webhooks.js";
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

describe.skipIf(REDIS_MISSING)("a local server (stdio) with the team's Redis", () => {
  it("a 2026-07-28 client listening over stdio hears within a second of an event the HTTP server received, and list_changes shows it", async () => {
    const url = (redis as RedisServer).url;
    const store = await createRedisStore(
      url,
      createLogger("error", () => {}),
    );
    const receiver = await startReceiver(store);
    // Subscribers to the replicas' event channel, so the test can wait for the child's own.
    const inside = (redis as RedisServer).inspect();
    const subscribers = async () => {
      const channels = (await inside.pubsub("CHANNELS")) as string[];
      if (channels.length === 0) return 0;
      const counts = (await inside.pubsub("NUMSUB", ...channels)) as (string | number)[];
      return counts.filter((_, i) => i % 2 === 1).reduce<number>((sum, n) => sum + Number(n), 0);
    };
    const before = await subscribers();
    const client = new Client(
      { name: "stdio-live", version: "0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    try {
      // The embedded sandbox (nothing configured), whose full token reads Nordlys.
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [path.resolve(process.cwd(), "dist/cli.js")],
          env: { WORKFORCE_REDIS_URL: url, WORKFORCE_TOOLSETS: "default,live" },
          cwd: mkdtempSync(path.join(tmpdir(), "workforce-mcp-live-")),
          stderr: "ignore",
        }),
      );
      const subscription = await client.listen({ resourceSubscriptions: [CHANGES] });
      // The child subscribes to Redis as it starts; an event published before that is not its.
      for (let i = 0; i < 100 && (await subscribers()) <= before; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The second is counted from the delivery, not from opening the stream.
      const heard = new Promise<{ uri: string }>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error("no resource update within 1000 ms")),
          1_000,
        );
        client.setNotificationHandler("notifications/resources/updated", (n) => {
          clearTimeout(timer);
          resolve(n.params);
        });
      });
      const body = JSON.stringify(contractAccepted("hire_001", "cmp_nordlys", "ctr_stdio"));
      expect((await deliver(receiver.url, body)).status).toBe(200);
      expect(await heard).toMatchObject({ uri: CHANGES });
      const r = await client.callTool({ name: "list_changes", arguments: { hireId: "hire_001" } });
      const t = (r.content as { text: string }[]).map((c) => c.text).join("\n");
      expect(t).toContain("contractAccepted: hire hire_001");
      expect(t).toContain('"Ana Costa"');
      expect(t).toContain('"Nordlys Energi A/S"');
      await subscription.close();
    } finally {
      await client.close();
      await receiver.close();
      await store.close();
    }
  });
});
