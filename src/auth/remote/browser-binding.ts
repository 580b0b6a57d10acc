// Binds a step of the team server's sign-in to the browser that took the step before it: a random
// secret goes to that browser as an HttpOnly cookie scoped to the next step's path, and the
// server keeps only its SHA-256 with the step's record. The next step goes on only where the same
// browser brings the cookie back, so a link copied from one browser does nothing in another (MCP
// security best practices, "OAuth state parameter validation"; RFC 9700 §4.7.1).
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import { readCookie, setCookie } from "../../web/cookies.js";

export interface BrowserBinding {
  /** The path of the step that reads the cookie back (the cookie is sent nowhere else). */
  path: string;
  /** The cookie's name for one pending step; several can run at once in one browser. */
  name: string;
  /** This server's base address: the cookie is Secure when it is https. */
  publicUrl: string;
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** A cookie name of this step for one record id (a short digest: the id itself stays secret). */
export function bindingName(prefix: string, id: string): string {
  return `${prefix}${createHash("sha256").update(id).digest("base64url").slice(0, 12)}`;
}

function setBinding(res: Response, binding: BrowserBinding, value: string, maxAgeMs: number) {
  setCookie(res, {
    name: binding.name,
    value,
    path: binding.path,
    httpOnly: true,
    // Lax: the cookie comes along on the top-level navigation back from the platform.
    sameSite: "lax",
    secure: new URL(binding.publicUrl).protocol === "https:",
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

/** Sets the cookie on the answer; returns the digest to keep with the step's record. */
export function bindBrowser(res: Response, binding: BrowserBinding, maxAgeMs: number): string {
  const secret = randomBytes(32).toString("base64url");
  setBinding(res, binding, secret, maxAgeMs);
  return digest(secret);
}

/**
 * Whether this request's browser is the one the digest was kept for. The cookie is cleared either
 * way: a binding serves one step.
 */
export function sameBrowser(
  req: Request,
  res: Response,
  binding: BrowserBinding,
  kept: string,
): boolean {
  const secret = readCookie(req, binding.name);
  setBinding(res, binding, "", 0);
  if (!secret) return false;
  const seen = Buffer.from(digest(secret));
  const expected = Buffer.from(kept);
  return seen.length === expected.length && timingSafeEqual(seen, expected);
}
