// The secrets of the webhooks this server registered on the platform itself (manage_webhooks):
// generated here, sealed with AES-256-GCM under the server's key (sealing.ts) before they reach the
// state store, one per company, never shown to anyone. The receiver checks deliveries against them
// as well as against WORKFORCE_WEBHOOK_SECRETS; a delivery signed with one is that company's. With Redis, every replica sharing the store and the
// key sees them; each keeps them a few seconds in memory, so that deliveries cost no store read.
import { seal, unseal } from "./sealing.js";
import type { StateStore } from "./store.js";

/** Where the platform delivers, on this server (the receiver in src/transports/). */
export const WEBHOOK_PATH = "/webhooks/platform";

/** This server's receiver at its public address (an origin, as config.publicUrl holds it). */
export const receiverUrlOf = (publicUrl: string) => `${new URL(publicUrl).origin}${WEBHOOK_PATH}`;

/** A map in the store: one field per company, its value sealed. */
const KEY = "webhook-secrets";
/** How long the secrets read are used before reading them again. */
const CACHE_MS = 5_000;
/** A signature that matched none is checked against a fresh read at most this often. */
const REFRESH_ON_MISS_MS = 1_000;

/** One webhook this server registered: for which company, where, and its secret. */
interface StoredWebhookSecret {
  companyId: string;
  /** The platform's id; null while the answer to createWebhook has not named it. */
  webhookId: string | null;
  /** Where the platform delivers (this server's receiver). */
  url: string;
  secret: string;
  /** When it was generated, ISO 8601. */
  createdAt: string;
}

export interface WebhookSecretStore {
  /** Keeps the company's record (sealed), replacing any earlier one of the company. */
  put(record: StoredWebhookSecret): Promise<void>;
  /** The company's record, or undefined. */
  get(companyId: string): Promise<StoredWebhookSecret | undefined>;
  /** Forgets the company's record: deliveries signed with its secret are refused from now on. */
  forget(companyId: string): Promise<void>;
  /**
   * Every stored secret, read at most every few seconds; `fresh` reads the store again unless it
   * was read within the last second. A change made through this process is seen at once.
   */
  secrets(options?: { fresh?: boolean }): Promise<CompanySecret[]>;
}

/** A secret and the company whose deliveries it signs. */
export interface CompanySecret {
  companyId: string;
  secret: string;
}

interface Cached {
  at: number;
  secrets: CompanySecret[];
}

/** Per store, so that the tool's change and the receiver in the same process share one cache. */
const caches = new WeakMap<StateStore, Cached>();

export function createWebhookSecretStore(
  store: StateStore,
  key: Buffer,
  now: () => number = Date.now,
): WebhookSecretStore {
  const name = (companyId: string) => `webhook-secret:${companyId}`;
  const open = (companyId: string, sealed: string): StoredWebhookSecret | undefined => {
    const text = unseal(key, name(companyId), sealed);
    return text === undefined ? undefined : (JSON.parse(text) as StoredWebhookSecret);
  };
  return {
    async put(record) {
      await store.setField(
        KEY,
        record.companyId,
        seal(key, name(record.companyId), JSON.stringify(record)),
      );
      caches.delete(store);
    },
    async get(companyId) {
      const sealed = (await store.readFields(KEY))[companyId];
      return sealed === undefined ? undefined : open(companyId, sealed);
    },
    async forget(companyId) {
      await store.deleteField(KEY, companyId);
      caches.delete(store);
    },
    async secrets(options = {}) {
      const cached = caches.get(store);
      const age = cached ? now() - cached.at : Number.POSITIVE_INFINITY;
      if (cached && age < (options.fresh ? REFRESH_ON_MISS_MS : CACHE_MS)) return cached.secrets;
      const fields = await store.readFields(KEY);
      // A record sealed under another key (a replica misconfigured, a rotated key) opens as nothing.
      const secrets = Object.entries(fields).flatMap(([companyId, sealed]) => {
        const record = open(companyId, sealed);
        return record ? [{ companyId, secret: record.secret }] : [];
      });
      caches.set(store, { at: now(), secrets });
      return secrets;
    },
  };
}
