// What the server knows of the platform's schema: introspected once, shared by the schema
// resources (src/resources/) and the platform tools (src/tools/platform/).
export { schemaFromIntrospection } from "./build.js";
export type { SchemaCache } from "./introspection.js";
export {
  argumentText,
  completeTypeName,
  fieldSignature,
  renderSchemaIndex,
  renderType,
} from "./render.js";
export {
  rootFieldsReturning,
  type SchemaMatches,
  searchSchema,
  whereToRead,
} from "./search.js";
