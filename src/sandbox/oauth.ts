// The sandbox as an OAuth 2.0 authorization server, after the interface document's section 5:
//   GET  /oauth/authorize  consent page (pick a sandbox identity, Approve / Deny), or a redirect
//                          straight back when this browser already approved this client
//   POST /oauth/authorize  the page's form: redirect with `code` and the same `state`, or with
//                          `error=access_denied`
//   POST /oauth/token      authorization_code (single use, bound to client_id and redirect_uri,
//                          10 minutes, PKCE S256 when a challenge was sent) and refresh_token
//                          (rotating, for 90 days from the first grant); access tokens last 15 days
// A revoked client gets no new tokens and its tokens stop authenticating. Time is the sandbox's
// own clock, which tests move forward. Nothing here logs a token, code or secret.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readCookie, setCookie } from "../web/cookies.js";
import { escapeHtml, redirectWith, sendPage } from "../web/pages.js";
import { IDENTITIES, type IdentityKey } from "./context.js";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const CODE_LIFETIME_MS = 10 * MINUTE;
export const ACCESS_TOKEN_LIFETIME_MS = 15 * DAY;
const REFRESH_PERIOD_MS = 90 * DAY;
/** How long an open consent page may be answered. */
const PENDING_LIFETIME_MS = 30 * MINUTE;
const MAX_FORM_BYTES = 64 * 1024;
const SESSION_COOKIE = "wf_sandbox_session";

/** The client every sandbox has, for local use; `workforce-mcp sandbox` prints it. */
export const SANDBOX_OAUTH_CLIENT = {
  id: "sandbox-workforce-mcp",
  secret: "sandbox-client-secret-6d2f81c9a4",
  name: "workforce-mcp (local)",
} as const;

/** The sandbox's own time for OAuth: codes, tokens and the refresh period. */
export interface SandboxClock {
  now(): number;
  /** Moves the sandbox's time forward (tests: expire a code, a token, the 90 days). */
  advance(ms: number): void;
}

export function createSandboxClock(base: () => number = Date.now): SandboxClock {
  let offset = 0;
  return {
    now: () => base() + offset,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new Error("The clock only moves forward.");
      offset += ms;
    },
  };
}

export interface OAuthClientInfo {
  id: string;
  secret: string;
  name: string;
  /** The one address the flow may send the browser back to. */
  redirectUri: string;
}

export interface SandboxOAuth {
  /** The client registered at start. */
  readonly client: OAuthClientInfo;
  /** Registers another client, as the platform's client page does (tests: one per redirect port). */
  registerClient(options: {
    name: string;
    redirectUri: string;
    id?: string;
    secret?: string;
  }): OAuthClientInfo;
  /** Stops the client: no new tokens, and its tokens no longer authenticate. */
  revokeClient(clientId: string): void;
  /** Revokes one access or refresh token, as the token management page does. */
  revokeToken(token: string): void;
  /** The sandbox identity an issued access token acts as, or null when it is not valid now. */
  identityFor(accessToken: string): IdentityKey | null;
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
}

interface ClientRecord extends OAuthClientInfo {
  revoked: boolean;
}

interface PendingRequest {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string | undefined;
  /** The identity shown as chosen; none with prompt=login. */
  preselected: IdentityKey | undefined;
  expiresAt: number;
}

interface CodeRecord {
  clientId: string;
  redirectUri: string;
  identity: IdentityKey;
  codeChallenge: string | undefined;
  expiresAt: number;
  used: boolean;
  /** The grant its exchange started, revoked if the code is presented again. */
  grantId: string | undefined;
}

