// Which tools link to an MCP Apps view in their `tools/list` entry (`_meta.ui.resourceUri`).
import { VIEW_URIS, type ViewName } from "./app-views.js";

/** The read tools with a view of their own; every confirmed change renders the confirmation card. */
const READ_VIEWS: Readonly<Record<string, ViewName>> = {
  search_hires: "hires",
  get_hire: "hire",
  list_invoices: "invoices",
  list_payment_requests: "timesheets",
};

/** The view a tool links to in its `_meta.ui`, if any. */
export function viewOf(tool: { name: string; confirmed: boolean }): string | undefined {
  if (tool.confirmed) return VIEW_URIS.confirmation;
  const view = READ_VIEWS[tool.name];
  return view ? VIEW_URIS[view] : undefined;
}
