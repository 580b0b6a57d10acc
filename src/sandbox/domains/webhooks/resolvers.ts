// Visibility as in the core: the caller's companies only; another company's webhook is not
// authorised.
import type { AnyRecord, ResolverMap } from "../../context.js";
import { authorizationError } from "../../errors.js";
import { companyOf, listFilter, paginate, sortBy } from "../../kit.js";
import { type WebhookRecord, webhooksOf } from "./seed.js";

export const webhooksResolvers: ResolverMap = {
  Query: {
    webhook: (_p, args, ctx) => {
      const webhook = webhooksOf(ctx.data).find((w) => w.id === args.id);
      if (!webhook) return null;
      if (!ctx.identity.companyIds.has(webhook.companyId)) throw authorizationError();
      return webhook;
    },
    webhooks: (_p, args, ctx, info) => {
      const accounts = listFilter(args, "accounts");
      const visible = webhooksOf(ctx.data).filter(
        (w) => ctx.identity.companyIds.has(w.companyId) && (!accounts || accounts.has(w.companyId)),
      );
      return paginate(sortBy(visible, []), args, info.fieldName);
    },
  },
  Webhook: {
    owner: (w: AnyRecord, _a, ctx) => companyOf(ctx, (w as WebhookRecord).companyId).name,
  },
};
