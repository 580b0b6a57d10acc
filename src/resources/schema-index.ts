// The schema rendering moved below tools and resources (src/client/schema/); kept here so
// existing imports of the resources' rendering keep working.
export {
  completeTypeName,
  renderSchemaIndex,
  renderType,
  SCHEMA_INDEX_URI,
  SCHEMA_TYPE_TEMPLATE,
  schemaFromIntrospection,
} from "../client/schema/index.js";
