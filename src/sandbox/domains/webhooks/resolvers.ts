// Visibility as in the core: the caller's companies only; another company's webhook, or its
// events, is not authorised. Deliveries themselves are made by delivery.ts.
import type { RequestContext, ResolverMap } from "../../context.js";
import { withArgs } from "../../context.js";
import { authorizationError, ValidationCollector } from "../../errors.js";
import { companyOf, listFilter, paginate, sortBy } from "../../kit.js";
import type {
  CreateWebhookInput,
  DeleteWebhookInput,
  MutationCreateWebhookArgs,
  MutationDeleteWebhookArgs,
  MutationRetryWebhookEventArgs,
  MutationUpdateWebhookArgs,
  QueryWebhookArgs,
  QueryWebhookEventArgs,
  QueryWebhookEventsArgs,
  QueryWebhooksArgs,
  UpdateWebhookInput,
} from "../../resolver-types.generated.js";
import { dateTime, type WebhookEventRecord, webhookEventsOf } from "./delivery.js";
import { type WebhookRecord, webhooksOf } from "./seed.js";

/** The platform allows secrets up to 255 characters (PLATFORM-INTERFACE §6.1). */
const MAX_SECRET = 255;

function visibleWebhook(ctx: RequestContext, id: string, field: string): WebhookRecord {
  const webhook = webhooksOf(ctx.data).find((w) => w.id === id);
  const v = new ValidationCollector();
  if (!webhook) v.add("input.id", "The selected input.id is invalid.");
  const found = v.passed(field, webhook);
  if (!ctx.identity.companyIds.has(found.companyId)) throw authorizationError();
  return found;
}

/** Title, URL and secret as the platform checks them; the same rules for create and update. */
function checkFields(input: CreateWebhookInput | UpdateWebhookInput, v: ValidationCollector) {
  if (input.title.trim() === "") {
    v.add("input.title", "The input.title field is required.");
  }
  let url: URL | undefined;
  try {
    url = new URL(String(input.url));
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
    v.add("input.url", "The input.url must be a valid URL.");
  }
  if (typeof input.secret === "string" && input.secret.length > MAX_SECRET) {
    v.add("input.secret", `The input.secret may not be greater than ${MAX_SECRET} characters.`);
  }
}

const optional = (value: string | null | undefined) => value ?? null;

function createWebhook(
  ctx: RequestContext,
  input: CreateWebhookInput,
  field: string,
): WebhookRecord {
  const v = new ValidationCollector();
  const company = ctx.data.companies.find((c) => c.id === input.company);
  if (!company) v.add("input.company", "The selected input.company is invalid.");
  else if (!ctx.identity.companyIds.has(company.id)) throw authorizationError();
  checkFields(input, v);
  const owner = v.passed(field, company);
  const list = webhooksOf(ctx.data);
  const next = Math.max(0, ...list.map((w) => Number(w.id.replace(/\D/g, "")) || 0)) + 1;
  const at = dateTime(Date.now());
  const webhook: WebhookRecord = {
    id: `whk_${String(next).padStart(3, "0")}`,
    companyId: owner.id,
    title: String(input.title).trim(),
    description: optional(input.description),
    url: String(input.url),
    secret: optional(input.secret),
    isActive: input.isActive !== false,
    clientId: optional(input.clientId),
    clientSecret: null,
    clientUrl: optional(input.clientUrl),
    subscribedEvents: Array.isArray(input.subscribedEvents)
      ? [...new Set(input.subscribedEvents)]
      : null,
    createdAt: at,
    updatedAt: at,
  };
  list.push(webhook);
  return webhook;
}

