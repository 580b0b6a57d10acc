// The embedded sandbox: a stand-in for the platform's GraphQL gateway over real HTTP, with seeded
// data, the same error shapes, a per-token rate limit and in-process fault injection for tests.
//
// Request pipeline, in the order the real gateway and platform apply it:
//   HTTP checks (path, method, CSRF preflight, Content-Type, JSON body)  → 400/404/405
//   parse → GRAPHQL_PARSE_FAILED; validate → GRAPHQL_VALIDATION_FAILED; variables → BAD_USER_INPUT
//   authentication (bearer token) → Unauthenticated.
//   rate limit (per token; only authenticated requests use the budget) → Too Many Requests
//   injected faults (only requests that got this far) → the chosen failure
//   execution (authorization, validation and restricted fields inside resolvers)
// The interface document says 200 for almost everything and 400 only for malformed HTTP, so the
// three gateway codes above (parse, validation, bad variables) answer HTTP 200 with `data` absent.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { setTimeout as wait } from "node:timers/promises";
import {
  type DocumentNode,
  execute,
  type GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  type OperationDefinitionNode,
  parse,
  validate,
} from "graphql";
import { DEFAULTS } from "../config.js";
import { readBody } from "../web/body.js";
import { IDENTITIES, type IdentityKey, type RequestContext } from "./context.js";
import { todayUtc } from "./dates.js";
import {
  createWebhookDelivery,
  ensureTrustedContact,
  type WebhookDeliveryOptions,
  type WebhookEventRecord,
  webhookEventsOf,
} from "./domains/webhooks/delivery.js";
import {
  type ErrorBody,
  gatewayError,
  internalErrorBody,
  MESSAGES,
  tooManyRequestsBody,
} from "./errors.js";
import {
  createSandboxClock,
  createSandboxOAuth,
  type SandboxClock,
  type SandboxOAuth,
} from "./oauth/index.js";
import { createSandboxSchema } from "./resolvers.js";
import {
  type ContractRecord,
  createSeed,
  SANDBOX_TOKENS,
  type SandboxData,
  type TimesheetRecord,
} from "./seed/index.js";

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
const FAULT_KINDS = [
  "internal-error",
  "rate-limit",
  "html-500",
  "non-json-200",
  "slow",
  "drop-connection",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
interface FaultOptions {
  count?: number;
  delayMs?: number;
  operationName?: string;
  after?: boolean;
  /**
   * The request's operation is not run now but held until `faults.releaseHeld()`: a write the
   * platform applies after its answer was lost.
   */
  later?: boolean;
}
interface RecordedRequest {
  operationName: string | null;
  /** "mutation" for a write, "query" for a read; null when the document did not parse. */
  operationType: "query" | "mutation" | "subscription" | null;
  identity: "full" | "limited" | null;
  status: number;
  at: number;
  /** The W3C traceparent header the request carried, as a platform's tracing would read it. */
  traceparent?: string;
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

interface PendingFault {
  kind: FaultKind;
  remaining: number;
  delayMs: number;
  operationName: string | undefined;
  after: boolean;
  later: boolean;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const WINDOW_MS = 60_000;

// Built with the first request, not at start: an embedded sandbox's first tools/list needs
// neither the schema nor the data, and building them would add noticeably to every start.
let schema: GraphQLSchema | undefined;
const sandboxSchema = () => {
  schema ??= createSandboxSchema();
  return schema;
};

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = "BAD_REQUEST",
  ) {
    super(message);
  }
}

function tokenIdentity(header: string | undefined, oauth: SandboxOAuth): IdentityKey | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!m?.[1]) return null;
  if (m[1] === SANDBOX_TOKENS.full) return "full";
  if (m[1] === SANDBOX_TOKENS.limited) return "limited";
  // Access tokens issued by /oauth/token act as the identity that approved them.
  return oauth.identityFor(m[1]);
}

interface GraphQLParams {
  query: string;
  variables: Record<string, unknown> | undefined;
  operationName: string | undefined;
}

