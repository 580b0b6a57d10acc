// Shared by the `--auth oauth` tests (test/e2e/remote-auth*.test.ts, test/redis/oauth-replicas.test.ts):
// the scripted MCP client's redirect address and PKCE, its MCP calls with a token, and opening the
// sealed platform grants (the test knows the encryption key) to look for their tokens elsewhere.
import { createHash, randomBytes } from "node:crypto";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthTokens,
} from "@modelcontextprotocol/client";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expect } from "vitest";
import type { ClientMetadataOptions } from "../../src/auth/remote/client-metadata.js";
import { parseConfig } from "../../src/config.js";
import type { OAuthClientInfo, Sandbox } from "../../src/sandbox/index.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import { unseal } from "../../src/state/sealing.js";
import type { StateStore } from "../../src/state/store.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { Browser, capturingLogger } from "../auth/helpers.js";
import { initialize, raw, startOnFreePort } from "./http-helpers.js";

/** Where the scripted MCP client says it listens; the test reads the redirect, never follows it. */
export const CLIENT_REDIRECT = "http://127.0.0.1:9/callback";

export const pkce = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

/** The hidden `request` field of this server's consent page. */
export function consentRequestOf(html: string): string {
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1];
  if (!request) throw new Error(`the consent page has no request field: ${html.slice(0, 300)}`);
  return request;
}

