import type { Response } from "express";

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

/** A small page for the person's browser; never framed (no clickjacking of the consent form). */
export function sendPage(res: Response, status: number, title: string, bodyHtml: string): void {
  res
    .status(status)
    .set({
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      // No form-action: browsers apply it to the redirect after the form, to another origin.
      "content-security-policy":
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    })
    .send(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.4}button{padding:.4rem 1.2rem;margin-right:.5rem}code{word-break:break-all}</style>
</head><body><h1>${escapeHtml(title)}</h1>
${bodyHtml}
</body></html>`);
}

/** Sends the browser back to an MCP client's redirect URL with these parameters. */
export function redirectWith(res: Response, target: string, params: Record<string, string>): void {
  const url = new URL(target);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  res.set({ "cache-control": "no-store", "referrer-policy": "no-referrer" });
  res.redirect(302, url.href);
}