function paramsFromGet(url: URL): GraphQLParams {
  const query = url.searchParams.get("query");
  if (!query) throw new HttpFailure(400, "GET requests must have a query parameter.");
  const rawVariables = url.searchParams.get("variables");
  let variables: unknown;
  if (rawVariables) {
    try {
      variables = JSON.parse(rawVariables);
    } catch {
      throw new HttpFailure(400, "The variables parameter must be JSON.");
    }
  }
  return checkParams({
    query,
    variables,
    operationName: url.searchParams.get("operationName") ?? undefined,
  });
}

function checkParams(body: unknown): GraphQLParams {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new HttpFailure(400, "The request body must be a JSON object.");
  }
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== "string" || query.trim() === "") {
    throw new HttpFailure(400, "The request body must have a non-empty `query` string.");
  }
  if (
    variables !== undefined &&
    variables !== null &&
    (typeof variables !== "object" || Array.isArray(variables))
  ) {
    throw new HttpFailure(400, "`variables` must be a JSON object.");
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") {
    throw new HttpFailure(400, "`operationName` must be a string.");
  }
  return {
    query,
    variables: (variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: (operationName ?? undefined) as string | undefined,
  };
}

function firstRootField(operation: OperationDefinitionNode | null | undefined) {
  const selection = operation?.selectionSet.selections.find((s) => s.kind === "Field");
  if (selection?.kind !== "Field") return { path: [] as string[], locations: [] };
  const key = selection.alias?.value ?? selection.name.value;
  const loc = selection.loc;
  const locations = loc
    ? [{ line: loc.startToken.line, column: loc.startToken.column }]
    : ([] as Array<{ line: number; column: number }>);
  return { path: [key], locations };
}

