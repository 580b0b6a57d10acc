// Cookies of the sign-in pages, read and written with the `cookie` package (its parsing and
// attribute syntax, rather than string splitting here).
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseCookie, type SetCookie, stringifySetCookie } from "cookie";

/** The value of one cookie the browser sent, if any. */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  return parseCookie(req.headers.cookie ?? "")[name];
}

/** Adds a Set-Cookie header to the answer (beside any others already set). */
export function setCookie(res: ServerResponse, cookie: SetCookie): void {
  res.appendHeader("set-cookie", stringifySetCookie(cookie));
}
