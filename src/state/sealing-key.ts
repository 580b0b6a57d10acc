// The key that seals what sits in shared state. Kept apart from sealing.ts so that a start can
// pick its key without loading node:crypto.

/** The 32-byte key from WORKFORCE_ENCRYPTION_KEY (base64 or base64url; checked by config.ts). */
export function encryptionKeyFrom(base64: string): Buffer {
  const key = Buffer.from(base64, "base64");
  if (key.length !== 32) throw new Error("WORKFORCE_ENCRYPTION_KEY must be 32 bytes in base64.");
  return key;
}
