// The sandbox sends webhooks as the platform does (PLATFORM.md "Webhooks"; PLATFORM-INTERFACE §2.6,
// §6): signed with HMAC-SHA256 of the raw body, retried on anything but a 2xx (5 attempts; the
// schedule shortened here), each delivery recorded as a webhookEvent. And it manages webhooks.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import type { ReceivedWebhookEvent } from "../../src/state/webhook-events.js";
import { until } from "../helpers/until.js";
import { type RunningReceiver, SECRET, sign, startReceiver } from "../helpers/webhooks.js";
import { gql, onlyError, TODAY } from "./helpers.js";

let sandbox: Sandbox;
let receiver: RunningReceiver;
const heard: ReceivedWebhookEvent[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    today: TODAY,
    rateLimitPerMinute: 0,
    webhooks: { retryDelaysMs: [5, 5, 5, 5], timeoutMs: 2_000 },
  });
  receiver = await startReceiver(createMemoryStore());
  await receiver.events?.listen((e) => heard.push(e));
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});
beforeEach(() => {
  sandbox.reset();
  heard.length = 0;
});

/** An endpoint that answers each delivery with the next status of `statuses` (then the last). */
interface Endpoint {
  url: string;
  received: { body: string; signature: string | undefined }[];
  close(): Promise<void>;
}
const endpoints: Endpoint[] = [];
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((e) => e.close()));
});
async function endpoint(statuses: number[]): Promise<Endpoint> {
  const received: Endpoint["received"] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        body: Buffer.concat(chunks).toString("utf8"),
        signature: req.headers.signature as string | undefined,
      });
      res.writeHead(statuses[Math.min(received.length, statuses.length) - 1] as number);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const e: Endpoint = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  endpoints.push(e);
  return e;
}

const CREATE = `mutation($input: CreateWebhookInput!) {
  createWebhook(input: $input) { id owner url isActive subscribedEvents }
}`;
async function createWebhook(input: Record<string, unknown>, token: "full" | "limited" = "full") {
  return gql<{ createWebhook: { id: string; subscribedEvents: string[] | null } }>(
    sandbox,
    CREATE,
    {
      token,
      variables: {
        input: { title: "Test receiver", company: "cmp_nordlys", secret: SECRET, ...input },
      },
    },
  );
}

const EVENTS = `query($webhookId: ID) {
  webhookEvents(webhookId: $webhookId, first: 50) {
    paginatorInfo { total }
    data { id key webhookId event description status payload createdAt }
  }
}`;
interface EventsPage {
  webhookEvents: {
    paginatorInfo: { total: number };
    data: {
      id: string;
      webhookId: string;
      event: string;
      status: string;
      payload: Record<string, never>;
    }[];
  };
}

/** A Nordlys hire whose worker has been offered a contract (an OFFERED hire, its draft contract). */
function offeredHire(companyId = "cmp_nordlys", on: Sandbox = sandbox): string {
  let id = "";
  on.edit((d) => {
    id =
      [...d.hires.values()].find((h) => h.status === "OFFERED" && h.companyId === companyId)?.id ??
      "";
  });
  expect(id).not.toBe("");
  return id;
}

const eventsOf = (webhookId: string) =>
  sandbox.webhookEvents.filter((e) => e.webhookId === webhookId);