interface Grant {
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

class OAuthFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

const random = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`;
const sha256 = (text: string) => createHash("sha256").update(text).digest();

/** Compares two secrets in constant time (by their digests, so lengths may differ). */
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

export function createSandboxOAuth(options: {
  clock: SandboxClock;
  redirectUri: string;
}): SandboxOAuth {
  const { clock } = options;
  const clients = new Map<string, ClientRecord>();
  const pending = new Map<string, PendingRequest>();
  const sessions = new Map<string, IdentityKey>();
  const consents = new Set<string>();
  const codes = new Map<string, CodeRecord>();
  const grants = new Map<string, Grant>();
  const accessTokens = new Map<string, AccessTokenRecord>();
  const refreshTokens = new Map<string, RefreshTokenRecord>();

  function registerClient(o: {
    name: string;
    redirectUri: string;
    id?: string;
    secret?: string;
  }): OAuthClientInfo {
    const info: OAuthClientInfo = {
      id: o.id ?? random("sandbox-client-").slice(0, 36),
      secret: o.secret ?? random("sandbox-secret-"),
      name: o.name,
      redirectUri: new URL(o.redirectUri).href,
    };
    clients.set(info.id, { ...info, revoked: false });
    return info;
  }

  const client = registerClient({
    id: SANDBOX_OAUTH_CLIENT.id,
    secret: SANDBOX_OAUTH_CLIENT.secret,
    name: SANDBOX_OAUTH_CLIENT.name,
    redirectUri: options.redirectUri,
  });

  /** Forgets what can never be valid again, so a long-running sandbox does not grow. */
  function prune(now: number) {
    for (const [key, p] of pending) if (p.expiresAt <= now) pending.delete(key);
    for (const [key, c] of codes) if (c.expiresAt + CODE_LIFETIME_MS <= now) codes.delete(key);
    for (const [key, t] of accessTokens) if (t.expiresAt <= now) accessTokens.delete(key);
  }

  function grantUsable(grantId: string): Grant | undefined {
    const grant = grants.get(grantId);
    if (!grant || grant.revoked) return undefined;
    const owner = clients.get(grant.clientId);
    if (!owner || owner.revoked) return undefined;
    return grant;
  }

  function identityFor(token: string): IdentityKey | null {
    const record = accessTokens.get(token);
    if (!record || record.revoked || clock.now() >= record.expiresAt) return null;
    return grantUsable(record.grantId)?.identity ?? null;
  }

  function issueTokens(grant: Grant) {
    const now = clock.now();
    prune(now);
    const accessToken = random("wfs_at_");
    const refreshToken = random("wfs_rt_");
    accessTokens.set(accessToken, {
      grantId: grant.id,
      expiresAt: now + ACCESS_TOKEN_LIFETIME_MS,
      revoked: false,
    });
    refreshTokens.set(refreshToken, { grantId: grant.id, active: true });
    return {
      token_type: "Bearer",
      expires_in: ACCESS_TOKEN_LIFETIME_MS / 1000,
      access_token: accessToken,
      refresh_token: refreshToken,
    };
  }

  // ---- /oauth/authorize -------------------------------------------------------------------

  function authorizeGet(req: IncomingMessage, res: ServerResponse, url: URL) {
    const q = url.searchParams;
    const clientId = q.get("client_id") ?? "";
    const redirectUri = q.get("redirect_uri") ?? "";
    const registered = clients.get(clientId);
    // Until the client and its redirect URL are known good, nothing is sent anywhere.
    if (!registered || registered.revoked) {
      return sendPage(
        res,
        400,
        "Unknown OAuth client",
        "<p>The <code>client_id</code> of this sign-in is not registered with the sandbox, or the client was revoked. Nothing was sent back to the application.</p>",
      );
    }
    if (redirectUri !== registered.redirectUri) {
      return sendPage(
        res,
        400,
        "Redirect URL not registered",
        `<p>The <code>redirect_uri</code> of this sign-in is not the one registered for ${escapeHtml(registered.name)} (${escapeHtml(registered.redirectUri)}). Nothing was sent back to the application.</p>`,
      );
    }
    const state = q.get("state") ?? undefined;
    const back = (params: Record<string, string>) =>
      redirectWith(res, redirectUri, { ...params, ...(state === undefined ? {} : { state }) });
    if (q.get("response_type") !== "code") {
      return back({
        error: "unsupported_response_type",
        error_description: "response_type must be code",
      });
    }
    const codeChallenge = q.get("code_challenge") ?? undefined;
    const method = q.get("code_challenge_method") ?? (codeChallenge ? "plain" : undefined);
    if (codeChallenge !== undefined && (method !== "S256" || !/^[\w-]{43}$/.test(codeChallenge))) {
      return back({
        error: "invalid_request",
        error_description: "PKCE needs code_challenge_method S256 and a 43-character challenge",
      });
    }
    if (codeChallenge === undefined && method !== undefined) {
      return back({ error: "invalid_request", error_description: "code_challenge is missing" });
    }
    const prompts = new Set((q.get("prompt") ?? "").split(" ").filter(Boolean));
    if ([...prompts].some((p) => p !== "none" && p !== "consent" && p !== "login")) {
      return back({
        error: "invalid_request",
        error_description: "prompt must be consent, login or none",
      });
    }
    const session = sessionIdentity(req);
    const consented = session !== undefined && consents.has(`${session}|${clientId}`);
    if (prompts.has("none")) {
      if (prompts.size > 1) {
        return back({
          error: "invalid_request",
          error_description: "prompt=none goes with no other value",
        });
      }
      if (session === undefined) return back({ error: "login_required" });
      if (!consented) return back({ error: "consent_required" });
    }
    const mustAsk = prompts.has("consent") || prompts.has("login") || !consented;
    if (!mustAsk && session !== undefined) {
      return back({ code: issueCode(clientId, redirectUri, session, codeChallenge) });
    }
    const now = clock.now();
    prune(now);
    const requestId = random("");
    const preselected = prompts.has("login") ? undefined : session;
    pending.set(requestId, {
      clientId,
      redirectUri,
      state,
      codeChallenge,
      preselected,
      expiresAt: now + PENDING_LIFETIME_MS,
    });
    sendPage(
      res,
      200,
      "Sign in to the sandbox platform",
      consentForm(registered, requestId, preselected, prompts.has("login")),
    );
  }

  async function authorizePost(req: IncomingMessage, res: ServerResponse) {
    const form = await readForm(req);
    const requestId = form.get("request") ?? "";
    const request = pending.get(requestId);
    pending.delete(requestId);
    if (!request || request.expiresAt <= clock.now()) {
      return sendPage(
        res,
        400,
        "This page has expired",
        "<p>This approval page was already answered or is too old. Start the sign-in again from the application.</p>",
      );
    }
    const registered = clients.get(request.clientId);
    const state = request.state;
    const back = (params: Record<string, string>) =>
      redirectWith(res, request.redirectUri, {
        ...params,
        ...(state === undefined ? {} : { state }),
      });
    if (!registered || registered.revoked) {
      return sendPage(
        res,
        400,
        "Unknown OAuth client",
        "<p>The client of this sign-in was revoked meanwhile. Nothing was sent back to the application.</p>",
      );
    }
    const decision = form.get("decision");
    if (decision === "deny") {
      return back({ error: "access_denied", error_description: "The person denied the request." });
    }
    const identity = form.get("identity");
    if (decision !== "approve" || (identity !== "full" && identity !== "limited")) {
      return sendPage(
        res,
        400,
        "Choose an identity",
        "<p>Choose whom to sign in as, then Approve or Deny. Start the sign-in again from the application.</p>",
      );
    }
    // This browser is now signed in as that identity and has approved this client.
    const sessionId = random("");
    sessions.set(sessionId, identity);
    consents.add(`${identity}|${registered.id}`);
    setCookie(res, {
      name: SESSION_COOKIE,
      value: sessionId,
      path: "/oauth",
      httpOnly: true,
      sameSite: "lax",
      maxAge: 86400,
    });
    back({ code: issueCode(registered.id, request.redirectUri, identity, request.codeChallenge) });
  }

  function issueCode(
    clientId: string,
    redirectUri: string,
    identity: IdentityKey,
    codeChallenge: string | undefined,
  ): string {
    const code = random("wfs_code_");
    codes.set(code, {
      clientId,
      redirectUri,
      identity,
      codeChallenge,
      expiresAt: clock.now() + CODE_LIFETIME_MS,
      used: false,
      grantId: undefined,
    });
    return code;
  }

  function sessionIdentity(req: IncomingMessage): IdentityKey | undefined {
    const sessionId = readCookie(req, SESSION_COOKIE);
    return sessionId ? sessions.get(sessionId) : undefined;
  }

  // ---- /oauth/token -----------------------------------------------------------------------

  async function token(req: IncomingMessage, res: ServerResponse) {
    const contentType = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
    if (contentType !== "application/x-www-form-urlencoded") {
      throw new OAuthFailure(
        400,
        "invalid_request",
        "The body must be application/x-www-form-urlencoded.",
      );
    }
    const form = await readForm(req);
    const caller = authenticateClient(req, form);
    const grantType = form.get("grant_type");
    if (grantType === "authorization_code") return sendJson(res, 200, exchangeCode(caller, form));
    if (grantType === "refresh_token") return sendJson(res, 200, refresh(caller, form));
    throw new OAuthFailure(
      400,
      "unsupported_grant_type",
      "grant_type must be authorization_code or refresh_token.",
    );
  }

  function authenticateClient(req: IncomingMessage, form: URLSearchParams): ClientRecord {
    let id = form.get("client_id") ?? undefined;
    let secret = form.get("client_secret") ?? undefined;
    // HTTP Basic also works; a Bearer header (the document's refresh example sends one) is ignored.
    const basic = /^Basic\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
    if (basic?.[1]) {
      if (secret !== undefined) {
        throw new OAuthFailure(400, "invalid_request", "Use one client authentication method.");
      }
      const decoded = Buffer.from(basic[1], "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      const basicId = decodeURIComponent(decoded.slice(0, Math.max(colon, 0)));
      if (id !== undefined && id !== basicId) {
        throw new OAuthFailure(400, "invalid_request", "client_id does not match.");
      }
      id = basicId;
      secret = decodeURIComponent(decoded.slice(colon + 1));
    }
    const registered = id === undefined ? undefined : clients.get(id);
    if (!registered || secret === undefined || !sameSecret(secret, registered.secret)) {
      throw new OAuthFailure(401, "invalid_client", "Unknown client or wrong client secret.");
    }
    if (registered.revoked) {
      throw new OAuthFailure(401, "invalid_client", "This client has been revoked.");
    }
    return registered;
  }

  function exchangeCode(caller: ClientRecord, form: URLSearchParams) {
    const code = form.get("code") ?? "";
    const record = codes.get(code);
    if (!record) throw new OAuthFailure(400, "invalid_grant", "Unknown authorization code.");
    if (record.used) {
      // Presented twice: someone else may hold it. Whatever it granted stops working.
      if (record.grantId) revokeGrant(record.grantId);
      throw new OAuthFailure(400, "invalid_grant", "The authorization code was already used.");
    }
    if (clock.now() >= record.expiresAt) {
      throw new OAuthFailure(
        400,
        "invalid_grant",
        "The authorization code has expired (codes last 10 minutes).",
      );
    }
    if (record.clientId !== caller.id) {
      throw new OAuthFailure(400, "invalid_grant", "The code was issued to another client.");
    }
    if (form.get("redirect_uri") !== record.redirectUri) {
      throw new OAuthFailure(
        400,
        "invalid_grant",
        "redirect_uri differs from the one of the authorization request.",
      );
    }
    if (record.codeChallenge !== undefined) {
      const verifier = form.get("code_verifier") ?? "";
      const computed = createHash("sha256").update(verifier).digest("base64url");
      if (!/^[\w.~-]{43,128}$/.test(verifier) || !sameSecret(computed, record.codeChallenge)) {
        throw new OAuthFailure(400, "invalid_grant", "The PKCE code_verifier does not match.");
      }
    }
    record.used = true;
    const grant: Grant = {
      id: random("grant_"),
      clientId: caller.id,
      identity: record.identity,
      firstGrantAt: clock.now(),
      revoked: false,
    };
    grants.set(grant.id, grant);
    record.grantId = grant.id;
    return issueTokens(grant);
  }

  function refresh(caller: ClientRecord, form: URLSearchParams) {
    const presented = form.get("refresh_token") ?? "";
    const record = refreshTokens.get(presented);
    if (!record?.active) {
      throw new OAuthFailure(400, "invalid_grant", "Unknown, used or revoked refresh token.");
    }
    const grant = grantUsable(record.grantId);
    if (!grant || grant.clientId !== caller.id) {
      throw new OAuthFailure(400, "invalid_grant", "Unknown, used or revoked refresh token.");
    }
    if (clock.now() >= grant.firstGrantAt + REFRESH_PERIOD_MS) {
      throw new OAuthFailure(
        400,
        "invalid_grant",
        "The refresh period has ended (90 days from the first sign-in). Sign in again.",
      );
    }
    // Rotation: the presented refresh token is spent; the answer carries the next one.
    record.active = false;
    refreshTokens.delete(presented);
    return issueTokens(grant);
  }

  function revokeGrant(grantId: string) {
    const grant = grants.get(grantId);
    if (grant) grant.revoked = true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    try {
      if (url.pathname === "/oauth/authorize" && req.method === "GET") {
        return authorizeGet(req, res, url);
      }
      if (url.pathname === "/oauth/authorize" && req.method === "POST") {
        return await authorizePost(req, res);
      }
      if (url.pathname === "/oauth/token" && req.method === "POST") return await token(req, res);
      if (url.pathname === "/oauth/authorize" || url.pathname === "/oauth/token") {
        res.setHeader("allow", url.pathname === "/oauth/token" ? "POST" : "GET, POST");
        throw new OAuthFailure(405, "invalid_request", `Method ${req.method ?? "?"} not allowed.`);
      }
      throw new OAuthFailure(404, "not_found", "Not found.");
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof OAuthFailure) {
        sendJson(res, error.status, { error: error.error, error_description: error.description });
        return;
      }
      sendJson(res, 500, { error: "server_error", error_description: "Internal server error." });
    }
  }

  return {
    client,
    registerClient,
    revokeClient(clientId) {
      const record = clients.get(clientId);
      if (!record) throw new Error(`No OAuth client ${clientId} is registered.`);
      record.revoked = true;
    },
    revokeToken(tokenValue) {
      const access = accessTokens.get(tokenValue);
      if (access) access.revoked = true;
      const refreshRecord = refreshTokens.get(tokenValue);
      if (refreshRecord) refreshRecord.active = false;
    },
    identityFor,
    handle,
  };
}

function consentForm(
  client: OAuthClientInfo,
  requestId: string,
  preselected: IdentityKey | undefined,
  login: boolean,
): string {
  const choice = (key: IdentityKey, what: string) => {
    const who = IDENTITIES[key].user;
    return `<label><input type="radio" name="identity" id="identity-${key}" value="${key}"${preselected === key ? " checked" : ""} required> <strong>${escapeHtml(who.name)}</strong> &lt;${escapeHtml(who.email)}&gt; (${key}): ${escapeHtml(what)}</label>`;
  };
  return [
    `<p><strong>${escapeHtml(client.name)}</strong> wants to use the sandbox platform's API as you. After you answer, your browser goes back to <code>${escapeHtml(client.redirectUri)}</code>.</p>`,
    '<form method="post" action="/oauth/authorize">',
    `<input type="hidden" name="request" value="${escapeHtml(requestId)}">`,
    `<fieldset><legend>${login ? "Sign in as" : "Signed in as"}</legend>`,
    choice("full", "sees all companies and every field; may terminate, cancel and create hires."),
    choice("limited", "sees Nordlys Energi only; rates hidden; may submit timesheets."),
    "</fieldset>",
    '<p><button type="submit" name="decision" value="approve" id="approve">Approve</button> ',
    '<button type="submit" name="decision" value="deny" id="deny" formnovalidate>Deny</button></p>',
    "</form>",
    "<p><small>Sandbox: sample data only; nothing here is real.</small></p>",
  ].join("\n");
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    pragma: "no-cache",
  });
  res.end(text);
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        reject(new OAuthFailure(413, "invalid_request", "The request body is too large."));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))));
    req.on("error", reject);
  });
}
