// Records of the team server's sign-in (clients, pending sign-ins, codes, tokens, platform token
// pairs) as JSON sealed with AES-256-GCM (src/state/sealing.ts) before they reach the shared state
// store, so that neither Redis nor a dump of it shows a token. Each key name is authenticated with
// its value: a value copied under another key does not open.
import { createHash } from "node:crypto";
import { seal, unseal } from "../../state/sealing.js";
import type { StateStore } from "../../state/store.js";

/** The store's key for a secret the client holds (a code or token): only its SHA-256. */
export function digestKey(prefix: string, secret: string): string {
  return `${prefix}${createHash("sha256").update(secret, "utf8").digest("base64url")}`;
}

export interface SealedStore {
  get<T>(name: string): Promise<T | undefined>;
  set(name: string, value: unknown, ttlMs?: number): Promise<void>;
  /** Atomic read and delete: of two takes of one name, only one finds the value. */
  take<T>(name: string): Promise<T | undefined>;
  delete(name: string): Promise<void>;
  /** The plain store, for what is not secret (leases). */
  readonly state: StateStore;
}

/** Every name is put under `oauth:`, so that the server's records stay apart from others'. */
export function createSealedStore(state: StateStore, key: Buffer): SealedStore {
  const full = (name: string) => `oauth:${name}`;
  const open = <T>(name: string, value: string | undefined): T | undefined => {
    if (value === undefined) return undefined;
    const text = unseal(key, full(name), value);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  };
  return {
    state,
    async get<T>(name: string) {
      return open<T>(name, await state.get(full(name)));
    },
    async set(name, value, ttlMs) {
      // A record whose time is already over is not written at all.
      if (ttlMs !== undefined && ttlMs <= 0) return state.delete(full(name));
      await state.set(full(name), seal(key, full(name), JSON.stringify(value)), ttlMs);
    },
    async take<T>(name: string) {
      return open<T>(name, await state.take(full(name)));
    },
    delete: (name) => state.delete(full(name)),
  };
}
