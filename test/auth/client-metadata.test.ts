// Client ID Metadata Documents (MCP authorization 2025-11-25; draft-ietf-oauth-client-id-metadata-
// document-00): fetched from a real https server on 127.0.0.1 with a certificate made for the test.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  CACHE_DEFAULT_MS,
  CACHE_MIN_MS,
  ClientMetadataDocuments,
  type ClientMetadataError,
  type ClientMetadataOptions,
  cacheLifetimeMs,
  clientIdHost,
  clientIdUrlProblem,
  isClientIdMetadataUrl,
  publicAddressesOnly,
} from "../../src/auth/remote/client-metadata.js";
import {
  DOCUMENT_HOST,
  type DocumentServer,
  startDocumentServer,
} from "../helpers/document-server.js";
import { until } from "../helpers/until.js";

const CALLBACK = "http://127.0.0.1:3000/callback";

let docs: DocumentServer;
let base: string;
let routes: DocumentServer["routes"];
const hitsOf = (path: string) => docs.hitsOf(path);
const serve: DocumentServer["serve"] = (path, body, headers) => docs.serve(path, body, headers);

beforeAll(async () => {
  docs = await startDocumentServer();
  base = docs.base;
  routes = docs.routes;
});

afterAll(() => docs.close());

beforeEach(() => docs.reset());

const document = (clientId: string, extra: Record<string, unknown> = {}) => ({
  client_id: clientId,
  client_name: "Example MCP Client",
  client_uri: "https://app.example.com",
  redirect_uris: [CALLBACK, "http://localhost:3000/callback"],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
  ...extra,
});

