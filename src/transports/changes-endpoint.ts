// GET /changes: the webhook events this team server keeps, as one person may see them, for local
// servers (WORKFORCE_TEAM_URL) that must not hold the team's Redis. The person is whoever the
// request's credential is: a sign-in issued here, or their own platform token in X-Workforce-Token
// (or Authorization: Bearer when the server has no sign-in of its own), checked with the platform;
// never the server's own token. The answer is what list_changes shows that person (the same
// filter: companies their credential reads, details only of the event's company's hire), never
// an event's raw payload. Limited per person, like the platform's own budget.
import express, { type Request, type Response } from "express";
import * as z from "zod";
import { clientAddress } from "../auth/remote/address-key.js";
import type { PersonalTokens } from "../auth/remote/personal-tokens.js";
import { CHANGES_SCAN_LIMIT } from "../client/changes-feed.js";
import { isPlatformError, RateLimitedError } from "../client/errors.js";
import { TEAM_TOKEN_HEADER } from "../client/team-changes.js";
import type { TokenSource } from "../client/types.js";
import { createChildLogger, type Logger } from "../logger.js";
import type { StateStore } from "../state/store.js";
import type { WebhookEventStore } from "../state/webhook-events.js";
import type { Platform } from "./platform.js";
import type { RemoteAuth } from "./remote-auth.js";

/** Reads of /changes one person may make a minute (a local server asks about twice a minute). */
const READS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;
const REALM = 'Bearer realm="workforce-mcp"';

const querySchema = z.object({
  since: z.coerce.number().int().min(0).optional(),
  hireId: z.string().min(1).max(200).optional(),
  companyId: z.string().min(1).max(200).optional(),
  event: z.string().min(1).max(100).optional(),
  offset: z.coerce.number().int().min(0).max(CHANGES_SCAN_LIMIT).default(0),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export interface ChangesEndpointDeps {
  events: WebhookEventStore | undefined;
  store: StateStore;
  platform: Platform;
  logger: Logger;
  retentionDays: number;
  /** Checks platform tokens clients bring (limited per address). */
  tokens: PersonalTokens;
  /** With --auth oauth, the sign-in check /mcp uses (undefined until listening). */
  remoteAuth?: () => RemoteAuth | undefined;
}

interface Person {
  id: string;
  token: string | TokenSource;
  /** A token the client brought, blanked from this request's log lines. */
  secret?: string;
}

export function changesEndpoint(deps: ChangesEndpointDeps): express.Router {
  const router = express.Router();
  router.get("/", (req, res) => {
    serve(deps, req, res).catch((error: unknown) => {
      deps.logger.error("GET /changes failed", { error: String(error) });
      if (!res.headersSent) refuse(res, 500, "server_error", "The changes could not be read.");
    });
  });
  return router;
}

async function serve(deps: ChangesEndpointDeps, req: Request, res: Response): Promise<void> {
  res.set("Cache-Control", "no-store");
  if (!deps.events) {
    return refuse(
      res,
      404,
      "not_found",
      "This server receives no webhook events (its WORKFORCE_WEBHOOK_SECRETS is not set).",
    );
  }
  const person = await personOf(deps, req, res);
  if (!person) return;
  const query = querySchema.safeParse(req.query);
  if (!query.success) {
    return refuse(
      res,
      400,
      "invalid_request",
      query.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    );
  }
  // OWASP API4 (CWE-770): each read costs the store and the platform, so each person has a share.
  const wait = await deps.store.claimWindowSlot(
    `changes-reads:${person.id}`,
    READS_PER_MINUTE,
    WINDOW_MS,
  );
  if (wait > 0) {
    res.set("Retry-After", String(Math.ceil(wait / 1000)));
    return refuse(res, 429, "too_many_requests", "Too many reads of the changes; try again later.");
  }
  const { offset, limit, ...filters } = query.data;
  const logger = createChildLogger(deps.logger, person.secret);
  const client = deps.platform.createClient(person.token, logger);
  const feed = await import("../client/changes-feed.js");
  try {
    // The same filter as list_changes: the companies this person's own credential reads.
    const from = { client, store: deps.store, events: deps.events };
    const accounts = await feed.readableAccounts(client);
    const page = await feed.visibleChanges(from, accounts, filters, { offset, limit });
    res.json({ ...page, retentionDays: deps.retentionDays });
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    if (error instanceof RateLimitedError) {
      res.set("Retry-After", String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))));
      return refuse(res, 429, "too_many_requests", "Your platform rate budget is spent.");
    }
    if (error.kind === "authentication") {
      res.set("WWW-Authenticate", `${REALM}, error="invalid_token"`);
      return refuse(res, 401, "invalid_token", "The platform did not accept the credential.");
    }
    refuse(res, 502, "bad_gateway", `The platform could not be read: ${error.message}`);
  }
}

/** Whose request this is, or undefined once answered (401, 429, 503). */
async function personOf(
  deps: ChangesEndpointDeps,
  req: Request,
  res: Response,
): Promise<Person | undefined> {
  const remoteAuth = deps.remoteAuth?.();
  if (deps.remoteAuth) {
    if (!remoteAuth) {
      refuse(res, 503, "temporarily_unavailable", "The server is starting; try again.");
      return undefined;
    }
    // Exactly what /mcp accepts: a sign-in issued here, or (--token-passthrough) a platform token.
    const credential = await remoteAuth.authenticate(req, res);
    if (!credential) return undefined;
    return { id: credential.identity.id, token: credential.token(), secret: credential.secret };
  }
  const token = (
    req.header(TEAM_TOKEN_HEADER) ??
    /^Bearer\s+(\S+)\s*$/i.exec(req.header("authorization") ?? "")?.[1]
  )?.trim();
  if (!token) {
    res.set("WWW-Authenticate", REALM);
    refuse(
      res,
      401,
      "invalid_token",
      `Send your own platform token in ${TEAM_TOKEN_HEADER} (or Authorization: Bearer): the changes shown are those it may read.`,
    );
    return undefined;
  }
  const check = await deps.tokens.check(token, clientAddress(req));
  if (check.ok) return { id: check.identity.id, token, secret: token };
  if (check.reason === "refused") {
    res.set("WWW-Authenticate", `${REALM}, error="invalid_token"`);
    refuse(res, 401, "invalid_token", "The platform did not accept the token.");
  } else if (check.reason === "rate-limited") {
    res.set("Retry-After", String(check.retryAfterSeconds));
    refuse(res, 429, "too_many_requests", "Too many unknown tokens from your address.");
  } else {
    refuse(res, 503, "temporarily_unavailable", `Could not check the token: ${check.message}`);
  }
  return undefined;
}

function refuse(res: Response, status: number, error: string, description: string): void {
  res.status(status).json({ error, error_description: description });
}
