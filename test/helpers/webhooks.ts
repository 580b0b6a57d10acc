// Delivering to the webhook receiver as the platform does: a POST of JSON, its raw body signed
// with HMAC-SHA256 and the shared secret, lowercase hex in the Signature header.
import { createHmac } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { createLogger, type Logger } from "../../src/logger.js";
import type { StateStore } from "../../src/state/store.js";
import {
  createWebhookReceiver,
  WEBHOOK_PATH,
  type WebhookReceiver,
} from "../../src/transports/webhook-receiver.js";
import type { Harness } from "./mcp-harness.js";
import { until } from "./until.js";

export const SECRET = "whsec_test_secret_0123456789";
/** The company of contractAccepted()'s default payload, whose webhook SECRET signs. */
export const COMPANY = "cmp_nordlys";
/** WORKFORCE_WEBHOOK_SECRETS binding SECRET to COMPANY. */
export const SECRET_SETTING = `${COMPANY}:${SECRET}`;
/** Another company's webhook secret, and both bound in WORKFORCE_WEBHOOK_SECRETS. */
export const HARBOR_SECRET = "whsec_harbor_secret_0123456789";
export const TWO_SECRETS_SETTING = `${SECRET_SETTING},cmp_harbor:${HARBOR_SECRET}`;

export function sign(body: string, secret = SECRET): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

export function contractAccepted(
  hireId = "hire_001",
  companyId = "cmp_nordlys",
  contractId = "ctr_9",
) {
  return {
    event: "contractAccepted",
    data: {
      contract: {
        id: contractId,
        hireId,
        hireStatus: "ready",
        startDate: "2026-12-01",
        endDate: null,
      },
      worker: { id: "wrk_1", name: "Ana Costa", email: "ana@example.com", phone: null },
      trustedContact: {
        id: "tc_1",
        accountId: companyId,
        externalIdentifier: null,
        status: "active",
      },
      customFieldValues: [],
    },
  };
}

export async function deliver(
  url: string,
  body: string,
  headers: Record<string, string | undefined> = { signature: sign(body) },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const sent: Record<string, string> = { "content-type": "application/json" };
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) delete sent[k];
    else sent[k] = v;
  }
  const res = await fetch(url, { method: "POST", headers: sent, body });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text };
  }
  return { status: res.status, body: parsed };
}

export interface RunningReceiver extends WebhookReceiver {
  url: string;
  lines: string[];
  close(): Promise<void>;
}

/** A receiver alone on 127.0.0.1, as http.ts mounts it, over the given store. */
export async function startReceiver(
  store: StateStore,
  options: {
    /** A bare secret is COMPANY's. */
    secrets?: (string | { companyId: string; secret: string })[];
    now?: () => number;
    maxEvents?: number;
    maxBytes?: number;
    maxCompanyBytes?: number;
    retentionDays?: number;
    maxBodyBytes?: number;
    logger?: Logger;
    /** The server's sealing key: registered webhooks' secrets are accepted too. */
    sealingKey?: Buffer;
  } = {},
): Promise<RunningReceiver> {
  const lines: string[] = [];
  const logger = options.logger ?? createLogger("debug", (line) => lines.push(line));
  const receiver = createWebhookReceiver({
    config: {
      webhookSecrets: (options.secrets ?? [SECRET]).map((s) =>
        typeof s === "string" ? { companyId: COMPANY, secret: s } : s,
      ),
      webhookRetentionDays: options.retentionDays ?? 7,
      webhookMaxEvents: options.maxEvents ?? 10_000,
      webhookMaxBytes: options.maxBytes ?? 64 * 1024 * 1024,
      webhookCompanyMaxBytes: options.maxCompanyBytes ?? 4 * 1024 * 1024,
    },
    logger,
    store,
    sealingKey: options.sealingKey,
    now: options.now,
    maxBodyBytes: options.maxBodyBytes,
  });
  const app = express();
  app.use(WEBHOOK_PATH, receiver.handler);
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    ...receiver,
    url: `http://127.0.0.1:${port}${WEBHOOK_PATH}`,
    lines,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Accepts the contract of an offered hire at cmp_nordlys; nothing listens at the test's public
 * address, so its delivery to `webhookId` fails. The failed delivery's id.
 */
export async function failedDelivery(h: Harness, webhookId: string): Promise<string> {
  let hireId = "";
  h.sandbox.edit((d) => {
    hireId =
      [...d.hires.values()].find((x) => x.status === "OFFERED" && x.companyId === "cmp_nordlys")
        ?.id ?? "";
  });
  h.sandbox.acceptContract(hireId);
  const failed = () => h.sandbox.webhookEvents.find((e) => e.webhookId === webhookId);
  await until(() => failed()?.status.startsWith("failed") === true, "the delivery failed");
  return failed()?.id as string;
}
