// Client ID Metadata Documents (MCP authorization 2025-11-25, "Client ID Metadata Documents";
// draft-ietf-oauth-client-id-metadata-document-00, "the draft" below): a client_id that is an https
// URL names a JSON document, fetched here, that says who the client is and where it may be sent.
// The URL comes from anyone on the internet, so the fetch is fenced (draft §6.5, SSRF): https only;
// the host's every address must be public, and the connection goes to the very address that was
// checked (no second DNS answer can move it); no redirects (draft §4); its size and time bounded
// (draft §6.6: MAX_DOCUMENT_BYTES, FETCH_TIMEOUT_MS). A document is used only when its client_id
// is the URL, as a plain string (draft §4.1), it has no secret (public clients only here), and
// module redirect-uris takes it.
import { lookup as dnsLookup } from "node:dns/promises";
import { request } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { MIMEType } from "node:util";
import { OAuthClientInformationFullSchema } from "@modelcontextprotocol/core";
import type { OAuthClientInformationFull } from "@modelcontextprotocol/server";
import {
  InvalidClientError,
  InvalidClientMetadataError,
} from "@modelcontextprotocol/server-legacy/auth";
import { LRUCache } from "lru-cache";
import { readCapped } from "../../web/body.js";
import { checkClientMetadata, MAX_URI_LENGTH, quoted } from "./redirect-uris.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Draft §6.6 recommends reading at most 5 kilobytes. */
const MAX_DOCUMENT_BYTES = 5 * 1024;
/** DNS, connection, TLS and body together. */
const FETCH_TIMEOUT_MS = 5_000;
/** Cache-Control max-age is honoured within these bounds (draft §4.4 allows bounds). */
export const CACHE_MIN_MS = 5 * MINUTE;
const CACHE_MAX_MS = 24 * HOUR;
/** When the document says nothing about caching. */
export const CACHE_DEFAULT_MS = HOUR;
const CACHE_ENTRIES = 1_000;

/** What went wrong, for logs and tests; the message says it to people. */
export type ClientMetadataFailure =
  | "client_id" // the client_id is not a usable Client ID Metadata Document URL
  | "address" // its host has a loopback, private or other special-use address
  | "network" // DNS, connection or TLS failed
  | "timeout"
  | "status" // not 200
  | "redirect" // a 3xx: redirects are not followed
  | "too_large"
  | "content_type" // not JSON
  | "not_json"
  | "document"; // JSON, but not a document this server takes

/**
 * A Client ID Metadata Document that cannot be used. An `invalid_client` OAuth error: thrown from
 * clientsStore.getClient, the SDK answers /authorize and /token with it (draft §4.3: abort).
 */
export class ClientMetadataError extends InvalidClientError {
  constructor(
    readonly failure: ClientMetadataFailure,
    readonly clientId: string,
    reason: string,
  ) {
    super(
      failure === "client_id"
        ? `The client_id ${quoted(clientId)} ${reason}`
        : `The client metadata document at ${quoted(clientId)} ${reason}`,
    );
  }
}

/**
 * Whether a client_id names a Client ID Metadata Document (an https URL with a path other than
 * "/"), so that it is resolved here rather than looked up among registered clients. The SDK's
 * registration hands out UUIDs, which never look like this.
 */
export function isClientIdMetadataUrl(clientId: string): boolean {
  if (typeof clientId !== "string" || !URL.canParse(clientId)) return false;
  const url = new URL(clientId);
  return url.protocol === "https:" && url.pathname !== "/";
}

/**
 * Why a client_id cannot be a Client ID Metadata Document URL (draft §3), or undefined. It must be
 * written as the URL parser writes it (lower-case host, no default port, no "." or ".." segments):
 * it is compared as a plain string, and the URL fetched is the URL compared.
 */
export function clientIdUrlProblem(clientId: string): string | undefined {
  if (clientId.length > MAX_URI_LENGTH) return `is longer than ${MAX_URI_LENGTH} characters`;
  if (!URL.canParse(clientId)) return "is not a URL";
  const url = new URL(clientId);
  if (url.protocol !== "https:") return "does not use https";
  if (url.username || url.password) return "carries a user name or password";
  if (clientId.includes("#")) return "has a fragment (#…)";
  if (url.pathname === "/") return "has no path (https://host/path is needed)";
  if (url.href !== clientId) {
    return `is not written in its normal form; it would be compared as ${quoted(url.href)}`;
  }
  return undefined;
}

