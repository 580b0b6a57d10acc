// The sandbox as an OAuth 2.0 authorization server, after the interface document's section 5:
//   GET  /oauth/authorize  consent page (pick a sandbox identity, Approve / Deny), or a redirect
//                          straight back when this browser already approved this client
//   POST /oauth/authorize  the page's form: redirect with `code` and the same `state`, or with
//                          `error=access_denied`
//   POST /oauth/token      authorization_code and refresh_token; access tokens last 15 days
// A revoked client gets no new tokens and its tokens stop authenticating. Time is the sandbox's
// own clock, which tests move forward. Nothing here logs a token, code or secret.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { IdentityKey } from "../context.js";
import { authorizeGet, authorizePost } from "./authorize.js";
import type { SandboxClock } from "./clock.js";
import { OAuthFailure, sendJson } from "./http.js";
import { type OAuthClientInfo, OAuthRecords } from "./records.js";
import { token } from "./token-endpoint.js";

export { createSandboxClock, type SandboxClock } from "./clock.js";
export type { OAuthClientInfo } from "./records.js";

/** The client every sandbox has, for local use; `workforce-mcp sandbox` prints it. */
const SANDBOX_OAUTH_CLIENT = {
  id: "sandbox-workforce-mcp",
  secret: "sandbox-client-secret-6d2f81c9a4",
  name: "workforce-mcp (local)",
} as const;

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

export function createSandboxOAuth(options: {
  clock: SandboxClock;
  redirectUri: string;
}): SandboxOAuth {
  const records = new OAuthRecords(options.clock);
  const client = records.registerClient({
    id: SANDBOX_OAUTH_CLIENT.id,
    secret: SANDBOX_OAUTH_CLIENT.secret,
    name: SANDBOX_OAUTH_CLIENT.name,
    redirectUri: options.redirectUri,
  });

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    try {
      if (url.pathname === "/oauth/authorize" && req.method === "GET") {
        return authorizeGet(records, req, res, url);
      }
      if (url.pathname === "/oauth/authorize" && req.method === "POST") {
        return await authorizePost(records, req, res);
      }
      if (url.pathname === "/oauth/token" && req.method === "POST") {
        return await token(records, req, res);
      }
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
    registerClient: (o) => records.registerClient(o),
    revokeClient: (clientId) => records.revokeClient(clientId),
    revokeToken: (tokenValue) => records.revokeToken(tokenValue),
    identityFor: (tokenValue) => records.identityFor(tokenValue),
    handle,
  };
}
