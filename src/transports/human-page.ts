// What a person sees who opens the server's address in a browser: what this is and how to connect
// an assistant, instead of a JSON-RPC error or Express's "Cannot GET /".
import type { Request, Response } from "express";
import type { Logger } from "../logger.js";
import { escapeHtml } from "../web/pages.js";

/** A browser's page load: GET that prefers HTML to an event stream, outside any MCP session. */
export function wantsHumanPage(req: Request): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (req.header("mcp-session-id") !== undefined) return false;
  // An MCP client's GET asks for text/event-stream; a browser's Accept ranks text/html first.
  return req.accepts(["text/event-stream", "text/html"]) === "text/html";
}

export function sendHumanPage(
  req: Request,
  res: Response,
  options: { publicUrl?: string; signIn: "oauth" | "server-token" | "client-token" },
): void {
  const base = options.publicUrl ?? `${req.protocol}://${req.get("host") ?? "127.0.0.1"}`;
  const url = `${base.replace(/\/+$/, "")}/mcp`;
  const access = {
    oauth: "When the assistant connects, it opens a page where you sign in to the platform.",
    "server-token": "This server uses its own platform token: no sign-in is needed.",
    "client-token":
      "Give the assistant your platform personal access token as the header 'Authorization: Bearer &lt;token&gt;'.",
  }[options.signIn];
  const u = escapeHtml(url);
  res
    .status(200)
    .set({
      "Content-Type": "text/html; charset=utf-8",
      // A static page: no script, style or frame of anyone's may run in it.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
    })
    .send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>workforce-mcp: an MCP server</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5}code,pre{background:#f3f3f3;padding:.2rem .4rem;border-radius:4px}pre{padding:.6rem;overflow-x:auto}</style>
</head>
<body>
<h1>workforce-mcp</h1>
<p>This address is an MCP server (Model Context Protocol) for a workforce-management platform: hires, contracts, invoices and timesheets. It answers AI assistants, not browsers.</p>
<h2>Connect an assistant</h2>
<p>Add a remote MCP server (Streamable HTTP) with this URL:</p>
<pre>${u}</pre>
<p>For example, in Claude Code:</p>
<pre>claude mcp add --transport http workforce ${u}</pre>
<p>${access}</p>
</body>
</html>
`);
}

/**
 * One warning per refused Host or Origin value, naming the setting that would allow it: the usual
 * cause is a name the server was not told about (a proxy's, a LAN name), not an attack. Bounded:
 * after `limit` distinct values it says so once and stays quiet.
 */
export function refusalWarner(logger: Logger, limit = 50) {
  const seen = new Set<string>();
  let full = false;
  return (what: "Host" | "Origin", value: string, allowWith: string | undefined) => {
    const shown = value.length > 200 ? `${value.slice(0, 200)}…` : value;
    if (seen.has(shown)) return;
    if (seen.size >= limit) {
      if (!full) logger.warning(`Refused more ${what} values than are logged; no more such lines.`);
      full = true;
      return;
    }
    seen.add(shown);
    logger.warning(
      allowWith
        ? `Refused a request: its ${what} is not allowed. If this server should answer it, start it with --allowed-hosts ${allowWith} (or WORKFORCE_ALLOWED_HOSTS).`
        : `Refused a request: its ${what} is not allowed, and no setting allows it.`,
      { [what.toLowerCase()]: shown },
    );
  };
}
