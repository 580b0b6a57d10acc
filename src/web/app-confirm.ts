// confirm_change, the tool the confirmation card's Confirm calls: its list entry (for clients that
// render Apps, visibility "app") and the opening of the card's sealed state. Loaded only when a
// client that renders Apps lists tools or confirms on a card.
import { openCard } from "../state/sealing.js";
import { CONFIRM_CHANGE_TOOL, VIEW_URIS } from "./app-views.js";

/** confirm_change as a client that renders Apps lists it: for the card, never for the model. */
export const CONFIRM_CHANGE_ENTRY = {
  name: CONFIRM_CHANGE_TOOL,
  title: "Confirm a change on its card",
  description:
    "Called by the confirmation card of an MCP Apps client when the person presses Confirm; it carries the card's sealed confirmation and sends the change previewed on it. Refused without one.",
  inputSchema: {
    type: "object" as const,
    properties: {
      confirmation: { type: "string", description: "The card's sealed confirmation." },
    },
    required: ["confirmation"],
  },
  annotations: {
    title: "Confirm a change on its card",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  _meta: { ui: { resourceUri: VIEW_URIS.confirmation, visibility: ["app"] } },
};

interface OpenedCard {
  tool: string;
  args: Record<string, unknown>;
  form: unknown;
}

/** The card's sealed state, opened: or why a call without a valid one is refused. */
export function openedCard(
  args: Record<string, unknown>,
  sealingKey: Buffer,
  now: number,
): OpenedCard | { refusal: string } {
  const sealed = args.confirmation;
  const refusal = (why: string) => ({
    refusal: `${CONFIRM_CHANGE_TOOL} refused: ${why}. Nothing was sent. Only the confirmation card calls it, with the confirmation it received with the preview.`,
  });
  if (typeof sealed !== "string" || Object.keys(args).length !== 1) {
    return refusal("it takes exactly one argument, confirmation, as the card received it");
  }
  const opened = openCard(sealingKey, sealed, now) as
    | (OpenedCard & { expiresAt: number })
    | undefined;
  if (!opened || typeof opened.tool !== "string" || typeof opened.args !== "object") {
    return refusal(
      "the confirmation was not sealed by this server for a card, was altered, or expired",
    );
  }
  return { tool: opened.tool, args: opened.args, form: opened.form };
}
