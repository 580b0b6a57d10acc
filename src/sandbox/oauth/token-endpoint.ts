// The sandbox's token endpoint, POST /oauth/token: authorization_code (single use, bound to
// client_id and redirect_uri, 10 minutes, PKCE S256 when a challenge was sent) and refresh_token
// (rotating, for 90 days from the first grant), for a client authenticated by its secret.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { OAuthFailure, readForm, sendJson } from "./http.js";
import {
  type ClientRecord,
  type Grant,
  type OAuthRecords,
  REFRESH_PERIOD_MS,
  random,
  sameSecret,
} from "./records.js";

export async function token(records: OAuthRecords, req: IncomingMessage, res: ServerResponse) {
  const contentType = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (contentType !== "application/x-www-form-urlencoded") {
    throw new OAuthFailure(
      400,
      "invalid_request",
      "The body must be application/x-www-form-urlencoded.",
    );
  }
  const form = await readForm(req);
  const caller = authenticateClient(records, req, form);
  const grantType = form.get("grant_type");
  if (grantType === "authorization_code")
    return sendJson(res, 200, exchangeCode(records, caller, form));
  if (grantType === "refresh_token") return sendJson(res, 200, refresh(records, caller, form));
  throw new OAuthFailure(
    400,
    "unsupported_grant_type",
    "grant_type must be authorization_code or refresh_token.",
  );
}

function authenticateClient(
  records: OAuthRecords,
  req: IncomingMessage,
  form: URLSearchParams,
): ClientRecord {
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
  const registered = id === undefined ? undefined : records.clients.get(id);
  if (!registered || secret === undefined || !sameSecret(secret, registered.secret)) {
    throw new OAuthFailure(401, "invalid_client", "Unknown client or wrong client secret.");
  }
  if (registered.revoked) {
    throw new OAuthFailure(401, "invalid_client", "This client has been revoked.");
  }
  return registered;
}

function exchangeCode(records: OAuthRecords, caller: ClientRecord, form: URLSearchParams) {
  const code = form.get("code") ?? "";
  const record = records.codes.get(code);
  if (!record) throw new OAuthFailure(400, "invalid_grant", "Unknown authorization code.");
  if (record.used) {
    // Presented twice: someone else may hold it. Whatever it granted stops working.
    if (record.grantId) records.revokeGrant(record.grantId);
    throw new OAuthFailure(400, "invalid_grant", "The authorization code was already used.");
  }
  if (records.clock.now() >= record.expiresAt) {
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
    firstGrantAt: records.clock.now(),
    revoked: false,
  };
  records.grants.set(grant.id, grant);
  record.grantId = grant.id;
  return records.issueTokens(grant);
}

function refresh(records: OAuthRecords, caller: ClientRecord, form: URLSearchParams) {
  const presented = form.get("refresh_token") ?? "";
  const record = records.refreshTokens.get(presented);
  if (!record?.active) {
    throw new OAuthFailure(400, "invalid_grant", "Unknown, used or revoked refresh token.");
  }
  const grant = records.grantUsable(record.grantId);
  if (!grant || grant.clientId !== caller.id) {
    throw new OAuthFailure(400, "invalid_grant", "Unknown, used or revoked refresh token.");
  }
  if (records.clock.now() >= grant.firstGrantAt + REFRESH_PERIOD_MS) {
    throw new OAuthFailure(
      400,
      "invalid_grant",
      "The refresh period has ended (90 days from the first sign-in). Sign in again.",
    );
  }
  // Rotation: the presented refresh token is spent; the answer carries the next one.
  record.active = false;
  records.refreshTokens.delete(presented);
  return records.issueTokens(grant);
}
