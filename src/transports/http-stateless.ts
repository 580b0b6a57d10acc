// Streamable HTTP without sessions (every MCP 2026-07-28 request; 2025 ones with WORKFORCE_REDIS_URL
// or --stateless): every POST gets a server of its own, so any request may reach any replica behind
// any load balancer. What must outlive a request (rate budgets, confirmation tokens, form nonces,
// the introspection cache) is in the state store. A 2026-07-28 form travels with the client as
// sealed requestState, so any replica completes it; a 2025 client's elicitation needs its reply on
// the process that asked, so stateless 2025 requests are confirmed with single-use tokens instead.

import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import type { Request, Response } from "express";
import { governorKey } from "../client/governor.js";
import type { SchemaCache } from "../client/schema/index.js";
import type { TokenSource } from "../client/types.js";
import type { Config } from "../config.js";
import { createChildLogger, type Logger } from "../logger.js";
import { createServer, type KnownPeople, type WorkforceServer } from "../server.js";
import type { KeyValueStore, StateStore } from "../state/store.js";
import type { WebhookEventStore } from "../state/webhook-events.js";
import type { WebhookSecretStore } from "../state/webhook-secrets.js";
import type { CatalogEntry } from "../tools/catalog.js";
import type { Clock } from "../tools/define-tool.js";
import type { Platform } from "./platform.js";

export interface StatelessContext {
  config: Config;
  logger: Logger;
  version: string;
  platform: Platform;
  store: StateStore;
  /** Confirmations and attempts at changes, shared by every request and session of a person. */
  confirmations: KeyValueStore;
  schemas: SchemaCache;
  /** Every tool's catalog entry, read once for the process. */
  catalog: readonly CatalogEntry[];
  /** Seals forms' requestState; one for the process (see startHttpServer). */
  sealingKey: Buffer;
  /** The webhook events the receiver keeps; undefined while it is off. */
  events?: WebhookEventStore;
  /** Where the receiver reads registered webhooks' secrets. */
  registeredSecrets?: WebhookSecretStore;
  /** The tools' clock (tests pass one whose waits end at once); the real one by default. */
  clock?: Clock;
  /** Each credential's platform user, read once for the process (see KnownPeople). */
  people: KnownPeople["people"];
}

export interface StatelessCall {
  /** The platform credential this request acts with. */
  token: string | TokenSource;
  /** A client's own bearer token: blanked from this request's log lines. */
  bearer?: string;
}

/** A server for one request, acting with the request's own credential. */
export function statelessServer(context: StatelessContext, call: StatelessCall): WorkforceServer {
  const { config, platform } = context;
  const identity = identityOf(platform.apiUrl, call.token);
  const logger = createChildLogger(context.logger, call.bearer);
  const client = platform.createClient(call.token, logger);
  return createServer(config, {
    client,
    logger,
    sandbox: platform.sandbox,
    version: context.version,
    schemaSource: context.schemas.sourceFor(identity, client),
    store: context.store,
    confirmations: context.confirmations,
    catalog: context.catalog,
    sealingKey: context.sealingKey,
    events: context.events,
    registeredSecrets: context.registeredSecrets,
    clock: context.clock,
    known: { credential: identity, people: context.people },
  });
}

/** Serves one 2025-11-25 request with a server of its own; nothing of it outlives the response but the store. */
export async function serveStatelessRequest(
  context: StatelessContext,
  req: Request,
  res: Response,
  call: StatelessCall,
): Promise<void> {
  const workforce = statelessServer(context, call);
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.once("close", () => {
    void transport.close();
    void workforce.close();
  });
  await workforce.server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

/**
 * Whose calls these are, as keys in the shared store name them: a digest of the platform and the
 * credential (the same on every replica), never the token itself.
 */
function identityOf(apiUrl: string, token: string | TokenSource): string {
  if (typeof token === "string") return governorKey(apiUrl, token);
  return governorKey(apiUrl, `person:${token.budgetKey ?? "this server's sign-in"}`);
}
