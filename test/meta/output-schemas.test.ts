// The output schemas `tools/list` shows (src/tools/tool-list.ts): a client must see the fields of
// the records a tool returns in lists, and every real result must pass the schema as listed, not
// only the server's own zod schema.
import type { Tool } from "@modelcontextprotocol/client";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOLSETS } from "../../src/config/defaults.js";
import { tools as registry } from "../../src/tools/registry.js";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";
import { everyToolAsListed } from "./tool-surface.js";

type JsonSchema = Record<string, unknown>;

/** Lists (with their paths) whose items are an object without listed properties. */
function* bareRecordLists(schema: unknown, path: string): Generator<string> {
  if (schema === null || typeof schema !== "object") return;
  const node = schema as JsonSchema;
  const items = node.items as JsonSchema | undefined;
  if (items && typeof items === "object") {
    const types = [items.type].flat();
    if (types.includes("object") && !items.properties) yield `${path}[]`;
    yield* bareRecordLists(items, `${path}[]`);
  }
  for (const [key, value] of Object.entries((node.properties ?? {}) as Record<string, unknown>)) {
    yield* bareRecordLists(value, `${path}.${key}`);
  }
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = node[key];
    if (Array.isArray(list)) for (const sub of list) yield* bareRecordLists(sub, path);
  }
}

describe("the records of every list, as tools/list shows them", async () => {
  const listed = await everyToolAsListed();

  it.each(listed.map((tool): [string, Tool] => [tool.name, tool]))(
    "%s lists the fields of the records in its lists",
    (_name, tool) => {
      expect([...bareRecordLists(tool.outputSchema, "output")]).toEqual([]);
    },
  );
});

/**
 * Calls that change nothing, with the sandbox's seed: lists, details and previews (a change without
 * its confirmation only previews). A tool not named here is called with its definition's `example`
 * (ALL_CALLS); these are for tools whose answers take several shapes.
 */
const CALLS: readonly [string, Record<string, unknown>][] = [
  ["search_hires", { first: 100 }],
  ["search_hires", { activeStatus: ["DRAFT"] }],
  ["get_hire", { hireId: "hire_001" }],
  ["get_hire", { hireId: "hire_005" }],
  ["list_accounts", {}],
  ["get_contract", { hireId: "hire_001" }],
  ["get_contract", { hireId: "hire_002" }],
  ["list_invoices", { first: 100 }],
  ["list_invoices", { number: "INV-2026-0001" }],
  [
    "submit_timesheets",
    {
      registrations: [
        { hireId: "hire_001", reportedDate: "2026-11-16", hours: 7.5, externalId: "ana-16" },
        { hireId: "hire_001", reportedDate: "2026-11-17", hours: 30, externalId: "ana-17" },
      ],
    },
  ],
  [
    "submit_timesheets",
    {
      registrations: [
        { hireId: "hire_001", reportedDate: "2026-11-16", hours: 7.5, externalId: "ana-16" },
      ],
    },
  ],
  ["list_payment_requests", { first: 100 }],
  ["terminate_hire", { hireId: "hire_001", reason: "PROJECT_COMPLETED_EARLY", date: "2026-12-31" }],
  ["cancel_hire", { hireId: "hire_005", message: "The role is no longer needed." }],
  ["list_hire_approvals", {}],
  ["review_hire_approval", { approvalId: "apr_001", decision: "APPROVED" }],
  ["search_talent_pool", {}],
  ["search_talent_pool", { skills: ["React"], countries: ["DK"] }],
  [
    "invite_to_talent_pool",
    { company: "cmp_nordlys", firstName: "Jane", lastName: "Doe", email: "jane.doe@example.com" },
  ],
  ["invite_to_talent_pool", { contactId: "tc_005" }],
  ["list_jobs", {}],
  ["list_jobs", { jobId: "job_002" }],
  ["post_job", { company: "cmp_nordlys", name: "Data Platform Engineer", skills: ["SQL"] }],
  ["manage_candidate", { candidateId: "jc_003", step: "INTERVIEW_SELECTED" }],
  ["describe_schema", { search: "hire" }],
  ["describe_schema", { typeName: "Hire" }],
  ["query_platform", { query: "{ hires(first: 2) { data { id latestContract { rate } } } }" }],
  ["query_platform", { query: '{ viewer { name } hire(id: "hire_999") { id } }' }],
  ["list_changes", {}],
  ["list_webhooks", { company: "cmp_nordlys" }],
  ["list_webhooks", { company: "cmp_nordlys", webhookId: "whk_001" }],
  ["manage_webhooks", { action: "delete", company: "cmp_nordlys", webhookId: "whk_001" }],
  ["update_payment_request", { paymentRequestId: "pr_0016", purchaseOrderNumber: "PO-4500012345" }],
  [
    "update_talent_contact",
    { contact: "tc_001", values: [{ field: "Notice period", value: "One month" }] },
  ],
  ["create_draft_hire", { company: "cmp_nordlys", name: "Data Engineer", startDate: "2026-12-01" }],
  ["find_tools", { query: "PO number payment request" }],
  ["run_read_tool", { name: "list_jobs", arguments: "{}" }],
  [
    "run_write_tool",
    { name: "post_job", arguments: { company: "cmp_nordlys", name: "QA Lead", skills: ["SQL"] } },
  ],
];

/** CALLS, and every other tool with its `example` (or no arguments). */
const ALL_CALLS: readonly [string, Record<string, unknown>][] = [
  ...CALLS,
  ...registry
    .filter((tool) => !CALLS.some(([name]) => name === tool.name))
    .map((tool): [string, Record<string, unknown>] => [tool.name, tool.example ?? {}]),
];

describe("real results against the output schemas as listed", () => {
  let h: Harness;
  let tools: Map<string, Tool>;
  beforeAll(async () => {
    h = await startHarness({ config: { toolsets: [...TOOLSETS] } });
    // Each tool as listed once in the client's list (the core at first, the rest after find_tools).
    tools = new Map((await everyToolAsListed()).map((tool) => [tool.name, tool]));
  });
  afterAll(() => h.close());

  // The listed schemas are draft-07 without $schema; the SDK's client validates them as 2020-12.
  const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
    addFormatsModule) as unknown as (ajv: Ajv | Ajv2020) => Ajv | Ajv2020;
  const engines = [
    addFormats(new Ajv({ strict: true, strictTypes: false, allErrors: true })),
    addFormats(new Ajv2020({ strict: true, strictTypes: false, allErrors: true })),
  ];

  it.each(
    ALL_CALLS.map(([name, args]): [string, string, Record<string, unknown>] => [
      name,
      JSON.stringify(args),
      args,
    ]),
  )("%s %s", async (name, _shown, args) => {
    const result = await h.client.callTool({ name, arguments: args });
    const text = (result.content as { type: string; text?: string }[])[0]?.text ?? "";
    expect(result.structuredContent, `${text} (give ${name} an \`example\` call)`).toBeDefined();
    const schema = tools.get(name)?.outputSchema;
    expect(schema).toBeDefined();
    for (const ajv of engines) {
      const validate = ajv.compile(schema as JsonSchema);
      expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});