/**
 * The host to show on the consent page (draft §6.4: "SHOULD display the hostname of the
 * client_id"); with its port when not 443; international names as punycode, as URL writes them,
 * so a look-alike name shows as what it is.
 */
export function clientIdHost(clientId: string): string | undefined {
  return URL.canParse(clientId) ? new URL(clientId).host : undefined;
}

// ---- Which addresses may be fetched (draft §6.5) ---------------------------------------------

/** May the document be fetched from this address? `family` is 4 or 6. */
export type AddressPolicy = (address: string, family: 4 | 6) => boolean;

// IANA special-purpose registries (RFC 6890 and later): none of these is a public web server.
const SPECIAL_USE = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata endpoints
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
] as const) {
  SPECIAL_USE.addSubnet(network, prefix, "ipv4");
}
// IPv6 outside global unicast (loopback, unspecified, IPv4-mapped, NAT64, unique-local fc00::/7,
// link-local fe80::/10, multicast ff00::/8) is refused by GLOBAL_UNICAST below; these lie inside.
for (const [network, prefix] of [
  ["2001::", 23], // IETF protocol assignments, Teredo among them
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: carries an IPv4 address
  ["3fff::", 20], // documentation
] as const) {
  SPECIAL_USE.addSubnet(network, prefix, "ipv6");
}
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet("2000::", 3, "ipv6");

/** The default: public unicast addresses only. */
export const publicAddressesOnly: AddressPolicy = (address, family) =>
  family === 4
    ? !SPECIAL_USE.check(address, "ipv4")
    : GLOBAL_UNICAST.check(address, "ipv6") && !SPECIAL_USE.check(address, "ipv6");

/** What dns.lookup(host, { all: true }) answers. */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

// ---- Fetching -----------------------------------------------------------------------------------

export interface ClientMetadataOptions {
  /** Default: the system's resolver (dns.lookup). */
  resolve?: Resolver;
  /** Default: publicAddressesOnly. Tests allow their loopback server. */
  allowAddress?: AddressPolicy;
  /** Certificate authorities to trust instead of Node's (a test's self-signed certificate). */
  ca?: string | Buffer;
  /** For the cache only (timeouts use real time). */
  now?: () => number;
  timeoutMs?: number;
  maxBytes?: number;
  cacheEntries?: number;
  /**
   * How long a failure is remembered (each lookup then fails at once, unfetched). Default 0: draft
   * §4.4 says the authorization server "MUST NOT cache error responses" nor invalid documents.
   */
  failureCacheMs?: number;
}

interface Fetched {
  body: Buffer;
  cacheControl: string | undefined;
}

type CacheEntry = { client: OAuthClientInformationFull } | { failure: ClientMetadataError };

/**
 * Resolves Client ID Metadata Document URLs to the client they describe, with a bounded cache.
 * One per process; concurrent lookups of one URL share one fetch.
 */
export class ClientMetadataDocuments {
  private readonly resolve: Resolver;
  private readonly allowAddress: AddressPolicy;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly failureCacheMs: number;
  /** Each entry for its own lifetime on the injected clock (read on every lookup: ttlResolution 0). */
  private readonly cache: LRUCache<string, CacheEntry>;
  private readonly pending = new Map<string, Promise<OAuthClientInformationFull>>();

  constructor(private readonly options: ClientMetadataOptions = {}) {
    this.resolve = options.resolve ?? systemResolver;
    this.allowAddress = options.allowAddress ?? publicAddressesOnly;
    this.timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? MAX_DOCUMENT_BYTES;
    this.failureCacheMs = options.failureCacheMs ?? 0;
    this.cache = new LRUCache({
      max: options.cacheEntries ?? CACHE_ENTRIES,
      ttlResolution: 0,
      perf: { now: options.now ?? Date.now },
    });
  }

  /**
   * The client a Client ID Metadata Document URL describes: client_id is the URL, no secret,
   * token_endpoint_auth_method "none". Throws ClientMetadataError saying what is wrong.
   */
  async getClient(clientId: string): Promise<OAuthClientInformationFull> {
    const cached = this.cache.get(clientId);
    if (cached) {
      if ("failure" in cached) throw cached.failure;
      return structuredClone(cached.client);
    }
    let loading = this.pending.get(clientId);
    if (!loading) {
      loading = this.load(clientId).finally(() => this.pending.delete(clientId));
      this.pending.set(clientId, loading);
    }
    return structuredClone(await loading);
  }

