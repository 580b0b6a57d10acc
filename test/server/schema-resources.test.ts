import { buildSchema, getIntrospectionQuery, graphqlSync } from "graphql";
import { describe, expect, it } from "vitest";
import {
  completeTypeName,
  renderSchemaIndex,
  renderType,
  schemaFromIntrospection,
} from "../../src/client/schema/index.js";
import { timesheetPayloadSchema } from "../../src/client/timesheet-payload-schema.js";
import { readReference } from "../helpers/reference.js";

const reference = (name: string) => readReference(name);

// The platform's real schema, through an introspection round trip as the client would see it.
const realSchema = schemaFromIntrospection(
  graphqlSync({
    schema: buildSchema(reference("worksome.graphql")),
    source: getIntrospectionQuery(),
  }),
);

describe("workforce://schema index of the real platform schema", () => {
  const index = renderSchemaIndex(realSchema);
  const queryCount = Object.keys(realSchema.getQueryType()?.getFields() ?? {}).length;
  const mutationCount = Object.keys(realSchema.getMutationType()?.getFields() ?? {}).length;

  it("lists every query and mutation once, one line each, grouped", () => {
    const lines = index.split("\n");
    const queriesAt = lines.indexOf("## Queries");
    const mutationsAt = lines.indexOf("## Mutations");
    expect(queriesAt).toBeGreaterThan(0);
    expect(mutationsAt).toBeGreaterThan(queriesAt);
    const queryLines = lines.slice(queriesAt + 1, mutationsAt).filter(Boolean);
    const mutationLines = lines.slice(mutationsAt + 1).filter(Boolean);
    expect(queryLines).toHaveLength(queryCount);
    expect(mutationLines).toHaveLength(mutationCount);
    expect(queryCount).toBeGreaterThanOrEqual(87);
    expect(mutationCount).toBeGreaterThanOrEqual(113);
    expect(index).toContain(`${queryCount} queries, ${mutationCount} mutations`);
  });

  it("shows arguments with types and defaults, and the return type", () => {
    const hires = index.split("\n").find((l) => l.startsWith("hires("));
    expect(hires).toMatch(/first: Int! = 10/);
    expect(hires).toMatch(/page: Int/);
    expect(hires).toMatch(/search: String/);
    expect(hires).toMatch(/\): HirePaginator!$/);
    expect(index).toContain("terminateHire(input: TerminateHireInput!): Hire!");
    expect(index).toContain("viewer: User!");
  });

  it("says how to read a type", () => {
    expect(index).toContain("workforce://schema/types/{name}");
    expect(index).toContain("workforce://schema/types/Hire");
  });

  it("fits a chat: under about 12,000 tokens", () => {
    const tokens = Math.ceil(Buffer.byteLength(index) / 4);
    console.info(
      `workforce://schema against the real schema: ${Buffer.byteLength(index)} bytes ≈ ${tokens} tokens`,
    );
    expect(tokens).toBeLessThan(12_000);
  });
});

describe("workforce://schema/types/{name}", () => {
  it("prints one type's SDL", () => {
    const sdl = renderType(realSchema, "TerminateHireInput");
    expect(sdl).toMatch(/^input TerminateHireInput \{/m);
    expect(sdl).toContain("hire: ID!");
    expect(renderType(realSchema, "NoSuchType")).toBeUndefined();
  });

  it("completes type names by case-insensitive prefix, at most 100", () => {
    const hire = completeTypeName(realSchema, "hIrE");
    expect(hire).toContain("Hire");
    expect(hire).toContain("HirePaginator");
    expect(hire.every((n) => n.toLowerCase().startsWith("hire"))).toBe(true);
    expect(completeTypeName(realSchema, "").length).toBe(100);
    expect(completeTypeName(realSchema, "__")).toEqual([]);
  });
});

describe("timesheet payload JSON Schema", () => {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([key]) => !["description", "title", "$id"].includes(key))
          .map(([key, v]) => [key, strip(v)]),
      );
    }
    return value;
  };

  it("has the published schema's keywords and constraints", () => {
    const published = JSON.parse(reference("timesheet-registration.schema.json"));
    expect(strip(timesheetPayloadSchema)).toEqual(strip(published));
  });

  it("uses its own wording", () => {
    const published = JSON.parse(reference("timesheet-registration.schema.json"));
    expect(timesheetPayloadSchema.title).not.toBe(published.title);
    expect(timesheetPayloadSchema.$id).not.toBe(published.$id);
  });
});
