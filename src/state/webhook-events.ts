// The platform's webhook events as the receiver stored them: in the state store (Redis when
// replicas share it, so every replica reads every event), each under the company whose secret
// signed it, bounded by age, by bytes in all and by bytes and count per company (a company's
// deliveries only ever push out its own older events), each kept once however often the platform
// delivers it. Listeners hear of each new event, on every replica.
import { randomUUID } from "node:crypto";
import type { Config } from "../config.js";
import type { StateStore } from "./store.js";

/** One event the platform sent, as received. */
export interface ReceivedWebhookEvent {
  /** SHA-256 of the raw body, lowercase hex: a redelivery (the same body) has the same id. */
  id: string;
  /** When this server first received it, ISO 8601. */
  receivedAt: string;
  /** The company whose secret signed it: the event is this company's, whatever its payload says. */
  companyId: string;
  /** The payload's `event`, e.g. `contractAccepted`. */
  event: string;
  /** The whole payload as parsed: `{ event, data }`. */
  payload: unknown;
}

interface WebhookEventQuery {
  /** Only events received at or after this moment (ms since the epoch). */
  since?: number;
  /** Only events about this hire (`data.contract.hireId`, `data.hire.id` or `data.hireId`). */
  hireId?: string;
  /** The companies whose events are read (the signers'); none named, none read. */
  companies: readonly string[];
  /** Only events of this name. */
  event?: string;
  /** At most this many (default 50, at most 500). */
  limit?: number;
}

export interface WebhookEventStore {
  /** How long events are kept (ms): what is kept beside an event lasts as long. */
  readonly maxAgeMs: number;
  /**
   * Stores the event unless one with its id is kept: "stored", "duplicate" for a redelivery, or
   * "full" when the store's byte budget is spent by other companies (nothing is dropped for it).
   */
  add(event: Omit<ReceivedWebhookEvent, "receivedAt">): Promise<"stored" | "duplicate" | "full">;
  /** Kept events of the named companies matching the query, newest first. */
  list(query: WebhookEventQuery): Promise<ReceivedWebhookEvent[]>;
  /** The bytes the kept events count against `maxBytes`. */
  bytes(): Promise<number>;
  /**
   * Calls `listener` with each new event stored from now on, by this replica (at once) or by any
   * other sharing the store (through its publish and subscribe); resolves to a function that stops.
   */
  listen(listener: (event: ReceivedWebhookEvent) => void): Promise<() => Promise<void>>;
}

export interface WebhookEventStoreOptions {
  /** Events kept at most per company (its oldest dropped first). */
  maxEvents: number;
  /** Bytes all companies' events may count together; past it, new events are refused. */
  maxBytes: number;
  /** Bytes one company's events may count (its oldest dropped first). */
  maxCompanyBytes: number;
  /** Events older than this are dropped. */
  maxAgeMs: number;
  now?: () => number;
}

/** The bounds the configuration sets, for the receiver and for a local server reading them. */
export function eventBoundsOf(
  config: Pick<
    Config,
    "webhookMaxEvents" | "webhookRetentionDays" | "webhookMaxBytes" | "webhookCompanyMaxBytes"
  >,
): Omit<WebhookEventStoreOptions, "now"> {
  return {
    maxEvents: config.webhookMaxEvents,
    maxAgeMs: config.webhookRetentionDays * 24 * 60 * 60 * 1000,
    maxBytes: config.webhookMaxBytes,
    maxCompanyBytes: config.webhookCompanyMaxBytes,
  };
}

const LOG_KEY = "webhook-events";
const CHANNEL = "webhook-events:new";
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;
/** Entries read from the store per round while filtering. */
const PAGE = 200;

