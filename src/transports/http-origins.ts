// Which Host and Origin headers this server answers: DNS rebinding and pages of other sites must
// not drive a local server (MCP transports spec, "Security Warning").
import { hostHeaderValidation } from "@modelcontextprotocol/express";
import type { NextFunction, Request, Response } from "express";
import type { Config } from "../config.js";
import { rpcError } from "./http-replies.js";
import type { refusalWarner } from "./human-page.js";

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

type RefusalWarner = ReturnType<typeof refusalWarner>;

interface AllowedOrigin {
  hostname: string;
  /** Undefined when the entry names no port (and no scheme): any port of that host. */
  port: string | undefined;
}

/** The SDK's Host check for loopback, --allowed-hosts and the public URL; a refusal is logged. */
export function hostValidation(
  config: Pick<Config, "allowedHosts" | "publicUrl">,
  warnRefused: RefusalWarner,
) {
  const allowedHostnames = [
    ...LOOPBACK,
    ...config.allowedHosts.map(hostnameOf),
    ...(config.publicUrl ? [new URL(config.publicUrl).hostname] : []),
  ];
  const checkHost = hostHeaderValidation(allowedHostnames);
  return (req: Request, res: Response, next: NextFunction) => {
    let passed = false;
    checkHost(req, res, () => {
      passed = true;
      next();
    });
    // The SDK's check answers synchronously; only a refused Host is looked at again, to log it.
    if (passed) return;
    const hostname = hostnameOfHeader(req.headers.host);
    if (hostname !== undefined) {
      warnRefused("Host", req.headers.host ?? "", hostname.length <= 253 ? hostname : undefined);
    }
  };
}

/**
 * Browsers send Origin; a page from any other site must not drive this local server. A loopback
 * origin must also be on this server's own port (or one named in --allowed-hosts): another local
 * port is another, untrusted, app.
 */
export function originValidation(
  listenPort: () => number,
  allowedHosts: readonly string[],
  warnRefused: RefusalWarner,
) {
  const allowed = allowedHosts.map(parseAllowedOrigin);
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.header("origin");
    if (origin === undefined) return next();
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    const port = url ? effectivePort(url) : undefined;
    // A loopback entry opens only the port it names, so `--allowed-hosts localhost` opens none.
    const loopback = url !== undefined && LOOPBACK.includes(url.hostname);
    const ok =
      url !== undefined &&
      port !== undefined &&
      ((loopback && port === String(listenPort())) ||
        allowed.some(
          (a) =>
            a.hostname === url.hostname && (a.port === undefined ? !loopback : a.port === port),
        ));
    if (!ok) {
      // The origin itself, scheme and port included, is an entry --allowed-hosts accepts.
      const allowWith = url && url.origin !== "null" ? url.origin : undefined;
      warnRefused("Origin", origin, allowWith);
      return rpcError(res, 403, -32000, `Origin not allowed: ${origin}`);
    }
    next();
  };
}

/** The Host header's name as the SDK's check reads it; undefined when missing or unreadable. */
function hostnameOfHeader(host: string | undefined): string | undefined {
  if (!host) return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/** `app.example.com` (any port), `app.example.com:8443`, or `https://app.example.com` (443). */
function parseAllowedOrigin(entry: string): AllowedOrigin {
  const hasScheme = entry.includes("://");
  try {
    const url = new URL(hasScheme ? entry : `http://${entry}`);
    const port = hasScheme || url.port !== "" ? effectivePort(url) : undefined;
    return { hostname: url.hostname, port };
  } catch {
    return { hostname: entry.toLowerCase(), port: undefined };
  }
}

function effectivePort(url: URL): string | undefined {
  if (url.port) return url.port;
  if (url.protocol === "http:") return "80";
  if (url.protocol === "https:") return "443";
  return undefined;
}

function hostnameOf(entry: string): string {
  try {
    return new URL(entry.includes("://") ? entry : `http://${entry}`).hostname;
  } catch {
    return entry.toLowerCase();
  }
}
