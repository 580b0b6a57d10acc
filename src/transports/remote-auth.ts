// `--auth oauth`: the HTTP server as an OAuth 2.1 resource server and authorization server for
// MCP clients (MCP authorization, 2025-11-25), built from the SDK's auth handlers: protected
// resource metadata (RFC 9728) at /.well-known/oauth-protected-resource/mcp, authorization server
// metadata (RFC 8414), dynamic client registration (RFC 7591), /authorize with PKCE S256, /token,
// /revoke, and a 401 with `WWW-Authenticate: Bearer ... resource_metadata=...` on /mcp without a
// valid token. The person's consent is delegated to the platform's own OAuth (src/auth/remote).
// With --token-passthrough, a personal access token in the X-Workforce-Token header is the one
// other way in; without it that header is refused (MCP authorization: only tokens issued here).
import {
  getOAuthProtectedResourceMetadataUrl,
  requireBearerAuth,
} from "@modelcontextprotocol/express";
import { type AuthInfo, OAuthError, type OAuthTokenVerifier } from "@modelcontextprotocol/server";
// The authorization server's endpoints: the SDK's frozen 1.x copy, which 2.x keeps for this.
import {
  createOAuthMetadata,
  OAuthError as LegacyOAuthError,
  mcpAuthRouter,
  metadataHandler,
} from "@modelcontextprotocol/server-legacy/auth";
import express, { type Request, type Response } from "express";
import { clientAddress } from "../auth/remote/address-key.js";
import { authorizeChecks } from "../auth/remote/authorize-checks.js";
import type { ClientMetadataOptions } from "../auth/remote/client-metadata.js";
import { PlatformGrants } from "../auth/remote/grants.js";
import type { PersonalTokens } from "../auth/remote/personal-tokens.js";
import { CALLBACK_PATH, CONSENT_PATH, TeamSignIn } from "../auth/remote/provider.js";
import { redirectUriProblem } from "../auth/remote/redirect-uris.js";
import { registrationLimits } from "../auth/remote/registration-limits.js";
import { createSealedStore } from "../auth/remote/sealed-store.js";
import type { SignInIdentity } from "../auth/store.js";
import type { TokenSource } from "../client/types.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { encryptionKeyFrom } from "../state/sealing-key.js";
import type { StateStore } from "../state/store.js";
import type { Platform } from "./platform.js";
import { sha256 } from "./sha256.js";

/** The header for a personal access token instead of signing in (scripts, tests). */
const PERSONAL_TOKEN_HEADER = "x-workforce-token";

/** Who a request to /mcp acts as. */
export interface RequestCredential {
  /** The platform credential for a session's client; its tokens are blanked in that logger. */
  token(sessionLogger?: Logger): string | TokenSource;
  /** Binds a session to the person: a digest of the grant, or of the personal token. */
  key: Buffer;
  /** A personal access token, for the session logger's redaction list. */
  secret?: string;
  identity: SignInIdentity;
}

export interface RemoteAuth {
  /** The resource tokens are bound to: <public URL>/mcp. */
  resource: URL;
  /** The OAuth endpoints and metadata; mount at the root, before the Origin check. */
  router: express.Router;
  /** The credential of a request to /mcp, or undefined once it has been answered (401 or 503). */
  authenticate(req: Request, res: Response): Promise<RequestCredential | undefined>;
}

export interface RemoteAuthOptions {
  config: Config;
  logger: Logger;
  platform: Platform;
  state: StateStore;
  /** Checks personal access tokens (X-Workforce-Token) with the platform, limited per address. */
  tokens: PersonalTokens;
  /** The server's base address (config.publicUrl, else where it listens). */
  publicUrl: string;
  /** How Client ID Metadata Documents are fetched; tests allow loopback and their own CA. */
  clientMetadata?: ClientMetadataOptions;
}

