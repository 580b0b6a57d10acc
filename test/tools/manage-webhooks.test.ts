// manage_webhooks through a real MCP client against the sandbox (list_webhooks reads what it made):
// registering points at this server's receiver with a secret generated here and kept only sealed;
// deleting forgets it; a lost answer is read back and never registers twice.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_TOOLSETS } from "../../src/config/defaults.js";
import { webhooksOf } from "../../src/sandbox/domains/webhooks/seed.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import type { StateStore } from "../../src/state/store.js";
import { createWebhookSecretStore } from "../../src/state/webhook-secrets.js";
import type { Harness, HarnessOptions } from "../helpers/mcp-harness.js";
import { callTool, useHarness } from "../helpers/tool-calls.js";
import { failedDelivery } from "../helpers/webhooks.js";

const PUBLIC_URL = "http://127.0.0.1:39871";
const RECEIVER = `${PUBLIC_URL}/webhooks/platform`;

/** The live toolset named, and a public address: what manage_webhooks needs. */
const LIVE_OPTIONS: HarnessOptions = {
  config: { toolsets: [...DEFAULT_TOOLSETS, "live"], publicUrl: PUBLIC_URL },
};

interface Out {
  status: string;
  confirmationToken?: string;
  receiverUrl?: string | null;
  webhooks?: {
    id: string;
    url: string;
    isActive: boolean;
    events: string[] | null;
    toThisServer: boolean;
  }[];
  webhook?: { id: string | null; url: string; events: string[] | null };
  preview?: { company: { name: string }; webhook: { url: string } };
  note?: string;
}

const harness = useHarness();

async function start(options: HarnessOptions = {}) {
  const store = createMemoryStore();
  const sealingKey = randomBytes(32);
  const h = await harness({ ...LIVE_OPTIONS, ...options, state: { store, sealingKey } });
  return { h, store, sealingKey };
}

const call = (h: Harness, args: Record<string, unknown>) =>
  callTool<Out>(h, "manage_webhooks", args);

/** The sandbox's webhooks as the platform keeps them, secrets included. */
function platformWebhooks(h: Harness) {
  let list: ReturnType<typeof webhooksOf> = [];
  h.sandbox.edit((d) => {
    list = webhooksOf(d).map((w) => ({ ...w }));
  });
  return list;
}

/** Every value in the store, as Redis would hold it. */
async function storeDump(store: StateStore): Promise<string> {
  return JSON.stringify(await store.readFields("webhook-secrets"));
}

const CREATE = {
  action: "create",
  company: "cmp_nordlys",
  events: ["CONTRACT_ACCEPTED", "HIRE_TERMINATED"],
};

describe("manage_webhooks and the server", () => {
  it("is not listed at first, and not reachable with --read-only", async () => {
    for (const config of [{}, { ...LIVE_OPTIONS.config, readOnly: true }]) {
      const h = await harness({ config });
      const { tools } = await h.client.listTools();
      expect(tools.map((t) => t.name)).not.toContain("manage_webhooks");
    }
    const h = await harness({ config: { ...LIVE_OPTIONS.config, readOnly: true } });
    const r = await callTool(h, "run_write_tool", {
      name: "manage_webhooks",
      arguments: { action: "retry", company: "cmp_nordlys", eventId: "whe_1" },
    });
    expect(r.r.isError).toBe(true);
    expect(h.sandbox.requests).toEqual([]);
  });

  it("has no list action any more: listing is list_webhooks", async () => {
    const { h } = await start();
    const r = await call(h, { action: "list", company: "cmp_nordlys" });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("action");
    expect(h.sandbox.requests).toEqual([]);
  });
});

