// MCP Apps views (SEP-1865, @modelcontextprotocol/ext-apps): `ui://` resources of self-contained
// HTML that a client which renders Apps shows beside a tool's answer. The model reads the same text
// answer as before; a client without Apps never reads these. One browser script (views/view-app.ts,
// with the ext-apps App class) serves every view; each page says which view it is.

/** The MIME type of an MCP Apps page (ext-apps' RESOURCE_MIME_TYPE). */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

/** The capability key under which a client declares that it renders Apps. */
const APPS_EXTENSION = "io.modelcontextprotocol/ui";

export type ViewName = "confirmation" | "hires" | "hire" | "invoices" | "timesheets";

export const VIEW_URIS: Readonly<Record<ViewName, string>> = {
  confirmation: "ui://workforce/confirmation.html",
  hires: "ui://workforce/hires.html",
  hire: "ui://workforce/hire.html",
  invoices: "ui://workforce/invoices.html",
  timesheets: "ui://workforce/timesheets.html",
};

/** The card's Confirm calls this tool; only the card may (visibility "app"), with its sealed state. */
export const CONFIRM_CHANGE_TOOL = "confirm_change";

/** Where a tool result's `_meta` carries the card for the view: never in what the model reads. */
export const CARD_META_KEY = "workforce/confirmation";

/** Whether a client's capabilities say it renders Apps pages. */
export function rendersApps(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions;
  const ui = extensions?.[APPS_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(APP_MIME_TYPE);
}
