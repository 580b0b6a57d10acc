import { createHash } from "node:crypto";

/** A client address as a key of the shared store: a short digest, so the store keeps no addresses. */
export function addressKey(address: string): string {
  return createHash("sha256").update(address).digest("base64url").slice(0, 16);
}
