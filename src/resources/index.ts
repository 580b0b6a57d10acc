import type { CompleteRequest, CompleteResult, Server } from "@modelcontextprotocol/server";
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
} from "@modelcontextprotocol/server";
import { oneLine, quoted } from "../client/platform-text.js";
import type { SchemaSource } from "../client/schema/introspection.js";
import {
  SCHEMA_INDEX_URI,
  SCHEMA_TYPE_TEMPLATE,
  TIMESHEET_PAYLOAD_SCHEMA_URI,
} from "../client/schema/uris.js";
import type { Logger } from "../logger.js";
import {
  CHANGES_RESOURCE,
  type ChangesResourceDeps,
  readChanges,
  serveChangeSubscriptions,
} from "./changes.js";

// Our own constant, loaded and serialized on the first read; nothing in it to redact.
let payloadSchemaText: string | undefined;
async function timesheetPayloadSchemaText(): Promise<string> {
  const { timesheetPayloadSchema } = await import("../client/timesheet-payload-schema.js");
  payloadSchemaText ??= `${JSON.stringify(timesheetPayloadSchema, null, 2)}\n`;
  return payloadSchemaText;
}

// JSON-RPC code the MCP specification gives to "resource not found".

// Rendering needs graphql, which is large: loaded with the first schema read, not at start-up.
const render = () => import("../client/schema/render.js");

export interface ResourceDeps {
  logger: Logger;
  /** The platform's schema, introspected once and shared with the tools. */
  schemaSource: SchemaSource;
  /** workforce://changes: the webhook events, and the caller's client to filter and describe them. */
  changes: ChangesResourceDeps;
  /** Completes a prompt's argument (the prompts' own completion); completion/complete is one handler. */
  completePrompt: (
    params: CompleteRequest["params"],
    signal?: AbortSignal,
  ) => Promise<CompleteResult>;
}

interface ResourceEntry {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
}

const SCHEMA_INDEX: ResourceEntry = {
  uri: SCHEMA_INDEX_URI,
  name: "schema",
  title: "Platform API index",
  description:
    "Every query and mutation of the platform's GraphQL API, one line each with arguments and return type. Read a type with workforce://schema/types/{name}.",
  mimeType: "text/plain",
};

const TIMESHEET_PAYLOAD_SCHEMA: ResourceEntry = {
  uri: TIMESHEET_PAYLOAD_SCHEMA_URI,
  name: "timesheet-payload-schema",
  title: "Timesheet payload JSON Schema",
  description:
    "The JSON Schema (draft 2020-12) of the registrations submit_timesheets sends to the platform.",
  mimeType: "application/schema+json",
};

const SCHEMA_TYPE = {
  uriTemplate: SCHEMA_TYPE_TEMPLATE,
  name: "schema-type",
  title: "Platform API type",
  description:
    "The GraphQL definition (SDL) of one type of the platform's API, with its fields and their descriptions.",
  mimeType: "text/plain",
};

const SCHEMA_TYPE_PREFIX = SCHEMA_TYPE_TEMPLATE.slice(0, SCHEMA_TYPE_TEMPLATE.indexOf("{"));

