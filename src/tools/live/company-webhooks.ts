// A company's webhooks as the platform gives them, read by list_webhooks and by manage_webhooks
// before it changes one. Never their secrets: the query does not ask for them.

import * as z from "zod";
import type { WebhooksOfCompanyQuery } from "../../client/operation-types.generated.js";
import { webhooksOfCompanyQuery } from "../../client/operations/webhooks.js";
import { oneLine } from "../../client/platform-text.js";
import { receiverUrlOf } from "../../state/webhook-secrets.js";
import type { ToolContext } from "../define-tool.js";
import { requestOptions } from "../format.js";
import { ownCompany } from "../known-ids.js";
import { toIdAndName } from "../shapes/named.js";

export const webhookOutput = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string(),
  isActive: z.boolean(),
  /** null: every event. */
  events: z.array(z.string()).nullable(),
  /** Whether it delivers to this server's receiver. */
  toThisServer: z.boolean(),
  lastDelivery: z
    .object({ id: z.string(), event: z.string(), status: z.string(), at: z.string() })
    .nullable(),
  failedDeliveries: z.number(),
  /** The most recent failed deliveries' ids, for retry. */
  failedDeliveryIds: z.array(z.string()),
});
type WebhookOut = z.infer<typeof webhookOutput>;

/** The company's webhooks and the recent deliveries; the company must be one of the caller's. */
export async function readWebhooks(ctx: ToolContext, company: string) {
  const { data } = await ctx.client.run(webhooksOfCompanyQuery, { company }, requestOptions(ctx));
  // The accounts withCompanyId read for this call: not read again, here or on each read-back.
  const account = await ownCompany(
    ctx,
    company,
    "Find the company's id with list_accounts (webhooks belong to companies).",
  );
  return { company: toIdAndName(account), data };
}

/** This server's receiver, as the platform is to reach it; undefined without a public address. */
export const receiverOf = (ctx: ToolContext) =>
  ctx.config.publicUrl ? receiverUrlOf(ctx.config.publicUrl) : undefined;

export function webhooksOut(
  data: WebhooksOfCompanyQuery,
  receiver: string | undefined,
): WebhookOut[] {
  return data.webhooks.data.map((w) => {
    // Newest first, as the platform returns them.
    const deliveries = data.webhookEvents.data.filter((e) => e.webhookId === w.id);
    const last = deliveries[0];
    const failed = deliveries.filter((e) => e.status.startsWith("failed"));
    return {
      id: w.id,
      title: w.title,
      url: w.url,
      isActive: w.isActive !== false,
      events: w.subscribedEvents ?? null,
      toThisServer: receiver !== undefined && w.url === receiver,
      lastDelivery: last
        ? { id: last.id, event: last.event, status: last.status, at: last.updatedAt }
        : null,
      failedDeliveries: failed.length,
      failedDeliveryIds: failed.slice(0, 5).map((e) => e.id),
    };
  });
}

export const eventsText = (events: readonly string[] | null | undefined) =>
  events
    ? events.length === 0
      ? "no events"
      : events.map((e) => oneLine(e)).join(", ")
    : "all events";
