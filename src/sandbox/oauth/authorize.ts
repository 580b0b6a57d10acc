// The sandbox's consent pages: GET /oauth/authorize checks the request and shows the page (or
// redirects straight back when this browser already approved this client); POST answers it.
import type { IncomingMessage, ServerResponse } from "node:http";
import { readCookie, setCookie } from "../../web/cookies.js";
import { escapeHtml, redirectWith, sendPage } from "../../web/pages.js";
import { IDENTITIES, type IdentityKey } from "../context.js";
import { readForm } from "./http.js";
import { type OAuthClientInfo, type OAuthRecords, PENDING_LIFETIME_MS, random } from "./records.js";

const SESSION_COOKIE = "wf_sandbox_session";

export function authorizeGet(
  records: OAuthRecords,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) {
  const q = url.searchParams;
  const clientId = q.get("client_id") ?? "";
  const redirectUri = q.get("redirect_uri") ?? "";
  const registered = records.clients.get(clientId);
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
  const session = sessionIdentity(records, req);
  const consented = session !== undefined && records.consents.has(`${session}|${clientId}`);
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
    return back({ code: records.issueCode(clientId, redirectUri, session, codeChallenge) });
  }
  const now = records.clock.now();
  records.prune(now);
  const requestId = random("");
  const preselected = prompts.has("login") ? undefined : session;
  records.pending.set(requestId, {
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

export async function authorizePost(
  records: OAuthRecords,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const form = await readForm(req);
  const requestId = form.get("request") ?? "";
  const request = records.pending.get(requestId);
  records.pending.delete(requestId);
  if (!request || request.expiresAt <= records.clock.now()) {
    return sendPage(
      res,
      400,
      "This page has expired",
      "<p>This approval page was already answered or is too old. Start the sign-in again from the application.</p>",
    );
  }
  const registered = records.clients.get(request.clientId);
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
  records.sessions.set(sessionId, identity);
  records.consents.add(`${identity}|${registered.id}`);
  setCookie(res, {
    name: SESSION_COOKIE,
    value: sessionId,
    path: "/oauth",
    httpOnly: true,
    sameSite: "lax",
    maxAge: 86400,
  });
  back({
    code: records.issueCode(registered.id, request.redirectUri, identity, request.codeChallenge),
  });
}

function sessionIdentity(records: OAuthRecords, req: IncomingMessage): IdentityKey | undefined {
  const sessionId = readCookie(req, SESSION_COOKIE);
  return sessionId ? records.sessions.get(sessionId) : undefined;
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
