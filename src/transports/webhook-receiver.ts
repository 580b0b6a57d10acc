// The platform's webhooks, received at /webhooks/platform (HTTP mode only). The platform signs the
// raw body with HMAC-SHA256 and the shared secret (lowercase hex, `Signature` header) and nothing
// else: no timestamp, so no protection against replay from the platform. Hence each event is kept
// under the SHA-256 of its company and body, once however often it arrives, and only for a
// bounded time and size. Each secret is one company's (a company's admin can read it through the
// API), so an event belongs to the company whose secret signed it: a payload naming another
// company is refused. The platform retries anything but a 2xx (5 attempts, 60 s time-out), so the
// answer comes as soon as the event is stored; whatever is done with it happens later.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from "express";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { StateStore } from "../state/store.js";
import {
  companyIdOf,
  createWebhookEventStore,
  eventBoundsOf,
  type WebhookEventStore,
} from "../state/webhook-events.js";
import {
  type CompanySecret,
  createWebhookSecretStore,
  WEBHOOK_PATH,
  type WebhookSecretStore,
} from "../state/webhook-secrets.js";

/** Where the platform delivers; give `<public address>/webhooks/platform` to the platform. */
export { WEBHOOK_PATH };

/**
 * The largest body read. The platform's payloads are deliberately minimal (ids, a status, the
 * worker's contact and a few custom field values; PLATFORM-INTERFACE.md 2.6 and 6.1), far below
 * this; a larger body is no delivery of the platform's.
 */
const MAX_WEBHOOK_BODY_BYTES = 16 * 1024;
/** Refusals are logged at most this often, each line counting those since the last. */
const REFUSAL_LOG_INTERVAL_MS = 10_000;

export interface WebhookReceiver {
  /** Mounted at WEBHOOK_PATH: answers 404 while no secret is configured. */
  handler: RequestHandler;
  /** The received events; undefined while the receiver is off. */
  events: WebhookEventStore | undefined;
  /** Where manage_webhooks keeps the secrets this receiver accepts; undefined without a key. */
  registeredSecrets: WebhookSecretStore | undefined;
}

export interface WebhookReceiverOptions {
  config: Pick<
    Config,
    | "webhookSecrets"
    | "webhookRetentionDays"
    | "webhookMaxEvents"
    | "webhookMaxBytes"
    | "webhookCompanyMaxBytes"
  >;
  logger: Logger;
  store: StateStore;
  /**
   * The server's sealing key: with it, deliveries signed with the secret of a webhook this server
   * registered (manage_webhooks, sealed in the store) are accepted too, and the receiver answers
   * 404 only while no secret at all is known.
   */
  sealingKey?: Buffer;
  now?: () => number;
  /** The largest body read (default MAX_WEBHOOK_BODY_BYTES). */
  maxBodyBytes?: number;
}

