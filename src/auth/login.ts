// `workforce-mcp login`: the authorization-code flow of the interface document (section 5.2) with
// PKCE. The browser is sent to {auth_url}/oauth/authorize; the platform sends it back to the
// registered redirect URL, where a listener on this machine (127.0.0.1, that URL's port) takes
// the code; the code is exchanged at {auth_url}/oauth/token, `viewer` says who signed in, and the
// pair is stored. A denial, an `error`, or no answer in time aborts with nothing stored. Any other
// request to the listener (a favicon, a web page's <img>, a callback with another state) is
// refused and the wait goes on (RFC 8252 sections 7.3 and 8.9): it says nothing about our sign-in.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createPlatformClient } from "../client/client.js";
import { isPlatformError } from "../client/errors.js";
import { viewerQuery } from "../client/operations/index.js";
import { oneLine } from "../client/platform-text.js";
import type { Logger } from "../logger.js";
import { escapeHtml, sendPage } from "../web/pages.js";
import {
  authorizationRequest,
  exchangeCode,
  type OAuthClientSettings,
  TokenEndpointError,
  validateCallback,
} from "./oauth-client.js";
import { signedInPair } from "./renewal.js";
import type { SignInStore, StoredSignIn } from "./store.js";

export const LOGIN_TIMEOUT_MS = 5 * 60_000;

export interface LoginSettings extends OAuthClientSettings {
  apiUrl: string;
  redirectUri: string;
  /** `consent` or `login`: ask again even if this browser approved before. */
  prompt?: string;
}

export interface LoginDeps {
  store: SignInStore;
  logger: Logger;
  /** Person-facing lines (already free of secrets). */
  say: (line: string) => void;
  /** Opens the address in a browser; resolves false when none could be opened. */
  openBrowser?: (url: string) => Promise<boolean>;
  /** How long to wait for the browser to come back. */
  timeoutMs?: number;
  /** Time-out of the token and viewer requests. */
  requestTimeoutMs?: number;
  now?: () => number;
  /** Called with the address to open (tests play the browser with it). */
  onAuthorizeUrl?: (url: string) => void;
  signal?: AbortSignal;
}

export class LoginError extends Error {
  override name = "LoginError";
}

const NOTHING_STORED = "Nothing was stored; run `workforce-mcp login` again.";

export async function login(settings: LoginSettings, deps: LoginDeps): Promise<StoredSignIn> {
  const { logger, say } = deps;
  const now = deps.now ?? Date.now;
  const timeoutMs = deps.timeoutMs ?? LOGIN_TIMEOUT_MS;
  const requestTimeoutMs = deps.requestTimeoutMs ?? 30_000;
  logger.addSecret(settings.clientSecret);
  // A folder or file someone else could write is refused now, not after the browser.
  deps.store.verify();

  const request = await authorizationRequest(settings);
  logger.addSecret(request.codeVerifier);
  let warned = false;
  const listener = await listen(settings.redirectUri, request.state, () => {
    // Once: an old tab of an earlier sign-in is the usual cause; a forged answer the other.
    if (warned) return;
    warned = true;
    say(
      `Ignored an answer at ${settings.redirectUri} that does not carry this sign-in's state (an old browser tab, or not from the sign-in you started); still waiting.`,
    );
  });
  try {
    const address = request.url.href;
    deps.onAuthorizeUrl?.(address);
    const opened = deps.openBrowser ? await deps.openBrowser(address).catch(() => false) : false;
    say(
      opened
        ? `Opening your browser to sign in to ${settings.apiUrl}. If it does not open, open this address:`
        : `Open this address in your browser to sign in to ${settings.apiUrl}:`,
    );
    say(`  ${address}`);
    say(
      `Waiting for the browser to come back to ${settings.redirectUri} (up to ${Math.round(timeoutMs / 60_000) || 1} minutes; Ctrl+C cancels).`,
    );

    const callback = await listener.next(timeoutMs, deps.signal);
    try {
      const signIn = await complete(settings, deps, callback.url, request, requestTimeoutMs, now);
      callback.answer(
        200,
        "Signed in",
        `Signed in to ${settings.apiUrl} as ${signIn.identity.name}. You can close this tab and go back to the terminal.`,
      );
      return signIn;
    } catch (error) {
      callback.answer(
        400,
        "Sign-in not completed",
        error instanceof LoginError ? error.message : "The sign-in failed; see the terminal.",
      );
      throw error;
    }
  } finally {
    await listener.close();
  }
}

