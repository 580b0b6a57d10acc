// list_changes and workforce://changes through a real MCP client against the sandbox, over the
// events store as the HTTP server's receiver keeps them (the receiver itself: test/e2e/
// http-live-changes.test.ts).
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_TOOLSETS } from "../../src/config/defaults.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import {
  companyIdOf,
  createWebhookEventStore,
  type WebhookEventStore,
} from "../../src/state/webhook-events.js";
import { type Harness, type HarnessOptions, startHarness } from "../helpers/mcp-harness.js";
import { until } from "../helpers/until.js";
import { contractAccepted } from "../helpers/webhooks.js";

type Result = Awaited<ReturnType<Harness["client"]["callTool"]>>;
const text = (r: Result) => (r.content as { text: string }[]).map((c) => c.text).join("\n");

interface Out {
  changes: {
    eventId: string;
    event: string;
    hireId: string | null;
    hireNumber: string | null;
    newStatus: string | null;
    worker: { id: string | null; name: string | null } | null;
    company: { id: string; name: string | null };
    contract: { id: string | null; jobName: string | null } | null;
    detailsFrom: string;
  }[];
  total: number;
  page: number;
  hasMore: boolean;
  notes: string[];
}

const LIVE = { toolsets: [...DEFAULT_TOOLSETS, "live" as const] };
const T0 = Date.parse("2026-11-23T08:00:00Z");

/** A hire event as the platform sends for a hire that is not a contract acceptance. */
function hireTerminated(hireId: string) {
  return {
    event: "hireTerminated",
    data: {
      contract: { id: null, hireId, hireStatus: "terminated", startDate: null, endDate: null },
      worker: null,
      trustedContact: null,
      customFieldValues: [],
    },
  };
}

let now = T0;
const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.allSettled(harnesses.splice(0).map((h) => h.close()));
});

function eventStore(): WebhookEventStore {
  return createWebhookEventStore(createMemoryStore(), {
    maxEvents: 1000,
    maxAgeMs: 7 * 24 * 60 * 60 * 1000,
    maxBytes: 1 << 24,
    maxCompanyBytes: 1 << 22,
    now: () => now,
  });
}

/** Stores the event as the receiver does once `company`'s secret signed it (by default the named one). */
async function add(
  events: WebhookEventStore,
  payload: { event: string },
  at: number,
  company = companyIdOf(payload) ?? "cmp_harbor",
) {
  now = at;
  const body = JSON.stringify(payload);
  await events.add({
    id: createHash("sha256").update(`${company}\n${body}`).digest("hex"),
    event: payload.event,
    companyId: company,
    payload,
  });
}

/** The company the sandbox's hire belongs to. */
function companyOfHire(h: Harness, hireId: string): string {
  let company = "";
  h.sandbox.edit((d) => {
    company = d.hires.get(hireId)?.companyId ?? "";
  });
  return company;
}

async function harness(options: HarnessOptions = {}) {
  const h = await startHarness({ config: LIVE, ...options });
  harnesses.push(h);
  return h;
}

const call = (h: Harness, args: Record<string, unknown> = {}) =>
  h.client.callTool({ name: "list_changes", arguments: args });