describe("the sandbox's webhooks", () => {
  it("delivers a signed contractAccepted (§2.6, hireStatus included) to a receiver when the worker accepts, and records it", async () => {
    const created = await createWebhook({
      url: receiver.url,
      subscribedEvents: ["CONTRACT_ACCEPTED"],
    });
    expect(created.errors).toBeUndefined();
    const webhookId = created.data?.createWebhook.id as string;
    const hireId = offeredHire();
    const { contractId } = sandbox.acceptContract(hireId);
    await until(() => heard.length === 1, "the receiver stored the event");
    const [event] = heard as [ReceivedWebhookEvent];
    expect(event.event).toBe("contractAccepted");
    const data = (event.payload as { data: Record<string, Record<string, unknown>> }).data;
    expect(data.contract).toMatchObject({ id: contractId, hireId, hireStatus: "ready" });
    expect(data.worker).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      email: expect.anything(),
      phone: expect.anything(),
    });
    expect(data.trustedContact).toMatchObject({
      accountId: "cmp_nordlys",
      status: expect.any(String),
    });
    expect(Array.isArray(data.customFieldValues)).toBe(true);
    expect(await receiver.events?.list({ hireId, companies: ["cmp_nordlys"] })).toHaveLength(1);
    // The contract is now the hire's active one.
    const hire = await gql<{ hire: { activeStatus: string; activeContract: { id: string } } }>(
      sandbox,
      `{ hire(id: "${hireId}") { activeStatus activeContract { id } } }`,
    );
    expect(hire.data?.hire).toEqual({ activeStatus: "READY", activeContract: { id: contractId } });
    await until(() => eventsOf(webhookId)[0]?.status === "success", "the delivery is recorded");
    const page = await gql<EventsPage>(sandbox, EVENTS, { variables: { webhookId } });
    expect(page.data?.webhookEvents.data).toEqual([
      expect.objectContaining({
        webhookId,
        event: "contractAccepted",
        description: "Contract accepted",
        status: "success",
        payload: event.payload,
      }),
    ]);
  });

  it("retries the same signed body after a 500 and stops after the 2xx", async () => {
    const flaky = await endpoint([500, 200]);
    const created = await createWebhook({ url: flaky.url, subscribedEvents: null });
    const webhookId = created.data?.createWebhook.id as string;
    sandbox.acceptContract(offeredHire());
    await until(() => eventsOf(webhookId)[0]?.status === "failed-1", "the first attempt failed");
    // The failure put a second attempt on the schedule.
    expect(eventsOf(webhookId)[0]?.nextAttemptAt).toEqual(expect.any(String));
    await until(() => eventsOf(webhookId)[0]?.status === "success", "the second attempt succeeded");
    const [first, second] = flaky.received;
    expect(second?.body).toBe(first?.body);
    expect(first?.signature).toBe(sign(first?.body as string));
    expect(second?.signature).toBe(first?.signature);
    expect(eventsOf(webhookId)[0]?.attempts.map((a) => [a.result, a.statusCode])).toEqual([
      ["failed-1", 500],
      ["success", 200],
    ]);
    // The schedule holds no third attempt.
    expect(eventsOf(webhookId)[0]?.nextAttemptAt).toBeNull();
    expect(flaky.received).toHaveLength(2);
  });

  it("a receiver that could not store the event (503) gets it again, and keeps it once", async () => {
    const memory = createMemoryStore();
    let failures = 1;
    const flaky = await startReceiver({
      ...memory,
      appendToLog: async (...args) => {
        if (failures-- > 0) throw new Error("the store is down");
        return memory.appendToLog(...args);
      },
    });
    try {
      const created = await createWebhook({
        url: flaky.url,
        subscribedEvents: ["CONTRACT_ACCEPTED"],
      });
      const webhookId = created.data?.createWebhook.id as string;
      const hireId = offeredHire();
      sandbox.acceptContract(hireId);
      await until(() => eventsOf(webhookId)[0]?.status === "success", "the retry was stored");
      expect(eventsOf(webhookId)[0]?.attempts.map((a) => a.statusCode)).toEqual([503, 200]);
      const kept = await flaky.events?.list({ hireId, companies: ["cmp_nordlys"] });
      expect(kept?.map((e) => e.event)).toEqual(["contractAccepted"]);
    } finally {
      await flaky.close();
    }
  });

  it("gives up after 5 attempts (failed-finally), and retryWebhookEvent tries once more", async () => {
    const down = await endpoint([503, 503, 503, 503, 503, 200]);
    const created = await createWebhook({ url: down.url });
    const webhookId = created.data?.createWebhook.id as string;
    sandbox.acceptContract(offeredHire());
    await until(() => eventsOf(webhookId)[0]?.status === "failed-finally", "all 5 attempts failed");
    expect(eventsOf(webhookId)[0]?.attempts.map((a) => a.result)).toEqual([
      "failed-1",
      "failed-2",
      "failed-3",
      "failed-4",
      "failed-finally",
    ]);
    expect(down.received).toHaveLength(5);
    const id = eventsOf(webhookId)[0]?.id as string;
    const retried = await gql<{ retryWebhookEvent: { id: string } }>(
      sandbox,
      `mutation($id: ID!) { retryWebhookEvent(input: { id: $id }) { id status } }`,
      { variables: { id } },
    );
    expect(retried.data?.retryWebhookEvent.id).toBe(id);
    await until(() => eventsOf(webhookId)[0]?.status === "success", "the manual retry succeeded");
    expect(down.received).toHaveLength(6);
  });

  it("sends hireTerminated and hireCancelled from the mutations, to subscribed webhooks of the hire's company only", async () => {
    const all = await endpoint([200]);
    const onlyAccepted = await endpoint([200]);
    const harbor = await endpoint([200]);
    await createWebhook({ url: all.url });
    await createWebhook({ url: onlyAccepted.url, subscribedEvents: ["CONTRACT_ACCEPTED"] });
    await createWebhook({ url: harbor.url, company: "cmp_harbor" });
    let active = "";
    sandbox.edit((d) => {
      active =
        [...d.hires.values()].find((h) => h.status === "ACTIVE" && h.companyId === "cmp_nordlys")
          ?.id ?? "";
    });
    const terminated = await gql(
      sandbox,
      `mutation($hire: ID!) { terminateHire(input: { hire: $hire, reason: OTHER, date: "${TODAY}" }) { id } }`,
      { variables: { hire: active } },
    );
    expect(terminated.errors).toBeUndefined();
    const offered = offeredHire();
    const cancelled = await gql(
      sandbox,
      `mutation($hire: ID!) { cancelHire(input: { hire: $hire, message: "Plans changed" }) { id } }`,
      { variables: { hire: offered } },
    );
    expect(cancelled.errors).toBeUndefined();
    await until(
      () => all.received.length === 2,
      "both events reached the webhook subscribed to all",
    );
    const sent = all.received.map((r) => JSON.parse(r.body));
    expect(sent.map((p) => [p.event, p.data.contract.hireId, p.data.contract.hireStatus])).toEqual([
      ["hireTerminated", active, "terminated"],
      ["hireCancelled", offered, "cancelled"],
    ]);
    expect(onlyAccepted.received).toEqual([]);
    expect(harbor.received).toEqual([]);
  });

  it("contacts this machine only: a webhook elsewhere gets its event recorded as failed-finally, with no request", async () => {
    // whk_001, seeded, at hr.nordlys.example, subscribed to CONTRACT_ACCEPTED.
    sandbox.acceptContract(offeredHire());
    await until(
      () => eventsOf("whk_001")[0]?.status === "failed-finally",
      "the delivery is recorded",
    );
    expect(eventsOf("whk_001")[0]?.attempts).toEqual([
      { result: "failed-finally", statusCode: null, at: expect.any(String) },
    ]);
  });

  it("accepts a contract through POST /sandbox/hires/<id>/accept-contract with the full token only", async () => {
    const hireId = offeredHire();
    const post = (token: string) =>
      fetch(`${sandbox.url}/sandbox/hires/${hireId}/accept-contract`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await post(sandbox.tokens.limited)).status).toBe(401);
    const ok = await post(sandbox.tokens.full);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ contractId: expect.any(String) });
    // Nothing is waiting any more.
    const again = await post(sandbox.tokens.full);
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toMatch(/no contract waiting/);
  });

  it("creates, updates and deletes webhooks within the caller's companies", async () => {
    const created = await createWebhook({ url: "https://hooks.example/a", subscribedEvents: [] });
    const id = created.data?.createWebhook.id as string;
    expect(created.data?.createWebhook).toMatchObject({ subscribedEvents: [] });
    const update = `mutation($input: UpdateWebhookInput!) {
      updateWebhook(input: $input) { id title url isActive subscribedEvents secret }
    }`;
    const updated = await gql<{ updateWebhook: Record<string, unknown> }>(sandbox, update, {
      variables: {
        input: {
          id,
          title: "Renamed",
          url: "https://hooks.example/b",
          secret: null,
          isActive: false,
        },
      },
    });
    // A null secret and null subscribedEvents leave them as they were.
    expect(updated.data?.updateWebhook).toEqual({
      id,
      title: "Renamed",
      url: "https://hooks.example/b",
      isActive: false,
      subscribedEvents: [],
      secret: SECRET,
    });
    const bad = await createWebhook({ url: "ftp://nope", secret: "s".repeat(256) });
    expect(onlyError(bad).extensions.validation).toEqual({
      "input.url": ["The input.url must be a valid URL."],
      "input.secret": ["The input.secret may not be greater than 255 characters."],
    });
    const other = await createWebhook(
      { url: "https://hooks.example/c", company: "cmp_harbor" },
      "limited",
    );
    expect(onlyError(other).message).toBe("You are not authorized to perform this action.");
    const deleted = await gql<{ deleteWebhook: { id: string } }>(
      sandbox,
      `mutation($id: ID!) { deleteWebhook(input: { id: $id }) { id } }`,
      { variables: { id } },
    );
    expect(deleted.data?.deleteWebhook.id).toBe(id);
    const gone = await gql(sandbox, `{ webhook(id: "${id}") { id } }`);
    expect(gone.data).toEqual({ webhook: null });
  });
});

