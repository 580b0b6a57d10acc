// What the server knows of the platform's schema: introspected once, shared by the schema
// resources (src/resources/) and the platform tools (src/tools/platform/).
export { schemaFromIntrospection } from "./build.js";
export {
  createSchemaCache,
  createSchemaSource,
  type SchemaCache,
  type SchemaSource,
} from "./introspection.js";
export {
  argumentText,
  completeTypeName,
  fieldSignature,
  renderSchemaIndex,
  renderType,
  SCHEMA_INDEX_URI,
  SCHEMA_TYPE_TEMPLATE,
} from "./render.js";
export { searchSchema, whereToRead } from "./search.js";