export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const { config, logger } = options;
  const now = options.now ?? Date.now;
  const router = express.Router();
  const registered = options.sealingKey
    ? createWebhookSecretStore(options.store, options.sealingKey, now)
    : undefined;
  if (config.webhookSecrets.length === 0 && !registered) {
    logger.info(
      `Webhook receiver off: ${WEBHOOK_PATH} answers 404 (set WORKFORCE_WEBHOOK_SECRETS to receive the platform's events).`,
    );
    router.all("/", (_req, res) => sendError(res, 404, "The webhook receiver is off."));
    return { handler: router, events: undefined, registeredSecrets: registered };
  }
  const keys = config.webhookSecrets.map(({ companyId, secret }) => {
    logger.addSecret(secret);
    return { companyId, key: Buffer.from(secret, "utf8") };
  });
  const events = createWebhookEventStore(options.store, { ...eventBoundsOf(config), now });
  const kept = `events kept ${config.webhookRetentionDays} days, at most ${config.webhookMaxEvents} and ${config.webhookCompanyMaxBytes} bytes per company, ${config.webhookMaxBytes} bytes in all`;
  logger.info(
    keys.length === 0
      ? `Webhook receiver off: ${WEBHOOK_PATH} answers 404 until a webhook is registered with manage_webhooks (or WORKFORCE_WEBHOOK_SECRETS is set); ${kept}.`
      : `Webhook receiver on at ${WEBHOOK_PATH}: ${keys.length} secret${keys.length === 1 ? "" : "s"}${registered ? ", and those of webhooks registered with manage_webhooks" : ""}; ${kept}.`,
  );

  /**
   * The companies whose secret signed the body (none: no known secret did); undefined while no
   * secret at all is known.
   */
  const signersOf = async (body: Buffer, signature: Buffer, fresh: boolean) => {
    const all = [
      ...keys,
      ...((await registered?.secrets({ fresh })) ?? []).map(
        ({ companyId, secret }: CompanySecret) => ({
          companyId,
          key: Buffer.from(secret, "utf8"),
        }),
      ),
    ];
    if (all.length === 0) return undefined;
    // Every secret is tried, so that the time taken does not tell which one matched.
    const signers = new Set<string>();
    for (const { companyId, key } of all) {
      const expected = createHmac("sha256", key).update(body).digest();
      if (timingSafeEqual(expected, signature)) signers.add(companyId);
    }
    return signers;
  };

  let refusedUnlogged = 0;
  let lastRefusalLine = Number.NEGATIVE_INFINITY;
  /** One line per refusal, never the body or the signature; floods are summed up. */
  const logRefusal = (req: Request, reason: string) => {
    refusedUnlogged++;
    if (now() - lastRefusalLine < REFUSAL_LOG_INTERVAL_MS) return;
    lastRefusalLine = now();
    logger.warning(`Refused a webhook delivery: ${reason}. Nothing was stored.`, {
      address: req.ip,
      refusedSinceLastLine: refusedUnlogged,
    });
    refusedUnlogged = 0;
  };

  router.post(
    "/",
    express.raw({ type: () => true, limit: options.maxBodyBytes ?? MAX_WEBHOOK_BODY_BYTES }),
    async (req: Request, res: Response) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const signature = signatureOf(req.header("signature"));
      if (!signature) {
        logRefusal(req, "no Signature header, or not 64 hex digits");
        return sendError(res, 401, "The Signature header is missing or malformed.");
      }
      let signers: Set<string> | undefined;
      try {
        signers = await signersOf(body, signature, false);
        // A webhook registered a moment ago, perhaps by another replica: read the secrets again.
        if (signers?.size !== 1 && registered) signers = await signersOf(body, signature, true);
      } catch (error) {
        logger.warning(
          "Could not read the registered webhooks' secrets; the platform will deliver again.",
          {
            error: error instanceof Error ? error.message : String(error),
          },
        );
        return sendError(res, 503, "The signature could not be checked; deliver it again later.");
      }
      if (signers === undefined) return sendError(res, 404, "The webhook receiver is off.");
      if (signers.size === 0) {
        logRefusal(req, "its Signature matches none of the configured secrets");
        return sendError(res, 401, "The signature does not match.");
      }
      const payload = parsePayload(req, body);
      if (typeof payload === "string") {
        logger.warning(`Refused a signed webhook delivery: ${payload}. Nothing was stored.`);
        return sendError(res, 400, `${payload}.`);
      }
      // The configuration refuses one secret for two companies; registered ones are random.
      const [signer] = [...signers] as [string];
      const named = companyIdOf(payload);
      if (signers.size > 1 || (named !== undefined && named !== signer)) {
        // OWASP API1 (BOLA): a company's secret speaks for that company only.
        logger.warning(
          "Refused a webhook delivery signed with one company's secret that names another company. Nothing was stored.",
          { signer, named },
        );
        return sendError(
          res,
          403,
          "The event names a company other than the one whose webhook secret signed it.",
        );
      }
      await keep(events, logger, res, { signer, body, payload });
    },
  );
  router.all("/", (_req, res) => {
    res.setHeader("allow", "POST");
    sendError(res, 405, "Webhooks are delivered with POST.");
  });
  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const status = (error as { status?: number }).status;
    if (status === 413) {
      logRefusal(req, "its body is over the size limit");
      return sendError(res, 413, "The body is too large.");
    }
    if (status === 400 || status === 415) return sendError(res, 400, "The body could not be read.");
    next(error);
  });
  return { handler: router, events, registeredSecrets: registered };
}

/** Keeps a signed event once (a redelivery has the same digest) and answers the platform. */
async function keep(
  events: WebhookEventStore,
  logger: Logger,
  res: Response,
  { signer, body, payload }: { signer: string; body: Buffer; payload: { event: string } },
): Promise<void> {
  const id = createHash("sha256").update(`${signer}\n`).update(body).digest("hex");
  try {
    const outcome = await events.add({
      id,
      event: payload.event,
      companyId: signer,
      payload,
    });
    if (outcome === "full") {
      logger.warning(
        "Refused a webhook event: the events kept take the whole byte budget (WORKFORCE_WEBHOOK_MAX_BYTES); the platform will deliver it again.",
        { event: payload.event, company: signer },
      );
      res.setHeader("retry-after", "3600");
      return sendError(res, 503, "The event store is full; deliver it again later.");
    }
    logger.debug(
      outcome === "stored"
        ? "Received a webhook event."
        : "Received a webhook event again (a redelivery); kept once.",
      { event: payload.event, id },
    );
    res.status(200).json({ received: true, id, duplicate: outcome === "duplicate" });
  } catch (error) {
    // The platform tries again later; nothing is lost by refusing now.
    logger.warning("Could not store a webhook event; the platform will deliver it again.", {
      event: payload.event,
      error: error instanceof Error ? error.message : String(error),
    });
    sendError(res, 503, "The event could not be stored; deliver it again later.");
  }
}

/** The header's 32 bytes, or undefined unless it is exactly 64 hex digits. */
function signatureOf(header: string | undefined): Buffer | undefined {
  const hex = header?.trim();
  return hex && /^[0-9a-f]{64}$/i.test(hex) ? Buffer.from(hex, "hex") : undefined;
}

/** The payload, or why it is refused: JSON, an object, with a plausible `event` name. */
function parsePayload(req: Request, body: Buffer): { event: string } | string {
  const type = (req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") return "the Content-Type is not application/json";
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString("utf8"));
  } catch {
    return "the body is not valid JSON";
  }
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    return "the body is not a JSON object";
  }
  const event = (payload as Record<string, unknown>).event;
  if (typeof event !== "string" || !/^[A-Za-z][A-Za-z0-9_.-]{0,99}$/.test(event)) {
    return "the body has no `event` name";
  }
  return payload as { event: string };
}

function sendError(res: Response, status: number, message: string): void {
  res.status(status).json({ error: message });
}