async function complete(
  settings: LoginSettings,
  deps: LoginDeps,
  callback: URL,
  request: { state: string; codeVerifier: string },
  requestTimeoutMs: number,
  now: () => number,
): Promise<StoredSignIn> {
  const { logger } = deps;
  const params = callback.searchParams;
  const code = params.get("code");
  if (code) logger.addSecret(code);
  // The listener delivers only answers with our state; checked again so that this stands alone.
  if (params.get("state") !== request.state) {
    throw new LoginError(
      `Sign-in aborted: the answer that reached ${settings.redirectUri} does not carry this sign-in's state, so it may not come from the sign-in you started. ${NOTHING_STORED}`,
    );
  }
  const error = params.get("error");
  if (error !== null) {
    const description = params.get("error_description");
    throw new LoginError(
      error === "access_denied"
        ? `Sign-in aborted: the request was denied in the browser (access_denied). ${NOTHING_STORED}`
        : `Sign-in aborted: the platform answered ${oneLine(error)}${description ? ` (${oneLine(description)})` : ""}. ${NOTHING_STORED}`,
    );
  }
  let validated: URLSearchParams;
  try {
    validated = validateCallback(settings, callback, request.state);
  } catch {
    throw new LoginError(
      `Sign-in aborted: the answer that reached ${settings.redirectUri} is not a valid authorization response (no code). ${NOTHING_STORED}`,
    );
  }

  const started = now();
  let tokens: Awaited<ReturnType<typeof exchangeCode>>;
  try {
    tokens = await exchangeCode(settings, validated, request.codeVerifier, requestTimeoutMs);
  } catch (failure) {
    if (!(failure instanceof TokenEndpointError)) throw failure;
    const advice =
      failure.oauthError === "invalid_grant"
        ? " The code expired (codes last 10 minutes) or was already used."
        : failure.oauthError === "invalid_client"
          ? " Check WORKFORCE_CLIENT_ID and WORKFORCE_CLIENT_SECRET, and that the OAuth client is not revoked on the platform."
          : "";
    throw new LoginError(
      `Sign-in failed at ${settings.authUrl}/oauth/token: ${failure.message}.${advice} ${NOTHING_STORED}`,
    );
  }
  logger.addSecret(tokens.accessToken);
  logger.addSecret(tokens.refreshToken);

  const client = createPlatformClient({
    apiUrl: settings.apiUrl,
    token: tokens.accessToken,
    timeoutMs: requestTimeoutMs,
    maxRetries: 1,
    retryBaseMs: 500,
    logger,
  });
  let identity: StoredSignIn["identity"];
  try {
    const { data } = await client.run(viewerQuery, {});
    identity = { id: data.viewer.id, name: data.viewer.name, email: data.viewer.email };
  } catch (failure) {
    const why = isPlatformError(failure) ? failure.message : "it failed";
    throw new LoginError(
      `The platform issued tokens, but its GraphQL API at ${settings.apiUrl} did not answer \`viewer\` with them: ${why.replace(/\.$/, "")}. Check that WORKFORCE_API_URL and WORKFORCE_AUTH_URL belong to the same platform. ${NOTHING_STORED}`,
    );
  }

  const signIn: StoredSignIn = {
    apiUrl: settings.apiUrl,
    authUrl: settings.authUrl,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    redirectUri: settings.redirectUri,
    ...signedInPair(tokens, started),
    identity,
  };
  await deps.store.update((signIns) => {
    signIns[settings.apiUrl] = signIn;
  });
  return signIn;
}