describe("list_changes", () => {
  it("shows each event newest first with hire number, worker, company and contract, each hire read once", async () => {
    const events = eventStore();
    await add(events, contractAccepted("hire_001", "cmp_nordlys", "ctr_002"), T0);
    await add(events, hireTerminated("hire_002"), T0 + 60_000);
    const h = await harness({ events });
    const r = await call(h);
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as unknown as Out;
    expect(out.total).toBe(2);
    expect(out.changes.map((c) => [c.event, c.hireId, c.company.id, c.newStatus])).toEqual([
      ["hireTerminated", "hire_002", "cmp_harbor", "terminated"],
      ["contractAccepted", "hire_001", "cmp_nordlys", "ready"],
    ]);
    const [, accepted] = out.changes;
    expect(accepted).toMatchObject({
      worker: { name: "Ana Costa" },
      company: { id: "cmp_nordlys", name: "Nordlys Energi A/S" },
      contract: { id: "ctr_002" },
      detailsFrom: "platform",
    });
    expect(accepted?.hireNumber).toEqual(expect.any(String));
    const t = text(r);
    expect(t).toContain('"Ana Costa"');
    expect(t).toContain('at "Nordlys Energi A/S" (cmp_nordlys)');
    expect(t).toContain('at "Harbor & Pine Inc." (cmp_harbor)');
    expect(t).toContain("hire status now terminated");
    expect(h.sandbox.countRequests("HireForChange")).toBe(2);
    // A second list reads the details kept beside the events: no hire is read again.
    await call(h);
    await call(h, { event: "contractAccepted" });
    expect(h.sandbox.countRequests("HireForChange")).toBe(2);
  });

  it("filters by since (date or date-time), hire, company (id or name) and event", async () => {
    const events = eventStore();
    await add(events, contractAccepted("hire_001", "cmp_nordlys", "ctr_002"), T0);
    await add(events, hireTerminated("hire_002"), T0 + 60 * 60_000);
    const h = await harness({ events });
    const ids = async (args: Record<string, unknown>) =>
      ((await call(h, args)).structuredContent as unknown as Out).changes.map((c) => c.hireId);
    expect(await ids({ since: "2026-11-23T08:30:00Z" })).toEqual(["hire_002"]);
    expect(await ids({ since: "2026-11-23T09:30:00+01:00" })).toEqual(["hire_002"]);
    expect(await ids({ since: "2026-11-23" })).toEqual(["hire_002", "hire_001"]);
    expect(await ids({ since: "2026-11-24" })).toEqual([]);
    expect(await ids({ hireId: "hire_001" })).toEqual(["hire_001"]);
    expect(await ids({ company: "cmp_harbor" })).toEqual(["hire_002"]);
    expect(await ids({ event: "contractAccepted" })).toEqual(["hire_001"]);
    const byName = await call(h, { company: "Harbor" });
    expect(text(byName)).toContain('company: read "Harbor" as "Harbor & Pine Inc." (cmp_harbor).');
    // A hire by its worker's name; a hire id that matches nothing is an error, not "no changes".
    const byWorker = await call(h, { hireId: "Ana Costa" });
    expect(text(byWorker)).toContain('hireId: read "Ana Costa" as hire_001');
    expect((byWorker.structuredContent as unknown as Out).changes.map((c) => c.hireId)).toEqual([
      "hire_001",
    ]);
    const unknown = await call(h, { hireId: "hire_999" });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('no hire you can see has the id "hire_999"');
    const bad = await call(h, { since: "last Monday" });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/since/);
  });

  it("pages: first and page, saying how many there are", async () => {
    const events = eventStore();
    for (const [i, hire] of ["hire_001", "hire_005", "hire_006"].entries()) {
      await add(events, contractAccepted(hire, "cmp_nordlys", `ctr_x${i}`), T0 + i * 1000);
    }
    const h = await harness({ events });
    const first = await call(h, { first: 2 });
    const out = first.structuredContent as unknown as Out;
    expect([out.total, out.hasMore, out.changes.length]).toEqual([3, true, 2]);
    expect(text(first)).toContain("1–2 of 3 changes, newest first; ask for page 2 for more");
    const second = (await call(h, { first: 2, page: 2 })).structuredContent as unknown as Out;
    expect(second.changes.map((c) => c.hireId)).toEqual(["hire_001"]);
    expect(second.hasMore).toBe(false);
  });

  it("shows a person only events of companies their sign-in can read (the limited token: Nordlys only)", async () => {
    const events = eventStore();
    await add(events, contractAccepted("hire_001", "cmp_nordlys", "ctr_002"), T0);
    await add(events, contractAccepted("hire_002", "cmp_harbor", "ctr_003"), T0 + 1000);
    await add(events, hireTerminated("hire_002"), T0 + 2000);
    const limited = await harness({ events, token: "limited" });
    const r = await call(limited);
    const out = r.structuredContent as unknown as Out;
    expect(out.changes.map((c) => [c.hireId, c.company.id])).toEqual([["hire_001", "cmp_nordlys"]]);
    expect(text(r)).not.toMatch(/Harbor|hire_002/);
    // Even after someone who can read Harbor looked its hire up (the details are kept).
    const full = await harness({ events });
    expect(((await call(full)).structuredContent as unknown as Out).total).toBe(3);
    expect(((await call(limited)).structuredContent as unknown as Out).total).toBe(1);
  });

  it("reads at most 10 hires' details per list; the others show as their events say until the next list", async () => {
    const events = eventStore();
    const hires = Array.from({ length: 12 }, (_, i) => `hire_${String(i + 1).padStart(3, "0")}`);
    const h = await harness({ events });
    for (const [i, hire] of hires.entries()) {
      await add(events, hireTerminated(hire), T0 + i, companyOfHire(h, hire));
    }
    const first = await call(h, { first: 50 });
    const out = first.structuredContent as unknown as Out;
    expect(h.sandbox.countRequests("HireForChange")).toBe(10);
    expect(out.total).toBe(12);
    expect(out.changes.filter((c) => c.detailsFrom === "event")).toHaveLength(2);
    // The next list reads the two left, and keeps the ten it read before.
    const second = (await call(h, { first: 50 })).structuredContent as unknown as Out;
    expect(second.changes.filter((c) => c.detailsFrom === "event")).toHaveLength(0);
    expect(h.sandbox.countRequests("HireForChange")).toBe(12);
  });

  it("without a receiver, says so and what to set, never an empty list", async () => {
    const h = await harness();
    const r = await call(h);
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("This server receives no webhook events");
    expect(text(r)).toContain("WORKFORCE_WEBHOOK_SECRETS");
    expect(text(r)).toContain("WORKFORCE_TEAM_URL");
  });
});

