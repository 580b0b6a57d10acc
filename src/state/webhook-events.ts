// The platform's webhook events as the receiver stored them: in the state store (Redis when
// replicas share it, so every replica reads every event), bounded by age and by count, each kept
// once however often the platform delivers it. Listeners hear of each new event, on every replica.
import { randomUUID } from "node:crypto";
import type { StateStore } from "./store.js";

/** One event the platform sent, as received. */
export interface ReceivedWebhookEvent {
  /** SHA-256 of the raw body, lowercase hex: a redelivery (the same body) has the same id. */
  id: string;
  /** When this server first received it, ISO 8601. */
  receivedAt: string;
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
  /** Only events of this company (`data.trustedContact.accountId`, or `data.company.id`). */
  companyId?: string;
  /** Only events of this name. */
  event?: string;
  /** At most this many (default 50, at most 500). */
  limit?: number;
}

export interface WebhookEventStore {
  /** How long events are kept (ms): what is kept beside an event lasts as long. */
  readonly maxAgeMs: number;
  /** Stores the event unless one with its id is kept: "stored", or "duplicate" for a redelivery. */
  add(event: Omit<ReceivedWebhookEvent, "receivedAt">): Promise<"stored" | "duplicate">;
  /** Kept events matching the query, newest first. */
  list(query?: WebhookEventQuery): Promise<ReceivedWebhookEvent[]>;
  /**
   * Calls `listener` with each new event stored from now on, by this replica (at once) or by any
   * other sharing the store (through its publish and subscribe); resolves to a function that stops.
   */
  listen(listener: (event: ReceivedWebhookEvent) => void): Promise<() => Promise<void>>;
}

export interface WebhookEventStoreOptions {
  /** Events kept at most (oldest dropped first). */
  maxEvents: number;
  /** Events older than this are dropped. */
  maxAgeMs: number;
  now?: () => number;
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
      const added = await store.appendToLog(
        LOG_KEY,
        { id: event.id, at, value: JSON.stringify(received) },
        { maxEntries: options.maxEvents, maxAgeMs: options.maxAgeMs },
      );
      if (!added) return "duplicate";
      tell(received);
      // The event is kept: other replicas not hearing of it is no reason to refuse it.
      await store.publish(CHANNEL, JSON.stringify({ origin, event: received })).catch(() => {});
      return "stored";
    },

    async list(query = {}) {
      const limit = Math.min(Math.max(1, Math.floor(query.limit ?? DEFAULT_LIMIT)), MAX_LIMIT);
      const from = Math.max(query.since ?? Number.NEGATIVE_INFINITY, now() - options.maxAgeMs);
      const found: ReceivedWebhookEvent[] = [];
      for (let offset = 0; offset < options.maxEvents && found.length < limit; offset += PAGE) {
        const page = await store.readLog(LOG_KEY, from, offset, PAGE);
        for (const entry of page) {
          const event = JSON.parse(entry.value) as ReceivedWebhookEvent;
          if (matches(event, query)) found.push(event);
          if (found.length >= limit) break;
        }
        if (page.length < PAGE) break;
      }
      return found;
    },

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
  if (query.companyId !== undefined && companyIdOf(event.payload) !== query.companyId) return false;
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