interface Callback {
  url: URL;
  /** Answers the browser with a small page. */
  answer(status: number, title: string, text: string): void;
}

interface Listener {
  next(timeoutMs: number, signal: AbortSignal | undefined): Promise<Callback>;
  close(): Promise<void>;
}

/**
 * The loopback listener at the redirect URL's address and port. Only a GET of its path carrying
 * this sign-in's state is the answer (RFC 8252 section 8.9); everything else gets 400 and the wait
 * goes on, so that a stray or forged request cannot end the sign-in before the browser comes back.
 */
async function listen(
  redirectUri: string,
  state: string,
  onForeignState: () => void,
): Promise<Listener> {
  const target = new URL(redirectUri);
  const host = target.hostname === "[::1]" ? "::1" : "127.0.0.1";
  const port = Number(target.port);
  let deliver: ((callback: Callback) => void) | undefined;
  // An answer that arrives before anyone waits (a browser that approved before) is kept.
  let early: Callback | undefined;
  let taken = false;
  let waiting = true;

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", target);
    } catch {
      url = new URL("/", target);
    }
    const atCallback = req.method === "GET" && url.pathname === target.pathname;
    if (!atCallback || url.searchParams.get("state") !== state || taken || !waiting) {
      if (atCallback && url.searchParams.has("state") && !taken && waiting) onForeignState();
      stray(res, taken || !waiting);
      return;
    }
    taken = true;
    const callback: Callback = {
      url,
      answer: (status, title, text) => page(res, status, title, text),
    };
    if (deliver) deliver(callback);
    else early = callback;
  });
  server.on("connection", (socket) => socket.unref());
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new LoginError(
          error.code === "EADDRINUSE"
            ? `Port ${port} of the redirect URL ${redirectUri} is in use. Stop whatever uses it, or register another redirect URL with the OAuth client and set WORKFORCE_REDIRECT_URI to it.`
            : `Could not listen on ${host}:${port} for the redirect URL ${redirectUri} (${error.code ?? error.message}).`,
        ),
      ),
    );
    server.listen(port, host, () => resolve());
  });

  return {
    next(timeoutMs, signal) {
      return new Promise<Callback>((resolve, reject) => {
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new LoginError(
              `Sign-in timed out: the browser did not come back to ${redirectUri} within ${describeDuration(timeoutMs)}. ${NOTHING_STORED}`,
            ),
          );
        }, timeoutMs);
        const onAbort = () => {
          cleanup();
          reject(new LoginError(`Sign-in cancelled. ${NOTHING_STORED}`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          deliver = undefined;
          waiting = false;
        };
        if (signal?.aborted) return onAbort();
        if (early) {
          cleanup();
          return resolve(early);
        }
        signal?.addEventListener("abort", onAbort, { once: true });
        deliver = (callback) => {
          cleanup();
          resolve(callback);
        };
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A short plain-text 400 for any request that is not this sign-in's answer. */
function stray(res: ServerResponse, over: boolean): void {
  const text = over
    ? "This sign-in is no longer waiting for an answer.\n"
    : "This address only receives the answer to the sign-in started in the terminal, and this request is not it. The sign-in is still waiting.\n";
  res.writeHead(400, {
    "content-type": "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    connection: "close",
  });
  res.end(text);
}

function page(res: ServerResponse, status: number, title: string, text: string): void {
  sendPage(res, status, title, `<p>${escapeHtml(text)}</p>`, { connection: "close" });
}

function describeDuration(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0
    ? `${ms / 60_000} minute${ms === 60_000 ? "" : "s"}`
    : `${Math.round(ms / 1000)} seconds`;
}
