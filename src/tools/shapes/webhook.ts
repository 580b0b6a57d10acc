// A webhook as the tools show it: the output schemas and the mappings from the platform's answer,
// for the selection WebhooksOfCompany in src/client/operations/webhooks.ts.
import * as z from "zod";
import type { WebhooksOfCompanyQuery } from "../../client/operation-types.generated.js";

/** One delivery of a webhook's event. */
export const deliveryOutput = z.object({
  id: z.string(),
  event: z.string(),
  /** pending, success, failed-N or failed-finally. */
  status: z.string(),
  at: z.string(),
});

type Delivery = WebhooksOfCompanyQuery["webhookEvents"]["data"][number];

export const toDelivery = (e: Delivery) => ({
  id: e.id,
  event: e.event,
  status: e.status,
  at: e.updatedAt,
});

/** As list_webhooks lists a company's webhooks: where, which events, and how deliveries went. */
export const webhookOutput = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string(),
  isActive: z.boolean(),
  /** null: every event. */
  events: z.array(z.string()).nullable(),
  /** Whether it delivers to this server's receiver. */
  toThisServer: z.boolean(),
  lastDelivery: deliveryOutput.nullable(),
  failedDeliveries: z.number(),
  /** The most recent failed deliveries' ids, for retry. */
  failedDeliveryIds: z.array(z.string()),
});
type WebhookOut = z.infer<typeof webhookOutput>;

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
      lastDelivery: last ? toDelivery(last) : null,
      failedDeliveries: failed.length,
      failedDeliveryIds: failed.slice(0, 5).map((e) => e.id),
    };
  });
}

/** As manage_webhooks previews one it adds or changes: null id for one not made yet. */
export const webhookChangeOutput = z.object({
  id: z.string().nullable(),
  title: z.string(),
  url: z.string(),
  events: z.array(z.string()).nullable(),
});
