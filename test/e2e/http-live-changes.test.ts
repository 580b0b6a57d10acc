// The live changes end to end: the sandbox sends a signed webhook to --http's receiver when a worker
// accepts a contract, and assistants hear of it: a 2025-11-25 client subscribed with
// resources/subscribe, a 2026-07-28 client listening with subscriptions/listen, and list_changes
// shows it with the worker's and company's names, only to people who can read the company.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import {
  contractAccepted,
  deliver,
  HARBOR_SECRET,
  SECRET,
  sign,
  TWO_SECRETS_SETTING,
} from "../helpers/webhooks.js";
import { httpConfig, quietLogger } from "./http-helpers.js";

const CHANGES = "workforce://changes";
const MODERN = "2026-07-28";

let sandbox: Sandbox;
let server: HttpServerHandle;
const clients: Client[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    rateLimitPerMinute: 0,
    webhooks: { retryDelaysMs: [5, 5, 5, 5], timeoutMs: 5_000 },
  });
  server = await startHttpServer(
    httpConfig(
      {},
      {
        WORKFORCE_API_URL: sandbox.url,
        WORKFORCE_TOKEN_PASSTHROUGH: "1",
        WORKFORCE_WEBHOOK_SECRETS: TWO_SECRETS_SETTING,
        WORKFORCE_TOOLSETS: "default,live",
      },
    ),
    quietLogger(),
    "test",
  );
  await registerWebhook("cmp_nordlys");
});
afterAll(async () => {
  await server?.close();
  await sandbox?.close();
});
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
});

/** A client of the server acting with one of the sandbox's tokens, in one protocol version. */
async function connect(token: "full" | "limited", modern = false): Promise<Client> {
  const client = new Client(
    { name: "live-test", version: "0" },
    modern ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${sandbox.tokens[token]}` } },
    }),
  );
  clients.push(client);
  return client;
}

/** Resolves with the next notifications/resources/updated the client receives, or fails after `ms`. */
function nextUpdate(client: Client, ms = 1_000): Promise<{ uri: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no resource update within ${ms} ms`)), ms);
    client.setNotificationHandler("notifications/resources/updated", (n) => {
      clearTimeout(timer);
      resolve(n.params);
    });
  });
}

