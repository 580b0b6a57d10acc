// Records of the team server's sign-in (clients, pending sign-ins, codes, tokens, platform token
// pairs) as JSON sealed with AES-256-GCM before they reach the shared state store, so that neither
// Redis nor a dump of it shows a token. Each value has its own random 96-bit IV, and its key name
// is authenticated with it: a value copied under another key does not open.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { StateStore } from "../../state/store.js";

const FORMAT = "wfm1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The 32-byte key from WORKFORCE_ENCRYPTION_KEY (base64 or base64url; checked by config.ts). */
export function encryptionKeyFrom(base64: string): Buffer {
  const key = Buffer.from(base64, "base64");
  if (key.length !== 32) throw new Error("WORKFORCE_ENCRYPTION_KEY must be 32 bytes in base64.");
  return key;
}

export function seal(key: Buffer, name: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(name, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return `${FORMAT}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

/** The plaintext, or undefined when the value was not sealed with this key under this name. */
export function unseal(key: Buffer, name: string, sealed: string): string | undefined {
  const [format, data] = sealed.split(".", 2);
  if (format !== FORMAT || !data) return undefined;
  const bytes = Buffer.from(data, "base64url");
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(name, "utf8"));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    // Another key (rotated), or tampered with: as good as absent.
    return undefined;
  }
}

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
