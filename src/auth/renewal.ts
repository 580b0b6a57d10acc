// When an access token is renewed: shared by `workforce-mcp login`'s sign-in
// (src/auth/token-source.ts) and the team server's platform grants (src/auth/remote/grants.ts).
import { DAY_MS } from "./store.js";

/** Renew when less than this is left (or half the token's lifetime, when that is shorter). */
export const RENEW_MARGIN_MS = DAY_MS;

/** The times of an access token, in epoch milliseconds. */
export interface AccessTokenTimes {
  accessTokenIssuedAt: number;
  accessTokenExpiresAt: number;
}

/** Whether the token is due for renewal at `now`. */
export function renewalDue(t: AccessTokenTimes, now: number): boolean {
  const lifetime = t.accessTokenExpiresAt - t.accessTokenIssuedAt;
  const margin = Math.min(RENEW_MARGIN_MS, Math.max(0, lifetime / 2));
  return now >= t.accessTokenExpiresAt - margin;
}

/** Whether the token has expired at `now`. */
export function accessTokenExpired(t: AccessTokenTimes, now: number): boolean {
  return now >= t.accessTokenExpiresAt;
}