export function createWebhookEventStore(
  store: StateStore,
  options: WebhookEventStoreOptions,
): WebhookEventStore {
  const now = options.now ?? Date.now;
  // This replica's name on the channel, so that it does not hear its own events twice.
  const origin = randomUUID();
  const local = new Set<(event: ReceivedWebhookEvent) => void>();
  const tell = (event: ReceivedWebhookEvent) => {
    for (const listener of local) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own; the others still hear of the event.
      }
    }
  };
  let unsubscribe: Promise<() => Promise<void>> | undefined;

  return {
    maxAgeMs: options.maxAgeMs,
    async add(event) {
      const at = now();
      const received: ReceivedWebhookEvent = { ...event, receivedAt: new Date(at).toISOString() };
      const outcome = await store.appendToLog(
        LOG_KEY,
        event.companyId,
        { id: event.id, at, value: JSON.stringify(received) },
        {
          maxAgeMs: options.maxAgeMs,
          maxBytes: options.maxBytes,
          maxGroupBytes: options.maxCompanyBytes,
          maxGroupEntries: options.maxEvents,
        },
      );
      if (outcome !== "added") return outcome;
      tell(received);
      // The event is kept: other replicas not hearing of it is no reason to refuse it.
      await store.publish(CHANNEL, JSON.stringify({ origin, event: received })).catch(() => {});
      return "stored";
    },

    async list(query) {
      const limit = Math.min(Math.max(1, Math.floor(query.limit ?? DEFAULT_LIMIT)), MAX_LIMIT);
      const from = Math.max(query.since ?? Number.NEGATIVE_INFINITY, now() - options.maxAgeMs);
      const found: ReceivedWebhookEvent[] = [];
      // Each company's newest `limit`, then the newest `limit` of them all.
      for (const company of new Set(query.companies)) {
        let kept = 0;
        for (let offset = 0; offset < options.maxEvents && kept < limit; offset += PAGE) {
          const page = await store.readLog(LOG_KEY, company, from, offset, PAGE);
          for (const entry of page) {
            const event = JSON.parse(entry.value) as ReceivedWebhookEvent;
            if (event.companyId === company && matches(event, query)) {
              found.push(event);
              kept++;
            }
            if (kept >= limit) break;
          }
          if (page.length < PAGE) break;
        }
      }
      return found
        .sort((a, b) => (a.receivedAt < b.receivedAt ? 1 : a.receivedAt > b.receivedAt ? -1 : 0))
        .slice(0, limit);
    },

    bytes: () => store.logBytes(LOG_KEY),

    async listen(listener) {
      local.add(listener);
      unsubscribe ??= store.subscribe(CHANNEL, (message) => {
        let parsed: { origin?: unknown; event?: ReceivedWebhookEvent };
        try {
          parsed = JSON.parse(message) as typeof parsed;
        } catch {
          return;
        }
        if (parsed.origin !== origin && parsed.event) tell(parsed.event);
      });
      const stop = await unsubscribe.catch((error: unknown) => {
        local.delete(listener);
        unsubscribe = undefined;
        throw error;
      });
      return async () => {
        local.delete(listener);
        if (local.size === 0 && unsubscribe) {
          unsubscribe = undefined;
          await stop();
        }
      };
    },
  };
}

function matches(event: ReceivedWebhookEvent, query: WebhookEventQuery): boolean {
  if (query.event !== undefined && event.event !== query.event) return false;
  if (query.hireId !== undefined && hireIdOf(event.payload) !== query.hireId) return false;
  return true;
}

/** The hire an event is about: `data.contract.hireId` (§2.6), `data.hire.id` or `data.hireId`. */
function hireIdOf(payload: unknown): string | undefined {
  const data = field(payload, "data");
  const id =
    field(field(data, "contract"), "hireId") ??
    field(field(data, "hire"), "id") ??
    field(data, "hireId");
  return typeof id === "string" ? id : undefined;
}

/** The company: `data.trustedContact.accountId` (§2.6), else `data.company.id`. */
export function companyIdOf(payload: unknown): string | undefined {
  const data = field(payload, "data");
  const id =
    field(field(data, "trustedContact"), "accountId") ?? field(field(data, "company"), "id");
  return typeof id === "string" ? id : undefined;
}

/** The member `name` of a JSON object; undefined for anything else. */
export function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}