describe("workforce://changes", () => {
  it("reads as the caller's feed, and is listed", async () => {
    const events = eventStore();
    await add(events, contractAccepted("hire_001", "cmp_nordlys", "ctr_002"), T0);
    await add(events, hireTerminated("hire_002"), T0 + 1000);
    const limited = await harness({ events, token: "limited" });
    const { resources } = await limited.client.listResources();
    expect(resources.map((r) => r.uri)).toContain("workforce://changes");
    const read = await limited.client.readResource({ uri: "workforce://changes" });
    const body = (read.contents[0] as { text: string }).text;
    expect(body).toContain('"Ana Costa"');
    expect(body).not.toContain("hire_002");
  });

  it("MCP 2025-11-25 resources/subscribe: a subscriber hears of each new event of its companies only", async () => {
    const events = eventStore();
    const limited = await harness({ events, token: "limited" });
    await limited.client.subscribeResource({ uri: "workforce://changes" });
    const updates = () =>
      limited.notifications.filter((n) => n.method === "notifications/resources/updated");
    await add(events, contractAccepted("hire_002", "cmp_harbor", "ctr_003"), T0);
    await add(events, contractAccepted("hire_001", "cmp_nordlys", "ctr_002"), T0 + 1000);
    await until(() => updates().length === 1, "the subscriber heard of the Nordlys event");
    expect(updates()[0]?.params).toEqual({ uri: "workforce://changes" });
    await limited.client.unsubscribeResource({ uri: "workforce://changes" });
    await add(events, contractAccepted("hire_005", "cmp_nordlys", "ctr_009"), T0 + 2000);
    // A Nordlys event after unsubscribing: nothing more.
    await new Promise((resolve) => setImmediate(resolve));
    expect(updates()).toHaveLength(1);
  });

  it("refuses a subscription without a receiver, saying what to set", async () => {
    const h = await harness();
    await expect(h.client.subscribeResource({ uri: "workforce://changes" })).rejects.toThrow(
      /WORKFORCE_WEBHOOK_SECRETS/,
    );
  });
});
