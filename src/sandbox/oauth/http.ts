// The sandbox OAuth endpoints' plumbing: their errors (RFC 6749 §5.2 JSON), JSON answers and forms.
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody } from "../../web/body.js";

const MAX_FORM_BYTES = 64 * 1024;

/** Ends a request with an OAuth error answer. */
export class OAuthFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    pragma: "no-cache",
  });
  res.end(text);
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const text = await readBody(
    req,
    MAX_FORM_BYTES,
    () => new OAuthFailure(413, "invalid_request", "The request body is too large."),
  );
  return new URLSearchParams(text);
}
