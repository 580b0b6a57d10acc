// The sandbox's GraphQL gateway, in the order the real gateway and platform apply it:
//   HTTP checks (path, method, CSRF preflight, Content-Type, JSON body)  → 400/404/405
//   parse → GRAPHQL_PARSE_FAILED; validate → GRAPHQL_VALIDATION_FAILED; variables → BAD_USER_INPUT
//   authentication (bearer token) → Unauthenticated.
//   rate limit (per token; only authenticated requests use the budget) → Too Many Requests
//   injected faults (only requests that got this far) → the chosen failure
//   execution (authorization, validation and restricted fields inside resolvers)
// The interface document says 200 for almost everything and 400 only for malformed HTTP, so the
// three gateway codes above (parse, validation, bad variables) answer HTTP 200 with `data` absent.
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type DocumentNode,
  execute,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  type OperationDefinitionNode,
  parse,
  validate,
} from "graphql";
import { readBody } from "../web/body.js";
import type { IdentityKey, RequestContext } from "./context.js";
import {
  type ErrorBody,
  gatewayError,
  internalErrorBody,
  MESSAGES,
  tooManyRequestsBody,
} from "./errors.js";
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
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function tokenIdentity(header: string | undefined, oauth: SandboxOAuth): IdentityKey | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!m?.[1]) return null;
  if (m[1] === SANDBOX_TOKENS.full) return "full";
  if (m[1] === SANDBOX_TOKENS.limited) return "limited";
  // Access tokens issued by /oauth/token act as the identity that approved them.
  return oauth.identityFor(m[1]);
}

/** Answers one GraphQL request over HTTP, noting in `record` what it was and how it ended. */
export async function handleGraphQL(
  req: IncomingMessage,
  res: ServerResponse,
  record: RecordedRequest,
  gateway: Gateway,
): Promise<void> {
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
  record.identity = tokenIdentity(req.headers.authorization, gateway.oauth);
  try {
    const params = await readParams(req);
    record.operationName = params.operationName ?? null;
    const checked = checkDocument(params, req.method, record);
    if ("errors" in checked) return send(200, checked);
    const identity = record.identity;
    if (identity === null) return send(200, unauthenticatedBody(checked.operation));
    if (!gateway.allow(identity)) return send(200, tooManyRequestsBody());
    const run = async () => {
      const result = await execute({
        schema: sandboxSchema(),
        document: checked.document,
        variableValues: params.variables ?? {},
        operationName: params.operationName,
        contextValue: gateway.context(identity),
      });
      const body: Record<string, unknown> = {};
      if (result.errors) body.errors = result.errors.map((e) => e.toJSON());
      body.data = result.data ?? null;
      return body;
    };
    await gateway.faults.answer(record.operationName, {
      run,
      send,
      drop: () => {
        record.status = 0;
        req.socket.destroy();
      },
      gone: () => res.destroyed,
      closing: gateway.closing,
    });
  } catch (error) {
    if (error instanceof HttpFailure) {
      for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
      send(error.status, { errors: [gatewayError(error.code, error.message)] });
      return;
    }
    record.status = 500;
    const body: ErrorBody = internalErrorBody();
    if (!res.headersSent) send(500, body);
    else res.destroy();
  }
}

interface GraphQLParams {
  query: string;
  variables: Record<string, unknown> | undefined;
  operationName: string | undefined;
}

/** The HTTP checks: path, method, CSRF preflight, Content-Type and a JSON body. */
async function readParams(req: IncomingMessage): Promise<GraphQLParams> {
  const url = new URL(req.url ?? "/", "http://sandbox.invalid");
  if (url.pathname !== "/graphql" && url.pathname !== "/graphql/") {
    throw new HttpFailure(404, `Not found: ${url.pathname}`, "NOT_FOUND");
  }
  if (req.method === "GET") {
    // CSRF guard of the real gateway: a GET needs the preflight header.
    if (req.headers["apollo-require-preflight"] === undefined) {
      throw new HttpFailure(
        400,
        "This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Send the apollo-require-preflight header or use POST.",
      );
    }
    return paramsFromGet(url);
  }
  if (req.method === "POST") {
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
    return checkParams(body);
  }
  throw new HttpFailure(405, `Method ${req.method ?? "?"} is not allowed.`, "METHOD_NOT_ALLOWED", {
    allow: "GET, POST",
  });
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

/**
 * Parse, validate and coerce the variables: the operation to run, or the gateway's errors (HTTP
 * 200, no `data`). Notes the operation's name and type in `record` as soon as they are known.
 */
function checkDocument(
  params: GraphQLParams,
  method: string | undefined,
  record: RecordedRequest,
): { document: DocumentNode; operation: OperationDefinitionNode } | ErrorBody {
  let document: DocumentNode;
  try {
    document = parse(params.query);
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    const where = error.locations ? { locations: error.locations } : {};
    return { errors: [gatewayError("GRAPHQL_PARSE_FAILED", error.message, where)] };
  }
  const operation = getOperationAST(document, params.operationName);
  if (record.operationName === null && operation?.name) {
    record.operationName = operation.name.value;
  }
  record.operationType = operation?.operation ?? null;
  if (method === "GET" && operation?.operation === "mutation") {
    throw new HttpFailure(400, "Mutations cannot be sent with GET; use POST.");
  }
  const validationErrors = validate(sandboxSchema(), document);
  if (validationErrors.length > 0) {
    return {
      errors: validationErrors.map((e) =>
        gatewayError("GRAPHQL_VALIDATION_FAILED", e.message, { locations: e.locations ?? [] }),
      ),
    };
  }
  if (!operation) {
    const message = params.operationName
      ? `Unknown operation named "${params.operationName}".`
      : "Must provide operation name if query contains multiple operations.";
    return { errors: [gatewayError("GRAPHQL_VALIDATION_FAILED", message)] };
  }
  const coerced = getVariableValues(
    sandboxSchema(),
    operation.variableDefinitions ?? [],
    params.variables ?? {},
  );
  if (coerced.errors) {
    return {
      errors: coerced.errors.map((e) =>
        gatewayError("BAD_USER_INPUT", e.message, e.locations ? { locations: e.locations } : {}),
      ),
    };
  }
  return { document, operation };
}

/** The platform's answer to a request without a valid token, at the operation's first field. */
function unauthenticatedBody(operation: OperationDefinitionNode) {
  const root = firstRootField(operation);
  return {
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
  };
}

function firstRootField(operation: OperationDefinitionNode) {
  const selection = operation.selectionSet.selections.find((s) => s.kind === "Field");
  if (selection?.kind !== "Field") return { path: [] as string[], locations: [] };
  const key = selection.alias?.value ?? selection.name.value;
  const loc = selection.loc;
  const locations = loc
    ? [{ line: loc.startToken.line, column: loc.startToken.column }]
    : ([] as Array<{ line: number; column: number }>);
  return { path: [key], locations };
}
