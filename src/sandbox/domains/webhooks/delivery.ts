// The sandbox sends webhooks as the platform does (PLATFORM.md "Webhooks", PLATFORM-INTERFACE §2.6
// and §6): a POST of JSON to each active webhook of the hire's company subscribed to the event,
// the raw body signed with HMAC-SHA256 and the webhook's secret (lowercase hex, `Signature`), up
// to 5 attempts 10 s, 100 s, 1,000 s and 10,000 s apart, each with a 60 s time-out, anything but a
// 2xx failing. Each delivery is a WebhookEvent with its status (`pending`, `success`, `failed-N`,
// `failed-finally`) and attempts. The schedule is shortened by the sandbox's options in tests.
//
// The sandbox contacts this machine only (loopback addresses): a webhook elsewhere, such as the
// seeded ones at `.example` addresses, gets its events recorded as `failed-finally` without any
// request, so a sandbox can never be made to post to other hosts.

import { createHmac, randomUUID } from "node:crypto";
import type { PlatformEvents, WebhookEventType } from "../../context.js";
import { itemAt } from "../../records.js";
import type { HireRecord, SandboxData } from "../../seed/index.js";
import { hireDetailsOf } from "../hire-details/seed.js";
import { talentOf } from "../talent/seed.js";
import { type WebhookRecord, webhooksOf } from "./seed.js";

/** The platform's schedule: waits before the 2nd to the 5th attempt. */
const RETRY_DELAYS_MS = [10_000, 100_000, 1_000_000, 10_000_000];
const TIMEOUT_MS = 60_000;

export interface WebhookDeliveryOptions {
  /** Waits before each further attempt (default 10 s, 100 s, 1,000 s, 10,000 s: 5 attempts). */
  retryDelaysMs?: readonly number[];
  /** Each attempt's time-out (default 60 s). */
  timeoutMs?: number;
}

interface AttemptRecord {
  /** `success`, `failed-N` or `failed-finally`, as WebhookEventLog.result. */
  result: string;
  statusCode: number | null;
  at: string;
}

