// The embedded sandbox: a stand-in for the platform's GraphQL gateway over real HTTP, with seeded
// data, the same error shapes, a per-token rate limit and in-process fault injection for tests.
// The gateway's pipeline is in gateway.ts; this holds the sandbox's state and its test hooks.

import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { DEFAULTS } from "../config.js";
import { IDENTITIES, type IdentityKey, type PlatformEvents } from "./context.js";
import { todayUtc } from "./dates.js";
import {
  createWebhookDelivery,
  ensureTrustedContact,
  type WebhookDeliveryOptions,
  type WebhookEventRecord,
  webhookEventsOf,
} from "./domains/webhooks/delivery.js";
import { createFaults, type FaultKind, type FaultOptions } from "./faults.js";
import { handleGraphQL, type RecordedRequest, tokenIdentity } from "./gateway.js";
import {
  createSandboxClock,
  createSandboxOAuth,
  type SandboxClock,
  type SandboxOAuth,
} from "./oauth/index.js";
import { referenced } from "./records.js";
import {
  createSeed,
  SANDBOX_TOKENS,
  type SandboxData,
  type TimesheetRecord,
} from "./seed/index.js";

export type { FaultKind } from "./faults.js";
export type { OAuthClientInfo } from "./oauth/index.js";

export type { SandboxData } from "./seed/index.js";
export { SANDBOX_FIXTURES, SANDBOX_TOKENS } from "./seed/index.js";

export interface SandboxOptions {
  port?: number;
  host?: string;
  today?: string;
  rateLimitPerMinute?: number;
  maxRegistrationsPerCall?: number;
  /** Test hook: changes the seeded data (at start and on reset), e.g. to plant hostile names. */
  seedPatch?: (data: SandboxData) => void;
  /** The redirect URL registered for the sandbox's own OAuth client (default: login's default). */
  oauthRedirectUri?: string;
  /** Where the OAuth clock starts (default Date.now); `sandbox.clock.advance` moves it on. */
  now?: () => number;
  /** The webhooks' retry schedule and time-out: the platform's by default, shorter in tests. */
  webhooks?: WebhookDeliveryOptions;
}
export interface Sandbox {
  url: string;
  graphqlUrl: string;
  tokens: { full: string; limited: string };
  faults: {
    inject(kind: FaultKind, options?: FaultOptions): void;
    clear(): void;
    /** Runs the operations held by faults injected with `later`, in order; how many ran. */
    releaseHeld(): Promise<number>;
  };
  requests: RecordedRequest[];
  countRequests(operationName?: string): number;
  reset(): void;
  setRateLimit(perMinute: number): void;
  readonly timesheets: ReadonlyMap<string, TimesheetRecord>;
  /** Test hook: changes the live data, as someone else working on the platform would. */
  edit(change: (data: SandboxData) => void): void;
  /** The authorization server (/oauth/authorize, /oauth/token): its client, revocation. */
  oauth: SandboxOAuth;
  /** The OAuth clock: codes, access tokens and the refresh period follow it. */
  clock: SandboxClock;
  /**
   * Plays the worker accepting the hire's contract waiting for them (its newest draft): the draft
   * becomes the active contract (an active one before it is archived), an offered hire is ready
   * (active once its start date has come), and `contractAccepted` goes to the webhooks. Also
   * `POST /sandbox/hires/<id>/accept-contract` with the full token. Throws when there is none.
   */
  acceptContract(hireId: string): { contractId: string };
  /** The webhook deliveries made so far (webhookEvents), oldest first, attempts included. */
  readonly webhookEvents: readonly WebhookEventRecord[];
  close(): Promise<void>;
}

const WINDOW_MS = 60_000;