type DeliveryRecord = Sandbox["webhookEvents"][number];

/**
 * A sandbox of its own on the platform's schedule, under fake timers: a webhook to an endpoint
 * answering `statuses`, and a worker accepting a contract, whose delivery `run` then follows.
 */
async function onDefaultSchedule(
  statuses: number[],
  run: (own: Sandbox, receiver: Endpoint, event: () => DeliveryRecord | undefined) => Promise<void>,
) {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const own = await startSandbox({ today: TODAY, rateLimitPerMinute: 0 });
  const receiver = await endpoint(statuses);
  try {
    const created = await gql<{ createWebhook: { id: string } }>(own, CREATE, {
      variables: {
        input: { title: "Scheduled", company: "cmp_nordlys", secret: SECRET, url: receiver.url },
      },
    });
    const webhookId = created.data?.createWebhook.id as string;
    own.acceptContract(offeredHire("cmp_nordlys", own));
    await run(own, receiver, () => own.webhookEvents.find((e) => e.webhookId === webhookId));
  } finally {
    vi.useRealTimers();
    await own.close();
  }
}

describe("the sandbox's webhook schedule, by default the platform's", () => {
  it("ends the automatic schedule when a manual retry succeeds: the event is not sent again (fake timers)", async () => {
    await onDefaultSchedule([500, 200, 500], async (own, flaky, event) => {
      await vi.advanceTimersByTimeAsync(0);
      await until(() => event()?.status === "failed-1", "the first attempt failed");
      expect(event()?.nextAttemptAt).toEqual(expect.any(String));
      await gql(own, `mutation($id: ID!) { retryWebhookEvent(input: { id: $id }) { id } }`, {
        variables: { id: event()?.id },
      });
      await vi.advanceTimersByTimeAsync(0);
      await until(() => event()?.status === "success", "the manual retry succeeded");
      expect(event()?.nextAttemptAt).toBeNull();
      // Past the second automatic attempt's time: it was called off, so nothing more is sent.
      await vi.advanceTimersByTimeAsync(100_000);
      expect(event()?.attempts.map((a) => a.result)).toEqual(["failed-1", "success"]);
      expect(flaky.received).toHaveLength(2);
    });
  });

  it("waits 10 s, 100 s, 1,000 s and 10,000 s between the 5 attempts (fake timers)", async () => {
    await onDefaultSchedule([500], async (_own, down, event) => {
      const attempts = () => event()?.attempts.length ?? 0;
      await vi.advanceTimersByTimeAsync(0);
      await until(() => attempts() === 1, "the first attempt");
      for (const [n, wait] of [10_000, 100_000, 1_000_000, 10_000_000].entries()) {
        await vi.advanceTimersByTimeAsync(wait - 1);
        expect(attempts(), `not before ${wait} ms`).toBe(n + 1);
        await vi.advanceTimersByTimeAsync(1);
        await until(() => attempts() === n + 2, `attempt ${n + 2}`);
      }
      expect(event()?.status).toBe("failed-finally");
      await vi.advanceTimersByTimeAsync(100_000_000);
      expect(down.received).toHaveLength(5);
    });
  });
});
