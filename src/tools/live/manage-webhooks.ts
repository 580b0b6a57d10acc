// The company's webhooks on the platform: listed (never their secrets), one registered that points
// at this server's receiver, or one deleted; registering and deleting after the person confirms.
// The secret of a webhook registered here is generated here, sent to the platform once and kept
// sealed in the state store (src/state/webhook-secrets.ts), where the receiver finds it; it is never
// shown, logged or returned.
import { randomBytes } from "node:crypto";
import * as z from "zod";
import type {
  WebhookEventType,
  WebhooksOfCompanyQuery,
} from "../../client/operation-types.generated.js";
import {
  createWebhookMutation,
  deleteWebhookMutation,
  retryWebhookEventMutation,
  webhooksOfCompanyQuery,
} from "../../client/operations/webhooks.js";
import { oneLine } from "../../client/platform-text.js";
import { createWebhookSecretStore, receiverUrlOf } from "../../state/webhook-secrets.js";
import {
  confirmationTokenArg,
  confirmedWrite,
  confirmedWriteAnnotations,
  type Proposal,
  previewTokenOutput,
  refuseWhileUnknown,
  sendWrite,
  unknownAnswer,
  whole,
} from "../confirmation.js";
import { defineTool, type ToolContext, ToolInputError } from "../define-tool.js";
import { requestOptions } from "../format.js";
import { accountsOf, withCompanyId, withNotes } from "../known-ids.js";

const TOOL = "manage_webhooks";

const EVENT_TYPES = [
  "CONTRACT_ACCEPTED",
  "HIRE_ENDED",
  "HIRE_CANCELLED",
  "HIRE_TERMINATED",
  "PAYMENT_REQUEST_APPROVED",
  "INVOICE_CREATED",
] as const satisfies readonly WebhookEventType[];

/** 32 random bytes as hex: 64 characters, well within the platform's 255. */
const SECRET_BYTES = 32;

