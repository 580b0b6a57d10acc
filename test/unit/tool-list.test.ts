import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/tools/define-tool.js";
import { buildToolList } from "../../src/tools/tool-list.js";

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
  },
  handler: async () => ({ text: "", structured: { rows: [], page: 1 } }),
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

  it("keeps every output property, including one named like a keyword", () => {
    const rows = (entry?.outputSchema?.properties as Record<string, unknown> | undefined)?.rows as {
      items: { properties: Record<string, unknown> };
    };
    expect(Object.keys(rows.items.properties)).toEqual(["id", "required"]);
    expect(json).not.toContain('"additionalProperties":false');
  });

  it("keeps the title both at the top and in the annotations", () => {
    expect(entry?.title).toBe("Probe");
    expect(entry?.annotations?.title).toBe("Probe");
  });
});
