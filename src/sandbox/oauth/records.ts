// What the sandbox's authorization server remembers: registered clients, pending consent pages,
// browser sessions and consents, authorization codes, grants, and access and refresh tokens. All
// in memory; what can never be valid again is forgotten as tokens are issued.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IdentityKey } from "../context.js";
import type { SandboxClock } from "./clock.js";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const CODE_LIFETIME_MS = 10 * MINUTE;
const ACCESS_TOKEN_LIFETIME_MS = 15 * DAY;
export const REFRESH_PERIOD_MS = 90 * DAY;
/** How long an open consent page may be answered. */
export const PENDING_LIFETIME_MS = 30 * MINUTE;

export interface OAuthClientInfo {
  id: string;
  secret: string;
  name: string;
  /** The one address the flow may send the browser back to. */
  redirectUri: string;
}

export interface ClientRecord extends OAuthClientInfo {
  revoked: boolean;
}

export interface PendingRequest {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string | undefined;
  /** The identity shown as chosen; none with prompt=login. */
  preselected: IdentityKey | undefined;
  expiresAt: number;
}

export interface CodeRecord {
  clientId: string;
  redirectUri: string;
  identity: IdentityKey;
  codeChallenge: string | undefined;
  expiresAt: number;
  used: boolean;
  /** The grant its exchange started, revoked if the code is presented again. */
  grantId: string | undefined;
}

export interface Grant {
  id: string;
  clientId: string;
  identity: IdentityKey;
  /** Refreshing works until firstGrantAt + 90 days. */
  firstGrantAt: number;
  revoked: boolean;
}

interface AccessTokenRecord {
  grantId: string;
  expiresAt: number;
  revoked: boolean;
}

interface RefreshTokenRecord {
  grantId: string;
  active: boolean;
}

export const random = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`;
const sha256 = (text: string) => createHash("sha256").update(text).digest();

/** Compares two secrets in constant time (by their digests, so lengths may differ). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

export class OAuthRecords {
  readonly clients = new Map<string, ClientRecord>();
  readonly pending = new Map<string, PendingRequest>();
  /** Browser session id → the identity that browser signed in as. */
  readonly sessions = new Map<string, IdentityKey>();
  /** `identity|clientId` for each client an identity approved. */
  readonly consents = new Set<string>();
  readonly codes = new Map<string, CodeRecord>();
  readonly grants = new Map<string, Grant>();
  readonly accessTokens = new Map<string, AccessTokenRecord>();
  readonly refreshTokens = new Map<string, RefreshTokenRecord>();

  constructor(readonly clock: SandboxClock) {}

  registerClient(o: { name: string; redirectUri: string; id?: string; secret?: string }) {
    const info: OAuthClientInfo = {
      id: o.id ?? random("sandbox-client-").slice(0, 36),
      secret: o.secret ?? random("sandbox-secret-"),
      name: o.name,
      redirectUri: new URL(o.redirectUri).href,
    };
    this.clients.set(info.id, { ...info, revoked: false });
    return info;
  }

  revokeClient(clientId: string): void {
    const record = this.clients.get(clientId);
    if (!record) throw new Error(`No OAuth client ${clientId} is registered.`);
    record.revoked = true;
  }

  revokeToken(token: string): void {
    const access = this.accessTokens.get(token);
    if (access) access.revoked = true;
    const refresh = this.refreshTokens.get(token);
    if (refresh) refresh.active = false;
  }

  revokeGrant(grantId: string): void {
    const grant = this.grants.get(grantId);
    if (grant) grant.revoked = true;
  }

  /** Forgets what can never be valid again, so a long-running sandbox does not grow. */
  prune(now: number): void {
    for (const [key, p] of this.pending) if (p.expiresAt <= now) this.pending.delete(key);
    for (const [key, c] of this.codes) {
      if (c.expiresAt + CODE_LIFETIME_MS <= now) this.codes.delete(key);
    }
    for (const [key, t] of this.accessTokens) if (t.expiresAt <= now) this.accessTokens.delete(key);
  }

  /** The grant, while neither it nor its client is revoked. */
  grantUsable(grantId: string): Grant | undefined {
    const grant = this.grants.get(grantId);
    if (!grant || grant.revoked) return undefined;
    const owner = this.clients.get(grant.clientId);
    if (!owner || owner.revoked) return undefined;
    return grant;
  }

  identityFor(token: string): IdentityKey | null {
    const record = this.accessTokens.get(token);
    if (!record || record.revoked || this.clock.now() >= record.expiresAt) return null;
    return this.grantUsable(record.grantId)?.identity ?? null;
  }

  issueCode(
    clientId: string,
    redirectUri: string,
    identity: IdentityKey,
    codeChallenge: string | undefined,
  ): string {
    const code = random("wfs_code_");
    this.codes.set(code, {
      clientId,
      redirectUri,
      identity,
      codeChallenge,
      expiresAt: this.clock.now() + CODE_LIFETIME_MS,
      used: false,
      grantId: undefined,
    });
    return code;
  }

  /** A new access token and refresh token for the grant, as the token endpoint's answer. */
  issueTokens(grant: Grant) {
    const now = this.clock.now();
    this.prune(now);
    const accessToken = random("wfs_at_");
    const refreshToken = random("wfs_rt_");
    this.accessTokens.set(accessToken, {
      grantId: grant.id,
      expiresAt: now + ACCESS_TOKEN_LIFETIME_MS,
      revoked: false,
    });
    this.refreshTokens.set(refreshToken, { grantId: grant.id, active: true });
    return {
      token_type: "Bearer",
      expires_in: ACCESS_TOKEN_LIFETIME_MS / 1000,
      access_token: accessToken,
      refresh_token: refreshToken,
    };
  }
}
