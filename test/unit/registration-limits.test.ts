// The bounds on dynamic client registration (src/auth/remote/registration-limits.ts): counted in
// the shared state store, per address and in total, before the SDK's handler stores anything.
import type { AddressInfo } from "node:net";
import express, { type Request, type Response } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { registrationLimits } from "../../src/auth/remote/registration-limits.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import { raw } from "../e2e/http-helpers.js";

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function serve(
  limits: { maxBytes: number; perAddressPerHour: number; totalPerDay: number },
  trustProxy?: string,
) {
  const app = express();
  if (trustProxy) app.set("trust proxy", trustProxy);
  let stored = 0;
  app.post(
    "/register",
    registrationLimits(createMemoryStore(), limits),
    (_req: Request, res: Response) => {
      stored += 1;
      res.status(201).json({ client_id: String(stored) });
    },
  );
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/register`;
  return { url, stored: () => stored };
}

describe("registration limits (MCP security best practices: bounded dynamic client registration)", () => {
  it("a stranger who spends the day's total locks out only addresses that registered today: a newcomer's first registration still goes through (MCP security best practices, no lock-out)", async () => {
    const { url, stored } = await serve({ maxBytes: 1024, perAddressPerHour: 5, totalPerDay: 6 });
    const statuses: number[] = [];
    for (let i = 1; i <= 3; i++) {
      for (let n = 0; n < 5; n++) {
        const res = await raw(url, { localAddress: `127.0.2.${i}`, body: { n } });
        statuses.push(res.status);
        if (res.status === 429) {
          expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
          expect(res.body).toMatch(/no more new registrations today from addresses that already/);
        }
      }
    }
    // Each address's first, then the six of the total.
    expect(statuses.filter((s) => s === 201)).toHaveLength(9);
    const newcomer = [];
    for (let n = 0; n < 2; n++) {
      newcomer.push(await raw(url, { localAddress: "127.0.2.9", body: { n } }));
    }
    expect(newcomer.map((r) => r.status)).toEqual([201, 429]);
    expect(stored()).toBe(10);
  });

  it("stops one address at its hourly share, naming the other way in", async () => {
    const { url, stored } = await serve({ maxBytes: 1024, perAddressPerHour: 2, totalPerDay: 100 });
    const one = [];
    for (let n = 0; n < 3; n++) one.push(await raw(url, { localAddress: "127.0.3.1", body: {} }));
    expect(one.map((r) => r.status)).toEqual([201, 201, 429]);
    expect(one[2]?.body).toMatch(/Client ID Metadata Document/);
    expect((await raw(url, { localAddress: "127.0.3.2", body: {} })).status).toBe(201);
    expect(stored()).toBe(3);
  });

  it("counts by the address a trusted proxy names (--trust-proxy), and ignores the header otherwise", async () => {
    const limits = { maxBytes: 1024, perAddressPerHour: 1, totalPerDay: 100 };
    const behind = await serve(limits, "loopback");
    const from = (url: string, forwarded: string) =>
      raw(url, { body: {}, headers: { "x-forwarded-for": forwarded } });
    expect((await from(behind.url, "203.0.113.1")).status).toBe(201);
    expect((await from(behind.url, "203.0.113.2")).status).toBe(201);
    expect((await from(behind.url, "203.0.113.1")).status).toBe(429);
    // Without a trusted proxy the header is the client's own say: it changes nothing.
    const direct = await serve(limits);
    expect((await from(direct.url, "203.0.113.1")).status).toBe(201);
    expect((await from(direct.url, "203.0.113.2")).status).toBe(429);
  });

  it("counts an IPv6 address by its /56, as the SDK's limiters do: the addresses of one site share one count (MCP security best practices; RFC 6177)", async () => {
    const behind = await serve(
      { maxBytes: 1024, perAddressPerHour: 2, totalPerDay: 100 },
      "loopback",
    );
    const from = (forwarded: string) =>
      raw(behind.url, { body: {}, headers: { "x-forwarded-for": forwarded } });
    expect((await from("2001:db8:0:1::1")).status).toBe(201);
    expect((await from("2001:db8:0:1::2")).status).toBe(201);
    // Another address of the same /64, and one of another /64 of the same /56.
    expect((await from("2001:db8:0:1::3")).status).toBe(429);
    expect((await from("2001:db8:0:ff::1")).status).toBe(429);
    expect((await from("2001:db8:0:100::1")).status).toBe(201);
    expect(behind.stored()).toBe(3);
  });

  it("refuses a registration over the size limit, and one that is not JSON, storing nothing", async () => {
    const { url, stored } = await serve({ maxBytes: 1024, perAddressPerHour: 5, totalPerDay: 5 });
    const big = await raw(url, { body: { client_name: "x".repeat(2_000) } });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toMatchObject({ error: "invalid_client_metadata" });
    const broken = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: "invalid_client_metadata" });
    expect(stored()).toBe(0);
  });
});
