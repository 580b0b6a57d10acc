// The key that seals what round-trips through clients or sits in shared state. Kept apart from
// sealing.ts so that a start (stdio) can pick its key without loading node:crypto.

/** The 32-byte key from WORKFORCE_ENCRYPTION_KEY (base64 or base64url; checked by config.ts). */
export function encryptionKeyFrom(base64: string): Buffer {
  const key = Buffer.from(base64, "base64");
  if (key.length !== 32) throw new Error("WORKFORCE_ENCRYPTION_KEY must be 32 bytes in base64.");
  return key;
}

let processKey: Buffer | undefined;

/**
 * WORKFORCE_ENCRYPTION_KEY when set (replicas must share it), else one random key for this
 * process: what it sealed opens only here, which one process serving its clients needs.
 */
export function sealingKeyFor(encryptionKey: string | undefined): Buffer {
  if (encryptionKey) return encryptionKeyFrom(encryptionKey);
  // Web Crypto's global, not node:crypto: the key is made at start.
  processKey ??= Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  return processKey;
}
