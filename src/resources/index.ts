import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { isPlatformError } from "../client/errors.js";
import { oneLine, quoted } from "../client/platform-text.js";
import { createSchemaSource, type SchemaSource } from "../client/schema/introspection.js";
import { SCHEMA_INDEX_URI, SCHEMA_TYPE_TEMPLATE } from "../client/schema/uris.js";
import {
  TIMESHEET_PAYLOAD_SCHEMA_URI,
  timesheetPayloadSchema,
} from "../client/timesheet-payload-schema.js";
import type { PlatformClient } from "../client/types.js";
import type { Logger } from "../logger.js";

// Our own constant: serialized once, and nothing in it to redact.
const TIMESHEET_PAYLOAD_SCHEMA_TEXT = `${JSON.stringify(timesheetPayloadSchema, null, 2)}\n`;

// JSON-RPC code the MCP specification gives to "resource not found".
const RESOURCE_NOT_FOUND = -32002;

// Rendering needs graphql (~0.4 MB): loaded with the first schema read, not when the server starts.
const render = () => import("../client/schema/render.js");

export interface ResourceDeps {
  client: PlatformClient;
  logger: Logger;
  schemaSource?: SchemaSource;
}

export function registerResources(server: McpServer, deps: ResourceDeps): void {
  const source = deps.schemaSource ?? createSchemaSource(deps.client);
  // The same redaction tool text gets: the schema is platform text and may carry anything.
  const redact = (text: string) => deps.logger.redact(text);
  const schema = async (what: string, signal?: AbortSignal) => {
    try {
      return await source.get(signal);
    } catch (error) {
      throw new McpError(-32603, deps.logger.redact(readFailure(error, what, deps.logger)));
    }
  };

  server.registerResource(
    "schema",
    SCHEMA_INDEX_URI,
    {
      title: "Platform API index",
      description:
        "Every query and mutation of the platform's GraphQL API, one line each with arguments and return type. Read a type with workforce://schema/types/{name}.",
      mimeType: "text/plain",
    },
    async (uri, extra) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: "text/plain",
          text: redact(
            (await render()).renderSchemaIndex(await schema(SCHEMA_INDEX_URI, extra.signal)),
          ),
        },
      ],
    }),
  );

  server.registerResource(
    "schema-type",
    new ResourceTemplate(SCHEMA_TYPE_TEMPLATE, {
      list: undefined,
      complete: {
        name: async (value) => {
          try {
            return (await render()).completeTypeName(await source.get(), value ?? "");
          } catch {
            return [];
          }
        },
      },
    }),
    {
      title: "Platform API type",
      description:
        "The GraphQL definition (SDL) of one type of the platform's API, with its fields and their descriptions.",
      mimeType: "text/plain",
    },
    async (uri, variables, extra) => {
      const raw = variables.name;
      const name = decodeURIComponent((Array.isArray(raw) ? raw[0] : raw) ?? "");
      const sdl = (await render()).renderType(await schema(uri.href, extra.signal), name);
      if (sdl === undefined) {
        throw new McpError(
          RESOURCE_NOT_FOUND,
          redact(
            `The platform's API has no type named ${quoted(name)}. Type names are case-sensitive; see ${SCHEMA_INDEX_URI} for the operations and their types, or complete the name.`,
          ),
        );
      }
      return { contents: [{ uri: uri.href, mimeType: "text/plain", text: redact(sdl) }] };
    },
  );

  server.registerResource(
    "timesheet-payload-schema",
    TIMESHEET_PAYLOAD_SCHEMA_URI,
    {
      title: "Timesheet payload JSON Schema",
      description:
        "The JSON Schema (draft 2020-12) of the registrations submit_timesheets sends to the platform.",
      mimeType: "application/schema+json",
    },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: "application/schema+json",
          text: TIMESHEET_PAYLOAD_SCHEMA_TEXT,
        },
      ],
    }),
  );
}

/** What a failed read of the platform's schema says: the client's own words, or a generic line. */
function readFailure(error: unknown, what: string, logger: Logger): string {
  if (isPlatformError(error)) {
    const retry = error.retryable ? "Trying again later may work." : "Trying again will not help.";
    // The platform's message stays on one line, as in every tool answer.
    return [
      `Reading ${what} failed: ${oneLine(error.message, Number.POSITIVE_INFINITY)}`,
      error.hint,
      retry,
    ]
      .filter(Boolean)
      .join(" ");
  }
  logger.error(`Reading ${what} failed unexpectedly`, { error: String(error) });
  return `Reading ${what} failed because of an unexpected problem inside workforce-mcp; the details are in the server's log.`;
}
