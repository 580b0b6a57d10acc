// The small answers every /mcp route gives: JSON-RPC errors, the bearer a request carries, and the
// moment a response is over.
import { timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import { sha256 } from "./sha256.js";

export const REALM = 'Bearer realm="workforce-mcp"';

export function rpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: "2.0", error: { code, message }, id: null });
}

export function bearerToken(req: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.header("authorization") ?? "");
  return match?.[1];
}

/** Digests are always 32 bytes, so timingSafeEqual never throws and leaks no length. */
export function bearerMatches(req: Request, digest: Buffer): boolean {
  const token = bearerToken(req);
  return token !== undefined && timingSafeEqual(sha256(token), digest);
}

/** Runs fn once the response is over; at once if the client already went away. */
export function whenClosed(res: Response, fn: () => void): void {
  if (res.closed) fn();
  else res.once("close", fn);
}
