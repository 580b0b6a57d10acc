import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";
import type { PlatformClient } from "../types.js";

/** The platform's schema from an introspection answer (with or without the `data` wrapper). */
export function schemaFromIntrospection(raw: unknown): GraphQLSchema {
  const data =
    raw && typeof raw === "object" && "data" in raw && !("__schema" in raw)
      ? (raw as { data: unknown }).data
      : raw;
  if (!data || typeof data !== "object" || !("__schema" in data)) {
    throw new Error("The platform's introspection answer has no __schema.");
  }
  return buildClientSchema(data as IntrospectionQuery);
}

/**
 * The platform's schema, introspected once on first use and then kept. Resources and tools share
 * one per server (and HTTP sessions on the same platform and token share one between servers).
 */
export interface SchemaSource {
  get(signal?: AbortSignal): Promise<GraphQLSchema>;
}

export function createSchemaSource(client: PlatformClient): SchemaSource {
  let pending: Promise<GraphQLSchema> | undefined;
  return {
    get(signal) {
      if (!pending) {
        pending = client.introspect({ signal }).then(schemaFromIntrospection);
        // A failure is not cached: the next read asks the platform again.
        pending.catch(() => {
          pending = undefined;
        });
      }
      return pending;
    },
  };
}
