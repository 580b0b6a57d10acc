// A company's webhooks as the platform gives them, read by list_webhooks and by manage_webhooks
// before it changes one. Never their secrets: the query does not ask for them. How the tools show
// them is in ../shapes/webhook.ts.

import { webhooksOfCompanyQuery } from "../../client/operations/webhooks.js";
import { oneLine } from "../../client/platform-text.js";
import { receiverUrlOf } from "../../state/webhook-secrets.js";
import type { ToolContext } from "../define-tool.js";
import { requestOptions } from "../format.js";
import { ownCompany } from "../known-ids.js";
import { toIdAndName } from "../shapes/named.js";

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

export const eventsText = (events: readonly string[] | null | undefined) =>
  events
    ? events.length === 0
      ? "no events"
      : events.map((e) => oneLine(e)).join(", ")
    : "all events";
