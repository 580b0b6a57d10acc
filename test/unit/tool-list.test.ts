import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/tools/define-tool.js";
import { buildToolList, listedOutputSchema } from "../../src/tools/tool-list.js";

const probe = defineTool({
  name: "probe_tool",
  title: "Probe",
  toolset: "hires",
  instruction: "Test tool.",
  readme: { does: "Test tool." },
  description: "Probe.",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  inputSchema: {
    page: z.number().int().min(1).describe("Page."),
    required: z.string().optional().describe("A field that happens to be called required."),
  },
  outputSchema: {
    rows: z.array(z.object({ id: z.string(), required: z.boolean() })),
    page: z.number().int(),
    required: z.boolean(),
  },
  handler: async () => ({ text: "", structured: { rows: [], page: 1, required: false } }),
});

describe("the compact tool list", () => {
  const [entry] = buildToolList([probe]);
  const json = JSON.stringify(entry);

  it("drops $schema and the ±2^53 integer bounds", () => {
    expect(json).not.toContain("$schema");
    expect(json).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(entry?.inputSchema.properties?.page).toMatchObject({ type: "integer", minimum: 1 });
  });

  it("keeps what the model needs about the input: required arguments and descriptions", () => {
    expect(entry?.inputSchema.required).toEqual(["page"]);
    expect(entry?.inputSchema.properties?.required).toMatchObject({
      type: "string",
      description: "A field that happens to be called required.",
    });
  });

  it("keeps every field of the result, including one named like a keyword", () => {
    expect(Object.keys(entry?.outputSchema?.properties ?? {})).toEqual([
      "rows",
      "page",
      "required",
    ]);
    expect(json).not.toContain('"additionalProperties":false');
  });

  it("keeps the title both at the top and in the annotations", () => {
    expect(entry?.title).toBe("Probe");
    expect(entry?.annotations?.title).toBe("Probe");
  });
});

describe("an output schema as listed, within its budget", () => {
  const contract = z.object({ id: z.string(), rate: z.number().nullable() }).describe("Terms.");
  const shape = {
    status: z.enum(["preview", "done"]).nullable(),
    owner: z.object({ id: z.string(), name: z.string() }).describe("Who owns it."),
    hires: z.array(
      z.object({
        id: z.string(),
        worker: z.object({ id: z.string(), name: z.string() }),
        contract: contract.nullable(),
        tags: z.array(z.object({ key: z.string() })),
      }),
    ),
    data: z.record(z.string(), z.unknown()).nullable(),
  };
  const bytes = (schema: unknown) => Buffer.byteLength(JSON.stringify(schema));
  const own = listedOutputSchema(shape, 0);
  const all = listedOutputSchema(shape, 10_000);

  it("lists the result's own fields and its records' fields whatever they cost, other objects as plain objects", () => {
    expect(own).toEqual({
      type: "object",
      properties: {
        status: { type: ["string", "null"], enum: ["preview", "done", null] },
        owner: { type: "object" },
        hires: {
          type: "array",
          items: {
            type: "object",
            properties: {
              id: { type: "string" },
              worker: { type: "object" },
              contract: { type: ["object", "null"] },
              tags: {
                type: "array",
                items: { type: "object", properties: { key: { type: "string" } } },
              },
            },
          },
        },
        data: { type: ["object", "null"] },
      },
    });
  });

  it("lists other objects' fields, shallowest first, as far as the budget goes", () => {
    const ownerToo = bytes(own) + 70;
    const listed = listedOutputSchema(shape, ownerToo) as {
      properties: { owner: unknown; hires: { items: { properties: Record<string, unknown> } } };
    };
    expect(bytes(listed)).toBeLessThanOrEqual(ownerToo);
    expect(listed.properties.owner).toEqual({
      type: "object",
      properties: { id: { type: "string" }, name: { type: "string" } },
    });
    expect(listed.properties.hires.items.properties.worker).toEqual({ type: "object" });
  });

  it("lists everything when the budget allows, without descriptions, nulls folded into the type", () => {
    expect(JSON.stringify(all)).not.toContain("description");
    expect(JSON.stringify(all)).not.toContain("anyOf");
    expect(all.properties).toMatchObject({
      owner: { properties: { id: { type: "string" }, name: { type: "string" } } },
      hires: {
        items: {
          properties: {
            contract: {
              type: ["object", "null"],
              properties: { rate: { type: ["number", "null"] } },
            },
          },
        },
      },
    });
  });

  it("never goes over its budget once the result's own fields and records are listed", () => {
    for (let budget = bytes(own); budget <= bytes(all); budget += 7) {
      expect(bytes(listedOutputSchema(shape, budget)), String(budget)).toBeLessThanOrEqual(budget);
    }
  });
});