  private async load(clientId: string): Promise<OAuthClientInformationFull> {
    try {
      const problem = clientIdUrlProblem(clientId);
      if (problem) throw new ClientMetadataError("client_id", clientId, problem);
      const { body, cacheControl } = await this.fetch(clientId);
      const client = clientFromDocument(clientId, body);
      this.cache.set(clientId, { client }, { ttl: cacheLifetimeMs(cacheControl) });
      return client;
    } catch (error) {
      if (error instanceof ClientMetadataError && this.failureCacheMs > 0) {
        this.cache.set(clientId, { failure: error }, { ttl: this.failureCacheMs });
      }
      throw error;
    }
  }

  private async fetch(clientId: string): Promise<Fetched> {
    const url = new URL(clientId);
    const fail = (failure: ClientMetadataFailure, reason: string) =>
      new ClientMetadataError(failure, clientId, reason);
    // One deadline for all of it: DNS, connection, TLS, headers and body.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.timeoutMs);
    const timedOut = () =>
      fail("timeout", `did not arrive within ${this.timeoutMs} ms (DNS, connection and body)`);
    try {
      const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
      const aborted = new Promise<never>((_, reject) =>
        deadline.signal.addEventListener("abort", () => reject(timedOut()), { once: true }),
      );
      aborted.catch(() => {});
      let addresses: Array<{ address: string; family: number }>;
      try {
        addresses = await Promise.race([this.resolve(hostname), aborted]);
      } catch (error) {
        if (error instanceof ClientMetadataError) throw error;
        throw fail(
          "network",
          `could not be fetched: resolving its host failed (${describeError(error)})`,
        );
      }
      if (addresses.length === 0) throw fail("network", "could not be fetched: no address");
      for (const { address } of addresses) {
        const family = isIP(address);
        if ((family !== 4 && family !== 6) || !this.allowAddress(address, family)) {
          throw fail(
            "address",
            `is not fetched: its host resolves to ${address}, a loopback, private or other special-use address (draft-ietf-oauth-client-id-metadata-document §6.5)`,
          );
        }
      }
      const chosen = addresses[0] as { address: string; family: number };
      return await this.get(url, hostname, chosen, deadline.signal, fail, timedOut);
    } finally {
      clearTimeout(timer);
    }
  }

  private get(
    url: URL,
    hostname: string,
    target: { address: string; family: number },
    signal: AbortSignal,
    fail: (failure: ClientMetadataFailure, reason: string) => ClientMetadataError,
    timedOut: () => ClientMetadataError,
  ): Promise<Fetched> {
    // Connect to the address that was checked, whatever DNS would answer now (DNS rebinding).
    const lookup: LookupFunction = (_name, options, callback) => {
      if (options.all) callback(null, [target]);
      else callback(null, target.address, target.family);
    };
    return new Promise<Fetched>((resolve, reject) => {
      const req = request(
        {
          host: hostname,
          port: url.port || 443,
          path: `${url.pathname}${url.search}`,
          method: "GET",
          headers: { accept: "application/json", "user-agent": "workforce-mcp" },
          lookup,
          ca: this.options.ca,
          // A fresh connection each time: a pooled one could be to another checked address.
          agent: false,
          signal,
        },
        (res) => {
          const refuse = (failure: ClientMetadataFailure, reason: string) => {
            res.destroy();
            reject(fail(failure, reason));
          };
          const status = res.statusCode ?? 0;
          if (status >= 300 && status < 400) {
            refuse(
              "redirect",
              `answered with a redirect (HTTP ${status}), which is not followed (draft §4)`,
            );
            return;
          }
          if (status !== 200) return refuse("status", `answered HTTP ${status}, not 200`);
          const type = res.headers["content-type"];
          if (!isJsonType(type)) {
            const shown = type ? quoted(type, 60) : "none";
            return refuse("content_type", `is not JSON (content type ${shown})`);
          }
          const declared = Number(res.headers["content-length"]);
          if (Number.isFinite(declared) && declared > this.maxBytes) {
            return refuse("too_large", `is ${declared} bytes; at most ${this.maxBytes} are read`);
          }
          readCapped(res, this.maxBytes).then(
            (body) =>
              body
                ? resolve({ body, cacheControl: res.headers["cache-control"] })
                : refuse("too_large", `is over ${this.maxBytes} bytes; at most that is read`),
            (error) => reject(signal.aborted ? timedOut() : networkFailure(fail, error)),
          );
        },
      );
      req.once("error", (error) =>
        reject(signal.aborted ? timedOut() : networkFailure(fail, error)),
      );
      req.end();
    });
  }
}