/** Registers a webhook in the sandbox to this server's receiver, as an administrator would. */
async function registerWebhook(company: string): Promise<void> {
  const res = await fetch(sandbox.graphqlUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${sandbox.tokens.full}`,
    },
    body: JSON.stringify({
      query: `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { id } }`,
      variables: {
        input: {
          title: "workforce-mcp",
          company,
          url: `${server.url}/webhooks/platform`,
          secret: SECRET,
          subscribedEvents: ["CONTRACT_ACCEPTED"],
        },
      },
    }),
  });
  const body = (await res.json()) as { errors?: unknown };
  expect(body.errors).toBeUndefined();
}

/**
 * A hire of the company whose worker has a contract to accept, and its worker's name. The data is
 * not reset between tests: the same acceptance again would send the same body, kept once.
 */
function offeredHire(companyId: string): { id: string; worker: string } {
  let found = { id: "", worker: "" };
  sandbox.edit((d) => {
    const hire = [...d.hires.values()].find(
      (h) => h.status === "OFFERED" && h.companyId === companyId,
    );
    const worker = hire ? d.workers.get(hire.workerId) : undefined;
    if (hire && worker) found = { id: hire.id, worker: `${worker.firstName} ${worker.lastName}` };
  });
  expect(found.id).not.toBe("");
  return found;
}

type Result = Awaited<ReturnType<Client["callTool"]>>;
const text = (r: Result) => (r.content as { text: string }[]).map((c) => c.text).join("\n");

describe("live changes over --http with WORKFORCE_WEBHOOK_SECRETS", () => {
  it("a contract accepted in the sandbox reaches subscribed 2025-11-25 and 2026-07-28 clients within a second, and list_changes names the worker and company", async () => {
    const legacy = await connect("full");
    await legacy.subscribeResource({ uri: CHANGES });
    const modern = await connect("full", true);
    const legacyHeard = nextUpdate(legacy);
    const modernHeard = nextUpdate(modern);
    const subscription = await modern.listen({ resourceSubscriptions: [CHANGES] });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual([CHANGES]);

    const hire = offeredHire("cmp_nordlys");
    const { contractId } = sandbox.acceptContract(hire.id);
    expect(await legacyHeard).toMatchObject({ uri: CHANGES });
    expect(await modernHeard).toMatchObject({ uri: CHANGES });
    expect(sandbox.webhookEvents.at(-1)?.event).toBe("contractAccepted");

    for (const client of [legacy, modern]) {
      const r = await client.callTool({ name: "list_changes", arguments: { hireId: hire.id } });
      expect(r.isError).toBeFalsy();
      const t = text(r);
      expect(t).toContain(`contractAccepted: hire ${hire.id}`);
      expect(t).toContain(`"${hire.worker}"`);
      expect(t).toContain('at "Nordlys Energi A/S" (cmp_nordlys)');
      expect(t).toContain(`contract ${contractId}`);
      expect(t).toContain("hire status now ready");
    }
    const read = await modern.readResource({ uri: CHANGES });
    expect((read.contents[0] as { text: string }).text).toContain(`"${hire.worker}"`);
    await subscription.close();
  });

  it("the 1.x client (2025-11-25, resources/subscribe) is told of a contract accepted within a second", async () => {
    const v1 = new ClientV1({ name: "live-v1", version: "0" });
    await v1.connect(
      new StreamableHTTPClientTransportV1(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${sandbox.tokens.full}` } },
      }),
    );
    try {
      const heard = new Promise<{ uri: string }>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error("no resource update within 1000 ms")),
          1_000,
        );
        v1.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
          clearTimeout(timer);
          resolve(n.params);
        });
      });
      await v1.subscribeResource({ uri: CHANGES });
      const hire = offeredHire("cmp_nordlys");
      sandbox.acceptContract(hire.id);
      expect(await heard).toMatchObject({ uri: CHANGES });
      const r = await v1.callTool({ name: "list_changes", arguments: { hireId: hire.id } });
      expect((r.content as { text: string }[])[0]?.text).toContain(`"${hire.worker}"`);
    } finally {
      await v1.close();
    }
  });

  it("a person whose sign-in cannot read the event's company neither sees it nor hears of it (limited token: Nordlys only)", async () => {
    const limited = await connect("limited");
    await limited.subscribeResource({ uri: CHANGES });
    const heard: string[] = [];
    let told: (() => void) | undefined;
    limited.setNotificationHandler("notifications/resources/updated", (n) => {
      heard.push(n.params.uri);
      told?.();
    });
    // A Harbor event, signed as the platform signs it, with Harbor's webhook secret.
    const harbor = JSON.stringify(contractAccepted("hire_002", "cmp_harbor", "ctr_harbor"));
    expect(
      (
        await deliver(`${server.url}/webhooks/platform`, harbor, {
          signature: sign(harbor, HARBOR_SECRET),
        })
      ).status,
    ).toBe(200);
    // Then a Nordlys one through the sandbox: the only one the limited person hears of.
    const firstHeard = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no resource update within 1000 ms")), 1_000);
      told = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    const hire = offeredHire("cmp_nordlys");
    sandbox.acceptContract(hire.id);
    await firstHeard;
    expect(heard).toEqual([CHANGES]);

    const mine = text(await limited.callTool({ name: "list_changes", arguments: {} }));
    expect(mine).toContain(`hire ${hire.id}`);
    expect(mine).not.toMatch(/hire_002|Harbor/);
    const full = await connect("full");
    const all = text(await full.callTool({ name: "list_changes", arguments: {} }));
    expect(all).toContain("hire hire_002");
  });
});

describe("live changes without a receiver", () => {
  it("list_changes says the events are not received here and what to set", async () => {
    const plain = await startHttpServer(
      httpConfig(
        {},
        {
          WORKFORCE_API_URL: sandbox.url,
          WORKFORCE_TOKEN_PASSTHROUGH: "1",
          WORKFORCE_TOOLSETS: "default,live",
        },
      ),
      quietLogger(),
      "test",
    );
    try {
      const client = new Client({ name: "live-test", version: "0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${plain.url}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${sandbox.tokens.full}` } },
        }),
      );
      const r = await client.callTool({ name: "list_changes", arguments: {} });
      // With no secret configured the receiver still takes webhooks registered through
      // manage_webhooks; the answer says so rather than showing a bare empty list.
      expect(r.isError).toBeFalsy();
      expect(text(r)).toMatch(/No WORKFORCE_WEBHOOK_SECRETS is set here: .*manage_webhooks/s);
      await client.close();
    } finally {
      await plain.close();
    }
  });
});