function updateWebhook(
  ctx: RequestContext,
  input: UpdateWebhookInput,
  field: string,
): WebhookRecord {
  const webhook = visibleWebhook(ctx, input.id, field);
  const v = new ValidationCollector();
  checkFields(input, v);
  v.throwIfAny(field);
  webhook.title = String(input.title).trim();
  webhook.url = String(input.url);
  if (input.description !== undefined) webhook.description = optional(input.description);
  // "If you are not updating the secret, set it to null"; null subscribedEvents: unchanged.
  if (typeof input.secret === "string") webhook.secret = input.secret;
  if (typeof input.isActive === "boolean") webhook.isActive = input.isActive;
  if (input.clientId !== undefined) webhook.clientId = optional(input.clientId);
  if (input.clientUrl !== undefined) webhook.clientUrl = optional(input.clientUrl);
  if (Array.isArray(input.subscribedEvents)) {
    webhook.subscribedEvents = [...new Set(input.subscribedEvents)];
  }
  webhook.updatedAt = dateTime(Date.now());
  return webhook;
}

function deleteWebhook(
  ctx: RequestContext,
  input: DeleteWebhookInput,
  field: string,
): WebhookRecord {
  const webhook = visibleWebhook(ctx, input.id, field);
  const list = webhooksOf(ctx.data);
  list.splice(list.indexOf(webhook), 1);
  return webhook;
}

function visibleEvent(ctx: RequestContext, id: string): WebhookEventRecord | undefined {
  const event = webhookEventsOf(ctx.data).find((e) => e.id === id);
  if (event && !ctx.identity.companyIds.has(event.companyId)) throw authorizationError();
  return event;
}

export const webhooksResolvers: ResolverMap = {
  Query: {
    webhook: withArgs<QueryWebhookArgs>((_p, { id }, ctx) => {
      const webhook = webhooksOf(ctx.data).find((w) => w.id === id);
      if (!webhook) return null;
      if (!ctx.identity.companyIds.has(webhook.companyId)) throw authorizationError();
      return webhook;
    }),
    webhooks: withArgs<QueryWebhooksArgs>((_p, args, ctx, info) => {
      const accounts = listFilter(args.accounts);
      const visible = webhooksOf(ctx.data).filter(
        (w) => ctx.identity.companyIds.has(w.companyId) && (!accounts || accounts.has(w.companyId)),
      );
      return paginate(sortBy(visible, []), args, info.fieldName);
    }),
    webhookEvent: withArgs<QueryWebhookEventArgs>(
      (_p, { id }, ctx) => visibleEvent(ctx, id) ?? null,
    ),
    webhookEvents: withArgs<QueryWebhookEventsArgs>((_p, args, ctx, info) => {
      const visible = webhookEventsOf(ctx.data).filter(
        (e) =>
          ctx.identity.companyIds.has(e.companyId) &&
          (args.webhookId === undefined ||
            args.webhookId === null ||
            e.webhookId === args.webhookId),
      );
      // "They are returned in descending order of creation."
      return paginate([...visible].reverse(), args, info.fieldName);
    }),
  },
  Mutation: {
    createWebhook: withArgs<MutationCreateWebhookArgs>((_p, { input }, ctx, info) =>
      createWebhook(ctx, input, info.fieldName),
    ),
    updateWebhook: withArgs<MutationUpdateWebhookArgs>((_p, { input }, ctx, info) =>
      updateWebhook(ctx, input, info.fieldName),
    ),
    deleteWebhook: withArgs<MutationDeleteWebhookArgs>((_p, { input }, ctx, info) =>
      deleteWebhook(ctx, input, info.fieldName),
    ),
    retryWebhookEvent: withArgs<MutationRetryWebhookEventArgs>((_p, { input }, ctx, info) => {
      const event = visibleEvent(ctx, input.id);
      const v = new ValidationCollector();
      if (!event) v.add("input.id", "The selected input.id is invalid.");
      ctx.events.retry(v.passed(info.fieldName, event).id);
      return event;
    }),
  },
  Webhook: {
    owner: (w: WebhookRecord, _a, ctx) => companyOf(ctx, w.companyId).name,
  },
};
