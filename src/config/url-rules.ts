// The URL settings: which addresses each one accepts, and the form it is kept in. A URL may carry
// credentials, so no message ever echoes one.
import * as z from "zod";
import { DEFAULTS } from "./defaults.js";

/** Loopback names a browser and this machine agree on; only these may use plain http for sign-in. */
export const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * A URL setting: `invalid` when the value is no URL, else the first problem `check` finds (a whole
 * message), else `normalize`'s form of it.
 */
function urlSetting(
  invalid: string,
  check: (url: URL) => string | undefined,
  normalize: (url: URL, raw: string) => string,
) {
  return z.string().transform((raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      ctx.issues.push({ code: "custom", message: invalid, input: raw });
      return z.NEVER;
    }
    const problem = check(url);
    if (problem) {
      ctx.issues.push({ code: "custom", message: problem, input: raw });
      return z.NEVER;
    }
    return normalize(url, raw);
  });
}

/** The platform's address: http or https only, and no user name or password in it. */
export const apiUrlSchema = urlSetting(
  "WORKFORCE_API_URL must be a URL such as https://api.example.com",
  (url) =>
    url.protocol !== "https:" && url.protocol !== "http:"
      ? `WORKFORCE_API_URL must start with https:// or http://, not ${url.protocol}//`
      : url.username || url.password
        ? "WORKFORCE_API_URL must not contain a user name or password; the platform takes its token from WORKFORCE_TOKEN. Remove the credentials from the URL."
        : url.search || url.hash
          ? "WORKFORCE_API_URL must not have a query string or #fragment."
          : undefined,
  (url) => `${url.origin}${url.pathname}`.replace(/\/+$/, "").replace(/\/graphql$/, ""),
);

/**
 * Where replicas keep their shared state: redis:// or rediss:// (TLS). The URL may hold a password;
 * logs show only its host, port and database.
 */
export const redisUrlSchema = urlSetting(
  "WORKFORCE_REDIS_URL must be a URL such as redis://127.0.0.1:6379 or rediss://user:password@redis.example.com:6380.",
  (url) => {
    const problem =
      url.protocol !== "redis:" && url.protocol !== "rediss:"
        ? `must start with redis:// or rediss:// (TLS), not ${url.protocol}//`
        : !url.hostname
          ? "must name the Redis host, such as redis://127.0.0.1:6379"
          : url.search || url.hash
            ? "must not have a query string or #fragment"
            : !/^\/?\d*$/.test(url.pathname)
              ? "may end only in a database number, such as redis://127.0.0.1:6379/0"
              : undefined;
    return problem && `WORKFORCE_REDIS_URL ${problem}.`;
  },
  (_url, raw) => raw,
);

/**
 * The authorization server's address. The client secret and refresh tokens go there, so plain
 * http is allowed only on this machine.
 */
export const authUrlSchema = urlSetting(
  "WORKFORCE_AUTH_URL must be a URL such as https://auth.example.com",
  (url) => {
    const problem =
      url.protocol !== "https:" && url.protocol !== "http:"
        ? `must start with https://, not ${url.protocol}//`
        : url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)
          ? "must start with https:// (http:// only for 127.0.0.1 or localhost): the client secret and refresh tokens are sent there"
          : url.username || url.password
            ? "must not contain a user name or password"
            : url.search || url.hash
              ? "must not have a query string or #fragment"
              : undefined;
    return problem && `WORKFORCE_AUTH_URL ${problem}.`;
  },
  (url) =>
    `${url.origin}${url.pathname}`
      .replace(/\/+$/, "")
      .replace(/\/oauth(\/(authorize|token))?$/, ""),
);

/**
 * The team server's address as people's assistants reach it (`--auth oauth`): the resource its
 * tokens are bound to, and the base of its sign-in endpoints. An origin only: the SDK serves the
 * OAuth endpoints and metadata at the root. https, or http on this machine.
 */
export const publicUrlSchema = urlSetting(
  "WORKFORCE_PUBLIC_URL must be a URL such as https://mcp.example.com.",
  (url) => {
    const problem =
      url.protocol !== "https:" && url.protocol !== "http:"
        ? `must start with https://, not ${url.protocol}//`
        : url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)
          ? "must start with https:// (http:// only for 127.0.0.1 or localhost): sign-in codes and tokens travel to it"
          : url.username || url.password || url.search || url.hash
            ? "must not contain a user name, password, query string or #fragment"
            : url.pathname !== "/"
              ? "must be the server's base address with no path (such as https://mcp.example.com): MCP is served at <address>/mcp and the sign-in endpoints at its root"
              : undefined;
    return problem && `WORKFORCE_PUBLIC_URL ${problem}.`;
  },
  (url) => url.origin,
);

/** Where the browser brings the sign-in's answer: a port on this machine, as registered. */
const REDIRECT_URI_MESSAGE = `WORKFORCE_REDIRECT_URI must be an http address on this machine with a port, such as ${DEFAULTS.redirectUri}, exactly as registered with the platform's OAuth client.`;
export const redirectUriSchema = urlSetting(
  REDIRECT_URI_MESSAGE,
  (url) =>
    url.protocol !== "http:" ||
    !LOOPBACK_HOSTS.has(url.hostname) ||
    url.port === "" ||
    url.port === "0" ||
    url.username ||
    url.password ||
    url.search ||
    url.hash
      ? REDIRECT_URI_MESSAGE
      : undefined,
  (url) => url.href,
);

/**
 * The team's HTTP server, for a local server (stdio) reading its live changes: the person's own
 * platform credential is sent there, so https, or http on this machine. The MCP address
 * (<base>/mcp) is taken too.
 */
export const teamUrlSchema = urlSetting(
  "WORKFORCE_TEAM_URL must be a URL such as https://mcp.example.com.",
  (url) => {
    const problem =
      url.protocol !== "https:" && url.protocol !== "http:"
        ? `must start with https://, not ${url.protocol}//`
        : url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)
          ? "must start with https:// (http:// only for 127.0.0.1 or localhost): your platform credential is sent there"
          : url.username || url.password || url.search || url.hash
            ? "must not contain a user name, password, query string or #fragment"
            : undefined;
    return problem && `WORKFORCE_TEAM_URL ${problem}.`;
  },
  (url) => `${url.origin}${url.pathname}`.replace(/\/+$/, "").replace(/\/mcp$/, ""),
);