const webhookOutput = z.object({
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

const previewOutput = z.object({
  company: z.object({ id: z.string(), name: z.string() }),
  webhook: z.object({
    id: z.string().nullable(),
    title: z.string(),
    url: z.string(),
    events: z.array(z.string()).nullable(),
  }),
});
type Preview = z.infer<typeof previewOutput>;

type Action = "list" | "create" | "delete" | "retry";

interface Args {
  action: Action;
  company: string;
  events?: (typeof EVENT_TYPES)[number][];
  webhookId?: string;
  eventId?: string;
  confirmationToken?: string;
}

export const manageWebhooksTool = defineTool({
  name: TOOL,
  title: "Manage webhooks",
  toolset: "live",
  instruction:
    "manage_webhooks lists a company's webhooks, registers one that sends the platform's events to this server (its secret is generated and kept here, never shown), or deletes one (registering and deleting need the person's confirmation); retry sends a failed delivery again.",
  readme: {
    does: "Lists a company's webhooks and their recent deliveries; registers one to this server's receiver (the secret generated and kept sealed here, never shown) or deletes one, after confirmation; retries a failed delivery",
    changes: "yes; the platform starts or stops sending events",
  },
  description: [
    "List, register or delete a company's webhooks (the platform's event notifications); retry a failed delivery.",
    "Use when: the person wants this server to receive live changes for a company (create), to see which webhooks exist and whether deliveries fail (list), or to stop one (delete).",
    "Do not use for: what the webhooks reported (use list_changes).",
    "create points the webhook at this server; its secret is generated here and never shown. create and delete first return a preview and a confirmationToken (single use, 5 minutes); repeat the call with it once the person agrees. delete cannot be undone.",
    "Returns: webhooks with URL, events, active, last delivery; or the preview, or what was done.",
    'Example: {"action": "create", "company": "48213", "events": ["CONTRACT_ACCEPTED", "HIRE_TERMINATED"]}',
  ].join("\n"),
  inputSchema: {
    action: z
      .enum(["list", "create", "delete", "retry"])
      .describe("list, create, delete or retry."),
    company: z.string().min(1).describe("Company id or name."),
    events: z
      .array(z.enum(EVENT_TYPES))
      .min(1)
      .optional()
      .describe("create: the events to send; none given: all."),
    webhookId: z.string().min(1).optional().describe("delete: the webhook's id (from list)."),
    eventId: z.string().min(1).optional().describe("retry: a failed delivery's id (from list)."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum([
      "listed",
      "preview",
      "changed",
      "created",
      "deleted",
      "retried",
      "declined",
      "outcome-unknown",
    ]),
    action: z.string(),
    company: z.object({ id: z.string(), name: z.string() }).optional(),
    receiverUrl: z.string().nullable().optional(),
    webhooks: z.array(webhookOutput).optional(),
    preview: previewOutput.optional(),
    webhook: previewOutput.shape.webhook.optional(),
    ...previewTokenOutput,
    note: z.string().optional(),
  },
  annotations: confirmedWriteAnnotations,
  async handler(given, ctx) {
    // A company's name is read as its id first, so the token binds the id.
    const { args, notes } = await withCompanyId(ctx, given);
    return withNotes(await manage(ctx, args), notes);
  },
});

async function manage(ctx: ToolContext, args: Args) {
  if (args.action === "list") return list(ctx, args);
  if (args.action === "retry") return retry(ctx, args);
  const misplaced =
    args.eventId !== undefined
      ? "eventId"
      : args.action === "create"
        ? args.webhookId !== undefined && "webhookId"
        : args.events !== undefined && "events";
  if (misplaced) {
    throw new ToolInputError(
      `${misplaced} is not used by action ${args.action}`,
      misplaced,
      args.action === "create"
        ? "create takes the company and events; it registers a new webhook."
        : "delete takes the company and webhookId.",
    );
  }
  if (args.action === "delete" && args.webhookId === undefined) {
    throw new ToolInputError(
      "delete needs the webhook's id",
      "webhookId",
      `Find it with ${TOOL} action list.`,
    );
  }
  const { confirmationToken, ...call } = args;
  const target = targetOf(args);
  return confirmedWrite(ctx, {
    tool: TOOL,
    args: call,
    token: confirmationToken,
    target,
    check: checkFor(args.company),
    propose: () => (args.action === "create" ? proposeCreate(ctx, args) : proposeDelete(ctx, args)),
    fields: (preview) => ({ action: args.action, company: preview.company, preview }),
    apply: async ({ preview }) =>
      args.action === "create"
        ? await create(ctx, args, preview)
        : await remove(ctx, args, preview),
  });
}

const targetOf = (args: Args) =>
  args.action === "create"
    ? `webhook to this server for company ${args.company}`
    : `webhook ${args.webhookId}`;

const checkFor = (company: string) => `${TOOL} (action list, company ${oneLine(company)})`;

type Read = WebhooksOfCompanyQuery;

/** The company's webhooks and the recent deliveries; the company must be one of the caller's. */
async function read(ctx: ToolContext, company: string) {
  const { data } = await ctx.client.run(webhooksOfCompanyQuery, { company }, requestOptions(ctx));
  // The accounts withCompanyId read for this call: not read again, here or on each read-back.
  const account = (await accountsOf(ctx)).find(
    (a) => a.__typename === "Company" && a.id === company,
  );
  if (!account) {
    throw new ToolInputError(
      `${oneLine(company)} is not one of your companies`,
      "company",
      "Find the company's id with list_accounts (webhooks belong to companies).",
    );
  }
  return { company: { id: account.id, name: account.name }, data };
}

/** This server's receiver, as the platform is to reach it; undefined without a public address. */
const receiverOf = (ctx: ToolContext) =>
  ctx.config.publicUrl ? receiverUrlOf(ctx.config.publicUrl) : undefined;

function webhooksOut(data: Read, receiver: string | undefined): WebhookOut[] {
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

const eventsText = (events: readonly string[] | null | undefined) =>
  events
    ? events.length === 0
      ? "no events"
      : events.map((e) => oneLine(e)).join(", ")
    : "all events";

async function list(ctx: ToolContext, args: Args) {
  const receiver = receiverOf(ctx);
  const { company, data } = await read(ctx, args.company);
  const webhooks = webhooksOut(data, receiver);
  const lines = webhooks.map((w) => {
    const last = w.lastDelivery
      ? `last delivery ${oneLine(w.lastDelivery.id)} ${oneLine(w.lastDelivery.event)} ${oneLine(w.lastDelivery.status)} at ${oneLine(w.lastDelivery.at)}`
      : "no recent deliveries";
    return `- ${oneLine(w.id)} ${whole(w.title)} ${w.isActive ? "active" : "INACTIVE"}${w.toThisServer ? " (this server's receiver)" : ""}: ${whole(w.url)}; ${eventsText(w.events)}; ${last}${w.failedDeliveries > 0 ? `; ${w.failedDeliveries} failed recently (${w.failedDeliveryIds.map((id) => oneLine(id)).join(", ")})` : ""}`;
  });
  const head = `${webhooks.length} webhook${webhooks.length === 1 ? "" : "s"} of company ${whole(company.name)} (${oneLine(company.id)})${webhooks.length > 0 ? ":" : "."}`;
  const foot = receiver
    ? `This server's receiver: ${receiver}.`
    : "This server has no public address (WORKFORCE_PUBLIC_URL), so it cannot register a webhook to itself.";
  return {
    structured: {
      status: "listed" as const,
      action: args.action,
      company,
      receiverUrl: receiver ?? null,
      webhooks,
    },
    text: [head, ...lines, foot].join("\n"),
  };
}

/** The title a webhook registered here carries on the platform. */
const titleFor = (receiver: string) => `workforce-mcp live changes (${new URL(receiver).host})`;

async function proposeCreate(ctx: ToolContext, args: Args): Promise<Proposal<Preview>> {
  const receiver = receiverOf(ctx);
  if (!receiver) {
    throw new ToolInputError(
      "this server has no public address, so the platform could not reach its webhook receiver",
      undefined,
      "Nothing was changed. Set WORKFORCE_PUBLIC_URL to the server's public HTTPS address (such as https://mcp.example.com) and restart it; the platform delivers to <address>/webhooks/platform.",
    );
  }
  const { company, data } = await read(ctx, args.company);
  const existing = data.webhooks.data.find((w) => w.url === receiver);
  if (existing) {
    throw new ToolInputError(
      `company ${oneLine(company.id)} already has webhook ${oneLine(existing.id)} to this server's receiver (${eventsText(existing.subscribedEvents)})`,
      "company",
      `Nothing was changed: one webhook per company is enough. To change its events, delete it (${TOOL} action delete, webhookId ${oneLine(existing.id)}) and register it again.`,
    );
  }
  const events = args.events ? [...new Set(args.events)] : null;
  const preview: Preview = {
    company,
    webhook: { id: null, title: titleFor(receiver), url: receiver, events },
  };
  return {
    preview,
    lines: [
      `Register a webhook for company ${whole(company.name)} (${oneLine(company.id)}): the platform will send ${eventsText(events)} to ${receiver} (this server's receiver).`,
      `Title on the platform: ${whole(preview.webhook.title)}. Its secret is generated by this server, sent to the platform once, and kept sealed here; nobody is shown it.`,
    ],
    consequence:
      "The platform then sends these events about the company's hires, with workers' names and emails, to this server until the webhook is deleted.",
    question: "Register this webhook?",
    facts: {
      company: company.name,
      "company id": company.id,
      url: receiver,
      events: events ?? "all events",
      title: preview.webhook.title,
    },
  };
}

async function proposeDelete(ctx: ToolContext, args: Args): Promise<Proposal<Preview>> {
  const { company, data } = await read(ctx, args.company);
  const webhook = data.webhooks.data.find((w) => w.id === args.webhookId);
  if (!webhook) {
    throw new ToolInputError(
      `company ${oneLine(company.id)} has no webhook ${oneLine(args.webhookId)}`,
      "webhookId",
      `Nothing was changed. See the company's webhooks with ${TOOL} action list.`,
    );
  }
  const ours = webhook.url === receiverOf(ctx);
  const events = webhook.subscribedEvents ?? null;
  const preview: Preview = {
    company,
    webhook: { id: webhook.id, title: webhook.title, url: webhook.url, events },
  };
  return {
    preview,
    lines: [
      `Delete webhook ${oneLine(webhook.id)} ${whole(webhook.title)} of company ${whole(company.name)} (${oneLine(company.id)}), ${webhook.isActive === false ? "inactive" : "active"}.`,
      `It sends ${eventsText(events)} to ${whole(webhook.url)}${ours ? " (this server's receiver; its secret is forgotten too)" : " (another system, which stops receiving them)"}.`,
    ],
    consequence: "This cannot be undone: the platform stops sending these events.",
    question: "Delete this webhook?",
    facts: {
      company: company.name,
      "company id": company.id,
      title: webhook.title,
      url: webhook.url,
      events: events ?? "all events",
      active: webhook.isActive !== false,
    },
  };
}

async function create(ctx: ToolContext, args: Args, preview: Preview) {
  const base = { action: args.action, company: preview.company, preview };
  const url = preview.webhook.url;
  const secret = randomBytes(SECRET_BYTES).toString("hex");
  ctx.logger.addSecret(secret);
  const secrets = secretsOf(ctx);
  const record = {
    companyId: preview.company.id,
    webhookId: null as string | null,
    url,
    secret,
    createdAt: new Date(ctx.clock.now()).toISOString(),
  };
  // An earlier attempt's secret, kept while its outcome is unknown, is not replaced.
  await refuseWhileUnknown(ctx, {
    tool: TOOL,
    target: targetOf(args),
    check: checkFor(args.company),
  });
  // Kept before it is sent: the first delivery may come before the answer, or the answer be lost.
  await secrets.put(record);
  let sent: Awaited<ReturnType<typeof sendCreate>>;
  try {
    sent = await sendCreate(ctx, args, preview, secret);
  } catch (error) {
    // Refused by the platform (or not sent): no webhook has this secret.
    await secrets.forget(preview.company.id).catch(() => {});
    throw error;
  }
  if (sent.kind === "unknown") {
    // Kept sealed: should the platform make it after all, its deliveries are accepted.
    return unknownAnswer(
      `Registering the webhook for company ${oneLine(preview.company.id)}`,
      base,
      sent.text,
    );
  }
  const made =
    sent.kind === "sent"
      ? sent.data.data.createWebhook
      : (sent.state as NonNullable<typeof sent.state>);
  await secrets.put({ ...record, webhookId: made.id });
  const webhook = {
    id: made.id,
    title: made.title,
    url: made.url,
    events: made.subscribedEvents ?? null,
  };
  const readBack =
    sent.kind === "read-back"
      ? " (The answer was lost after the request was sent; it was not sent again, and reading the webhooks back shows it.)"
      : "";
  return {
    structured: {
      status: "created" as const,
      ...base,
      webhook,
      ...(readBack ? { note: readBack.trim() } : {}),
    },
    text: `Registered webhook ${oneLine(made.id)} for company ${whole(preview.company.name)}: the platform sends ${eventsText(webhook.events)} to ${url}. Its secret is kept sealed on this server and is not shown.${readBack}`,
  };
}

/** createWebhook, sent once; a lost answer is read back through the company's webhooks. */
function sendCreate(ctx: ToolContext, args: Args, preview: Preview, secret: string) {
  const url = preview.webhook.url;
  return sendWrite(ctx, {
    tool: TOOL,
    target: targetOf(args),
    check: checkFor(args.company),
    send: () =>
      ctx.client.run(
        createWebhookMutation,
        {
          input: {
            company: preview.company.id,
            title: preview.webhook.title,
            url,
            secret,
            isActive: true,
            subscribedEvents: preview.webhook.events as WebhookEventType[] | null,
          },
        },
        requestOptions(ctx),
      ),
    readBack: async () =>
      (await read(ctx, args.company)).data.webhooks.data.find((w) => w.url === url),
    applied: (found) => found !== undefined,
  });
}

async function remove(ctx: ToolContext, args: Args, preview: Preview) {
  const base = { action: args.action, company: preview.company, preview };
  const id = args.webhookId as string;
  const sent = await sendWrite(ctx, {
    tool: TOOL,
    target: targetOf(args),
    check: checkFor(args.company),
    send: () => ctx.client.run(deleteWebhookMutation, { input: { id } }, requestOptions(ctx)),
    readBack: async () =>
      (await read(ctx, args.company)).data.webhooks.data.some((w) => w.id === id),
    applied: (stillThere) => !stillThere,
  });
  if (sent.kind === "unknown")
    return unknownAnswer(`Deleting webhook ${oneLine(id)}`, base, sent.text);
  // The secret of a webhook this server registered is forgotten with it.
  const secrets = secretsOf(ctx);
  const kept = await secrets.get(preview.company.id);
  if (
    kept &&
    (kept.webhookId === id || (kept.webhookId === null && kept.url === preview.webhook.url))
  ) {
    await secrets.forget(preview.company.id);
  }
  const readBack =
    sent.kind === "read-back"
      ? " (The answer was lost after the request was sent; it was not sent again, and reading the webhooks back shows it gone.)"
      : "";
  return {
    structured: {
      status: "deleted" as const,
      ...base,
      webhook: preview.webhook,
      ...(readBack ? { note: readBack.trim() } : {}),
    },
    text: `Deleted webhook ${oneLine(id)} of company ${whole(preview.company.name)}: the platform no longer sends its events to ${whole(preview.webhook.url)}.${readBack}`,
  };
}

/** One more attempt at a failed delivery of one of the company's webhooks, now. */
async function retry(ctx: ToolContext, args: Args) {
  if (args.eventId === undefined) {
    throw new ToolInputError(
      "retry needs the failed delivery's id",
      "eventId",
      `Find it with ${TOOL} action list (failed deliveries are named there).`,
    );
  }
  const { company, data } = await read(ctx, args.company);
  const ids = new Set(data.webhooks.data.map((w) => w.id));
  const event = data.webhookEvents.data.find((e) => e.id === args.eventId && ids.has(e.webhookId));
  if (!event) {
    throw new ToolInputError(
      `no recent delivery ${oneLine(args.eventId)} of company ${oneLine(company.id)}'s webhooks`,
      "eventId",
      `Nothing was sent. See the recent deliveries with ${TOOL} action list.`,
    );
  }
  if (!event.status.startsWith("failed")) {
    throw new ToolInputError(
      `delivery ${oneLine(event.id)} is ${oneLine(event.status)}, not failed`,
      "eventId",
      "Nothing was sent: only a failed delivery is retried.",
    );
  }
  const { data: sent } = await ctx.client.run(
    retryWebhookEventMutation,
    { input: { id: event.id } },
    requestOptions(ctx),
  );
  return {
    structured: {
      status: "retried" as const,
      action: args.action,
      company,
      note: `Delivery ${event.id} (${event.event}) is sent again; its status was ${event.status}.`,
    },
    text: `Delivery ${oneLine(event.id)} (${oneLine(event.event)}, was ${oneLine(event.status)}) is being sent again to its webhook ${oneLine(event.webhookId)}; status now ${oneLine(sent.retryWebhookEvent.status)}. See the outcome with ${TOOL} action list.`,
  };
}

/** The receiver's secret store when this server has one; else this server's own state store. */
function secretsOf(ctx: ToolContext) {
  return ctx.registeredSecrets ?? createWebhookSecretStore(ctx.store, ctx.sealingKey);
}