/** The type name in workforce://schema/types/{name}, or undefined for any other URI. */
function schemaTypeName(uri: string): string | undefined {
  if (!uri.startsWith(SCHEMA_TYPE_PREFIX)) return undefined;
  const segment = uri.slice(SCHEMA_TYPE_PREFIX.length);
  if (!segment || segment.includes("/")) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The three resources on the SDK's low-level server: two fixed documents and one template with
 * completion of type names. Unknown URIs are "resource not found" (-32602 with the URI in data, as the SDK sends it on every era).
 */
export function registerResources(server: Server, deps: ResourceDeps): () => Promise<void> {
  const source = deps.schemaSource;
  // The same redaction tool text gets: the schema is platform text and may carry anything.
  const redact = (text: string) => deps.logger.redact(text);
  const schema = async (what: string, signal?: AbortSignal) => {
    try {
      return await source.get(signal);
    } catch (error) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        deps.logger.redact(await readFailure(error, what, deps.logger)),
      );
    }
  };
  const document = (entry: ResourceEntry | typeof SCHEMA_TYPE, uri: string, text: string) => ({
    contents: [{ uri, mimeType: entry.mimeType, text }],
  });

  server.setRequestHandler("resources/list", () => ({
    resources: [SCHEMA_INDEX, TIMESHEET_PAYLOAD_SCHEMA, CHANGES_RESOURCE],
  }));
  server.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: [SCHEMA_TYPE],
  }));

  server.setRequestHandler("resources/read", async (request, ctx) => {
    const { uri } = request.params;
    if (uri === SCHEMA_INDEX_URI) {
      const index = (await render()).renderSchemaIndex(await schema(uri, ctx.mcpReq.signal));
      return document(SCHEMA_INDEX, uri, redact(index));
    }
    if (uri === TIMESHEET_PAYLOAD_SCHEMA_URI) {
      return document(TIMESHEET_PAYLOAD_SCHEMA, uri, await timesheetPayloadSchemaText());
    }
    if (uri === CHANGES_RESOURCE.uri) {
      const text = await readChanges(deps.changes, ctx.mcpReq.signal).catch(async (error) => {
        if (error instanceof ProtocolError) throw error;
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          redact(await readFailure(error, "the changes", deps.logger)),
        );
      });
      return document(CHANGES_RESOURCE, uri, redact(text));
    }
    if (uri.startsWith("ui://")) {
      // An MCP Apps view: read by hosts from a tool's _meta.ui, not listed (clients without Apps
      // list exactly what they did). Its page loads with the first read.
      const page = await (await import("../web/view-page.js")).viewResource(uri);
      if (page) return page;
    }
    const name = schemaTypeName(uri);
    if (name === undefined) {
      throw new ResourceNotFoundError(
        uri,
        redact(
          `There is no resource ${quoted(uri)}. This server has ${SCHEMA_INDEX_URI}, ${SCHEMA_TYPE_TEMPLATE}, ${TIMESHEET_PAYLOAD_SCHEMA_URI} and ${CHANGES_RESOURCE.uri}.`,
        ),
      );
    }
    const sdl = (await render()).renderType(await schema(uri, ctx.mcpReq.signal), name);
    if (sdl === undefined) {
      throw new ResourceNotFoundError(
        uri,
        redact(
          `The platform's API has no type named ${quoted(name)}. Type names are case-sensitive; see ${SCHEMA_INDEX_URI} for the operations and their types, or complete the name.`,
        ),
      );
    }
    return document(SCHEMA_TYPE, uri, redact(sdl));
  });

  server.setRequestHandler("completion/complete", async (request, ctx) => {
    const { ref, argument } = request.params;
    if (ref.type === "ref/prompt") return deps.completePrompt(request.params, ctx.mcpReq.signal);
    if (ref.uri !== SCHEMA_TYPE_TEMPLATE) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Nothing to complete for ${quoted(ref.uri)}: this server completes ${SCHEMA_TYPE_TEMPLATE}.`,
      );
    }
    if (argument.name !== "name") return { completion: { values: [] } };
    try {
      const values = (await render()).completeTypeName(await source.get(), argument.value);
      return { completion: { values } };
    } catch {
      // A completion is a courtesy; the read itself explains a platform that cannot be reached.
      return { completion: { values: [] } };
    }
  });
  return serveChangeSubscriptions(server, deps.changes);
}

/** What a failed read of the platform says, redacted: the client's own words, or a generic line. */
export async function readFailure(error: unknown, what: string, logger: Logger): Promise<string> {
  // The error classes load with the first failure, not at start.
  const { isPlatformError } = await import("../client/errors.js");
  if (isPlatformError(error)) {
    const retry = error.retryable ? "Trying again later may work." : "Trying again will not help.";
    // The platform's message stays on one line, as in every tool answer.
    return logger.redact(
      [
        `Reading ${what} failed: ${oneLine(error.message, Number.POSITIVE_INFINITY)}`,
        error.hint,
        retry,
      ]
        .filter(Boolean)
        .join(" "),
    );
  }
  logger.error(`Reading ${what} failed unexpectedly`, { error: String(error) });
  return `Reading ${what} failed because of an unexpected problem inside workforce-mcp; the details are in the server's log.`;
}
