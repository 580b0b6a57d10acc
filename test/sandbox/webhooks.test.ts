// The webhooks domain: the companies' webhooks, secrets included, with the core's visibility.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhooksOf } from "../../src/sandbox/domains/webhooks/seed.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { createSeed } from "../../src/sandbox/seed/index.js";
import { gql, onlyError, TODAY } from "./helpers.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ today: TODAY, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

interface WebhookPage {
  webhooks: {
    paginatorInfo: { total: number; hasMorePages: boolean };
    data: { id: string; owner: string; secret: string | null; subscribedEvents: string[] | null }[];
  };
}

const LIST = `query($accounts: [ID!], $first: Int!) {
  webhooks(accounts: $accounts, first: $first) {
    paginatorInfo { total hasMorePages }
    data { id owner secret subscribedEvents }
  }
}`;

describe("webhooks in the sandbox", () => {
  it("lists the caller's companies' webhooks, with owner and secret", async () => {
    const r = await gql<WebhookPage>(sandbox, LIST, { variables: { first: 10 } });
    expect(r.errors).toBeUndefined();
    const list = r.data?.webhooks.data ?? [];
    expect(list.map((w) => w.id)).toEqual(["whk_001", "whk_002", "whk_003"]);
    expect(list[0]?.owner).toBe("Nordlys Energi A/S");
    expect(list[0]?.secret).toMatch(/^whsec_[a-z0-9]{24}$/);
    // null means every event type, as the real schema says.
    expect(list[2]?.subscribedEvents).toBeNull();
  });

  it("filters by account and pages", async () => {
    const r = await gql<WebhookPage>(sandbox, LIST, {
      variables: { accounts: ["cmp_nordlys"], first: 1 },
    });
    expect(r.data?.webhooks.paginatorInfo).toEqual({ total: 2, hasMorePages: true });
    expect(r.data?.webhooks.data.map((w) => w.id)).toEqual(["whk_001"]);
  });

  it("shows the limited token only Nordlys's, and refuses another company's", async () => {
    const r = await gql<WebhookPage>(sandbox, LIST, { token: "limited", variables: { first: 10 } });
    expect(r.data?.webhooks.data.map((w) => w.id)).toEqual(["whk_001", "whk_002"]);
    const other = await gql(sandbox, '{ webhook(id: "whk_003") { id } }', { token: "limited" });
    expect(other.data).toEqual({ webhook: null });
    expect(onlyError(other).message).toBe("You are not authorized to perform this action.");
    const missing = await gql(sandbox, '{ webhook(id: "whk_999") { id } }');
    expect(missing.data).toEqual({ webhook: null });
    expect(missing.errors).toBeUndefined();
  });

  it("seeds the same webhooks every time", () => {
    expect(webhooksOf(createSeed(TODAY))).toEqual(webhooksOf(createSeed(TODAY)));
  });
});
