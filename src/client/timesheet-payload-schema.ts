// Our own statement of the platform's `default-json` timesheet payload rules (PLATFORM-INTERFACE.md
// section 2.5). A test checks it has the same keywords and constraints as the published schema.
// submit_timesheets validates with it (ajv, draft 2020-12) and the resource serves it.

import { TIMESHEET_PAYLOAD_SCHEMA_URI } from "./schema/uris.js";

export const timesheetPayloadSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: TIMESHEET_PAYLOAD_SCHEMA_URI,
  title: "Timesheet registrations (default-json)",
  description:
    "What createCustomTimesheet accepts as `data` (serialised as JSON text): one registration or a list of them.",
  oneOf: [
    { $ref: "#/$defs/registration" },
    { type: "array", items: { $ref: "#/$defs/registration" } },
  ],
  $defs: {
    registration: {
      type: "object",
      description: "Hours one hire worked on one day.",
      required: ["hireId", "reportedDate", "hours", "externalId"],
      properties: {
        hireId: {
          type: "string",
          minLength: 1,
          description: "The hire's id as search_hires returns it.",
        },
        reportedDate: {
          type: "string",
          format: "date",
          pattern: "^\\d{4}-\\d{2}-\\d{2}$",
          description: "The day worked, YYYY-MM-DD, inside the contract's dates.",
        },
        hours: { type: "number", minimum: 0, description: "Hours worked that day." },
        externalId: {
          type: "string",
          minLength: 1,
          description:
            "Your system's id for this registration. Sending it again replaces the earlier one.",
        },
        reference: {
          type: "string",
          description: "Free text such as a project code or purchase order.",
        },
        isPayable: {
          type: "boolean",
          default: true,
          description: "False for hours that are recorded but not billed.",
        },
        meta: {
          type: "object",
          additionalProperties: true,
          description: "Any extra key-value data to store with it.",
        },
      },
      additionalProperties: false,
    },
  },
} as const;