describe("manage_webhooks create", () => {
  it("previews, then registers exactly one webhook to this server's receiver with a secret no output, log line or stored value shows", async () => {
    const { h, store, sealingKey } = await start();
    const first = await call(h, CREATE);
    expect(first.r.isError, first.text).toBeFalsy();
    expect(first.out.status).toBe("preview");
    expect(first.text).toContain(RECEIVER);
    expect(first.text).toContain('"Nordlys Energi A/S"');
    expect(first.text).toContain("CONTRACT_ACCEPTED, HIRE_TERMINATED");
    expect(h.sandbox.countRequests("CreateWebhook")).toBe(0);

    const second = await call(h, { ...CREATE, confirmationToken: first.out.confirmationToken });
    expect(second.r.isError, second.text).toBeFalsy();
    expect(second.out.status).toBe("created");
    expect(h.sandbox.countRequests("CreateWebhook")).toBe(1);
    const ours = platformWebhooks(h).filter((w) => w.url === RECEIVER);
    expect(ours).toHaveLength(1);
    const [made] = ours as [ReturnType<typeof platformWebhooks>[number]];
    expect(made).toMatchObject({
      companyId: "cmp_nordlys",
      isActive: true,
      subscribedEvents: ["CONTRACT_ACCEPTED", "HIRE_TERMINATED"],
    });
    expect(second.out.webhook?.id).toBe(made.id);
    const secret = made.secret as string;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);

    // Kept sealed, and it opens with the server's key.
    const kept = await createWebhookSecretStore(store, sealingKey).get("cmp_nordlys");
    expect(kept).toMatchObject({ webhookId: made.id, url: RECEIVER, secret });
    const listed = await callTool<Out>(h, "list_webhooks", { company: "cmp_nordlys" });
    expect(listed.out.webhooks?.find((w) => w.id === made.id)?.toThisServer).toBe(true);
    for (const seen of [
      JSON.stringify([first.r, second.r, listed.r]),
      h.stderr.join("\n"),
      await storeDump(store),
    ]) {
      expect(seen).not.toContain(secret);
    }
  });

  it("never registers a second webhook to this server for the same company", async () => {
    const { h } = await start();
    const { out } = await call(h, CREATE);
    await call(h, { ...CREATE, confirmationToken: out.confirmationToken });
    const again = await call(h, { ...CREATE, events: ["HIRE_ENDED"] });
    expect(again.r.isError).toBe(true);
    expect(again.text).toContain("already has webhook");
    expect(h.sandbox.countRequests("CreateWebhook")).toBe(1);
  });

  it("refuses without a public address, saying to set WORKFORCE_PUBLIC_URL", async () => {
    const { h } = await start({
      config: { toolsets: [...DEFAULT_TOOLSETS, "live"], publicUrl: undefined },
    });
    const r = await call(h, CREATE);
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("WORKFORCE_PUBLIC_URL");
    expect(h.sandbox.countRequests("CreateWebhook")).toBe(0);
  });

  it("binds the token to the events", async () => {
    const { h } = await start();
    const { out } = await call(h, CREATE);
    const other = await call(h, {
      ...CREATE,
      events: ["HIRE_ENDED"],
      confirmationToken: out.confirmationToken,
    });
    expect(other.r.isError).toBe(true);
    expect(other.text).toContain("different now: events");
    expect(h.sandbox.countRequests("CreateWebhook")).toBe(0);
  });

  it("reads the webhooks back after the connection drops post-send, and never creates twice", async () => {
    const { h, store, sealingKey } = await start();
    const { out } = await call(h, CREATE);
    h.sandbox.faults.inject("drop-connection", { operationName: "CreateWebhook", after: true });
    const r = await call(h, { ...CREATE, confirmationToken: out.confirmationToken });
    expect(r.r.isError, r.text).toBeFalsy();
    expect(r.out.status).toBe("created");
    expect(r.text).toContain("not sent again");
    expect(h.sandbox.countRequests("CreateWebhook")).toBe(1);
    const ours = platformWebhooks(h).filter((w) => w.url === RECEIVER);
    expect(ours).toHaveLength(1);
    const kept = await createWebhookSecretStore(store, sealingKey).get("cmp_nordlys");
    expect(kept).toMatchObject({ webhookId: ours[0]?.id, secret: ours[0]?.secret });
    // Another attempt finds it and sends nothing.
    const again = await call(h, CREATE);
    expect(again.r.isError).toBe(true);
    expect(h.sandbox.countRequests("CreateWebhook")).toBe(1);
  });

  it("says the outcome is unknown when no read shows the webhook, keeps the secret sealed, and refuses another attempt", async () => {
    const { h, store, sealingKey } = await start();
    const { out } = await call(h, CREATE);
    h.sandbox.faults.inject("drop-connection", { operationName: "CreateWebhook", later: true });
    const lost = await call(h, { ...CREATE, confirmationToken: out.confirmationToken });
    expect(lost.r.isError).toBe(true);
    expect(lost.out.status).toBe("outcome-unknown");
    expect(lost.text).toContain("list_webhooks (company cmp_nordlys)");
    // Should the platform make it after all, its deliveries are accepted.
    expect(await createWebhookSecretStore(store, sealingKey).get("cmp_nordlys")).toMatchObject({
      webhookId: null,
      url: RECEIVER,
    });
    const again = await call(h, CREATE);
    expect(again.r.isError).toBe(true);
    expect(again.text).toContain("outcome is not known yet");
    expect(h.sandbox.countRequests("CreateWebhook")).toBe(1);
  });

  it("forgets the secret when the platform refuses the webhook", async () => {
    const { h, store, sealingKey } = await start();
    const { out } = await call(h, CREATE);
    h.sandbox.faults.inject("rate-limit", { operationName: "CreateWebhook", count: 10 });
    const r = await call(h, { ...CREATE, confirmationToken: out.confirmationToken });
    expect(r.r.isError).toBe(true);
    expect(await createWebhookSecretStore(store, sealingKey).get("cmp_nordlys")).toBeUndefined();
  });
});