let clock = 1_000_000;
const resolverCalls: string[] = [];
/** The test's world: client.test is 127.0.0.1, and 127.0.0.1 may be fetched. */
function documents(options: ClientMetadataOptions = {}) {
  clock = 1_000_000;
  resolverCalls.length = 0;
  const world = docs.fetchOptions();
  return new ClientMetadataDocuments({
    ...world,
    resolve: async (hostname) => {
      resolverCalls.push(hostname);
      return (world.resolve as NonNullable<ClientMetadataOptions["resolve"]>)(hostname);
    },
    now: () => clock,
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<ClientMetadataError> {
  try {
    await promise;
  } catch (error) {
    return error as ClientMetadataError;
  }
  throw new Error("expected a failure");
}

describe("Client Identifier URL (draft §3)", () => {
  it("isClientIdMetadataUrl: an https URL with a path other than /", () => {
    expect(isClientIdMetadataUrl("https://app.example.com/oauth/client.json")).toBe(true);
    expect(isClientIdMetadataUrl("https://app.example.com/")).toBe(false);
    expect(isClientIdMetadataUrl("https://app.example.com")).toBe(false);
    expect(isClientIdMetadataUrl("http://app.example.com/client.json")).toBe(false);
    expect(isClientIdMetadataUrl("0b6c5a55-8d0f-4f5e-9b1e-1c2d3e4f5a6b")).toBe(false);
  });

  it("clientIdUrlProblem: no userinfo, no fragment, a path, and compared as written", () => {
    expect(clientIdUrlProblem("https://app.example.com/client.json")).toBeUndefined();
    expect(clientIdUrlProblem("https://app.example.com/c?v=1")).toBeUndefined();
    expect(clientIdUrlProblem("http://app.example.com/c")).toMatch(/does not use https/);
    expect(clientIdUrlProblem("https://u:p@app.example.com/c")).toMatch(/user name or password/);
    expect(clientIdUrlProblem("https://app.example.com/c#x")).toMatch(/fragment/);
    expect(clientIdUrlProblem("https://app.example.com/")).toMatch(/no path/);
    expect(clientIdUrlProblem("https://app.example.com/a/../c")).toMatch(/normal form/);
    expect(clientIdUrlProblem("https://app.example.com:443/c")).toMatch(/normal form/);
    expect(clientIdUrlProblem("https://App.Example.com/c")).toMatch(/normal form/);
  });

  it("clientIdHost: the host the consent page shows (draft §6.4), punycode for look-alikes", () => {
    expect(clientIdHost("https://app.example.com/client.json")).toBe("app.example.com");
    expect(clientIdHost("https://app.example.com:8443/c")).toBe("app.example.com:8443");
    expect(clientIdHost("https://аpple.com/c")).toBe("xn--pple-43d.com");
    expect(clientIdHost("not a url")).toBeUndefined();
  });
});

describe("the default address policy refuses special-use addresses (draft §6.5, RFC 6890)", () => {
  it.each([
    ["127.0.0.1", 4],
    ["::1", 6],
    ["10.0.0.1", 4],
    ["169.254.169.254", 4],
    ["192.168.1.1", 4],
    ["172.16.0.1", 4],
    ["100.64.0.1", 4],
    ["0.0.0.0", 4],
    ["224.0.0.1", 4],
    ["255.255.255.255", 4],
    ["::ffff:127.0.0.1", 6],
    ["::ffff:10.0.0.1", 6],
    ["fd00::1", 6],
    ["fe80::1", 6],
    ["ff02::1", 6],
    ["::", 6],
    ["64:ff9b::a00:1", 6],
    ["2001:db8::1", 6],
    ["2002:a00:1::1", 6],
  ] as const)("refuses %s", (address, family) => {
    expect(publicAddressesOnly(address, family)).toBe(false);
  });

  it("accepts public addresses such as 93.184.216.34 and 2606:2800:220:1::1", () => {
    expect(publicAddressesOnly("93.184.216.34", 4)).toBe(true);
    expect(publicAddressesOnly("2606:2800:220:1::1", 6)).toBe(true);
  });

  it("refuses a hostname that resolves to a private address before any connection", async () => {
    const url = serve("/private.json", document(`${base}/private.json`));
    // The real server is there on 127.0.0.1; the default policy must not reach it.
    const error = await failure(documents({ allowAddress: undefined }).getClient(url));
    expect(error.failure).toBe("address");
    expect(error.message).toMatch(/resolves to 127\.0\.0\.1, a loopback, private/);
    expect(hitsOf("/private.json")).toBe(0);
  });

  it("refuses when any one of the host's addresses is private (draft §6.5)", async () => {
    const url = serve("/mixed.json", document(`${base}/mixed.json`));
    const resolver = documents({
      resolve: async () => [
        { address: "93.184.216.34", family: 4 },
        { address: "10.0.0.1", family: 4 },
      ],
      allowAddress: undefined,
    });
    const error = await failure(resolver.getClient(url));
    expect(error.failure).toBe("address");
    expect(error.message).toMatch(/10\.0\.0\.1/);
  });
});

describe("fetching a Client ID Metadata Document", () => {
  it("returns the client it describes: client_id the URL, no secret, public (draft §4.1)", async () => {
    const url = serve("/good.json", document(`${base}/good.json`));
    const client = await documents().getClient(url);
    expect(client).toEqual({
      client_id: url,
      client_name: "Example MCP Client",
      client_uri: "https://app.example.com",
      redirect_uris: [CALLBACK, "http://localhost:3000/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    });
    expect(client.client_secret).toBeUndefined();
  });

  it("connects to the address it checked, resolving once (no DNS rebinding)", async () => {
    const url = serve("/once.json", document(`${base}/once.json`));
    await documents().getClient(url);
    expect(resolverCalls).toEqual([DOCUMENT_HOST]);
    expect(hitsOf("/once.json")).toBe(1);
  });

  it("refuses a document whose client_id is not its URL (draft §4.1 simple string comparison)", async () => {
    const url = serve("/mismatch.json", document(`${base}/other.json`));
    const error = await failure(documents().getClient(url));
    expect(error.failure).toBe("document");
    expect(error.message).toMatch(/names client_id ".*\/other\.json"; it must be/);
    expect(error.toResponseObject().error).toBe("invalid_client");
  });

  it("does not follow a redirect to elsewhere (draft §4: MUST NOT follow redirects)", async () => {
    const target = serve("/elsewhere.json", document(`${base}/elsewhere.json`));
    routes.set("/moved.json", (_req, res) => res.writeHead(302, { location: target }).end());
    const error = await failure(documents().getClient(`${base}/moved.json`));
    expect(error.failure).toBe("redirect");
    expect(error.message).toMatch(/HTTP 302/);
    expect(hitsOf("/elsewhere.json")).toBe(0);
  });

  it("refuses an oversized body, declared or streamed (draft §6.6: 5 KB)", async () => {
    const padding = "x".repeat(6 * 1024);
    const big = serve("/big.json", document(`${base}/big.json`, { software_id: padding }));
    const declared = await failure(documents().getClient(big));
    expect(declared.failure).toBe("too_large");
    expect(declared.message).not.toContain("xxxx");
    routes.set("/stream.json", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      // Chunked, no length: the reader must stop by itself.
      for (let i = 0; i < 8; i++) res.write(`${" ".repeat(1024)}`);
      res.end("{}");
    });
    const streamed = await failure(documents().getClient(`${base}/stream.json`));
    expect(streamed.failure).toBe("too_large");
  });

  it("gives up on a slow server within the time limit", async () => {
    let arrived = false;
    routes.set("/slow.json", () => {
      arrived = true;
      // Never answers.
    });
    // Fake timers: the limit passes when the test moves the clock, not after a real wait.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let settled = false;
      const pending = failure(documents({ timeoutMs: 200 }).getClient(`${base}/slow.json`)).finally(
        () => {
          settled = true;
        },
      );
      await until(() => arrived, "the request arrived");
      await vi.advanceTimersByTimeAsync(199);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const error = await pending;
      expect(error.failure).toBe("timeout");
      expect(error.message).toMatch(/within 200 ms/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("counts DNS within the time limit", async () => {
    const resolver = documents({ timeoutMs: 100, resolve: () => new Promise(() => {}) });
    const error = await failure(resolver.getClient(`${base}/dns.json`));
    expect(error.failure).toBe("timeout");
  });

  it("refuses a document that is not JSON (draft §4.1: application/json)", async () => {
    routes.set("/page.html", (_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<html>hello</html>"),
    );
    const html = await failure(documents().getClient(`${base}/page.html`));
    expect(html.failure).toBe("content_type");
    expect(html.message).toMatch(/is not JSON \(content type "text\/html"\)/);
    expect(html.message).not.toContain("hello");
    const broken = serve("/broken.json", "{ not json");
    expect((await failure(documents().getClient(broken))).failure).toBe("not_json");
  });

  it("accepts a more specific application/…+json content type (draft §4.1)", async () => {
    const url = serve("/specific.json", document(`${base}/specific.json`), {
      "content-type": "application/client-metadata+json; charset=utf-8",
    });
    expect((await documents().getClient(url)).client_id).toBe(url);
  });

  it("refuses a status other than 200 (draft §4)", async () => {
    const error = await failure(documents().getClient(`${base}/missing.json`));
    expect(error.failure).toBe("status");
    expect(error.message).toMatch(/HTTP 404, not 200/);
  });

  it("refuses a client_secret and a shared-secret auth method (draft §4.1)", async () => {
    const secret = serve("/secret.json", document(`${base}/secret.json`, { client_secret: "s" }));
    expect((await failure(documents().getClient(secret))).message).toMatch(/client_secret/);
    const basic = serve(
      "/basic.json",
      document(`${base}/basic.json`, { token_endpoint_auth_method: "client_secret_basic" }),
    );
    expect((await failure(documents().getClient(basic))).message).toMatch(
      /token_endpoint_auth_method "client_secret_basic"; this server takes only public clients/,
    );
  });

  it("requires client_name and redirect_uris (MCP authorization 2025-11-25)", async () => {
    const nameless = serve("/nameless.json", {
      client_id: `${base}/nameless.json`,
      redirect_uris: [CALLBACK],
    });
    expect((await failure(documents().getClient(nameless))).message).toMatch(/no client_name/);
    const nowhere = serve("/nowhere.json", {
      client_id: `${base}/nowhere.json`,
      client_name: "x",
    });
    expect((await failure(documents().getClient(nowhere))).message).toMatch(
      /not valid client metadata.*redirect_uris/,
    );
  });

  it("refuses a redirect URL that is not https or loopback (MCP authorization 2025-11-25)", async () => {
    const url = serve(
      "/plain.json",
      document(`${base}/plain.json`, { redirect_uris: ["http://evil.example/cb"] }),
    );
    const error = await failure(documents().getClient(url));
    expect(error.failure).toBe("document");
    expect(error.message).toMatch(
      /redirect_uris\[0\] "http:\/\/evil\.example\/cb" uses plain http/,
    );
  });

  it("refuses a client_id that is not a Client Identifier URL, unfetched (draft §3)", async () => {
    const error = await failure(documents().getClient("https://app.example.com:443/c"));
    expect(error.failure).toBe("client_id");
    expect(error.message).toMatch(
      /^The client_id "https:\/\/app\.example\.com:443\/c" is not written/,
    );
    expect(resolverCalls).toEqual([]);
  });

  it("says when the host cannot be resolved", async () => {
    const error = await failure(documents().getClient("https://nowhere.test/client.json"));
    expect(error.failure).toBe("network");
    expect(error.message).toMatch(
      /resolving its host failed \(getaddrinfo ENOTFOUND nowhere\.test\)/,
    );
  });
});

describe("caching (draft §4.4)", () => {
  it("fetches once for two lookups, and again when the cached copy is old", async () => {
    const url = serve("/cached.json", document(`${base}/cached.json`));
    const resolver = documents();
    await resolver.getClient(url);
    const again = await resolver.getClient(url);
    expect(again.client_id).toBe(url);
    expect(hitsOf("/cached.json")).toBe(1);
    clock += CACHE_DEFAULT_MS + 1;
    await resolver.getClient(url);
    expect(hitsOf("/cached.json")).toBe(2);
  });

  it("shares one fetch between concurrent lookups", async () => {
    const url = serve("/shared.json", document(`${base}/shared.json`));
    const resolver = documents();
    await Promise.all([resolver.getClient(url), resolver.getClient(url)]);
    expect(hitsOf("/shared.json")).toBe(1);
  });

  it("honours Cache-Control max-age within 5 minutes to 24 hours (RFC 9111 §5.2.2.1)", async () => {
    const url = serve("/ten-minutes.json", document(`${base}/ten-minutes.json`), {
      "cache-control": "public, max-age=600",
    });
    const resolver = documents();
    await resolver.getClient(url);
    clock += 599_000;
    await resolver.getClient(url);
    expect(hitsOf("/ten-minutes.json")).toBe(1);
    clock += 2_000;
    await resolver.getClient(url);
    expect(hitsOf("/ten-minutes.json")).toBe(2);
    expect(cacheLifetimeMs("max-age=10")).toBe(CACHE_MIN_MS);
    expect(cacheLifetimeMs("no-store")).toBe(CACHE_MIN_MS);
    expect(cacheLifetimeMs("max-age=31536000")).toBe(24 * 60 * 60_000);
    expect(cacheLifetimeMs(undefined)).toBe(CACHE_DEFAULT_MS);
  });

  it("does not cache failures by default (draft §4.4: MUST NOT cache error responses)", async () => {
    const resolver = documents();
    await failure(resolver.getClient(`${base}/gone.json`));
    await failure(resolver.getClient(`${base}/gone.json`));
    expect(hitsOf("/gone.json")).toBe(2);
  });

  it("remembers a failure for failureCacheMs when a host opts in (negative cache)", async () => {
    const resolver = documents({ failureCacheMs: 5 * 60_000 });
    const first = await failure(resolver.getClient(`${base}/gone.json`));
    const second = await failure(resolver.getClient(`${base}/gone.json`));
    expect(second.message).toBe(first.message);
    expect(hitsOf("/gone.json")).toBe(1);
    clock += 5 * 60_000 + 1;
    await failure(resolver.getClient(`${base}/gone.json`));
    expect(hitsOf("/gone.json")).toBe(2);
  });

  it("keeps at most cacheEntries documents, forgetting the least recently used", async () => {
    const [a, b, c] = ["/a.json", "/b.json", "/c.json"].map((path) =>
      serve(path, document(`${base}${path}`)),
    ) as [string, string, string];
    const resolver = documents({ cacheEntries: 2 });
    await resolver.getClient(a);
    await resolver.getClient(b);
    await resolver.getClient(a); // a is now the more recently used
    await resolver.getClient(c); // b goes
    await resolver.getClient(a);
    expect(hitsOf("/a.json")).toBe(1);
    await resolver.getClient(b);
    expect(hitsOf("/b.json")).toBe(2);
  });

  it("hands out copies: changing one does not change the cache", async () => {
    const url = serve("/copy.json", document(`${base}/copy.json`));
    const resolver = documents();
    const first = await resolver.getClient(url);
    first.redirect_uris.push("https://evil.example/cb");
    expect((await resolver.getClient(url)).redirect_uris).toHaveLength(2);
  });
});
