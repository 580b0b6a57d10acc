import { createHash } from "node:crypto";
import type { Request } from "express";
import { ipKeyGenerator } from "express-rate-limit";

/**
 * Where a request comes from, as every per-address limit counts it: behind a trusted proxy
 * (--trust-proxy) the address it names. An IPv6 address counts as its /56, as the SDK's own
 * limiters (express-rate-limit) group them: one subscriber usually holds at least a /64, so
 * counting each address apart would give one person endless fresh addresses.
 */
export function clientAddress(req: Request): string {
  const address = req.ip ?? req.socket.remoteAddress;
  return address ? ipKeyGenerator(address) : "unknown";
}

/** A client address as a key of the shared store: a short digest, so the store keeps no addresses. */
export function addressKey(address: string): string {
  return createHash("sha256").update(address).digest("base64url").slice(0, 16);
}