describe("manage_webhooks delete", () => {
  it("previews, then deletes the webhook and forgets its secret", async () => {
    const { h, store, sealingKey } = await start();
    const { out } = await call(h, CREATE);
    const created = await call(h, { ...CREATE, confirmationToken: out.confirmationToken });
    const id = created.out.webhook?.id as string;
    const del = { action: "delete", company: "cmp_nordlys", webhookId: id };
    const preview = await call(h, del);
    expect(preview.out.status).toBe("preview");
    expect(preview.text).toContain("this server's receiver");
    expect(preview.text.trim().split("\n").at(-1)).toContain("cannot be undone");
    expect(h.sandbox.countRequests("DeleteWebhook")).toBe(0);
    const done = await call(h, { ...del, confirmationToken: preview.out.confirmationToken });
    expect(done.r.isError, done.text).toBeFalsy();
    expect(done.out.status).toBe("deleted");
    expect(platformWebhooks(h).some((w) => w.id === id)).toBe(false);
    expect(await createWebhookSecretStore(store, sealingKey).get("cmp_nordlys")).toBeUndefined();
  });

  it("deletes another system's webhook, saying so, and keeps this server's secret", async () => {
    const { h } = await start();
    const del = { action: "delete", company: "cmp_nordlys", webhookId: "whk_002" };
    const preview = await call(h, del);
    expect(preview.text).toContain("another system");
    expect(preview.text).toContain("https://finance.nordlys.example/inbox/workforce");
    const done = await call(h, { ...del, confirmationToken: preview.out.confirmationToken });
    expect(done.out.status).toBe("deleted");
    expect(platformWebhooks(h).map((w) => w.id)).toEqual(["whk_001", "whk_003"]);
  });

  it("refuses a webhook of another company, and one not named", async () => {
    const { h } = await start();
    const foreign = await call(h, {
      action: "delete",
      company: "cmp_nordlys",
      webhookId: "whk_003",
    });
    expect(foreign.r.isError).toBe(true);
    expect(foreign.text).toContain("See the company's webhooks with list_webhooks.");
    const unnamed = await call(h, { action: "delete", company: "cmp_nordlys" });
    expect(unnamed.r.isError).toBe(true);
    expect(unnamed.text).toContain("webhookId");
    expect(h.sandbox.countRequests("DeleteWebhook")).toBe(0);
  });
});

describe("manage_webhooks retry", () => {
  it("sends a failed delivery again, and refuses one that is not failed or not the company's", async () => {
    const { h } = await start();
    const { out } = await call(h, CREATE);
    const created = await call(h, { ...CREATE, confirmationToken: out.confirmationToken });
    const webhookId = created.out.webhook?.id as string;
    const eventId = await failedDelivery(h, webhookId);
    const listed = await callTool<Out>(h, "list_webhooks", { company: "cmp_nordlys" });
    expect(listed.text).toContain(eventId);

    const r = await call(h, { action: "retry", company: "cmp_nordlys", eventId });
    expect(r.r.isError, r.text).toBeFalsy();
    expect(r.out.status).toBe("retried");
    expect(h.sandbox.countRequests("RetryWebhookEvent")).toBe(1);

    const missing = await call(h, { action: "retry", company: "cmp_nordlys", eventId: "whe_9999" });
    expect(missing.r.isError).toBe(true);
    expect(missing.text).toContain("See the recent deliveries with list_webhooks.");
    const none = await call(h, { action: "retry", company: "cmp_nordlys" });
    expect(none.r.isError).toBe(true);
    expect(none.text).toContain("eventId");
    expect(h.sandbox.countRequests("RetryWebhookEvent")).toBe(1);
  });
});
