// Binds a step of the team server's sign-in to the browser that took the step before it: a random
// secret goes to that browser as an HttpOnly cookie, and the server keeps only its SHA-256 with the
// step's record. The next step goes on only where the same browser brings the cookie back, so a
// link copied from one browser does nothing in another (MCP security best practices, "OAuth state
// parameter validation"; RFC 9700 §4.7.1).
//
// Every such cookie is a `__Host-` cookie (MCP security best practices, "Consent Cookie Security";
// RFC 6265bis §4.1.3.2): Secure, Path=/ and no Domain, so that a sibling host cannot set or
// overwrite it. Browsers take Secure cookies from http://127.0.0.1 and http://localhost too (they
// count as secure contexts), the only plain-http addresses WORKFORCE_PUBLIC_URL allows.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import { readCookie, setCookie } from "../../web/cookies.js";

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/**
 * The cookie's name for one step and record id; several can run at once in one browser. A short
 * digest of the id: the id itself stays secret.
 */
export function bindingName(step: string, id: string): string {
  return `__Host-${step}${createHash("sha256").update(id).digest("base64url").slice(0, 12)}`;
}

function setBinding(res: Response, name: string, value: string, maxAgeMs: number) {
  setCookie(res, {
    name,
    value,
    path: "/",
    secure: true,
    httpOnly: true,
    // Lax: the cookie comes along on the top-level navigation back from the platform.
    sameSite: "lax",
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

/** Sets the cookie on the answer; returns the digest to keep with the step's record. */
export function bindBrowser(res: Response, name: string, maxAgeMs: number): string {
  const secret = randomBytes(32).toString("base64url");
  setBinding(res, name, secret, maxAgeMs);
  return digest(secret);
}

/**
 * Whether this request's browser is the one the digest was kept for. The cookie is cleared either
 * way: a binding serves one step.
 */
export function sameBrowser(req: Request, res: Response, name: string, kept: string): boolean {
  const secret = readCookie(req, name);
  setBinding(res, name, "", 0);
  if (!secret) return false;
  const seen = Buffer.from(digest(secret));
  const expected = Buffer.from(kept);
  return seen.length === expected.length && timingSafeEqual(seen, expected);
}
