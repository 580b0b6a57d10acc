// The small HTML pages that people's browsers see during a sign-in (the team server's consent and
// error pages, the sandbox's consent page, `workforce-mcp login`'s result page), and the redirect
// that ends one. Every page carries the same protections: never framed (no clickjacking of a
// consent form), no scripts or outside resources, never cached, no Referer sent to another site.
import type { ServerResponse } from "node:http";
import escapeHtml from "escape-html";

export { escapeHtml };

const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  // Not no-referrer: under it Chromium posts a page's form with `Origin: null`, and the consent
  // form's Origin is how the server knows the answer came from its own page.
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  // No form-action: browsers apply it to the redirect after the form, to another origin.
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
};

const STYLE =
  "body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.4}label{display:block;margin:.6rem 0}button{padding:.4rem 1.2rem;margin-right:.5rem}fieldset{border:1px solid #ccc}code{word-break:break-all}";

/**
 * Sends a page: `title` is text (escaped here), `bodyHtml` is HTML whose every outside value the
 * caller escaped. `headers` adds to the protective ones (e.g. `connection: close`).
 */
export function sendPage(
  res: ServerResponse,
  status: number,
  title: string,
  bodyHtml: string,
  headers: Record<string, string> = {},
): void {
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head><body><h1 id="result">${escapeHtml(title)}</h1>
${bodyHtml}
</body></html>`;
  res.writeHead(status, {
    ...PAGE_HEADERS,
    ...headers,
    "content-length": Buffer.byteLength(html),
  });
  res.end(html);
}

/** Sends the browser back to a client's redirect URL with these parameters (an OAuth answer). */
export function redirectWith(
  res: ServerResponse,
  target: string,
  params: Record<string, string>,
): void {
  const url = new URL(target);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  res.writeHead(302, {
    location: url.href,
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "content-length": 0,
  });
  res.end();
}
