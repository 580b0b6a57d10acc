// The received webhook events: each its signing company's, bounded by count, bytes and age (an
// injected clock), read newest first with filters, and heard by listeners.
import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../../src/state/memory-store.js";
import {
  companyIdOf,
  createWebhookEventStore,
  type ReceivedWebhookEvent,
} from "../../src/state/webhook-events.js";
import { contractAccepted } from "../helpers/webhooks.js";

const DAY = 24 * 60 * 60 * 1000;

const ALL = ["cmp_nordlys", "cmp_harbor"];

function setup(maxEvents = 10_000, maxAgeMs = 7 * DAY, bytes = { all: 1 << 24, company: 1 << 22 }) {
  let t = Date.parse("2026-11-22T09:00:00Z");
  const clock = { now: () => t, advance: (ms: number) => (t += ms) };
  const store = createMemoryStore(clock.now);
  const events = createWebhookEventStore(store, {
    maxEvents,
    maxAgeMs,
    maxBytes: bytes.all,
    maxCompanyBytes: bytes.company,
    now: clock.now,
  });
  const add = (id: string, payload: { event: string } = contractAccepted()) =>
    events.add({
      id,
      event: payload.event,
      companyId: companyIdOf(payload) ?? "cmp_nordlys",
      payload,
    });
  return { clock, store, events, add };
}

describe("the received webhook events", () => {
  it("keeps the newest ones within the count, dropping the oldest first", async () => {
    const { events, add, clock } = setup(3);
    for (const id of ["a", "b", "c", "d", "e"]) {
      await add(id);
      clock.advance(1);
    }
    expect((await events.list({ companies: ALL })).map((e) => e.id)).toEqual(["e", "d", "c"]);
  });

  it("drops what is older than the retention, on reading as on writing", async () => {
    const { events, add, clock } = setup(100, 7 * DAY);
    await add("old");
    clock.advance(6 * DAY);
    await add("recent");
    expect((await events.list({ companies: ALL })).map((e) => e.id)).toEqual(["recent", "old"]);
    clock.advance(1 * DAY + 1);
    expect((await events.list({ companies: ALL })).map((e) => e.id)).toEqual(["recent"]);
    clock.advance(7 * DAY);
    expect(await events.list({ companies: ALL })).toEqual([]);
    // Dropped, an event is new again: the dedupe holds as long as the event is kept.
    expect(await add("old")).toBe("stored");
  });

  it("filters by time, hire, company and event name, newest first, bounded", async () => {
    const { events, add, clock } = setup();
    await add("1", contractAccepted("hire_001", "cmp_nordlys"));
    clock.advance(1000);
    const since = clock.now();
    await add("2", contractAccepted("hire_002", "cmp_harbor"));
    clock.advance(1000);
    await add("3", {
      event: "hireTerminated",
      data: { hire: { id: "hire_001", hireStatus: "terminated" } },
    } as never);
    clock.advance(1000);
    await add("4", contractAccepted("hire_001", "cmp_nordlys"));
    const ids = async (q: Parameters<typeof events.list>[0]) =>
      (await events.list(q)).map((e) => e.id);
    expect(await ids({ companies: ALL })).toEqual(["4", "3", "2", "1"]);
    expect(await ids({ companies: ALL, since })).toEqual(["4", "3", "2"]);
    expect(await ids({ companies: ALL, hireId: "hire_001" })).toEqual(["4", "3", "1"]);
    expect(await ids({ companies: ["cmp_harbor"] })).toEqual(["2"]);
    expect(await ids({ companies: [] })).toEqual([]);
    expect(await ids({ companies: ALL, event: "hireTerminated" })).toEqual(["3"]);
    expect(await ids({ companies: ALL, hireId: "hire_001", limit: 2 })).toEqual(["4", "3"]);
  });

  it("finds matches beyond the first page of the log", async () => {
    const { events, add, clock } = setup();
    await add("wanted", contractAccepted("hire_rare"));
    for (let i = 0; i < 450; i++) {
      clock.advance(1);
      await add(`other-${i}`, contractAccepted("hire_common"));
    }
    expect((await events.list({ companies: ALL, hireId: "hire_rare" })).map((e) => e.id)).toEqual([
      "wanted",
    ]);
    expect(await events.list({ companies: ALL, limit: 10_000 })).toHaveLength(451);
  });

  it("tells listeners of each new event once, not of redeliveries, and stops when asked", async () => {
    const { events, add } = setup();
    const heard: ReceivedWebhookEvent[] = [];
    const stop = await events.listen((e) => heard.push(e));
    expect(await add("x")).toBe("stored");
    expect(await add("x")).toBe("duplicate");
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard.map((e) => e.id)).toEqual(["x"]);
    await stop();
    await add("y");
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard.map((e) => e.id)).toEqual(["x"]);
  });

  it("tells another event store sharing the state (another replica) of events it did not receive itself", async () => {
    const { store, add } = setup();
    const other = createWebhookEventStore(store, {
      maxEvents: 10,
      maxAgeMs: DAY,
      maxBytes: 1 << 20,
      maxCompanyBytes: 1 << 20,
    });
    const heard: string[] = [];
    await other.listen((e) => heard.push(e.id));
    await add("from-the-first");
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual(["from-the-first"]);
  });

  it("CWE-770: one company's flood drops only its own oldest events; a full store refuses, dropping nobody's", async () => {
    const one = 1024;
    const { events, add, clock } = setup(10_000, 7 * DAY, { all: 12 * one, company: 8 * one });
    const big = (hire: string, company: string) => ({
      ...contractAccepted(hire, company),
      padding: "x".repeat(500),
    });
    expect(await add("harbor", big("hire_002", "cmp_harbor"))).toBe("stored");
    for (let i = 0; i < 40; i++) {
      clock.advance(1);
      await add(`flood-${i}`, big("hire_001", "cmp_nordlys"));
    }
    expect((await events.list({ companies: ["cmp_harbor"] })).map((e) => e.id)).toEqual(["harbor"]);
    const nordlys = await events.list({ companies: ["cmp_nordlys"], limit: 500 });
    expect(nordlys.length).toBeLessThan(40);
    expect(nordlys[0]?.id).toBe("flood-39");
    expect(await events.bytes()).toBeLessThanOrEqual(12 * one);
    expect(await events.bytes()).toBeGreaterThan(8 * one);
    // Harbor fills the rest; a third company is refused rather than push anyone out.
    for (let i = 0; i < 10; i++) await add(`harbor-${i}`, big(`hire_h${i}`, "cmp_harbor"));
    expect(await add("third", big("hire_003", "cmp_third"))).toBe("full");
    expect((await events.list({ companies: ["cmp_nordlys"], limit: 500 })).length).toBe(
      nordlys.length,
    );
  });
});
