import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

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