function htmlPage(title: string): string {
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>The server encountered an error.</p></body></html>`;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const today = options.today ?? todayUtc();
  const host = options.host ?? "127.0.0.1";
  const maxRegistrationsPerCall = options.maxRegistrationsPerCall ?? 500;
  let rateLimit = options.rateLimitPerMinute ?? 60;
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
  let faults: PendingFault[] = [];
  let held: (() => Promise<unknown>)[] = [];
  const windows = new Map<IdentityKey, number[]>();
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

  function consumeRateLimit(identity: IdentityKey): boolean {
    if (rateLimit <= 0) return true;
    const now = Date.now();
    const recent = (windows.get(identity) ?? []).filter((t) => now - t < WINDOW_MS);
    if (recent.length >= rateLimit) {
      windows.set(identity, recent);
      return false;
    }
    recent.push(now);
    windows.set(identity, recent);
    return true;
  }

  function takeFault(operationName: string | null): PendingFault | null {
    const fault = faults.find(
      (f) => f.operationName === undefined || f.operationName === operationName,
    );
    if (!fault) return null;
    fault.remaining -= 1;
    if (fault.remaining <= 0) faults = faults.filter((f) => f !== fault);
    return fault;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, record: RecordedRequest) {
    const send = (status: number, body: unknown, contentType = "application/json") => {
      record.status = status;
      const text = typeof body === "string" ? body : JSON.stringify(body);
      res.writeHead(status, {
        "content-type": contentType.startsWith("application/json")
          ? "application/json; charset=utf-8"
          : `${contentType}; charset=utf-8`,
        "content-length": Buffer.byteLength(text),
      });
      res.end(text);
    };
    const fail = (failure: HttpFailure) =>
      send(failure.status, { errors: [gatewayError(failure.code, failure.message)] });

    const url = new URL(req.url ?? "/", "http://sandbox.invalid");
    record.identity = tokenIdentity(req.headers.authorization, oauth);
    try {
      if (url.pathname !== "/graphql" && url.pathname !== "/graphql/") {
        throw new HttpFailure(404, `Not found: ${url.pathname}`, "NOT_FOUND");
      }
      let params: GraphQLParams;
      if (req.method === "GET") {
        // CSRF guard of the real gateway: a GET needs the preflight header.
        if (req.headers["apollo-require-preflight"] === undefined) {
          throw new HttpFailure(
            400,
            "This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Send the apollo-require-preflight header or use POST.",
          );
        }
        params = paramsFromGet(url);
      } else if (req.method === "POST") {
        const contentType = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
        if (contentType !== "application/json") {
          throw new HttpFailure(400, "The Content-Type header must be application/json.");
        }
        const text = await readBody(
          req,
          MAX_BODY_BYTES,
          () => new HttpFailure(413, "Request body is too large."),
        );
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          throw new HttpFailure(400, "The request body is not valid JSON.");
        }
        params = checkParams(body);
      } else {
        res.setHeader("allow", "GET, POST");
        throw new HttpFailure(
          405,
          `Method ${req.method ?? "?"} is not allowed.`,
          "METHOD_NOT_ALLOWED",
        );
      }
      record.operationName = params.operationName ?? null;

      let document: DocumentNode;
      try {
        document = parse(params.query);
      } catch (error) {
        const e = error as GraphQLError;
        send(200, {
          errors: [
            gatewayError(
              "GRAPHQL_PARSE_FAILED",
              e.message,
              e.locations ? { locations: e.locations } : {},
            ),
          ],
        });
        return;
      }
      const operation = getOperationAST(document, params.operationName);
      if (record.operationName === null && operation?.name) {
        record.operationName = operation.name.value;
      }
      record.operationType = operation?.operation ?? null;
      if (req.method === "GET" && operation?.operation === "mutation") {
        throw new HttpFailure(400, "Mutations cannot be sent with GET; use POST.");
      }
      const validationErrors = validate(sandboxSchema(), document);
      if (validationErrors.length > 0) {
        send(200, {
          errors: validationErrors.map((e) =>
            gatewayError("GRAPHQL_VALIDATION_FAILED", e.message, { locations: e.locations ?? [] }),
          ),
        });
        return;
      }
      if (!operation) {
        send(200, {
          errors: [
            gatewayError(
              "GRAPHQL_VALIDATION_FAILED",
              params.operationName
                ? `Unknown operation named "${params.operationName}".`
                : "Must provide operation name if query contains multiple operations.",
            ),
          ],
        });
        return;
      }
      const coerced = getVariableValues(
        sandboxSchema(),
        operation.variableDefinitions ?? [],
        params.variables ?? {},
      );
      if (coerced.errors) {
        send(200, {
          errors: coerced.errors.map((e) =>
            gatewayError(
              "BAD_USER_INPUT",
              e.message,
              e.locations ? { locations: e.locations } : {},
            ),
          ),
        });
        return;
      }

      const identityKey = record.identity;
      if (identityKey === null) {
        const root = firstRootField(operation);
        send(200, {
          errors: [
            {
              message: MESSAGES.unauthenticated,
              locations: root.locations,
              path: root.path,
              extensions: {
                code: "DOWNSTREAM_SERVICE_ERROR",
                serviceName: "platform",
                guards: ["api"],
              },
            },
          ],
          data: null,
        });
        return;
      }
      if (!consumeRateLimit(identityKey)) {
        send(200, tooManyRequestsBody());
        return;
      }

      const fault = takeFault(record.operationName);
      const run = async () => {
        const context: RequestContext = {
          identity: IDENTITIES[identityKey],
          data: data(),
          baseUrl,
          maxRegistrationsPerCall,
          events: webhooks.events,
        };
        const result = await execute({
          schema: sandboxSchema(),
          document,
          variableValues: params.variables ?? {},
          operationName: params.operationName,
          contextValue: context,
        });
        const body: Record<string, unknown> = {};
        if (result.errors) body.errors = result.errors.map((e) => e.toJSON());
        body.data = result.data ?? null;
        return body;
      };

      if (fault?.kind === "slow") {
        await wait(fault.delayMs, undefined, { signal: closing.signal });
        if (res.destroyed) return;
        send(200, await run());
        return;
      }
      if (fault === null) {
        send(200, await run());
        return;
      }
      if (fault.after) await run();
      else if (fault.later) held.push(run);
      switch (fault.kind) {
        case "internal-error":
          send(200, internalErrorBody());
          return;
        case "rate-limit":
          send(200, tooManyRequestsBody());
          return;
        case "html-500":
          send(500, htmlPage("500 Internal Server Error"), "text/html");
          return;
        case "non-json-200":
          send(200, htmlPage("Service temporarily unavailable"), "text/html");
          return;
        case "drop-connection":
          record.status = 0;
          req.socket.destroy();
          return;
      }
    } catch (error) {
      if (error instanceof HttpFailure) {
        fail(error);
        return;
      }
      record.status = 500;
      const body: ErrorBody = internalErrorBody();
      if (!res.headersSent) send(500, body);
      else res.destroy();
    }
  }

  function acceptContract(hireId: string): { contractId: string } {
    const d = data();
    const hire = d.hires.get(hireId);
    if (!hire) throw new Error(`No hire ${hireId} in the sandbox.`);
    const contracts = hire.contractIds.map((id) => d.contracts.get(id) as ContractRecord);
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
    webhooks.events.hire("CONTRACT_ACCEPTED", hire.id, draft.id);
    return { contractId: draft.id };
  }

  /** POST /sandbox/hires/<id>/accept-contract, with the full token: the worker accepts. */
  function control(req: IncomingMessage, res: ServerResponse, path: string) {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(body));
    };
    const m = /^\/sandbox\/hires\/([^/]+)\/accept-contract$/.exec(path);
    if (!m) return answer(404, { error: `Not found: ${path}` });
    if (req.method !== "POST") return answer(405, { error: "Use POST." });
    if (tokenIdentity(req.headers.authorization, oauth) !== "full") {
      return answer(401, { error: "Send the sandbox's full token as a bearer." });
    }
    try {
      answer(200, acceptContract(decodeURIComponent(m[1] as string)));
    } catch (error) {
      answer(400, { error: (error as Error).message });
    }
  }

  const server = createServer((req, res) => {
    // The authorization server's endpoints are not GraphQL requests: not recorded, not limited.
    if (req.url?.startsWith("/oauth/")) {
      void oauth.handle(req, res, new URL(req.url, "http://sandbox.invalid"));
      return;
    }
    // Nor are the sandbox's own controls, which play what happens outside the API.
    if (req.url?.startsWith("/sandbox/")) {
      control(req, res, new URL(req.url, "http://sandbox.invalid").pathname);
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
    void handle(req, res, record);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("Sandbox did not bind.");
  const urlHost = host.includes(":") ? `[${host}]` : host;
  baseUrl = `http://${urlHost}:${address.port}`;

  let closed: Promise<void> | null = null;
  const sandbox: Sandbox = {
    url: baseUrl,
    graphqlUrl: `${baseUrl}/graphql`,
    tokens: { full: SANDBOX_TOKENS.full, limited: SANDBOX_TOKENS.limited },
    faults: {
      inject(kind, opts = {}) {
        // Callers in plain JavaScript get no type check; an unknown kind would leave requests hanging.
        if (!FAULT_KINDS.includes(kind)) {
          throw new Error(`Unknown fault kind "${kind}"; use one of ${FAULT_KINDS.join(", ")}.`);
        }
        faults.push({
          kind,
          remaining: opts.count ?? 1,
          delayMs: opts.delayMs ?? 5_000,
          operationName: opts.operationName,
          after: opts.after ?? false,
          later: opts.later ?? false,
        });
      },
      clear() {
        faults = [];
        held = [];
      },
      async releaseHeld() {
        const runs = held;
        held = [];
        for (const run of runs) await run();
        return runs.length;
      },
    },
    requests,
    countRequests(operationName) {
      return operationName === undefined
        ? requests.length
        : requests.filter((r) => r.operationName === operationName).length;
    },
    reset() {
      webhooks.cancelAll();
      seeded = undefined;
      faults = [];
      held = [];
      requests.length = 0;
      windows.clear();
    },
    setRateLimit(perMinute) {
      rateLimit = perMinute;
      windows.clear();
    },
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
  return sandbox;
}
