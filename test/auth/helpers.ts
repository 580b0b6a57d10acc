// Plays the person's browser against the sandbox's authorization server, over real HTTP: opens
// the authorize address (with this "browser's" cookies), answers the consent page, and follows
// the redirect to the login's loopback listener.
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type LoginSettings, login } from "../../src/auth/login.js";
import { SignInStore, type StoredSignIn } from "../../src/auth/store.js";
import { createLogger, type Logger } from "../../src/logger.js";
import type { OAuthClientInfo, Sandbox } from "../../src/sandbox/index.js";

/** A fresh config folder under the system's temp folder; never the real home. */
export function tempConfigDir(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), "workforce-mcp-auth-")), "config");
}

/**
 * A port free right now, for a redirect URL: it is registered with the platform before the login's
 * listener starts, and a login refuses port 0 (no fixed address to register), so the port must be
 * known in advance. Racy in principle (another process may take it before the login listens); the
 * rest of the tests listen on port 0 instead.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A client registered with the sandbox whose redirect URL is a free loopback port. */
export async function registerClient(
  sandbox: Sandbox,
  name = "workforce-mcp test",
): Promise<OAuthClientInfo> {
  const port = await freePort();
  return sandbox.oauth.registerClient({ name, redirectUri: `http://127.0.0.1:${port}/callback` });
}

export class Browser {
  private cookies = new Map<string, string>();

  async get(url: string): Promise<Response> {
    const res = await fetch(url, { redirect: "manual", headers: this.cookieHeader() });
    this.keep(res);
    return res;
  }

  async post(
    url: string,
    form: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const res = await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...headers,
        ...this.cookieHeader(),
      },
      body: new URLSearchParams(form),
    });
    this.keep(res);
    return res;
  }

  /**
   * Opens the authorize address and answers the consent page (when one is shown). Returns where
   * the authorization server sends the browser back to, without going there.
   */
  async authorize(
    authorizeUrl: string,
    answer: { identity?: "full" | "limited"; decision?: "approve" | "deny" } = {},
  ): Promise<{ location: URL; page?: string }> {
    const first = await this.get(authorizeUrl);
    if (first.status === 302) return { location: new URL(first.headers.get("location") ?? "") };
    const page = await first.text();
    if (first.status !== 200) throw new Error(`authorize answered ${first.status}: ${page}`);
    const request = /name="request" value="([^"]+)"/.exec(page)?.[1];
    if (!request) throw new Error("the consent page has no request field");
    const action = new URL("/oauth/authorize", authorizeUrl).href;
    const second = await this.post(action, {
      request,
      identity: answer.identity ?? "full",
      decision: answer.decision ?? "approve",
    });
    if (second.status !== 302) {
      throw new Error(`the consent form answered ${second.status}: ${await second.text()}`);
    }
    return { location: new URL(second.headers.get("location") ?? ""), page };
  }

  /** The whole browser part: authorize, answer, and follow the redirect to the callback. */
  async signIn(
    authorizeUrl: string,
    answer: { identity?: "full" | "limited"; decision?: "approve" | "deny" } = {},
  ): Promise<{ status: number; text: string; location: URL }> {
    const { location } = await this.authorize(authorizeUrl, answer);
    const res = await fetch(location, { redirect: "manual" });
    return { status: res.status, text: await res.text(), location };
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
  }

  private keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (pair && eq > 0) this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
}

/** Collects every line a logger writes, to check that no secret is among them. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger("debug", (line) => lines.push(line));
  return { logger, lines };
}

export interface LoginRun {
  settings: LoginSettings;
  store: SignInStore;
  said: string[];
  logLines: string[];
  logger: Logger;
  /** Resolves with the authorize address once login has printed it. */
  authorizeUrl: Promise<string>;
  done: Promise<StoredSignIn>;
}

/** Starts `login` in this process against the sandbox; the test plays the browser. */
export function startLogin(
  sandbox: Sandbox,
  client: OAuthClientInfo,
  options: {
    configDir?: string;
    timeoutMs?: number;
    prompt?: string;
    now?: () => number;
  } = {},
): LoginRun {
  const { logger, lines } = capturingLogger();
  const store = new SignInStore(options.configDir ?? tempConfigDir());
  const said: string[] = [];
  const settings: LoginSettings = {
    apiUrl: sandbox.url,
    authUrl: sandbox.url,
    clientId: client.id,
    clientSecret: client.secret,
    redirectUri: client.redirectUri,
    prompt: options.prompt,
  };
  let announce: (url: string) => void = () => {};
  const authorizeUrl = new Promise<string>((resolve) => {
    announce = resolve;
  });
  const done = login(settings, {
    store,
    logger,
    say: (line) => said.push(logger.redact(line)),
    onAuthorizeUrl: (url) => announce(url),
    timeoutMs: options.timeoutMs ?? 10_000,
    requestTimeoutMs: 5_000,
    now: options.now,
  });
  // The test awaits `done` itself; this only keeps an early failure from going unhandled.
  done.catch(() => {});
  return { settings, store, said, logLines: lines, logger, authorizeUrl, done };
}

/** Signs in through the whole flow and returns the stored sign-in. */
export async function signedIn(
  sandbox: Sandbox,
  options: { identity?: "full" | "limited"; configDir?: string; client?: OAuthClientInfo } = {},
): Promise<{ signIn: StoredSignIn; store: SignInStore; client: OAuthClientInfo; run: LoginRun }> {
  const client = options.client ?? (await registerClient(sandbox));
  const run = startLogin(sandbox, client, { configDir: options.configDir });
  await new Browser().signIn(await run.authorizeUrl, { identity: options.identity });
  const signIn = await run.done;
  return { signIn, store: run.store, client, run };
}

/** Every secret of a sign-in: none may appear in any output. */
export function secretsOf(signIn: StoredSignIn): string[] {
  return [signIn.accessToken, signIn.refreshToken, signIn.clientSecret].filter(
    (s): s is string => typeof s === "string",
  );
}

export function expectNoSecret(texts: string[], secrets: string[]): void {
  for (const text of texts) {
    for (const secret of secrets) {
      if (text.includes(secret)) {
        throw new Error(`a secret (${secret.slice(0, 6)}…) appears in: ${text.slice(0, 200)}`);
      }
    }
  }
}

/** A stored sign-in made up for the store's own tests (no platform behind it). */
export function madeUpSignIn(apiUrl: string, name = "me"): StoredSignIn {
  return {
    apiUrl,
    authUrl: apiUrl,
    clientId: "client-1",
    clientSecret: "client-secret-value",
    redirectUri: "http://127.0.0.1:8976/callback",
    tokenType: "Bearer",
    accessToken: `access-token-of-${name}`,
    refreshToken: `refresh-token-of-${name}`,
    accessTokenIssuedAt: 0,
    accessTokenExpiresAt: 1,
    signedInAt: 0,
    renewBy: 2,
    identity: { id: name, name, email: `${name}@example.com` },
  };
}