const networkFailure = (
  fail: (failure: ClientMetadataFailure, reason: string) => ClientMetadataError,
  error: unknown,
) => fail("network", `could not be fetched: ${describeError(error)}`);

/** A Node error in a few words: its code and its (short) message; never a response body. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return "failed";
  const code = (error as NodeJS.ErrnoException).code;
  const message = error.message.length > 160 ? `${error.message.slice(0, 160)}…` : error.message;
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** application/json, or a more specific application/…+json (draft §4.1). */
function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  try {
    const { type, subtype } = new MIMEType(contentType);
    return type === "application" && (subtype === "json" || subtype.endsWith("+json"));
  } catch {
    return false;
  }
}

/**
 * How long a document is kept: Cache-Control max-age, within CACHE_MIN_MS..CACHE_MAX_MS; no-store
 * or no-cache keep it the least time; nothing said, CACHE_DEFAULT_MS (draft §4.4, RFC 9111 §5.2).
 */
export function cacheLifetimeMs(cacheControl: string | undefined): number {
  if (!cacheControl) return CACHE_DEFAULT_MS;
  const directives = cacheControl.split(",").map((part) => part.trim().toLowerCase());
  if (directives.some((d) => d === "no-store" || d === "no-cache")) return CACHE_MIN_MS;
  const maxAge = directives.find((d) => /^max-age\s*=\s*"?\d+"?$/.test(d));
  if (!maxAge) return CACHE_DEFAULT_MS;
  const seconds = Number(maxAge.replace(/\D/g, ""));
  return Math.min(CACHE_MAX_MS, Math.max(CACHE_MIN_MS, seconds * 1000));
}

/** The client a fetched document describes, or a ClientMetadataError saying why not. */
function clientFromDocument(clientId: string, body: Buffer): OAuthClientInformationFull {
  const refuse = (reason: string): never => {
    throw new ClientMetadataError("document", clientId, reason);
  };
  let raw: unknown;
  try {
    raw = JSON.parse(body.toString("utf8"));
  } catch {
    throw new ClientMetadataError("not_json", clientId, "is not valid JSON");
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return refuse("is not a JSON object");
  }
  const document = raw as Record<string, unknown>;
  if (document.client_id !== clientId) {
    return refuse(
      typeof document.client_id === "string"
        ? `names client_id ${quoted(document.client_id)}; it must be the document's own URL, exactly (draft §4.1)`
        : "has no client_id; it must be the document's own URL (draft §4.1)",
    );
  }
  if ("client_secret" in document || "client_secret_expires_at" in document) {
    return refuse("holds a client_secret, which a metadata document must not (draft §4.1)");
  }
  const method = document.token_endpoint_auth_method;
  if (method !== undefined && method !== "none") {
    return refuse(
      `asks for token_endpoint_auth_method ${quoted(String(method), 40)}; this server takes only public clients ("none")`,
    );
  }
  // MCP authorization 2025-11-25: the document MUST include client_id, client_name, redirect_uris.
  if (typeof document.client_name !== "string" || document.client_name.trim() === "") {
    return refuse("has no client_name (required by MCP authorization 2025-11-25)");
  }
  const parsed = OAuthClientInformationFullSchema.safeParse(document);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join(".") || "(document)"}: ${issue.message}`)
      .join("; ");
    return refuse(`is not valid client metadata (${quoted(issues, 300)})`);
  }
  let checked: OAuthClientInformationFull;
  try {
    checked = checkClientMetadata(parsed.data);
  } catch (error) {
    if (error instanceof InvalidClientMetadataError) return refuse(`is refused: ${error.message}`);
    throw error;
  }
  // Keys are of no use to a public client; the rest is the client's own account of itself.
  const {
    client_secret: _secret,
    client_secret_expires_at: _expires,
    client_id_issued_at: _issued,
    issuer: _issuer,
    jwks: _jwks,
    jwks_uri: _jwksUri,
    ...client
  } = checked;
  return { ...client, client_id: clientId, token_endpoint_auth_method: "none" };
}
