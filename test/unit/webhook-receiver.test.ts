// The receiver of the platform's webhooks: HMAC-SHA256 of the raw body with a shared secret
// (PLATFORM.md "Webhooks", RFC 2104), compared in constant time; redeliveries kept once; every
// refusal stores nothing.
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryStore } from "../../src/state/memory-store.js";
import type { StateStore } from "../../src/state/store.js";
import {
  COMPANY,
  contractAccepted,
  deliver,
  type RunningReceiver,
  SECRET,
  sign,
  startReceiver,
} from "../helpers/webhooks.js";

let receiver: RunningReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function start(options: Parameters<typeof startReceiver>[1] = {}, store?: StateStore) {
  receiver = await startReceiver(store ?? createMemoryStore(), options);
  return receiver;
}

const stored = async (r: RunningReceiver) =>
  (await r.events?.list({ limit: 500, companies: [COMPANY] })) ?? [];

describe("the webhook receiver", () => {
  it("stores a signed event under the SHA-256 of its company and raw body, and answers 200", async () => {
    const r = await start();
    const body = JSON.stringify(contractAccepted());
    const res = await deliver(r.url, body);
    expect(res.status).toBe(200);
    const id = createHash("sha256").update(`${COMPANY}\n`).update(body).digest("hex");
    expect(res.body).toEqual({ received: true, id, duplicate: false });
    const [event, ...rest] = await stored(r);
    expect(rest).toEqual([]);
    expect(event).toMatchObject({ id, event: "contractAccepted", payload: contractAccepted() });
    expect(Date.parse(event?.receivedAt ?? "")).not.toBeNaN();
  });

  it("keeps a redelivery (the same signed body, no timestamp to tell them apart) once, and answers 200", async () => {
    const r = await start();
    const body = JSON.stringify(contractAccepted());
    expect((await deliver(r.url, body)).status).toBe(200);
    const again = await deliver(r.url, body);
    expect(again.status).toBe(200);
    expect(again.body.duplicate).toBe(true);
    expect(await stored(r)).toHaveLength(1);
  });

  it("refuses a forged signature with 401, stores nothing, and logs one line without the body or the secret", async () => {
    const r = await start();
    const body = JSON.stringify(contractAccepted("hire_secretive"));
    const forged = await deliver(r.url, body, { signature: sign(body, "not-the-shared-secret!!") });
    expect(forged.status).toBe(401);
    // The signature of another body does not carry over.
    const moved = await deliver(r.url, body, { signature: sign(`${body} `) });
    expect(moved.status).toBe(401);
    expect(await stored(r)).toEqual([]);
    const refusals = r.lines.filter((l) => l.includes("Refused a webhook"));
    expect(refusals).toHaveLength(1);
    const log = r.lines.join("\n");
    expect(log).not.toContain("hire_secretive");
    expect(log).not.toContain(SECRET);
  });

  it("refuses an unsigned request, and a Signature that is not 64 hex digits, with 401", async () => {
    const r = await start();
    const body = JSON.stringify(contractAccepted());
    expect((await deliver(r.url, body, { signature: undefined })).status).toBe(401);
    expect((await deliver(r.url, body, { signature: "sha256=abc" })).status).toBe(401);
    expect((await deliver(r.url, body, { signature: `${sign(body)}00` })).status).toBe(401);
    expect(await stored(r)).toEqual([]);
  });

  it("accepts the signature in upper-case hex too (the same 32 bytes)", async () => {
    const r = await start();
    const body = JSON.stringify(contractAccepted());
    expect((await deliver(r.url, body, { signature: sign(body).toUpperCase() })).status).toBe(200);
  });

  it("refuses a body over the limit with 413 and stores nothing", async () => {
    const r = await start({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ ...contractAccepted(), padding: "x".repeat(2048) });
    const res = await deliver(r.url, big);
    expect(res.status).toBe(413);
    expect(await stored(r)).toEqual([]);
  });

  it("refuses malformed JSON, a non-object, a missing event and another Content-Type with 400, even signed", async () => {
    const r = await start();
    for (const body of ["{not json", "[1,2]", '"text"', '{"data":{}}', '{"event":""}']) {
      expect((await deliver(r.url, body)).status, body).toBe(400);
    }
    const body = JSON.stringify(contractAccepted());
    expect(
      (await deliver(r.url, body, { signature: sign(body), "content-type": "text/plain" })).status,
    ).toBe(400);
    expect(await stored(r)).toEqual([]);
  });

  it("accepts the old and the new secret while one replaces the other", async () => {
    const r = await start({ secrets: ["old_secret_0123456789", "new_secret_0123456789"] });
    const one = JSON.stringify(contractAccepted("hire_001"));
    const two = JSON.stringify(contractAccepted("hire_002"));
    expect(
      (await deliver(r.url, one, { signature: sign(one, "old_secret_0123456789") })).status,
    ).toBe(200);
    expect(
      (await deliver(r.url, two, { signature: sign(two, "new_secret_0123456789") })).status,
    ).toBe(200);
    expect(await stored(r)).toHaveLength(2);
    // Once the old one is removed, it is refused.
    await r.close();
    receiver = undefined;
    const after = await start({ secrets: ["new_secret_0123456789"] });
    const three = JSON.stringify(contractAccepted("hire_003"));
    expect(
      (await deliver(after.url, three, { signature: sign(three, "old_secret_0123456789") })).status,
    ).toBe(401);
  });

  it("answers 404 with no secret configured, and says so at start", async () => {
    const r = await start({ secrets: [] });
    const body = JSON.stringify(contractAccepted());
    expect((await deliver(r.url, body)).status).toBe(404);
    expect(r.events).toBeUndefined();
    expect(r.lines.join("\n")).toMatch(/Webhook receiver off/);
  });

  it("answers 405 to anything but POST", async () => {
    const r = await start();
    const res = await fetch(r.url);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  it("answers 503 when the event cannot be stored, so that the platform delivers it again", async () => {
    const broken: StateStore = {
      ...createMemoryStore(),
      appendToLog: async () => {
        throw new Error("down");
      },
    };
    const r = await start({}, broken);
    const body = JSON.stringify(contractAccepted());
    expect((await deliver(r.url, body)).status).toBe(503);
  });
});