/** Requests per identity in a rolling minute; a limit of 0 or less lets everything through. */
function createRateLimit(perMinute: number) {
  const windows = new Map<IdentityKey, number[]>();
  return {
    allow(identity: IdentityKey): boolean {
      if (perMinute <= 0) return true;
      const now = Date.now();
      const recent = (windows.get(identity) ?? []).filter((t) => now - t < WINDOW_MS);
      if (recent.length >= perMinute) {
        windows.set(identity, recent);
        return false;
      }
      recent.push(now);
      windows.set(identity, recent);
      return true;
    },
    set(next: number) {
      perMinute = next;
      windows.clear();
    },
    clear() {
      windows.clear();
    },
  };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const today = options.today ?? todayUtc();
  const host = options.host ?? "127.0.0.1";
  const maxRegistrationsPerCall = options.maxRegistrationsPerCall ?? 500;
  const seed = (): SandboxData => {
    const fresh = createSeed(today);
    options.seedPatch?.(fresh);
    return fresh;
  };
  let seeded: SandboxData | undefined;
  const data = () => {
    seeded ??= seed();
    return seeded;
  };
  const faults = createFaults();
  const rateLimit = createRateLimit(options.rateLimitPerMinute ?? 60);
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let baseUrl = "";
  const clock = createSandboxClock(options.now);
  const webhooks = createWebhookDelivery({ data, delivery: options.webhooks });
  const oauth = createSandboxOAuth({
    clock,
    redirectUri: options.oauthRedirectUri ?? DEFAULTS.redirectUri,
  });
  /** Aborted on close: a slow answer still waiting ends with the sandbox. */
  const closing = new AbortController();
  const acceptContract = (hireId: string) =>
    acceptContractOf(data(), hireId, today, webhooks.events);

  const server = createServer((req, res) => {
    // The authorization server's endpoints are not GraphQL requests: not recorded, not limited.
    if (req.url?.startsWith("/oauth/")) {
      void oauth.handle(req, res, new URL(req.url, "http://sandbox.invalid"));
      return;
    }
    // Nor are the sandbox's own controls, which play what happens outside the API.
    if (req.url?.startsWith("/sandbox/")) {
      control(req, res, new URL(req.url, "http://sandbox.invalid").pathname, oauth, acceptContract);
      return;
    }
    const record: RecordedRequest = {
      operationName: null,
      operationType: null,
      identity: null,
      status: 0,
      at: Date.now(),
      ...(typeof req.headers.traceparent === "string" && { traceparent: req.headers.traceparent }),
    };
    requests.push(record);
    void handleGraphQL(req, res, record, {
      oauth,
      allow: rateLimit.allow,
      context: (identity) => ({
        identity: IDENTITIES[identity],
        data: data(),
        baseUrl,
        maxRegistrationsPerCall,
        events: webhooks.events,
      }),
      faults,
      closing: closing.signal,
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  baseUrl = await listen(server, options.port ?? 0, host);

  let closed: Promise<void> | null = null;
  return {
    url: baseUrl,
    graphqlUrl: `${baseUrl}/graphql`,
    tokens: { full: SANDBOX_TOKENS.full, limited: SANDBOX_TOKENS.limited },
    faults: { inject: faults.inject, clear: faults.clear, releaseHeld: faults.releaseHeld },
    requests,
    countRequests(operationName) {
      return operationName === undefined
        ? requests.length
        : requests.filter((r) => r.operationName === operationName).length;
    },
    reset() {
      webhooks.cancelAll();
      seeded = undefined;
      faults.clear();
      requests.length = 0;
      rateLimit.clear();
    },
    setRateLimit: rateLimit.set,
    get timesheets() {
      return data().timesheets;
    },
    edit(change) {
      change(data());
    },
    oauth,
    clock,
    acceptContract,
    get webhookEvents() {
      return webhookEventsOf(data());
    },
    close() {
      webhooks.cancelAll();
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections?.();
      });
      return closed;
    },
  };
}

/** Listens on `port` (0: any free one) and answers with the server's base URL. */
async function listen(server: Server, port: number, host: string): Promise<string> {
  server.listen(port, host);
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("Sandbox did not bind.");
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return `http://${urlHost}:${address.port}`;
}

/** The worker accepts the contract waiting for them on `hireId` (Sandbox.acceptContract). */
function acceptContractOf(
  d: SandboxData,
  hireId: string,
  today: string,
  events: PlatformEvents,
): { contractId: string } {
  const hire = d.hires.get(hireId);
  if (!hire) throw new Error(`No hire ${hireId} in the sandbox.`);
  const contracts = hire.contractIds.map((id) => referenced(d.contracts, id));
  const draft = contracts.filter((c) => c.status === "DRAFT").at(-1);
  if (!draft || !["OFFERED", "READY", "ACTIVE"].includes(hire.status)) {
    throw new Error(
      `Hire ${hireId} (${hire.status}) has no contract waiting for the worker to accept.`,
    );
  }
  for (const c of contracts) if (c.status === "ACTIVE") c.status = "ARCHIVED";
  draft.status = "ACTIVE";
  if (hire.status === "OFFERED") {
    const started = hire.startDate !== null && hire.startDate <= today;
    hire.status = started ? "ACTIVE" : "READY";
  }
  ensureTrustedContact(d, hire);
  events.hire("CONTRACT_ACCEPTED", hire.id, draft.id);
  return { contractId: draft.id };
}

/** POST /sandbox/hires/<id>/accept-contract, with the full token: the worker accepts. */
function control(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  oauth: SandboxOAuth,
  acceptContract: (hireId: string) => { contractId: string },
) {
  const answer = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  };
  const hireId = /^\/sandbox\/hires\/([^/]+)\/accept-contract$/.exec(path)?.[1];
  if (hireId === undefined) return answer(404, { error: `Not found: ${path}` });
  if (req.method !== "POST") return answer(405, { error: "Use POST." });
  if (tokenIdentity(req.headers.authorization, oauth) !== "full") {
    return answer(401, { error: "Send the sandbox's full token as a bearer." });
  }
  try {
    answer(200, acceptContract(decodeURIComponent(hireId)));
  } catch (error) {
    answer(400, { error: error instanceof Error ? error.message : String(error) });
  }
}
