// Issue 33, findings 2, 3 and 5, played against the real --http server (stateless, as with Redis;
// 2025-11-25 and 2026-07-28 clients): a webhook secret speaks for its own company only, the hire
// details kept beside an event are shown only to readers of that hire's company, and the events
// kept are bounded in bytes, one company's deliveries never pushing out another's.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import type { StateStore } from "../../src/state/store.js";
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

const MODERN = "2026-07-28";
const THIRD_SECRET = "whsec_castell_secret_0123456789";

let sandbox: Sandbox;
const closing: (() => Promise<unknown>)[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await sandbox?.close();
});
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  for (const close of closing.splice(0).reverse()) await close().catch(() => {});
});

async function start(env: NodeJS.ProcessEnv = {}, store: StateStore = createMemoryStore()) {
  const server: HttpServerHandle = await startHttpServer(
    httpConfig(
      {},
      {
        WORKFORCE_API_URL: sandbox.url,
        WORKFORCE_TOKEN_PASSTHROUGH: "1",
        WORKFORCE_STATELESS: "1",
        WORKFORCE_WEBHOOK_SECRETS: TWO_SECRETS_SETTING,
        WORKFORCE_TOOLSETS: "default,live",
        ...env,
      },
    ),
    quietLogger(),
    "test",
    { stateStore: store },
  );
  closing.push(() => server.close());
  return { server, store, receiver: `${server.url}/webhooks/platform` };
}