export async function mcpClient(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "remote-auth-test", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

/** Who the platform says is calling: list_accounts' viewer. */
export async function viewerName(client: Client): Promise<string> {
  const result = await client.callTool({ name: "list_accounts", arguments: {} });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return (result.structuredContent as { viewer: { name: string } }).viewer.name;
}

/**
 * The platform tokens in sealed grant records, opened with the base64 encryption key. `records`
 * are (name, sealed value) pairs, the name as the sealed store gives it (`oauth:grant:<id>`).
 */
export function platformTokensIn(
  encryptionKey: string,
  records: Iterable<[name: string, value: string]>,
): string[] {
  const key = Buffer.from(encryptionKey, "base64");
  const tokens: string[] = [];
  for (const [name, value] of records) {
    if (!name.startsWith("oauth:grant:")) continue;
    const grant = JSON.parse(unseal(key, name, value) ?? "{}");
    tokens.push(grant.accessToken, grant.refreshToken);
  }
  return tokens.filter((t): t is string => typeof t === "string");
}

export const KEY = randomBytes(32).toString("base64");
export const DAY = 24 * 60 * 60 * 1000;

/** A memory store that also keeps every value ever written, to look for plain-text secrets. */
function recordingStore(): { store: StateStore; written: Map<string, string[]> } {
  const inner = createMemoryStore();
  const written = new Map<string, string[]>();
  return {
    written,
    store: {
      ...inner,
      async set(key, value, ttlMs) {
        written.set(key, [...(written.get(key) ?? []), value]);
        return inner.set(key, value, ttlMs);
      },
    },
  };
}

export interface TeamServer {
  handle: HttpServerHandle;
  publicUrl: string;
  resource: string;
  upstream: OAuthClientInfo;
  lines: string[];
  written: Map<string, string[]>;
  store: StateStore;
}

export interface TeamServerOptions {
  /** Another server's state store: the two share every sign-in record. */
  shared?: { store: StateStore; written: Map<string, string[]> };
  /** A replica of that server: same public address (its load balancer's) and OAuth client. */
  replicaOf?: TeamServer;
  stateless?: boolean;
  /** --token-passthrough: personal access tokens in X-Workforce-Token are accepted. */
  passthrough?: boolean;
  /** How Client ID Metadata Documents are fetched (a test's document server). */
  clientMetadata?: ClientMetadataOptions;
  /** WORKFORCE_MAX_SESSIONS. */
  maxSessions?: number;
  /** WORKFORCE_WEBHOOK_SECRETS: the receiver on. */
  webhookSecrets?: string;
}

export async function startTeamServer(
  sandbox: Sandbox,
  {
    shared,
    replicaOf,
    stateless,
    passthrough,
    clientMetadata,
    maxSessions,
    webhookSecrets,
  }: TeamServerOptions = {},
): Promise<TeamServer> {
  const { logger, lines } = capturingLogger();
  logger.addSecret(KEY);
  const recorded = shared ?? recordingStore();
  // The first server's public address is registered with the platform (its OAuth callback) before
  // it starts, so it needs its port in advance; a replica shares the first one's address and OAuth
  // client, and listens wherever the OS puts it (port 0).
  const start = async (port: number) => {
    const publicUrl = replicaOf?.publicUrl ?? `http://127.0.0.1:${port}`;
    const upstream =
      replicaOf?.upstream ??
      sandbox.oauth.registerClient({
        name: "team server (test)",
        redirectUri: `${publicUrl}/oauth/callback`,
      });
    const args = ["--http", "--port", String(port), "--auth", "oauth"];
    const config = {
      ...parseConfig(stateless ? [...args, "--stateless"] : args, {
        WORKFORCE_API_URL: sandbox.url,
        WORKFORCE_CLIENT_ID: upstream.id,
        WORKFORCE_CLIENT_SECRET: upstream.secret,
        WORKFORCE_PUBLIC_URL: publicUrl,
        WORKFORCE_ENCRYPTION_KEY: KEY,
        ...(passthrough ? { WORKFORCE_TOKEN_PASSTHROUGH: "1" } : {}),
        ...(maxSessions ? { WORKFORCE_MAX_SESSIONS: String(maxSessions) } : {}),
        ...(webhookSecrets ? { WORKFORCE_WEBHOOK_SECRETS: webhookSecrets } : {}),
      }),
      retryBaseMs: 1,
    };
    const handle = await startHttpServer(config, logger, "9.9.9", {
      stateStore: recorded.store,
      clientMetadata,
    });
    return { handle, publicUrl, upstream };
  };
  const { handle, publicUrl, upstream } = replicaOf ? await start(0) : await startOnFreePort(start);
  return {
    handle,
    publicUrl: replicaOf ? handle.url : publicUrl,
    resource: `${publicUrl}/mcp`,
    upstream,
    lines,
    written: recorded.written,
    store: recorded.store,
  };
}

/** The MCP client's side, step by step, with the person's browser. */
export class ScriptedClient {
  readonly browser = new Browser();
  clientId = "";
  asMetadata: Record<string, unknown> = {};

  constructor(readonly server: TeamServer) {}

  async discover(): Promise<void> {
    const res = await raw(`${this.server.publicUrl}/mcp`, { body: initialize });
    expect(res.status).toBe(401);
    const header = String(res.headers["www-authenticate"]);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(header)?.[1];
    expect(metadataUrl).toBe(`${this.server.publicUrl}/.well-known/oauth-protected-resource/mcp`);
    const prm = (await (await fetch(metadataUrl as string)).json()) as {
      resource: string;
      authorization_servers: string[];
    };
    expect(prm.resource).toBe(this.server.resource);
    const issuer = prm.authorization_servers[0] as string;
    const as = await fetch(new URL("/.well-known/oauth-authorization-server", issuer));
    this.asMetadata = (await as.json()) as Record<string, unknown>;
  }

  async register(name = "scripted MCP client"): Promise<void> {
    const res = await fetch(this.asMetadata.registration_endpoint as string, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: name,
        redirect_uris: [CLIENT_REDIRECT],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      }),
    });
    expect(res.status).toBe(201);
    this.clientId = ((await res.json()) as { client_id: string }).client_id;
  }

  authorizeUrl(challenge: string, state: string, resource = this.server.resource): string {
    const url = new URL(this.asMetadata.authorization_endpoint as string);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: this.clientId,
      redirect_uri: CLIENT_REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state,
      resource,
    }).toString();
    return url.href;
  }

  /** The browser's part: this server's consent page, the platform's, and back with a code. */
  async signIn(
    challenge: string,
    identity: "full" | "limited" = "full",
  ): Promise<{ code: string; state: string }> {
    const state = randomBytes(8).toString("hex");
    const page = await this.browser.get(this.authorizeUrl(challenge, state));
    const html = await page.text();
    expect(page.status, html).toBe(200);
    expect(html).toContain("scripted MCP client");
    const request = /name="request" value="([^"]+)"/.exec(html)?.[1] as string;
    const approved = await this.browser.post(`${this.server.publicUrl}/oauth/consent`, {
      request,
      decision: "approve",
    });
    expect(approved.status).toBe(302);
    const platformAuthorize = approved.headers.get("location") as string;
    // The platform's own sign-in, with this server's client and callback.
    const upstream = new URL(platformAuthorize);
    expect(upstream.pathname).toBe("/oauth/authorize");
    expect(upstream.searchParams.get("client_id")).toBe(this.server.upstream.id);
    expect(upstream.searchParams.get("redirect_uri")).toBe(this.server.upstream.redirectUri);
    expect(upstream.searchParams.get("code_challenge_method")).toBe("S256");
    const { location } = await this.browser.authorize(platformAuthorize, { identity });
    expect(location.href.startsWith(this.server.upstream.redirectUri)).toBe(true);
    const back = await this.browser.get(location.href);
    expect(back.status).toBe(302);
    const answer = new URL(back.headers.get("location") as string);
    expect(answer.origin + answer.pathname).toBe(CLIENT_REDIRECT);
    expect(answer.searchParams.get("state")).toBe(state);
    return { code: answer.searchParams.get("code") as string, state };
  }

  async token(form: Record<string, string>): Promise<{ status: number; body: OAuthTokens }> {
    const res = await fetch(this.asMetadata.token_endpoint as string, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: this.clientId, ...form }),
    });
    return { status: res.status, body: (await res.json()) as OAuthTokens };
  }

  async exchange(code: string, verifier: string, resource = this.server.resource) {
    return this.token({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: CLIENT_REDIRECT,
      resource,
    });
  }

  /** Discovery, registration, consent and tokens, as the given sandbox identity. */
  async signedIn(identity: "full" | "limited" = "full"): Promise<OAuthTokens> {
    await this.discover();
    await this.register();
    const { verifier, challenge } = pkce();
    const { code } = await this.signIn(challenge, identity);
    const { status, body } = await this.exchange(code, verifier);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  }
}

/** Every platform token this server keeps, opened with the key (the test knows it). */
export function platformTokens(written: Map<string, string[]>): string[] {
  return platformTokensIn(
    KEY,
    [...written].flatMap(([name, values]) => values.map((v): [string, string] => [name, v])),
  );
}

/**
 * The MCP SDK client's OAuth state, as a desktop client keeps it in memory: `opened` collects the
 * addresses it asks to open in the browser, which the test opens itself.
 */
export function sdkClientProvider(redirectUrl: string, clientName: string) {
  let tokens: OAuthTokens | undefined;
  let info: OAuthClientInformationMixed | undefined;
  let verifier = "";
  const opened: URL[] = [];
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: clientName,
        redirect_uris: [redirectUrl],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      };
    },
    clientInformation: () => info,
    saveClientInformation: (i) => {
      info = i;
    },
    tokens: () => tokens,
    saveTokens: (t) => {
      tokens = t;
    },
    redirectToAuthorization: (url) => {
      opened.push(url);
    },
    saveCodeVerifier: (v) => {
      verifier = v;
    },
    codeVerifier: () => verifier,
  };
  return { provider, opened, tokens: () => tokens };
}
