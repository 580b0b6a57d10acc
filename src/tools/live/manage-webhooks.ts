// The company's webhooks on the platform: one registered that points at this server's receiver, or
// one deleted, after the person confirms; a failed delivery retried. list_webhooks reads them.
// The secret of a webhook registered here is generated here, sent to the platform once and kept
// sealed in the state store (src/state/webhook-secrets.ts), where the receiver finds it; it is never
// shown, logged or returned.
import { randomBytes } from "node:crypto";
import * as z from "zod";
import type { WebhookEventType } from "../../client/operation-types.generated.js";
import {
  createWebhookMutation,
  deleteWebhookMutation,
  retryWebhookEventMutation,
} from "../../client/operations/webhooks.js";
import { oneLine } from "../../client/platform-text.js";
import { createWebhookSecretStore } from "../../state/webhook-secrets.js";
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
import { withCompanyId, withNotes } from "../known-ids.js";
import { idAndName } from "../shapes/named.js";
import { webhookChangeOutput } from "../shapes/webhook.js";
import { eventsText, readWebhooks as read, receiverOf } from "./company-webhooks.js";

const TOOL = "manage_webhooks";
/** The read that shows the company's webhooks and their deliveries. */
const LIST = "list_webhooks";

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

const previewOutput = z.object({
  company: idAndName,
  webhook: webhookChangeOutput,
});
type Preview = z.infer<typeof previewOutput>;

type Action = "create" | "delete" | "retry";

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
    "manage_webhooks registers a company's webhook that sends the platform's events to this server (its secret is generated and kept here, never shown), or deletes one (registering and deleting need the person's confirmation); retry sends a failed delivery again. list_webhooks shows them.",
  readme: {
    does: "Registers a company's webhook to this server's receiver (the secret generated and kept sealed here, never shown) or deletes one, after confirmation; retries a failed delivery",
    changes: "yes; the platform starts or stops sending events",
  },
  description: [
    "Register or delete a company's webhook (the platform's event notifications); retry a failed delivery.",
    "Use when: the person wants this server to receive live changes for a company (create), to stop a webhook (delete), or to send a failed delivery again (retry).",
    "Do not use for: which webhooks exist and their deliveries (use list_webhooks); what the webhooks reported (list_changes).",
    "create points the webhook at this server; its secret is generated here and never shown. create and delete first return a preview and a confirmationToken (single use, 5 minutes); repeat the call with it once the person agrees. delete cannot be undone.",
    "Returns: the preview, or what was done.",
    'Example: {"action": "create", "company": "48213", "events": ["CONTRACT_ACCEPTED", "HIRE_TERMINATED"]}',
  ].join("\n"),
  inputSchema: {
    action: z.enum(["create", "delete", "retry"]).describe("create, delete or retry."),
    company: z.string().min(1).describe("Company id or name."),
    events: z
      .array(z.enum(EVENT_TYPES))
      .min(1)
      .optional()
      .describe("create: the events to send; none given: all."),
    webhookId: z
      .string()
      .min(1)
      .optional()
      .describe("delete: the webhook's id (from list_webhooks)."),
    eventId: z
      .string()
      .min(1)
      .optional()
      .describe("retry: a failed delivery's id (from list_webhooks)."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum([
      "preview",
      "changed",
      "created",
      "deleted",
      "retried",
      "declined",
      "outcome-unknown",
    ]),
    action: z.string(),
    company: idAndName.optional(),
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
    throw new ToolInputError("delete needs the webhook's id", "webhookId", `Find it with ${LIST}.`);
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

const checkFor = (company: string) => `${LIST} (company ${oneLine(company)})`;

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
      `Nothing was changed. See the company's webhooks with ${LIST}.`,
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
      `Find it with ${LIST} (failed deliveries are named there).`,
    );
  }
  const { company, data } = await read(ctx, args.company);
  const ids = new Set(data.webhooks.data.map((w) => w.id));
  const event = data.webhookEvents.data.find((e) => e.id === args.eventId && ids.has(e.webhookId));
  if (!event) {
    throw new ToolInputError(
      `no recent delivery ${oneLine(args.eventId)} of company ${oneLine(company.id)}'s webhooks`,
      "eventId",
      `Nothing was sent. See the recent deliveries with ${LIST}.`,
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
    text: `Delivery ${oneLine(event.id)} (${oneLine(event.event)}, was ${oneLine(event.status)}) is being sent again to its webhook ${oneLine(event.webhookId)}; status now ${oneLine(sent.retryWebhookEvent.status)}. See the outcome with ${LIST}.`,
  };
}

/** The receiver's secret store when this server has one; else this server's own state store. */
function secretsOf(ctx: ToolContext) {
  return ctx.registeredSecrets ?? createWebhookSecretStore(ctx.store, ctx.sealingKey);
}
