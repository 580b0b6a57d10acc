// The sandbox's GraphQL gateway: graphql-http (the reference GraphQL-over-HTTP server) with hooks
// that answer as the real gateway and platform do, in the order they apply:
//   HTTP checks (path, method, CSRF preflight, Content-Type, JSON body)  → 400/404/405/413
//   parse → GRAPHQL_PARSE_FAILED; validate → GRAPHQL_VALIDATION_FAILED; variables → BAD_USER_INPUT
//   authentication (bearer token) → Unauthenticated.
//   rate limit (per token; only authenticated requests use the budget) → Too Many Requests
//   injected faults (only requests that got this far) → the chosen failure
//   execution (authorization, validation and restricted fields inside resolvers)
// The interface document says 200 for almost everything and 400 only for malformed HTTP, so the
// three gateway codes above (parse, validation, bad variables) answer HTTP 200 with `data` absent.
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import {
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  type OperationDefinitionNode,
  parse,
  validate,
} from "graphql";
import {
  createHandler,
  type Handler,
  parseRequestParams,
  type Request,
  type RequestParams,
  type Response,
  type ResponseHeaders,
} from "graphql-http";
import { readCapped } from "../web/body.js";
import type { IdentityKey, RequestContext } from "./context.js";
import { gatewayError, internalError, tooManyRequests, unauthenticated } from "./errors.js";
import type { Faults } from "./faults.js";
import type { SandboxOAuth } from "./oauth/index.js";
import { createSandboxSchema } from "./resolvers.js";
import { SANDBOX_TOKENS } from "./seed/index.js";

export interface RecordedRequest {
  operationName: string | null;
  /** "mutation" for a write, "query" for a read; null when the document did not parse. */
  operationType: "query" | "mutation" | "subscription" | null;
  identity: "full" | "limited" | null;
  status: number;
  at: number;
  /** The W3C traceparent header the request carried, as a platform's tracing would read it. */
  traceparent?: string;
}

/** What the gateway needs of the sandbox behind it. */
export interface Gateway {
  oauth: SandboxOAuth;
  /** Takes one request from the identity's budget; false when it is spent. */
  allow(identity: IdentityKey): boolean;
  /** What the resolvers see of a request by this identity. */
  context(identity: IdentityKey): RequestContext;
  faults: Faults;
  /** Aborted when the sandbox closes. */
  closing: AbortSignal;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const JSON_TYPE = "application/json; charset=utf-8";
const HTML_TYPE = "text/html; charset=utf-8";

// Built with the first request, not at start: an embedded sandbox's first tools/list needs
// neither the schema nor the data, and building them would add noticeably to every start.
let schema: GraphQLSchema | undefined;
const sandboxSchema = () => {
  schema ??= createSandboxSchema();
  return schema;
};

export function tokenIdentity(header: string | undefined, oauth: SandboxOAuth): IdentityKey | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!m?.[1]) return null;
  if (m[1] === SANDBOX_TOKENS.full) return "full";
  if (m[1] === SANDBOX_TOKENS.limited) return "limited";
  // Access tokens issued by /oauth/token act as the identity that approved them.
  return oauth.identityFor(m[1]);
}

/** One request on its way through the gateway: what its hooks need and note. */
interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  record: RecordedRequest;
  gateway: Gateway;
  /** The operation to run, once the document parsed and names one. */
  operation?: OperationDefinitionNode | null;
  /** An injected fault's answer that is not a GraphQL result. */
  page?: Response;
}

/** Answers one GraphQL request over HTTP, noting in `record` what it was and how it ended. */
export async function handleGraphQL(
  req: IncomingMessage,
  res: ServerResponse,
  record: RecordedRequest,
  gateway: Gateway,
): Promise<void> {
  record.identity = tokenIdentity(req.headers.authorization, gateway.oauth);
  const path = new URL(req.url ?? "/", "http://sandbox.invalid").pathname;
  let answer: Response;
  if (path !== "/graphql" && path !== "/graphql/") {
    answer = refusal(404, `Not found: ${path}`, "NOT_FOUND");
  } else {
    try {
      answer = await handlerFor({ req, res, record, gateway })({
        method: req.method ?? "",
        url: req.url ?? "/",
        // The platform answers application/json whatever the client accepts; graphql-http would
        // answer application/graphql-response+json, with 4xx for the gateway's errors.
        headers: { ...req.headers, accept: "application/json" },
        body: null,
        raw: req,
        context: undefined,
      });
    } catch {
      answer = response(500, JSON.stringify(internalError()));
    }
  }
  // Dropped by a fault, or the client went away: nothing to answer.
  if (res.destroyed) return;
  const [body, init] = answer;
  record.status = init.status;
  res.writeHead(init.status, init.statusText, init.headers).end(body ?? undefined);
}

