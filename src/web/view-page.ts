// The HTML of each MCP Apps view: one page per view with the browser script (views/view-app.ts,
// bundled with the ext-apps App class) inline, a strict policy of its own, and nothing loaded from
// anywhere. Loaded with the first read of a view: the script is large, and a start needs none.
import { APP_MIME_TYPE, VIEW_URIS, type ViewName } from "./app-views.js";
import { VIEW_SCRIPT_BUILD } from "./view-script-build.js";

/**
 * The policy the page itself carries, and the one declared to the host (`_meta.ui.csp` with no
 * outside domains): the page's script and style are inline, and it loads and connects to nothing.
 */
const PAGE_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'";

const STYLE = [
  ":root{color-scheme:light dark;font-family:system-ui,sans-serif;font-size:14px}",
  "body{margin:0;padding:12px}h1{font-size:16px;margin:0 0 8px}h2{font-size:14px;margin:12px 0 4px}",
  "table{border-collapse:collapse;width:100%;margin:4px 0}th,td{border-bottom:1px solid #8884;padding:4px 6px;text-align:left;vertical-align:top;overflow-wrap:break-word}",
  "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;overflow-wrap:normal}",
  "table.kv th{width:16em}",
  ".flag{background:#fd04;font-weight:600}.note{opacity:.8}.consequence{font-weight:600;margin:8px 0}",
  "button{font:inherit;padding:6px 16px;margin:8px 8px 0 0;cursor:pointer}button.confirm{font-weight:600}",
  ".outcome{margin-top:8px;padding:6px;border:1px solid #8886;white-space:pre-wrap}",
].join("");

// Replaced by the bundle with the built view script; absent when running from src (tests) or
// from tsc's output, where the script is built on the first read (esbuild is a dev dependency).
declare const __WORKFORCE_VIEW_SCRIPT__: string | undefined;

let script: Promise<string> | undefined;

async function viewScript(): Promise<string> {
  if (typeof __WORKFORCE_VIEW_SCRIPT__ !== "undefined") return __WORKFORCE_VIEW_SCRIPT__;
  script ??= buildViewScript();
  return script;
}

async function buildViewScript(): Promise<string> {
  // A name the bundler cannot follow: the bundle never carries esbuild.
  const name = "esbuild";
  const esbuild = (await import(name)) as typeof import("esbuild");
  const { fileURLToPath } = await import("node:url");
  const { existsSync } = await import("node:fs");
  const ts = fileURLToPath(new URL("./views/view-app.ts", import.meta.url));
  const entry = existsSync(ts) ? ts : ts.replace(/\.ts$/, ".js");
  const built = await esbuild.build({
    ...VIEW_SCRIPT_BUILD,
    entryPoints: [entry],
    logLevel: "silent",
  });
  return built.outputFiles[0]?.text ?? "";
}

/** The whole page of one view: its script inline, so it needs no network at all. */
export async function viewHtml(view: ViewName): Promise<string> {
  // "</script" inside the script would end the element early.
  const code = (await viewScript()).replace(/<\/(script)/gi, "<\\/$1");
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">`,
    '<meta name="viewport" content="width=device-width">',
    `<style>${STYLE}</style></head>`,
    `<body data-view="${view}"><main id="root"><p class="note">Waiting for the answer…</p></main>`,
    `<script>${code}</script></body></html>`,
  ].join("");
}

/** `_meta.ui` of every view resource: no outside origin to connect to or load from. */
export const VIEW_RESOURCE_META = {
  ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [] }, prefersBorder: true },
} as const;

/** The view named by a `ui://` URI this server serves, if any. */
export function viewAt(uri: string): ViewName | undefined {
  return (Object.keys(VIEW_URIS) as ViewName[]).find((view) => VIEW_URIS[view] === uri);
}

/** A view's resource as resources/read answers it, or undefined for a URI that names none. */
export async function viewResource(uri: string) {
  const view = viewAt(uri);
  if (!view) return undefined;
  const text = await viewHtml(view);
  return { contents: [{ uri, mimeType: APP_MIME_TYPE, text, _meta: VIEW_RESOURCE_META }] };
}