export function createRemoteAuth(options: RemoteAuthOptions): RemoteAuth {
  const { config, logger, platform, state, publicUrl, tokens, clientMetadata } = options;
  if (!config.encryptionKey) throw new Error("--auth oauth needs WORKFORCE_ENCRYPTION_KEY.");
  const callbackUrl = `${publicUrl}${CALLBACK_PATH}`;
  const upstream = upstreamClient(config, platform, callbackUrl);
  const store = createSealedStore(state, encryptionKeyFrom(config.encryptionKey));
  const grants = new PlatformGrants({
    store,
    settings: upstream,
    apiUrl: platform.apiUrl,
    logger,
    timeoutMs: config.timeoutMs,
  });
  const resource = new URL(`${publicUrl}/mcp`);
  const provider = new TeamSignIn({
    store,
    grants,
    publicUrl,
    resource,
    upstream: { ...upstream, redirectUri: callbackUrl },
    apiUrl: platform.apiUrl,
    logger,
    timeoutMs: config.timeoutMs,
    clientMetadata,
  });

  const router = oauthRouter(provider, state, publicUrl, resource);
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(resource);
  // The bearer check of every MCP request: the SDK's 2.x resource-server middleware.
  const bearer = requireBearerAuth({
    verifier: bearerVerifier(provider),
    resourceMetadataUrl,
    expectedResource: resource,
  });
  const challenge = (res: Response, description: string) =>
    res.set(
      "WWW-Authenticate",
      `Bearer error="invalid_token", error_description="${description}", resource_metadata="${resourceMetadataUrl}"`,
    );

  async function authenticate(req: Request, res: Response) {
    const personal = req.header(PERSONAL_TOKEN_HEADER);
    if (personal !== undefined) {
      return personalToken(personal.trim(), req, res, { config, tokens, challenge });
    }
    let passed = false;
    await bearer(req, res, () => {
      passed = true;
    });
    if (!passed) return undefined;
    const info = req.auth;
    const grantId = info?.extra?.grantId;
    const identity = info?.extra?.identity as SignInIdentity | undefined;
    if (typeof grantId !== "string" || !identity) return undefined;
    const credential: RequestCredential = {
      key: sha256(`grant\n${grantId}`),
      identity,
      token: (sessionLogger) => grants.tokenSource({ id: grantId, identity }, sessionLogger),
    };
    return credential;
  }

  logger.info(
    `Remote sign-in (--auth oauth): MCP clients sign in at ${publicUrl}; the platform's OAuth client must have the redirect URL ${callbackUrl}.`,
  );
  return { resource, router, authenticate };
}

/**
 * The OAuth endpoints and metadata: the SDK's authorization server, with our checks of /authorize
 * and /register before it, and the consent page and the platform's callback after it.
 */
function oauthRouter(
  provider: TeamSignIn,
  state: StateStore,
  publicUrl: string,
  resource: URL,
): express.Router {
  const router = express.Router();
  // Checked here first: the SDK's handlers would send some refusals straight to the client.
  router.use(
    "/authorize",
    authorizeChecks({
      clients: provider.clientsStore,
      isOurResource: (r) => provider.isOurResource(r),
      redirectUriProblem,
      state,
    }),
  );
  router.post("/register", registrationLimits(state));
  const authRouterOptions = {
    provider,
    issuerUrl: new URL(publicUrl),
    resourceServerUrl: resource,
    resourceName: "Workforce platform (workforce-mcp)",
  };
  // The SDK's metadata, plus what it does not know of: Client ID Metadata Documents are taken.
  router.use(
    "/.well-known/oauth-authorization-server",
    metadataHandler({
      ...createOAuthMetadata(authRouterOptions),
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    }),
  );
  router.use(mcpAuthRouter(authRouterOptions));
  router.post(
    CONSENT_PATH,
    express.urlencoded({ extended: false, limit: "16kb" }),
    answer((req, res) => provider.consent(req, res)),
  );
  router.get(
    CALLBACK_PATH,
    answer((req, res) => provider.callback(req, res)),
  );
  return router;
}