/** graphql-http's handler for one request: its hooks put the gateway's answers in their place. */
function handlerFor(call: Call): Handler<IncomingMessage, undefined> {
  return createHandler({
    parseRequestParams: (request) => requestParams(call, request),
    parse: (source, options) => {
      try {
        return parse(source, options);
      } catch (error) {
        if (error instanceof GraphQLError) throw gatewayError(error, "GRAPHQL_PARSE_FAILED");
        throw error;
      }
    },
    // Called with each parsed document, before validation.
    schema: (_req, args) => noteOperation(call, args),
    validate: (schema, document, rules) => {
      const errors = validate(schema, document, rules);
      if (errors.length > 0) return errors.map((e) => gatewayError(e, "GRAPHQL_VALIDATION_FAILED"));
      // The schema has no subscriptions: refused with the gateway's code, like any invalid document.
      if (call.operation?.operation === "subscription") {
        const error = new GraphQLError("Subscriptions are not supported.", {
          nodes: call.operation,
        });
        return [gatewayError(error, "GRAPHQL_VALIDATION_FAILED")];
      }
      if (call.operation) return [];
      const message = call.record.operationName
        ? `Unknown operation named "${call.record.operationName}".`
        : "Must provide operation name if query contains multiple operations.";
      return [gatewayError(new GraphQLError(message), "GRAPHQL_VALIDATION_FAILED")];
    },
    execute: (args) => gate(call, args),
    onOperation: () => call.page,
    // Errors that are not GraphQL errors come from reading the request: malformed HTTP.
    formatError: (error) =>
      error instanceof GraphQLError
        ? error
        : gatewayError(new GraphQLError(error.message), "BAD_REQUEST"),
  });
}

/** The HTTP checks graphql-http leaves to the gateway, then graphql-http's reading of the request. */
async function requestParams(
  { req, record }: Call,
  request: Request<IncomingMessage, undefined>,
): Promise<RequestParams | Response> {
  // CSRF guard of the real gateway: a GET needs the preflight header.
  if (req.method === "GET" && req.headers["apollo-require-preflight"] === undefined) {
    throw new Error(
      "This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Send the apollo-require-preflight header or use POST.",
    );
  }
  let body: string | null = null;
  if (req.method === "POST") {
    const type = req.headers["content-type"]?.split(";")[0]?.trim().toLowerCase();
    if (type !== "application/json") {
      throw new Error("The Content-Type header must be application/json.");
    }
    const bytes = await readCapped(req, MAX_BODY_BYTES);
    if (bytes === undefined) return refusal(413, "Request body is too large.");
    body = bytes.toString("utf8");
  }
  const params = await parseRequestParams({ ...request, body });
  // graphql-http's own refusals (a method other than GET and POST, a charset other than UTF-8)
  // have no body; the gateway's carry its error.
  if (!("query" in params)) {
    const [, { status, statusText, headers }] = params;
    // The platform answers malformed HTTP with 400 BAD_REQUEST (graphql-http's 415 included).
    if (status === 405) return refusal(status, `${statusText}.`, "METHOD_NOT_ALLOWED", headers);
    return refusal(400, `${statusText}.`);
  }
  if (params.query.trim() === "") throw new Error("The request must have a non-empty `query`.");
  record.operationName = params.operationName ?? null;
  return params;
}

/** Notes the document's operation in the record; a mutation over GET is refused. */
function noteOperation(
  call: Call,
  { document, operationName }: Pick<ExecutionArgs, "document" | "operationName">,
): GraphQLSchema | Response {
  const operation = getOperationAST(document, operationName);
  call.operation = operation;
  call.record.operationName ??= operation?.name?.value ?? null;
  call.record.operationType = operation?.operation ?? null;
  if (call.req.method === "GET" && operation?.operation === "mutation") {
    return refusal(400, "Mutations cannot be sent with GET; use POST.");
  }
  return sandboxSchema();
}

/**
 * What follows validation: the variables, authentication, the rate limit and injected faults, then
 * the operation itself.
 */
async function gate(call: Call, args: ExecutionArgs): Promise<ExecutionResult> {
  const { operation, record, gateway } = call;
  if (!operation) throw new Error("The sandbox's validation let through a missing operation.");
  const coerced = getVariableValues(
    args.schema,
    operation.variableDefinitions ?? [],
    args.variableValues ?? {},
  );
  if (coerced.errors)
    return { errors: coerced.errors.map((e) => gatewayError(e, "BAD_USER_INPUT")) };
  const identity = record.identity;
  if (identity === null) return unauthenticated(operation);
  if (!gateway.allow(identity)) return tooManyRequests();
  const answer = await gateway.faults.answer(record.operationName, {
    run: async () => execute({ ...args, contextValue: gateway.context(identity) }),
    gone: () => call.res.destroyed,
    closing: gateway.closing,
  });
  if (answer.kind === "result") return answer.result;
  if (answer.kind === "drop") call.res.destroy();
  else call.page = response(answer.status, answer.html, { "content-type": HTML_TYPE });
  // Not sent: onOperation answers the page instead, and a dropped request has no answer.
  return { data: null };
}

function response(status: number, body: string, headers?: ResponseHeaders): Response {
  const init = { status, statusText: STATUS_CODES[status] ?? "" };
  return [body, { ...init, headers: { "content-type": JSON_TYPE, ...headers } }];
}

/** Malformed HTTP: the gateway's error with `code`, at `status`. */
function refusal(
  status: number,
  message: string,
  code = "BAD_REQUEST",
  headers?: ResponseHeaders,
): Response {
  const error = gatewayError(new GraphQLError(message), code);
  return response(status, JSON.stringify({ errors: [error] }), headers);
}
