// list_webhooks through a real MCP client against the sandbox: a company's webhooks with their
// events and deliveries, never a secret; one webhook's recent deliveries; reachable with --read-only.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { webhooksOf } from "../../src/sandbox/domains/webhooks/seed.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import type { Harness, HarnessOptions } from "../helpers/mcp-harness.js";
import { callTool, previewToken, useHarness } from "../helpers/tool-calls.js";
import { failedDelivery } from "../helpers/webhooks.js";

const TOOL = "list_webhooks";
const PUBLIC_URL = "http://127.0.0.1:39871";
const RECEIVER = `${PUBLIC_URL}/webhooks/platform`;

interface Out {
  company: { id: string; name: string };
  receiverUrl: string | null;
  webhooks: {
    id: string;
    isActive: boolean;
    events: string[] | null;
    toThisServer: boolean;
    failedDeliveryIds: string[];
  }[];
  deliveries?: { id: string; event: string; status: string }[];
}

const harness = useHarness();

const start = (options: HarnessOptions = {}) =>
  harness({
    ...options,
    config: { publicUrl: PUBLIC_URL, ...options.config },
    state: { store: createMemoryStore(), sealingKey: randomBytes(32) },
  });

const call = (h: Harness, args: Record<string, unknown>) => callTool<Out>(h, TOOL, args);

/** The sandbox's webhooks as the platform keeps them, secrets included. */
function platformWebhooks(h: Harness) {
  let list: ReturnType<typeof webhooksOf> = [];
  h.sandbox.edit((d) => {
    list = webhooksOf(d).map((w) => ({ ...w }));
  });
  return list;
}

describe("list_webhooks", () => {
  it("lists the company's webhooks with their events and deliveries, never a secret", async () => {
    const h = await start();
    const r = await call(h, { company: "cmp_nordlys" });
    expect(r.r.isError, r.text).toBeFalsy();
    expect(r.out.receiverUrl).toBe(RECEIVER);
    expect(r.out.webhooks.map((w) => w.id)).toEqual(["whk_001", "whk_002"]);
    expect(r.out.webhooks[1]).toMatchObject({ isActive: false, events: ["INVOICE_CREATED"] });
    expect(r.text).toContain(`This server's receiver: ${RECEIVER}.`);
    const everything = JSON.stringify(r.r);
    for (const w of platformWebhooks(h)) {
      for (const secret of [w.secret, w.clientSecret]) {
        if (secret) expect(everything).not.toContain(secret);
      }
    }
    // The secret is never even asked for, and nothing is changed.
    const documents = h.sandbox.requests.map((q) => JSON.stringify(q)).join("\n");
    expect(documents).not.toMatch(/\bsecret\b/);
    expect(h.sandbox.requests.filter((q) => q.operationType === "mutation")).toEqual([]);
  });

  it("takes the company's name, and says it read it as the id", async () => {
    const h = await start();
    const r = await call(h, { company: "Nordlys" });
    expect(r.r.isError, r.text).toBeFalsy();
    expect(r.text).toContain('company: read "Nordlys" as "Nordlys Energi A/S" (cmp_nordlys).');
    expect(r.out.webhooks.map((w) => w.id)).toEqual(["whk_001", "whk_002"]);
  });

  it("refuses a company that is not one of the caller's, naming the caller's companies", async () => {
    const h = await start();
    const r = await call(h, { company: "cmp_unknown" });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain(
      '"cmp_unknown" is neither the id nor the name of a company you can see',
    );
    expect(r.text).toContain("Your companies: ");
  });

  it("shows one webhook's recent deliveries, a failed one with the id a retry takes", async () => {
    const h = await start();
    const create = { action: "create", company: "cmp_nordlys", events: ["CONTRACT_ACCEPTED"] };
    const token = await previewToken(h, "manage_webhooks", create);
    const created = await callTool<{ webhook: { id: string } }>(h, "manage_webhooks", {
      ...create,
      confirmationToken: token,
    });
    const webhookId = created.out.webhook.id;
    const eventId = await failedDelivery(h, webhookId);

    const all = await call(h, { company: "cmp_nordlys" });
    expect(all.out.deliveries).toBeUndefined();
    expect(all.out.webhooks.find((w) => w.id === webhookId)?.failedDeliveryIds).toEqual([eventId]);

    const one = await call(h, { company: "cmp_nordlys", webhookId });
    expect(one.r.isError, one.text).toBeFalsy();
    expect(one.out.webhooks.map((w) => w.id)).toEqual([webhookId]);
    expect(one.out.deliveries).toEqual([
      expect.objectContaining({ id: eventId, event: "contractAccepted" }),
    ]);
    expect(one.text).toContain("1 recent delivery, newest first:");
    expect(one.text).toMatch(new RegExp(`- ${eventId} contractAccepted failed`));

    const unknown = await call(h, { company: "cmp_nordlys", webhookId: "whk_999" });
    expect(unknown.r.isError).toBe(true);
    expect(unknown.text).toContain("company cmp_nordlys has no webhook whk_999");
  });

  it('answers "list our webhooks" with --read-only, through run_read_tool', async () => {
    const h = await start({ readOnly: true });
    const found = await callTool<{ tools: { name: string }[] }>(h, "find_tools", {
      query: "list our webhooks",
    });
    expect(found.out.tools.map((t) => t.name)[0]).toBe(TOOL);
    expect(found.out.tools.map((t) => t.name)).not.toContain("manage_webhooks");
    const r = await callTool<Out>(h, "run_read_tool", {
      name: TOOL,
      arguments: { company: "cmp_nordlys" },
    });
    expect(r.r.isError, r.text).toBeFalsy();
    expect(r.out.webhooks.map((w) => w.id)).toEqual(["whk_001", "whk_002"]);
  });
});