interface PersonalTokenCheck {
  config: Config;
  tokens: PersonalTokens;
  /** Sets the WWW-Authenticate challenge of a refusal, saying why. */
  challenge: (res: Response, description: string) => Response;
}

/** A personal access token in X-Workforce-Token: its credential, or undefined once answered. */
async function personalToken(
  token: string,
  req: Request,
  res: Response,
  { config, tokens, challenge }: PersonalTokenCheck,
): Promise<RequestCredential | undefined> {
  if (req.header("authorization") !== undefined) {
    res.status(400).json({
      error: "invalid_request",
      error_description: `Send either Authorization: Bearer (signed in) or ${PERSONAL_TOKEN_HEADER}, not both.`,
    });
    return undefined;
  }
  if (!config.tokenPassthrough) {
    // MCP authorization: a server accepts only tokens issued for it, unless told otherwise.
    challenge(res, "This server does not accept passthrough tokens")
      .status(401)
      .json({
        error: "invalid_token",
        error_description: `This server does not accept passthrough tokens: a platform token in ${PERSONAL_TOKEN_HEADER} is not used here. Sign in with OAuth instead (your MCP client does it after this answer); the server's operator can allow personal access tokens with --token-passthrough.`,
      });
    return undefined;
  }
  const check = await tokens.check(token, clientAddress(req));
  if (check.ok) {
    const credential: RequestCredential = {
      key: sha256(`personal\n${token}`),
      identity: check.identity,
      secret: token,
      token: () => token,
    };
    return credential;
  }
  if (check.reason === "refused") {
    challenge(res, "The platform did not accept the personal access token")
      .status(401)
      .json({
        error: "invalid_token",
        error_description: `The platform did not accept the personal access token in ${PERSONAL_TOKEN_HEADER}: it is missing, expired or revoked.`,
      });
  } else if (check.reason === "rate-limited") {
    res
      .status(429)
      .set("Retry-After", String(check.retryAfterSeconds))
      .json({
        error: "too_many_requests",
        error_description: `Too many unknown personal access tokens from your address: the server checks only a few new tokens a minute with the platform. Retry in ${check.retryAfterSeconds} seconds.`,
      });
  } else {
    res.status(503).json({
      error: "temporarily_unavailable",
      error_description: `Could not check the personal access token with the platform: ${check.message}`,
    });
  }
  return undefined;
}

/** The server's own OAuth client at the platform; the embedded sandbox registers one for it. */
function upstreamClient(config: Config, platform: Platform, callbackUrl: string) {
  if (platform.registerOAuthClient) {
    const client = platform.registerOAuthClient(callbackUrl);
    return { authUrl: platform.apiUrl, clientId: client.id, clientSecret: client.secret };
  }
  if (!config.authUrl || !config.clientId || !config.clientSecret) {
    throw new Error(
      "--auth oauth needs WORKFORCE_CLIENT_ID and WORKFORCE_CLIENT_SECRET: the platform's OAuth client for this server.",
    );
  }
  return { authUrl: config.authUrl, clientId: config.clientId, clientSecret: config.clientSecret };
}

/** Errors of a page handler end as a page, never as a stack trace. */
function answer(handler: (req: Request, res: Response) => Promise<void>) {
  return (req: Request, res: Response) => {
    handler(req, res).catch((error: unknown) => {
      if (res.headersSent) return;
      res
        .status(500)
        .type("text/plain")
        .send(
          `The sign-in could not continue: ${error instanceof Error ? error.message : "an internal error"}. Start it again from your assistant.`,
        );
    });
  };
}

/**
 * The provider's token check as the 2.x middleware takes it: the authorization server's errors
 * (the 1.x copy's classes) become 2.x OAuthErrors with the same code and words.
 */
function bearerVerifier(provider: OAuthTokenVerifier): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      try {
        return await provider.verifyAccessToken(token);
      } catch (error) {
        if (error instanceof LegacyOAuthError) throw new OAuthError(error.errorCode, error.message);
        throw error;
      }
    },
  };
}