export interface WebhookEventRecord {
  id: string;
  key: string;
  webhookId: string;
  /** The webhook's company, for visibility after the webhook is deleted. */
  companyId: string;
  event: string;
  description: string;
  status: string;
  payload: Record<string, unknown>;
  /** The exact body sent, signed, and sent again unchanged on every attempt. */
  body: string;
  attempts: AttemptRecord[];
  /** When the automatic schedule's next attempt is due; null when none is (sandbox only). */
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const events = new WeakMap<SandboxData, WebhookEventRecord[]>();

/** The deliveries made for this data set, oldest first. */
export function webhookEventsOf(data: SandboxData): WebhookEventRecord[] {
  let list = events.get(data);
  if (!list) {
    list = [];
    events.set(data, list);
  }
  return list;
}

/** CONTRACT_ACCEPTED → contractAccepted, the `event` of the payload. */
const eventName = (type: WebhookEventType) =>
  type.toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

const DESCRIPTIONS: Record<WebhookEventType, string> = {
  CONTRACT_ACCEPTED: "Contract accepted",
  HIRE_CANCELLED: "Hire cancelled",
  HIRE_ENDED: "Hire ended",
  HIRE_TERMINATED: "Hire terminated",
};

/** DateTime as the sandbox writes it elsewhere: microseconds, UTC (webhooks and their events). */
export const dateTime = (ms: number) =>
  new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

function isLoopback(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") return false;
    const host = u.hostname;
    return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/**
 * The payload of §2.6: the hire's contract with `hireStatus` (lower case, as webhooks write it),
 * the worker, the worker's talent-pool record at the company, and its custom field values. Events
 * other than contractAccepted are not documented; they carry the same objects, so that `hireStatus`
 * is in every hire event as the interface says.
 */
function hirePayload(
  data: SandboxData,
  type: WebhookEventType,
  hire: HireRecord,
  contractId: string | undefined,
): Record<string, unknown> {
  const shownId = contractId ?? hire.contractIds.at(-1);
  const contract = shownId === undefined ? undefined : data.contracts.get(shownId);
  const worker = data.workers.get(hire.workerId);
  const contact = [...(data.talent?.contacts.values() ?? [])].find(
    (c) => c.workerId === hire.workerId && c.companyId === hire.companyId,
  );
  const details = contact ? hireDetailsOf(data) : undefined;
  const customFieldValues = (details?.customFieldValues ?? [])
    .filter((v) => v.on === "TrustedContact" && v.targetId === contact?.id)
    .map((v) => {
      const field = details?.customFields.find((f) => f.id === v.fieldId);
      const option = field?.options.find((o) => o.id === v.optionId);
      return {
        id: v.fieldId,
        customFieldTitle: field?.title ?? "",
        displayValue: option?.value ?? v.content ?? "",
      };
    });
  return {
    event: eventName(type),
    data: {
      contract: {
        id: contract?.id ?? null,
        hireId: hire.id,
        hireStatus: hire.status.toLowerCase(),
        startDate: contract?.startDate ?? null,
        endDate: contract?.endDate ?? null,
      },
      worker: worker
        ? {
            id: worker.id,
            name: `${worker.firstName} ${worker.lastName}`,
            email: worker.email,
            phone: worker.phone,
          }
        : null,
      trustedContact: contact
        ? {
            id: contact.id,
            accountId: contact.companyId,
            externalIdentifier: contact.externalIdentifier,
            status: contact.status.toLowerCase(),
          }
        : null,
      customFieldValues,
    },
  };
}

/**
 * A worker who accepts a company's contract works for it: when the company's talent pool does not
 * hold them yet, they are added (as the platform adds hired workers), so that contractAccepted
 * names their trusted contact as §2.6 shows it.
 */
export function ensureTrustedContact(data: SandboxData, hire: HireRecord): void {
  const talent = talentOf(data);
  for (const c of talent.contacts.values()) {
    if (c.workerId === hire.workerId && c.companyId === hire.companyId) return;
  }
  talent.counters.contact += 1;
  const id = `tc_${String(talent.counters.contact).padStart(3, "0")}`;
  talent.contacts.set(id, {
    id,
    workerId: hire.workerId,
    companyId: hire.companyId,
    status: "ACTIVE",
    skillIds: [],
    invitedAt: data.today,
    statusUpdatedAt: data.today,
    createdAt: data.today,
    invitedByUserId: null,
    origin: "ADDED",
    originChannel: "ORGANISATION_HIRE",
    externalIdentifier: null,
  });
}

const subscribed = (w: WebhookRecord, type: WebhookEventType) =>
  w.isActive && (w.subscribedEvents === null || w.subscribedEvents.includes(type));

export interface WebhookDelivery {
  events: PlatformEvents;
  /** Stops every scheduled attempt and aborts those under way (reset, close). */
  cancelAll(): void;
}

export function createWebhookDelivery(options: {
  data: () => SandboxData;
  now?: () => number;
  delivery?: WebhookDeliveryOptions;
}): WebhookDelivery {
  const now = options.now ?? Date.now;
  const delays = options.delivery?.retryDelaysMs ?? RETRY_DELAYS_MS;
  const timeoutMs = options.delivery?.timeoutMs ?? TIMEOUT_MS;
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<AbortController>();
  let generation = 0;

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    timers.add(timer);
    return timer;
  };
  // Each event's next automatic attempt, so that a manual retry that succeeds ends the schedule.
  const scheduled = new Map<WebhookEventRecord, NodeJS.Timeout>();
  const unschedule = (record: WebhookEventRecord) => {
    const timer = scheduled.get(record);
    if (timer) {
      clearTimeout(timer);
      timers.delete(timer);
    }
    scheduled.delete(record);
    record.nextAttemptAt = null;
  };

  /** One POST of the event's body; the status code, or null when it failed before an answer. */
  async function post(webhook: WebhookRecord, record: WebhookEventRecord): Promise<number | null> {
    const secret = webhook.secret ?? webhook.clientSecret;
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": "workforce-sandbox-webhooks",
    };
    if (secret) {
      headers.signature = createHmac("sha256", secret).update(record.body).digest("hex");
    }
    const controller = new AbortController();
    inFlight.add(controller);
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    timer.unref();
    try {
      const res = await fetch(webhook.url, {
        method: "POST",
        headers,
        body: record.body,
        redirect: "manual",
        signal: controller.signal,
      });
      await res.body?.cancel().catch(() => {});
      return res.status;
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
      inFlight.delete(controller);
    }
  }

