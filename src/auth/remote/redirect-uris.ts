// What an MCP client may register (dynamic registration, RFC 7591) or publish (a Client ID Metadata
// Document) as its metadata here. Redirect URLs: MCP authorization 2025-11-25 (Communication
// Security) says "All redirect URIs MUST be either localhost or use HTTPS"; OAuth 2.1 and RFC 6749
// §3.1.2 forbid a fragment; RFC 8252 §7.3/§8.3 name the loopback hosts native apps listen on.
// Private-use schemes (RFC 8252 §7.1) are not needed by MCP's rule and are refused. The consent
// page shows the redirect URL and the client's name, so neither may hold characters a reader
// cannot see. Sizes are bounded: everything here is stored, and shown to a person.
import type { OAuthClientMetadata } from "@modelcontextprotocol/server";
import { InvalidClientMetadataError } from "@modelcontextprotocol/server-legacy/auth";

export const MAX_URI_LENGTH = 2_000;
export const MAX_REDIRECT_URIS = 10;
const MAX_CLIENT_NAME_LENGTH = 200;
/** The metadata as JSON (UTF-8), secrets and ids included: it is stored per client. */
export const MAX_METADATA_BYTES = 4 * 1024;

/** RFC 8252 §7.3 / §8.3: the loopback hosts (as URL.hostname spells them). */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** Optional links in the metadata: kept when https, dropped otherwise (they are not needed). */
const OPTIONAL_URL_FIELDS = [
  "client_uri",
  "logo_uri",
  "tos_uri",
  "policy_uri",
  "jwks_uri",
] as const;

/** RFC 7591 §3.2.2 names this error for a redirect URL the server will not take. */
export class InvalidRedirectUriError extends InvalidClientMetadataError {
  static override errorCode = "invalid_redirect_uri";
}

// Unicode's own categories: controls (Cc); format characters (Cf) such as bidi overrides, zero-width
// spaces and tags; line and paragraph separators. Zero-width (non-)joiners stay: emoji and several
// scripts need them.
const HIDDEN = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

const codePoint = (char: string) =>
  (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");

/**
 * A value as a refusal quotes it: JSON-quoted, hidden characters written out (\u{202E}), and cut
 * short, so a long one cannot flood a log.
 */
export function quoted(value: string, max = 120): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(cut).replace(HIDDEN, (char) => `\\u{${codePoint(char)}}`);
}

/** Why `text` cannot be shown to a person as it is (naming the characters), or undefined. */
function hiddenIn(text: string): string | undefined {
  const found = [...new Set(text.match(HIDDEN))].map((char) => `U+${codePoint(char)}`);
  return found.length > 0
    ? `holds characters a reader cannot see or that change the text's direction (${found.join(", ")})`
    : undefined;
}

/** Why a URL cannot be shown to a person as it is, or undefined. */
function unreadable(text: string): string | undefined {
  return /\s/u.test(text) ? "holds white space or a line break" : hiddenIn(text);
}

/**
 * Why `uri` may not be a redirect URL here (a sentence naming the rule), or undefined when it may:
 * https, or plain http to a loopback host only; absolute; no fragment; no user name or password;
 * nothing invisible; at most MAX_URI_LENGTH characters.
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_URI_LENGTH) return `is longer than ${MAX_URI_LENGTH} characters`;
  const shown = unreadable(uri);
  if (shown) return shown;
  if (!URL.canParse(uri)) return "is not an absolute URL";
  const url = new URL(uri);
  // `#` alone leaves url.hash empty: look at the text.
  if (uri.includes("#")) return "has a fragment (#…), which RFC 6749 §3.1.2 forbids";
  if (url.username || url.password) {
    return "carries a user name or password (user:password@), which would be sent on to that host";
  }
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:") {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? undefined
      : "uses plain http to a host that is not loopback; MCP authorization (2025-11-25) allows https, or http only to localhost, 127.0.0.1 or [::1] (RFC 8252 §7.3)";
  }
  return `uses the ${url.protocol} scheme; only https, or http to localhost, 127.0.0.1 or [::1], is allowed (MCP authorization 2025-11-25)`;
}

/** Whether a (valid) redirect URL goes to this computer: a loopback host (RFC 8252 §7.3). */
export function isLoopbackUri(uri: string): boolean {
  return LOOPBACK_HOSTS.has(new URL(uri).hostname);
}

/** Why an optional link is dropped, or undefined when it is kept. */
function linkProblem(value: string): string | undefined {
  if (value.length > MAX_URI_LENGTH || unreadable(value) || !URL.canParse(value)) return "invalid";
  const url = new URL(value);
  return url.protocol !== "https:" || url.username || url.password ? "not plain https" : undefined;
}

/**
 * Checks a client's metadata before it is stored or used, and returns a copy of it without the
 * optional links (client_uri, logo_uri, tos_uri, policy_uri, jwks_uri) that are not plain https.
 * Throws InvalidRedirectUriError (a redirect URL; `invalid_redirect_uri`, RFC 7591 §3.2.2) or
 * InvalidClientMetadataError (anything else), naming the value and the rule.
 */
export function checkClientMetadata<T extends OAuthClientMetadata>(metadata: T): T {
  const problem = (message: string, Kind = InvalidClientMetadataError): never => {
    throw new Kind(message);
  };
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) {
    problem("redirect_uris is required: at least one redirect URL (RFC 9700 §4.1.1)");
  }
  if (uris.length > MAX_REDIRECT_URIS) {
    problem(`redirect_uris holds ${uris.length} URLs; at most ${MAX_REDIRECT_URIS} are accepted`);
  }
  uris.forEach((uri, index) => {
    const why = typeof uri === "string" ? redirectUriProblem(uri) : "is not a string";
    if (why) {
      problem(
        `redirect_uris[${index}] ${typeof uri === "string" ? `${quoted(uri)} ` : ""}${why}`,
        InvalidRedirectUriError,
      );
    }
  });
  const name = metadata.client_name;
  if (name !== undefined) {
    if (name.length > MAX_CLIENT_NAME_LENGTH) {
      problem(`client_name is longer than ${MAX_CLIENT_NAME_LENGTH} characters`);
    }
    // It is shown on the consent page: what the person reads must be all there is.
    const hidden = hiddenIn(name);
    if (hidden) problem(`client_name ${quoted(name)} ${hidden}`);
  }
  const bytes = Buffer.byteLength(JSON.stringify(metadata), "utf8");
  if (bytes > MAX_METADATA_BYTES) {
    problem(`the client metadata is ${bytes} bytes as JSON; at most ${MAX_METADATA_BYTES}`);
  }
  const checked = { ...metadata };
  for (const field of OPTIONAL_URL_FIELDS) {
    const value = checked[field];
    if (value !== undefined && (typeof value !== "string" || linkProblem(value))) {
      delete checked[field];
    }
  }
  return checked;
}
