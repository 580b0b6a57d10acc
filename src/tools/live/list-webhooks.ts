import * as z from "zod";
import { oneLine } from "../../client/platform-text.js";
import { whole } from "../confirmation.js";
import {
  defineTool,
  readOnlyAnnotations,
  type ToolContext,
  ToolInputError,
} from "../define-tool.js";
import { withCompanyId, withNotes } from "../known-ids.js";
import { idAndName } from "../shapes/named.js";
import { deliveryOutput, toDelivery, webhookOutput, webhooksOut } from "../shapes/webhook.js";
import { eventsText, readWebhooks, receiverOf } from "./company-webhooks.js";

const TOOL = "list_webhooks";

export const listWebhooksTool = defineTool({
  name: TOOL,
  title: "List webhooks",
  toolset: "live",
  instruction:
    "list_webhooks lists a company's webhooks (never their secrets) with their last delivery and failed deliveries, or one webhook's recent deliveries; manage_webhooks changes them.",
  readme: {
    does: "\"List our webhooks\": a company's webhooks with their events and last delivery, or one webhook's recent deliveries (never a secret)",
  },
  description: [
    "A company's webhooks (the platform's event notifications): URL, events, active, last delivery, failed deliveries; with webhookId, that webhook's recent deliveries.",
    "Use when: which webhooks exist, whether deliveries fail, or to find a failed delivery's id.",
    "Do not use for: what the webhooks reported (use list_changes); registering or deleting one, or sending a delivery again (manage_webhooks).",
    "Returns: webhooks (never their secrets), this server's receiver address; or one webhook's deliveries.",
  ].join("\n"),
  inputSchema: {
    company: z.string().min(1).describe("Company id or name."),
    webhookId: z
      .string()
      .min(1)
      .optional()
      .describe("One webhook's id: shows its recent deliveries."),
  },
  outputSchema: {
    company: idAndName,
    receiverUrl: z.string().nullable(),
    webhooks: z.array(webhookOutput),
    /** With webhookId: that webhook's recent deliveries, newest first. */
    deliveries: z.array(deliveryOutput).optional(),
  },
  annotations: readOnlyAnnotations,
  async handler(given, ctx) {
    // A company's name is read as its id first.
    const { args, notes } = await withCompanyId(ctx, given);
    return withNotes(await list(ctx, args.company, args.webhookId), notes);
  },
});

async function list(ctx: ToolContext, companyId: string, webhookId: string | undefined) {
  const receiver = receiverOf(ctx);
  const { company, data } = await readWebhooks(ctx, companyId);
  const all = webhooksOut(data, receiver);
  const webhooks = webhookId === undefined ? all : all.filter((w) => w.id === webhookId);
  if (webhookId !== undefined && webhooks.length === 0) {
    throw new ToolInputError(
      `company ${oneLine(company.id)} has no webhook ${oneLine(webhookId)}`,
      "webhookId",
      `Leave webhookId out to see the company's webhooks (${all.length}).`,
    );
  }
  const lines = webhooks.map((w) => {
    const last = w.lastDelivery
      ? `last delivery ${oneLine(w.lastDelivery.id)} ${oneLine(w.lastDelivery.event)} ${oneLine(w.lastDelivery.status)} at ${oneLine(w.lastDelivery.at)}`
      : "no recent deliveries";
    return `- ${oneLine(w.id)} ${whole(w.title)} ${w.isActive ? "active" : "INACTIVE"}${w.toThisServer ? " (this server's receiver)" : ""}: ${whole(w.url)}; ${eventsText(w.events)}; ${last}${w.failedDeliveries > 0 ? `; ${w.failedDeliveries} failed recently (${w.failedDeliveryIds.map((id) => oneLine(id)).join(", ")})` : ""}`;
  });
  const head =
    webhookId === undefined
      ? `${webhooks.length} webhook${webhooks.length === 1 ? "" : "s"} of company ${whole(company.name)} (${oneLine(company.id)})${webhooks.length > 0 ? ":" : "."}`
      : `Webhook ${oneLine(webhookId)} of company ${whole(company.name)} (${oneLine(company.id)}):`;
  const foot = receiver
    ? `This server's receiver: ${receiver}.`
    : "This server has no public address (WORKFORCE_PUBLIC_URL), so it cannot register a webhook to itself.";
  const structured = { company, receiverUrl: receiver ?? null, webhooks };
  if (webhookId === undefined) return { structured, text: [head, ...lines, foot].join("\n") };
  // Newest first, as the platform returns them.
  const deliveries = data.webhookEvents.data
    .filter((e) => e.webhookId === webhookId)
    .map(toDelivery);
  const deliveryLines =
    deliveries.length === 0
      ? ["No recent deliveries."]
      : [
          `${deliveries.length} recent deliver${deliveries.length === 1 ? "y" : "ies"}, newest first:`,
          ...deliveries.map(
            (d) =>
              `- ${oneLine(d.id)} ${oneLine(d.event)} ${oneLine(d.status)} at ${oneLine(d.at)}`,
          ),
        ];
  return {
    structured: { ...structured, deliveries },
    text: [head, ...lines, ...deliveryLines, foot].join("\n"),
  };
}