  /** Attempt number `n` (1-based) of the automatic schedule; schedules the next after a failure. */
  async function attempt(webhook: WebhookRecord, record: WebhookEventRecord, n: number) {
    const started = generation;
    const status = isLoopback(webhook.url) ? await post(webhook, record) : null;
    if (started !== generation) return;
    const ok = status !== null && status >= 200 && status < 300;
    const last = !isLoopback(webhook.url) || n > delays.length;
    record.status = ok ? "success" : last ? "failed-finally" : `failed-${n}`;
    record.attempts.push({ result: record.status, statusCode: status, at: dateTime(now()) });
    record.updatedAt = dateTime(now());
    const retry = !ok && !last;
    const delay = retry ? itemAt(delays, n - 1) : 0;
    record.nextAttemptAt = retry ? dateTime(now() + delay) : null;
    if (!retry) return;
    scheduled.set(
      record,
      later(delay, () => {
        scheduled.delete(record);
        void attempt(webhook, record, n + 1);
      }),
    );
  }

  return {
    events: {
      hire(type, hireId, contractId) {
        const data = options.data();
        const hire = data.hires.get(hireId);
        if (!hire) return;
        // Built once, when the change happens: every attempt sends the same signed body.
        const payload = hirePayload(data, type, hire, contractId);
        const body = JSON.stringify(payload);
        const list = webhookEventsOf(data);
        for (const webhook of webhooksOf(data)) {
          if (webhook.companyId !== hire.companyId || !subscribed(webhook, type)) continue;
          const at = dateTime(now());
          const record: WebhookEventRecord = {
            id: `whe_${String(list.length + 1).padStart(4, "0")}`,
            key: randomUUID(),
            webhookId: webhook.id,
            companyId: webhook.companyId,
            event: eventName(type),
            description: DESCRIPTIONS[type],
            status: "pending",
            payload,
            body,
            attempts: [],
            nextAttemptAt: null,
            createdAt: at,
            updatedAt: at,
          };
          list.push(record);
          // After the mutation's answer, as the platform sends from a queue.
          later(0, () => void attempt(webhook, record, 1));
        }
      },
      retry(eventId) {
        const data = options.data();
        const record = webhookEventsOf(data).find((e) => e.id === eventId);
        const webhook = webhooksOf(data).find((w) => w.id === record?.webhookId);
        if (!record || !webhook) return;
        // One attempt now, outside the automatic schedule.
        later(0, async () => {
          const started = generation;
          const status = isLoopback(webhook.url) ? await post(webhook, record) : null;
          if (started !== generation) return;
          const ok = status !== null && status >= 200 && status < 300;
          const pending = /^failed-\d+$/.test(record.status);
          record.status = ok ? "success" : pending ? record.status : "failed-finally";
          if (ok) unschedule(record);
          record.attempts.push({ result: record.status, statusCode: status, at: dateTime(now()) });
          record.updatedAt = dateTime(now());
        });
      },
    },
    cancelAll() {
      generation++;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      scheduled.clear();
      for (const controller of inFlight) controller.abort();
      inFlight.clear();
    },
  };
}
