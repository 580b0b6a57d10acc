// AES-256-GCM sealing: what the server keeps in shared state (the team server's sign-ins) or hands a
// client to bring back (a form's requestState) can be neither read nor altered. Each value has its
// own random 96-bit IV, and a name is authenticated with it: a value sealed under one name does not
// open under another.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const FORMAT = "wfm1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

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

/** The name a multi-round-trip requestState is sealed under, apart from every stored record. */
const REQUEST_STATE = "mcp:requestState";

/** What every sealed requestState holds besides its own fields: when it stops opening. */
export interface ExpiringState {
  expiresAt: number;
}

export function sealRequestState(key: Buffer, state: ExpiringState): string {
  return seal(key, REQUEST_STATE, JSON.stringify(state));
}

/** The state, or undefined when it was not sealed with this key, was altered, or has expired. */
export function openRequestState(
  key: Buffer,
  sealed: string,
  now: number,
): ExpiringState | undefined {
  const text = unseal(key, REQUEST_STATE, sealed);
  if (text === undefined) return undefined;
  const state = JSON.parse(text) as ExpiringState;
  return typeof state.expiresAt === "number" && state.expiresAt > now ? state : undefined;
}

/** The name a confirmation card's state is sealed under: never opens as a requestState. */
const CARD_STATE = "mcp-apps:confirmation";

export function sealCard<S extends ExpiringState>(key: Buffer, state: S): string {
  return seal(key, CARD_STATE, JSON.stringify(state));
}

/** The card's state, or undefined when it was not sealed here, was altered, or has expired. */
export function openCard(key: Buffer, sealed: string, now: number): ExpiringState | undefined {
  const text = unseal(key, CARD_STATE, sealed);
  if (text === undefined) return undefined;
  const state = JSON.parse(text) as ExpiringState;
  return typeof state.expiresAt === "number" && state.expiresAt > now ? state : undefined;
}
