/** The schema resources' addresses: known at start, before any schema is built. */
export const SCHEMA_INDEX_URI = "workforce://schema";
export const SCHEMA_TYPE_TEMPLATE = "workforce://schema/types/{name}";
/** The timesheet payload's JSON Schema (its text loads only when read). */
export const TIMESHEET_PAYLOAD_SCHEMA_URI = "workforce://timesheets/payload-schema";
/** The caller's feed of what the platform's webhooks reported (list_changes as a resource). */
export const CHANGES_URI = "workforce://changes";
