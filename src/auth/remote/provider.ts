// The team server as an OAuth authorization server for MCP clients (`--auth oauth`), behind the
// SDK's handlers (metadata, registration, authorize, token, revoke, bearer check). A sign-in:
//   1. /authorize (SDK): the client is known, PKCE S256 is there, the resource is this server's;
//      this server asks the person whether that client may act as them (its own consent page,
//      bound to the browser by a cookie: the platform's consent names this server, not the client);
//   2. /oauth/consent: approved, the browser goes to the platform's /oauth/authorize with this
//      server's own client id, its callback, PKCE and an unguessable state;
//   3. /oauth/callback: the platform's code is exchanged, `viewer` says who signed in, the token
//      pair is sealed under a new grant id, and the browser returns to the client with a code;
//   4. /token (SDK): the code (single use, PKCE-checked, bound to client, redirect URL and
//      resource) becomes this server's own opaque access and refresh tokens, of which the store
//      keeps only SHA-256 digests, never outliving the platform's.
// Everything lives in the shared state store, sealed, so any replica can take any step.
import { randomBytes } from "node:crypto";
import type {
  AuthInfo,
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from "@modelcontextprotocol/server";
import type {
  AuthorizationParams,
  OAuthRegisteredClientsStore,
  OAuthServerProvider,
} from "@modelcontextprotocol/server-legacy/auth";
import {
  InvalidGrantError,
  InvalidTargetError,
  InvalidTokenError,
  ServerError,
} from "@modelcontextprotocol/server-legacy/auth";
import type { Request, Response } from "express";
import { AuthenticationError, isPlatformError } from "../../client/errors.js";
import type { Logger } from "../../logger.js";
import { SharedStateUnavailableError } from "../../state/store.js";
import { escapeHtml, redirectWith, sendPage } from "../../web/pages.js";
import {
  authorizationRequest,
  exchangeCode,
  type OAuthClientSettings,
  TokenEndpointError,
  validateCallback,
} from "../oauth-client.js";
import { signedInPair } from "../renewal.js";
import { SIGN_IN_PERIOD_MS, type SignInIdentity } from "../store.js";
import type { AuthorizeLocals } from "./authorize-checks.js";
import { bindBrowser, bindingName, sameBrowser } from "./browser-binding.js";
import {
  ClientMetadataDocuments,
  type ClientMetadataOptions,
  clientIdHost,
  isClientIdMetadataUrl,
} from "./client-metadata.js";
import type { PlatformGrant, PlatformGrants } from "./grants.js";
import { whoIs } from "./personal-tokens.js";
import { checkClientMetadata, isLoopbackUri } from "./redirect-uris.js";
import { digestKey, type SealedStore } from "./sealed-store.js";

const MINUTE = 60_000;
/** From /authorize to the platform's answer: the consent page and the platform's sign-in. */
const PENDING_MS = 10 * MINUTE;
const CODE_MS = 5 * MINUTE;
/** This server's access tokens; never longer than the platform's access token. */
const ACCESS_TOKEN_MAX_MS = 60 * MINUTE;
/** This server's refresh tokens (rotated on use); never past the platform's 90 days. */
const REFRESH_TOKEN_MAX_MS = 30 * 24 * 60 * MINUTE;
/** A registered client is forgotten this long after its last completed sign-in. */
const CLIENT_TTL_MS = SIGN_IN_PERIOD_MS;
/** A registration never used for a sign-in is forgotten within a day. */
const UNUSED_CLIENT_TTL_MS = 24 * 60 * MINUTE;
/** How long a spent code is remembered, so that its replay can revoke what it issued. */
const SPENT_CODE_MS = 2 * CODE_MS;

export interface TeamSignInOptions {
  store: SealedStore;
  grants: PlatformGrants;
  /** This server's base address (an origin). */
  publicUrl: string;
  /** The resource its tokens are for: <publicUrl>/mcp. */
  resource: URL;
  /** This server's OAuth client at the platform, and its callback (<publicUrl>/oauth/callback). */
  upstream: OAuthClientSettings & { redirectUri: string };
  apiUrl: string;
  logger: Logger;
  timeoutMs: number;
  now?: () => number;
  /** How Client ID Metadata Documents are fetched (tests allow loopback and their own CA). */
  clientMetadata?: ClientMetadataOptions;
}

/**
 * A Client ID Metadata Document that failed is not fetched again for this long, so that requests
 * naming it cannot make the server fetch it in a loop. The draft asks not to cache error answers;
 * a minute is the least that still bounds the fetches.
 */
const FAILED_DOCUMENT_MS = MINUTE;

/** What a consent page stands for, until the person answers it. */
interface PendingConsent {
  clientId: string;
  clientName: string | undefined;
  redirectUri: string;
  codeChallenge: string;
  state: string | undefined;
  scopes: string[];
  resource: string;
  /** Whether the client named redirect_uri itself: then /token must name it too. */
  redirectUriGiven: boolean;
  /** SHA-256 (hex) of the cookie value set with the page. */
  browser: string;
}

/** An approved request, while the person signs in at the platform. */
type PendingSignIn = Omit<PendingConsent, "clientName"> & {
  upstreamState: string;
  codeVerifier: string;
};

interface CodeRecord {
  clientId: string;
  redirectUri: string;
  redirectUriGiven: boolean;
  codeChallenge: string;
  scopes: string[];
  resource: string;
  grantId: string;
}

/** A code or refresh token already used: presented again, the sign-in it belongs to ends. */
interface SpentRecord {
  clientId: string;
  grantId: string;
}

interface TokenRecord {
  clientId: string;
  grantId: string;
  scopes: string[];
  resource: string;
  expiresAt: number;
}

/** Where the person's answer to the consent page is posted. */
export const CONSENT_PATH = "/oauth/consent";
/** Where the platform sends the browser back; register <publicUrl>/oauth/callback there. */
export const CALLBACK_PATH = "/oauth/callback";

const random = (prefix = "") => `${prefix}${randomBytes(32).toString("base64url")}`;

/** The consent page's cookie, read back when its form is posted. */
const consentBinding = (requestId: string) => bindingName("wfm_consent_", requestId);

/** The approving browser's cookie, read back when the platform sends that browser back. */
const callbackBinding = (upstreamState: string) => bindingName("wfm_signin_", upstreamState);

/**
 * Whether a posted answer comes from this server's own page, as the browser says (OWASP CSRF
 * prevention: Origin and Fetch Metadata). Browsers name the page's origin in Origin (the pages'
 * referrer policy, same-origin, lets them) and mark the post `Sec-Fetch-Site: same-origin`; neither
 * can be set by a page's script. Another site, or an opaque origin ("null": a sandboxed frame, a
 * data: page) that the browser does not vouch for as same-origin, is refused. A request with
 * neither header is no browser's form post: it still needs the page's cookie.
 */
function postedFromOwnPage(req: Request, ownOrigin: string): boolean {
  const site = req.header("sec-fetch-site");
  if (site !== undefined && site !== "same-origin") return false;
  const origin = req.header("origin");
  if (origin === undefined || origin === ownOrigin) return true;
  return origin === "null" && site === "same-origin";
}

/** As the SDK's bearer check compares them: no fragment, one trailing slash aside. */
function comparableResource(value: string): string {
  const hash = value.indexOf("#");
  return (hash === -1 ? value : value.slice(0, hash)).replace(/\/$/, "");
}

export class TeamSignIn implements OAuthServerProvider {
  readonly clientsStore: OAuthRegisteredClientsStore;
  private readonly now: () => number;

  constructor(private readonly options: TeamSignInOptions) {
    this.now = options.now ?? Date.now;
    const { store } = options;
    const documents = new ClientMetadataDocuments({
      failureCacheMs: FAILED_DOCUMENT_MS,
      ...options.clientMetadata,
    });
    this.clientsStore = {
      // An https URL as client_id is a Client ID Metadata Document, the preferred way in; any other
      // client_id is a registration made here.
      getClient: (clientId) =>
        isClientIdMetadataUrl(clientId)
          ? documents.getClient(clientId)
          : store.get<OAuthClientInformationFull>(`client:${clientId}`),
      registerClient: async (client) => {
        // The SDK has generated client_id (and a secret for confidential clients); the redirect
        // URLs and sizes are held to this server's rules (redirect-uris.ts).
        const full = checkClientMetadata(client as OAuthClientInformationFull);
        await store.set(`client:${full.client_id}`, full, UNUSED_CLIENT_TTL_MS);
        options.logger.info("An MCP client registered", {
          client: full.client_name ?? "(no name)",
        });
        return full;
      },
    };
  }

  // ---- /authorize: this server's consent page --------------------------------------------------

  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Response,
  ): Promise<void> {
    const resource = this.audience(params.resource?.href);
    const { store, publicUrl } = this.options;
    const requestId = random();
    const pending: PendingConsent = {
      clientId: client.client_id,
      clientName: client.client_name,
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      state: params.state,
      scopes: params.scopes ?? [],
      resource,
      redirectUriGiven: (res.locals as AuthorizeLocals).redirectUriGiven !== false,
      browser: bindBrowser(res, consentBinding(requestId), PENDING_MS),
    };
    await store.set(digestKey("consent:", requestId), pending, PENDING_MS);
    const name = client.client_name ? escapeHtml(client.client_name) : "An MCP client";
    const target = escapeHtml(params.redirectUri);
    const documentHost = clientIdHost(client.client_id);
    const identified = documentHost
      ? ` (as described at <code>${escapeHtml(documentHost)}</code>)`
      : " (registered with this server by the application itself, so the name is its own claim)";
    // MCP authorization: a document's client that returns only to this computer could be any
    // program on it, so the person is told.
    const localOnly =
      documentHost && client.redirect_uris.every(isLoopbackUri)
        ? "<p><strong>It returns to a program on your own computer</strong>, which any program there could claim to be.</p>"
        : "";
    sendPage(
      res,
      200,
      "Allow access to the workforce platform?",
      [
        `<p><strong>${name}</strong>${identified} asks to use the workforce platform as you, through this server (${escapeHtml(new URL(publicUrl).host)}).</p>`,
        `<p>If you continue, you sign in at the platform; afterwards your browser goes back to <code>${target}</code> (${escapeHtml(new URL(params.redirectUri).host)}).</p>`,
        localOnly,
        "<p>Continue only if you started this sign-in from your assistant just now.</p>",
        `<form method="post" action="${CONSENT_PATH}">`,
        `<input type="hidden" name="request" value="${escapeHtml(requestId)}">`,
        '<p><button type="submit" name="decision" value="approve" id="approve">Continue to the platform</button>',
        '<button type="submit" name="decision" value="deny" id="deny">Cancel</button></p>',
        "</form>",
      ].join("\n"),
    );
  }

  /** POST /oauth/consent: the person's answer; on approval, off to the platform's sign-in. */
  async consent(req: Request, res: Response): Promise<void> {
    const { store, upstream, publicUrl } = this.options;
    if (!postedFromOwnPage(req, new URL(publicUrl).origin)) {
      return sendPage(
        res,
        403,
        "Not allowed",
        "<p>This answer did not come from this server's page.</p>",
      );
    }
    const requestId = typeof req.body?.request === "string" ? req.body.request : "";
    const pending = requestId
      ? await store.take<PendingConsent>(digestKey("consent:", requestId))
      : undefined;
    if (!pending) {
      return sendPage(
        res,
        400,
        "This page has expired",
        "<p>This page was already answered or is too old. Start the sign-in again from your assistant.</p>",
      );
    }
    if (!sameBrowser(req, res, consentBinding(requestId), pending.browser)) {
      // Someone else's consent page, posted from this browser: nothing goes anywhere.
      return sendPage(
        res,
        400,
        "Sign-in not continued",
        "<p>This answer does not belong to a page this browser was shown. Start the sign-in again from your assistant.</p>",
      );
    }
    const back = (params: Record<string, string>) =>
      redirectWith(res, pending.redirectUri, {
        ...params,
        ...(pending.state === undefined ? {} : { state: pending.state }),
        // RFC 9207 §2: every answer names its issuer, so a client can tell it from a mix-up.
        iss: new URL(this.options.publicUrl).href,
      });
    if (req.body?.decision !== "approve") {
      return back({
        error: "access_denied",
        error_description: "The person cancelled the sign-in.",
      });
    }
    const request = await authorizationRequest(upstream);
    const { clientName: _name, ...rest } = pending;
    const signIn: PendingSignIn = {
      ...rest,
      upstreamState: request.state,
      codeVerifier: request.codeVerifier,
      // Only this browser may bring the platform's answer back: a platform link sent to someone
      // else (who approved this server before, so the platform asks nothing) goes nowhere.
      browser: bindBrowser(res, callbackBinding(request.state), PENDING_MS),
    };
    await store.set(digestKey("signin:", request.state), signIn, PENDING_MS);
    res.set({ "cache-control": "no-store", "referrer-policy": "no-referrer" });
    res.redirect(302, request.url.href);
  }

  /** GET /oauth/callback: the platform's answer. */
  async callback(req: Request, res: Response): Promise<void> {
    const { store, upstream, logger, grants, timeoutMs } = this.options;
    const url = new URL(req.originalUrl, this.options.publicUrl);
    const upstreamState = url.searchParams.get("state");
    const pending = upstreamState
      ? await store.take<PendingSignIn>(digestKey("signin:", upstreamState))
      : undefined;
    if (!pending || !upstreamState) {
      return sendPage(
        res,
        400,
        "Sign-in not completed",
        "<p>This answer from the platform does not belong to a sign-in in progress (it expired after 10 minutes, or was already used). Start the sign-in again from your assistant.</p>",
      );
    }
    if (!sameBrowser(req, res, callbackBinding(upstreamState), pending.browser)) {
      logger.warning("A platform sign-in came back in a browser that did not approve it; refused");
      return sendPage(
        res,
        400,
        "Sign-in not completed",
        "<p>This sign-in was approved in another browser, so it does not continue here and nothing was sent to any application. If you did not start it yourself, someone may have sent you this link; ignore it. To connect your own assistant, start the sign-in from it.</p>",
      );
    }
    const back = (params: Record<string, string>) =>
      redirectWith(res, pending.redirectUri, {
        ...params,
        ...(pending.state === undefined ? {} : { state: pending.state }),
        // RFC 9207 §2: every answer names its issuer, so a client can tell it from a mix-up.
        iss: new URL(this.options.publicUrl).href,
      });
    const error = url.searchParams.get("error");
    if (error !== null) {
      return back(
        error === "access_denied"
          ? { error: "access_denied", error_description: "The sign-in was denied at the platform." }
          : {
              error: "server_error",
              error_description: "The platform did not complete the sign-in.",
            },
      );
    }
    let tokens: Awaited<ReturnType<typeof exchangeCode>>;
    let identity: SignInIdentity;
    const started = this.now();
    try {
      const validated = validateCallback(upstream, url, upstreamState);
      tokens = await exchangeCode(upstream, validated, pending.codeVerifier, timeoutMs);
      identity = await whoIs(this.options.apiUrl, tokens.accessToken, this.options.timeoutMs);
    } catch (failure) {
      const reason =
        failure instanceof TokenEndpointError || isPlatformError(failure)
          ? failure.message
          : "the platform's answer has no code";
      logger.warning("A sign-in at the platform failed", { reason });
      return back({
        error: "server_error",
        error_description: `The sign-in at the platform failed: ${reason}`.slice(0, 300),
      });
    }
    const grant: PlatformGrant = {
      id: random("g_"),
      clientId: pending.clientId,
      identity,
      ...signedInPair(tokens, started),
    };
    await grants.save(grant);
    const code = random("wfm_code_");
    const record: CodeRecord = {
      clientId: pending.clientId,
      redirectUri: pending.redirectUri,
      redirectUriGiven: pending.redirectUriGiven,
      codeChallenge: pending.codeChallenge,
      scopes: pending.scopes,
      resource: pending.resource,
      grantId: grant.id,
    };
    await store.set(digestKey("code:", code), record, CODE_MS);
    logger.info("Signed in at the platform", { as: identity.name, grant: grant.id.slice(0, 8) });
    back({ code });
  }

  // ---- /token ----------------------------------------------------------------------------------

  async challengeForAuthorizationCode(
    client: OAuthClientInformationFull,
    authorizationCode: string,
  ): Promise<string> {
    const record = await this.read(() =>
      this.options.store.get<CodeRecord>(digestKey("code:", authorizationCode)),
    );
    // The SDK asks here first, so a replayed code is caught here.
    if (!record || record.clientId !== client.client_id) {
      return this.refuseCode(client, authorizationCode);
    }
    return record.codeChallenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    authorizationCode: string,
    _codeVerifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    // The SDK has checked the PKCE verifier against the challenge; taking it makes it single-use.
    const record = await this.read(() =>
      this.options.store.take<CodeRecord>(digestKey("code:", authorizationCode)),
    );
    if (!record || record.clientId !== client.client_id) {
      return this.refuseCode(client, authorizationCode);
    }
    await this.spend("spent-code:", authorizationCode, record, SPENT_CODE_MS);
    if (redirectUri === undefined && record.redirectUriGiven) {
      throw new InvalidGrantError(
        "redirect_uri is required: the authorization request named one, so the token request must name the same.",
      );
    }
    if (redirectUri !== undefined && redirectUri !== record.redirectUri) {
      throw new InvalidGrantError(
        "redirect_uri differs from the one of the authorization request.",
      );
    }
    if (resource !== undefined && this.audience(resource.href) !== record.resource) {
      throw new InvalidTargetError(
        "The resource differs from the one of the authorization request.",
      );
    }
    const grant = await this.read(() => this.options.grants.get(record.grantId));
    if (!grant) throw new InvalidGrantError("The sign-in at the platform has ended.");
    const tokens = await this.issue(client.client_id, grant, record.resource, record.scopes);
    await this.keepRegistration(client);
    return tokens;
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    _scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    const name = digestKey("refresh:", refreshToken);
    // Rotation: taking it spends it, once, whichever replica is asked.
    const record = await this.read(() => this.options.store.take<TokenRecord>(name));
    if (!record || record.expiresAt <= this.now() || record.clientId !== client.client_id) {
      await this.endIfSpent(
        "spent-refresh:",
        refreshToken,
        client,
        "a refresh token was used twice",
      );
      throw new InvalidGrantError("The refresh token is unknown, expired or already used.");
    }
    const spentName = await this.spend(
      "spent-refresh:",
      refreshToken,
      record,
      record.expiresAt - this.now(),
    );
    if (resource !== undefined && this.audience(resource.href) !== record.resource) {
      throw new InvalidTargetError("The refresh token was not issued for that resource.");
    }
    let grant: PlatformGrant;
    try {
      // Renewed at the platform first when due, so the new access token does not outlive it.
      grant = await this.options.grants.fresh(record.grantId);
    } catch (error) {
      if (error instanceof AuthenticationError) {
        throw new InvalidGrantError("The sign-in at the platform has ended; sign in again.");
      }
      // Not the client's fault: give its refresh token back for a later try.
      await this.options.store.delete(spentName).catch(() => {});
      await this.options.store.set(name, record, record.expiresAt - this.now()).catch(() => {});
      throw new ServerError(
        `Could not renew the sign-in at the platform: ${error instanceof Error ? error.message : "it failed"}`,
      );
    }
    return this.issue(client.client_id, grant, record.resource, record.scopes);
  }

  // ---- the bearer check of every MCP request -----------------------------------------------------

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const record = await this.read(() =>
      this.options.store.get<TokenRecord>(digestKey("access:", token)),
    );
    if (!record || record.expiresAt <= this.now()) {
      throw new InvalidTokenError("The access token is unknown, expired or revoked.");
    }
    const grant = await this.read(() => this.options.grants.get(record.grantId));
    if (!grant) {
      throw new InvalidTokenError("The sign-in at the platform has ended; sign in again.");
    }
    return {
      token,
      clientId: record.clientId,
      scopes: record.scopes,
      expiresAt: Math.floor(record.expiresAt / 1000),
      resource: new URL(record.resource),
      extra: { grantId: grant.id, identity: grant.identity },
    };
  }

  async revokeToken(
    client: OAuthClientInformationFull,
    request: OAuthTokenRevocationRequest,
  ): Promise<void> {
    const { store, grants } = this.options;
    // RFC 7009 §2.1: the hint only says where to look first; both kinds are looked up.
    for (const kind of ["access:", "refresh:"]) {
      const name = digestKey(kind, request.token);
      const record = await this.read(() => store.get<TokenRecord>(name));
      // RFC 7009 §2.2: another client's token, or an unknown one, is ignored without saying so.
      if (record?.clientId !== client.client_id) continue;
      await this.read(() => store.delete(name));
      if (kind === "refresh:") {
        // RFC 7009 §2.1: revoking a refresh token revokes the access tokens of its grant too; the
        // sealed platform tokens are deleted with the grant.
        await this.read(() => grants.end(record.grantId, "the client revoked its refresh token"));
      }
      return;
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** Remembers a code or refresh token as used; returns the record's name. */
  private async spend(
    prefix: string,
    secret: string,
    record: { clientId: string; grantId: string },
    ttlMs: number,
  ): Promise<string> {
    const name = digestKey(prefix, secret);
    const spent: SpentRecord = { clientId: record.clientId, grantId: record.grantId };
    await this.read(() => this.options.store.set(name, spent, ttlMs));
    return name;
  }

  /**
   * A used code or refresh token presented again means two parties hold it: the sign-in it
   * belongs to ends, with every token issued from it (RFC 9700 §4.14.2, OAuth 2.1 §4.1.3).
   */
  /** An unknown code: ends what it granted if it was spent before (a replay), and refuses it. */
  private async refuseCode(client: OAuthClientInformationFull, code: string): Promise<never> {
    await this.endIfSpent("spent-code:", code, client, "an authorization code was used twice");
    throw new InvalidGrantError("The authorization code is unknown, expired or already used.");
  }

  private async endIfSpent(
    prefix: string,
    secret: string,
    client: OAuthClientInformationFull,
    reason: string,
  ): Promise<void> {
    const { store, grants, logger } = this.options;
    const spent = await this.read(() => store.get<SpentRecord>(digestKey(prefix, secret)));
    if (!spent || spent.clientId !== client.client_id) return;
    logger.warning("A used credential was presented again; the sign-in it belongs to is revoked", {
      reason,
      grant: spent.grantId.slice(0, 8),
    });
    await this.read(() => grants.end(spent.grantId, reason));
  }

  /** A registration that completed a sign-in is kept as long as a sign-in may last. */
  private async keepRegistration(client: OAuthClientInformationFull): Promise<void> {
    // A Client ID Metadata Document's client is not stored here: its document is.
    if (isClientIdMetadataUrl(client.client_id)) return;
    const { store } = this.options;
    await this.read(() => store.set(`client:${client.client_id}`, client, CLIENT_TTL_MS));
  }

  /** Whether a resource indicator names this server (RFC 8707). */
  isOurResource(requested: string): boolean {
    return comparableResource(requested) === comparableResource(this.options.resource.href);
  }

  /** This server's resource, or InvalidTargetError for any other (RFC 8707). */
  private audience(requested: string | undefined): string {
    const ours = this.options.resource.href;
    if (requested === undefined) return ours;
    if (!this.isOurResource(requested)) {
      throw new InvalidTargetError(`This server issues tokens only for the resource ${ours}.`);
    }
    return ours;
  }

  private async issue(
    clientId: string,
    grant: PlatformGrant,
    resource: string,
    scopes: string[],
  ): Promise<OAuthTokens> {
    const { store } = this.options;
    const now = this.now();
    const accessMs = Math.max(
      1_000,
      Math.min(ACCESS_TOKEN_MAX_MS, grant.accessTokenExpiresAt - now),
    );
    const refreshMs = Math.min(REFRESH_TOKEN_MAX_MS, grant.renewBy - now);
    const accessToken = random("wfm_at_");
    const base = { clientId, grantId: grant.id, scopes, resource };
    await this.read(() =>
      store.set(
        digestKey("access:", accessToken),
        { ...base, expiresAt: now + accessMs },
        accessMs,
      ),
    );
    let refreshToken: string | undefined;
    if (refreshMs > 60_000) {
      refreshToken = random("wfm_rt_");
      await this.read(() =>
        store.set(
          digestKey("refresh:", refreshToken as string),
          { ...base, expiresAt: now + refreshMs },
          refreshMs,
        ),
      );
    }
    return {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: Math.floor(accessMs / 1000),
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      ...(scopes.length > 0 ? { scope: scopes.join(" ") } : {}),
    };
  }

  /** A store that cannot be reached becomes the SDK's server_error, with a readable message. */
  private async read<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (error instanceof SharedStateUnavailableError) {
        throw new ServerError(error.message);
      }
      throw error;
    }
  }
}