async function connect(url: string, token: "full" | "limited", modern = false) {
  const client = new Client(
    { name: "tenancy-test", version: "0" },
    modern ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${sandbox.tokens[token]}` } },
    }),
  );
  clients.push(client);
  return client;
}

type Result = Awaited<ReturnType<Client["callTool"]>>;
const text = (r: Result) => (r.content as { text: string }[]).map((c) => c.text).join("\n");
const listed = async (client: Client, args: Record<string, unknown> = {}) =>
  text(await client.callTool({ name: "list_changes", arguments: { first: 50, ...args } }));

/** A hire of Harbor & Pine (which the limited token cannot read), and its worker's name. */
function harborHire(): { id: string; worker: string } {
  let found = { id: "", worker: "" };
  sandbox.edit((d) => {
    const hire = [...d.hires.values()].find((h) => h.companyId === "cmp_harbor");
    const worker = hire ? d.workers.get(hire.workerId) : undefined;
    if (hire && worker) found = { id: hire.id, worker: `${worker.firstName} ${worker.lastName}` };
  });
  expect(found.id).not.toBe("");
  return found;
}

describe("OWASP API1:2023 BOLA (CWE-639): an event belongs to the company whose webhook secret signed it", () => {
  it("an event naming Harbor, signed with Nordlys's secret, is refused with 403 and stored nowhere; Harbor's own secret is accepted", async () => {
    const { receiver, server } = await start();
    const forged = JSON.stringify(
      contractAccepted("hire_002", "cmp_harbor", "ctr_forged_by_nordlys"),
    );
    const refused = await deliver(receiver, forged, { signature: sign(forged, SECRET) });
    expect(refused.status).toBe(403);
    expect(String(refused.body.error)).toMatch(/company other than the one whose webhook secret/);
    const genuine = JSON.stringify(contractAccepted("hire_002", "cmp_harbor", "ctr_by_harbor"));
    expect(
      (await deliver(receiver, genuine, { signature: sign(genuine, HARBOR_SECRET) })).status,
    ).toBe(200);
    // A person who reads Harbor sees Harbor's own event only, in both protocol versions.
    for (const modern of [false, true]) {
      const full = await connect(server.url, "full", modern);
      const t = await listed(full, { company: "cmp_harbor" });
      expect(t).toContain("ctr_by_harbor");
      expect(t).not.toContain("ctr_forged_by_nordlys");
    }
  });
});

describe("OWASP API1:2023 BOLA (CWE-639): hire details beside an event are shown only to readers of the hire's company", () => {
  it("an event signed by Nordlys naming Harbor's hire never shows that hire's details, to a reader of both nor then to a Nordlys-only reader (--stateless, 2025-11-25 and 2026-07-28)", async () => {
    const { receiver, server } = await start();
    const hire = harborHire();
    const body = JSON.stringify(contractAccepted(hire.id, "cmp_nordlys", "ctr_names_harbor_hire"));
    expect((await deliver(receiver, body, { signature: sign(body, SECRET) })).status).toBe(200);
    for (const modern of [false, true]) {
      // Someone who reads both companies lists first: the hire is read with their credential.
      const full = await connect(server.url, "full", modern);
      const both = await listed(full);
      expect(both).toContain("ctr_names_harbor_hire");
      expect(both).not.toContain(hire.worker);
      expect(both).not.toContain("Harbor");
      // Then a person of Nordlys only: the event is Nordlys's, Harbor's hire is not shown.
      const limited = await connect(server.url, "limited", modern);
      const mine = await listed(limited);
      expect(mine).toContain("ctr_names_harbor_hire");
      expect(mine).not.toContain(hire.worker);
      expect(mine).not.toContain("Harbor");
      const feed = await limited.readResource({ uri: "workforce://changes" });
      const feedText = feed.contents.map((c) => ("text" in c ? c.text : "")).join("\n");
      expect(feedText).toContain("ctr_names_harbor_hire");
      expect(feedText).not.toContain(hire.worker);
      expect(feedText).not.toContain("Harbor");
    }
  });
});

describe("OWASP API4:2023 unrestricted resource consumption (CWE-770, CWE-400): received events are bounded in bytes, per company", () => {
  it("refuses a body past the platform's minimal payloads with 413; one company's flood never pushes out another's events; a full store refuses (503) rather than drop anyone's", async () => {
    const { receiver, server, store } = await start({
      WORKFORCE_WEBHOOK_SECRETS: `${TWO_SECRETS_SETTING},cmp_castell:${THIRD_SECRET}`,
      WORKFORCE_WEBHOOK_MAX_EVENTS: "40",
      WORKFORCE_WEBHOOK_MAX_BYTES: String(1024 * 1024),
      WORKFORCE_WEBHOOK_COMPANY_MAX_BYTES: String(512 * 1024),
    });
    const padded = (hire: string, company: string, contract: string, bytes: number) => {
      const event = contractAccepted(hire, company, contract);
      return JSON.stringify({ ...event, data: { ...event.data, note: "x".repeat(bytes) } });
    };
    const huge = padded("hire_001", "cmp_nordlys", "ctr_huge", 250 * 1024);
    expect((await deliver(receiver, huge, { signature: sign(huge, SECRET) })).status).toBe(413);

    const harbor = padded("hire_002", "cmp_harbor", "ctr_harbor_kept", 100);
    expect(
      (await deliver(receiver, harbor, { signature: sign(harbor, HARBOR_SECRET) })).status,
    ).toBe(200);
    // Nordlys's secret floods with the largest bodies accepted.
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const body = padded("hire_001", "cmp_nordlys", `ctr_flood_${i}`, 15 * 1024);
      statuses.push((await deliver(receiver, body, { signature: sign(body, SECRET) })).status);
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
    const full = await connect(server.url, "full");
    expect(await listed(full, { company: "cmp_harbor" })).toContain("ctr_harbor_kept");
    expect(await store.logBytes("webhook-events")).toBeLessThanOrEqual(1024 * 1024);
    // Harbor fills its own share too; then the store is full: Castell's event is refused, not
    // kept by dropping Nordlys's or Harbor's.
    for (let i = 0; i < 60; i++) {
      const body = padded("hire_002", "cmp_harbor", `ctr_harbor_${i}`, 15 * 1024);
      await deliver(receiver, body, { signature: sign(body, HARBOR_SECRET) });
    }
    const castell = padded("hire_003", "cmp_castell", "ctr_castell", 15 * 1024);
    const before = await store.logBytes("webhook-events");
    const refused = await deliver(receiver, castell, { signature: sign(castell, THIRD_SECRET) });
    expect(refused.status).toBe(503);
    expect(await store.logBytes("webhook-events")).toBe(before);
    expect(await listed(full, { company: "cmp_nordlys" })).toContain("ctr_flood_59");
  });
});
