import { createHash } from "node:crypto";
import type { Request } from "express";

/** Where a request comes from: behind a trusted proxy (--trust-proxy) the address it names. */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/** A client address as a key of the shared store: a short digest, so the store keeps no addresses. */
export function addressKey(address: string): string {
  return createHash("sha256").update(address).digest("base64url").slice(0, 16);
}
