// The OAuth client side, through oauth4webapi: the platform's authorization server described by
// its two endpoints (interface document 4.4; it publishes no discovery document), the code
// exchange with PKCE and the refresh grant, both authenticated with client_id and client_secret as
// form fields (section 5.3). Failures become TokenEndpointError with no token, code or secret.
import * as oauth from "oauth4webapi";
import { ACCESS_TOKEN_LIFETIME_MS } from "./store.js";

export interface OAuthClientSettings {
  /** Base of /oauth/authorize and /oauth/token. */
  authUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface TokenAnswer {
  tokenType: string;
  accessToken: string;
  refreshToken: string | undefined;
  /** Lifetime of the access token the platform stated (or 15 days when it did not). */
  expiresInMs: number;
}

export type TokenEndpointFailure = "refused" | "unreachable" | "invalid-answer";

export class TokenEndpointError extends Error {
  override name = "TokenEndpointError";
  constructor(
    message: string,
    readonly failure: TokenEndpointFailure,
    /** The OAuth `error` code, for a refusal (invalid_grant, invalid_client, ...). */
    readonly oauthError?: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

function authorizationServer(authUrl: string): oauth.AuthorizationServer {
  return {
    issuer: authUrl,
    authorization_endpoint: `${authUrl}/oauth/authorize`,
    token_endpoint: `${authUrl}/oauth/token`,
  };
}

function oauthClient(settings: OAuthClientSettings): oauth.Client {
  return { client_id: settings.clientId };
}

/**
 * Plain http is accepted (config.ts allows it for this machine only). `bearer` is added the way
 * the document's refresh example sends it; oauth4webapi leaves the Authorization header to us.
 */
function requestOptions(authUrl: string, timeoutMs: number, bearer?: string) {
  return {
    signal: AbortSignal.timeout(timeoutMs),
    ...(new URL(authUrl).protocol === "http:" ? { [oauth.allowInsecureRequests]: true } : {}),
    ...(bearer
      ? {
          [oauth.customFetch]: (
            url: string,
            init: oauth.CustomFetchOptions<"POST", URLSearchParams>,
          ) =>
            fetch(url, {
              ...init,
              headers: { ...init.headers, authorization: `Bearer ${bearer}` },
            }),
        }
      : {}),
  };
}

/** The authorization request's address, with PKCE (S256) and an unguessable state. */
export async function authorizationRequest(
  settings: OAuthClientSettings & { redirectUri: string; prompt?: string },
): Promise<{ url: URL; state: string; codeVerifier: string }> {
  const state = oauth.generateRandomState();
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const codeChallenge = await oauth.calculatePKCECodeChallenge(codeVerifier);
  const url = new URL(`${settings.authUrl}/oauth/authorize`);
  url.searchParams.set("client_id", settings.clientId);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("redirect_uri", settings.redirectUri);
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  if (settings.prompt) url.searchParams.set("prompt", settings.prompt);
  return { url, state, codeVerifier };
}

/** Checks the callback's parameters (state, error) the way oauth4webapi wants them checked. */
export function validateCallback(
  settings: OAuthClientSettings,
  callback: URL,
  state: string,
): URLSearchParams {
  return oauth.validateAuthResponse(
    authorizationServer(settings.authUrl),
    oauthClient(settings),
    callback.searchParams,
    state,
  );
}

export async function exchangeCode(
  settings: OAuthClientSettings & { redirectUri: string },
  validated: URLSearchParams,
  codeVerifier: string,
  timeoutMs: number,
): Promise<TokenAnswer> {
  const as = authorizationServer(settings.authUrl);
  const client = oauthClient(settings);
  return tokenRequest(async () => {
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretPost(settings.clientSecret),
      validated,
      settings.redirectUri,
      codeVerifier,
      requestOptions(settings.authUrl, timeoutMs),
    );
    return oauth.processAuthorizationCodeResponse(as, client, response);
  });
}

export async function refreshGrant(
  settings: OAuthClientSettings,
  refreshToken: string,
  accessToken: string,
  timeoutMs: number,
): Promise<TokenAnswer> {
  const as = authorizationServer(settings.authUrl);
  const client = oauthClient(settings);
  return tokenRequest(async () => {
    const response = await oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.ClientSecretPost(settings.clientSecret),
      refreshToken,
      // The document's refresh example also sends the (old) bearer token.
      requestOptions(settings.authUrl, timeoutMs, accessToken),
    );
    return oauth.processRefreshTokenResponse(as, client, response);
  });
}

async function tokenRequest(
  send: () => Promise<oauth.TokenEndpointResponse>,
): Promise<TokenAnswer> {
  let answer: oauth.TokenEndpointResponse;
  try {
    answer = await send();
  } catch (error) {
    throw describeFailure(error);
  }
  const expiresIn =
    typeof answer.expires_in === "number" && answer.expires_in > 0
      ? answer.expires_in * 1000
      : ACCESS_TOKEN_LIFETIME_MS;
  return {
    tokenType: answer.token_type,
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token,
    expiresInMs: expiresIn,
  };
}

/** Our own words: the library's messages may quote the answer, which may carry a token. */
function describeFailure(error: unknown): TokenEndpointError {
  if (error instanceof oauth.ResponseBodyError) {
    const description =
      typeof error.error_description === "string" ? `: ${oneLine(error.error_description)}` : "";
    return new TokenEndpointError(
      `the platform refused it (${oneLine(error.error)}${description})`,
      "refused",
      error.error,
      error.status,
    );
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    return new TokenEndpointError(
      `the platform refused the client's credentials (HTTP ${error.status})`,
      "refused",
      "invalid_client",
      error.status,
    );
  }
  if (error instanceof oauth.OperationProcessingError) {
    return new TokenEndpointError(
      "the platform's token endpoint gave an answer that is not a valid OAuth token response",
      "invalid-answer",
    );
  }
  const name = error instanceof Error ? error.name : "";
  const code = (error as { cause?: { code?: unknown } })?.cause?.code;
  if (name === "TimeoutError" || name === "AbortError") {
    return new TokenEndpointError(
      "the platform's token endpoint did not answer in time",
      "unreachable",
    );
  }
  if (error instanceof TypeError && error.message === "fetch failed") {
    return new TokenEndpointError(
      `the platform's token endpoint could not be reached${typeof code === "string" ? ` (${code})` : ""}`,
      "unreachable",
    );
  }
  return new TokenEndpointError(
    `the request to the platform's token endpoint failed (${name || "error"})`,
    "unreachable",
  );
}

/** Platform text in our messages: one line, bounded. */
function oneLine(text: string): string {
  const flat = text.replace(/\p{Cc}+/gu, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}
