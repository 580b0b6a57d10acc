import { buildSchema } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchSchema, whereToRead } from "../../src/client/schema/index.js";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";
import { readReference } from "../helpers/reference.js";

type Result = Awaited<ReturnType<Harness["client"]["callTool"]>>;
const text = (r: Result) => (r.content as { text: string }[]).map((c) => c.text).join("\n");

interface FieldEntry {
  type: string;
  name: string;
  signature: string;
  description: string | null;
  refused: string | null;
}
interface Out {
  type: {
    name: string;
    kind: string;
    readBy: string[];
    values: { name: string; description: string | null }[];
  } | null;
  queries: FieldEntry[];
  types: { name: string; kind: string; readBy: string[] }[];
  fields: FieldEntry[];
  more: boolean;
}
const out = (r: Result) => r.structuredContent as unknown as Out;

describe("describe_schema against the sandbox", () => {
  let h: Harness;
  const call = (args: Record<string, unknown>) =>
    h.client.callTool({ name: "describe_schema", arguments: args });
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("finds the queries for a topic, with their arguments, for query_platform", async () => {
    const r = await call({ search: "webhooks" });
    expect(r.isError).toBeFalsy();
    const t = text(r);
    expect(t).toContain("Queries (2), to call with query_platform:");
    expect(t).toContain(
      '- webhooks(accounts: [ID!], first: Int! = 10, page: Int): WebhookPaginator! "Get a list of webhooks."',
    );
    expect(t).toMatch(/- Webhook \(type\) ".*"; returned by webhook, webhooks/);
    expect(t).toMatch(
      /Webhook\.secret: String .*\[refused by query_platform: the webhook's signing secret\]/,
    );
    expect(t).toContain('Show one type\'s fields with {"typeName": "Webhook"}.');
    const o = out(r);
    expect(o.type).toBeNull();
    expect(o.queries.map((q) => q.name)).toEqual(["webhook", "webhooks"]);
    expect(o.types[0]).toMatchObject({ name: "Webhook", readBy: ["webhook", "webhooks"] });
  });

  it("shows one type's fields with types, arguments and descriptions", async () => {
    const r = await call({ typeName: "Worker" });
    expect(r.isError).toBeFalsy();
    const t = text(r);
    expect(t).toMatch(/^type Worker/m);
    expect(t).toContain("Implements: Account.");
    expect(t).toMatch(
      /- hires\(companies: \[ID!\], status: HireActiveStatus, first: Int! = 10, page: Int\): HirePaginator!/,
    );
    const fields = out(r).fields;
    expect(fields.find((f) => f.name === "email")?.signature).toBe("email: String");
  });

  it("marks the fields query_platform refuses", async () => {
    const r = await call({ typeName: "Webhook" });
    const fields = out(r).fields;
    expect(fields.find((f) => f.name === "secret")?.refused).toBe("the webhook's signing secret");
    expect(fields.find((f) => f.name === "title")?.refused).toBeNull();
    expect(out(r).type?.readBy).toEqual(["webhook", "webhooks"]);
    expect(text(r)).toContain(
      "Returned by the queries: webhook, webhooks (call with query_platform).",
    );
  });

  it("lists an enum's values, whatever the case of the name asked for", async () => {
    const r = await call({ typeName: "hireactivestatus" });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toMatch(/^enum HireActiveStatus/m);
    expect(out(r).type?.values.map((v) => v.name)).toContain("TERMINATED");
  });

  it("suggests names for an unknown type and says the sandbox is partial", async () => {
    const r = await call({ typeName: "Hir" });
    expect(r.isError).toBe(true);
    const t = text(r);
    expect(t).toContain('no type named "Hir"');
    expect(t).toMatch(/Did you mean Hire, .*HirePaginator/);
    expect(t).toContain("models only part of the platform's API");
  });

  it("says when nothing matched", async () => {
    const r = await call({ search: "zebra" });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toContain("Nothing matched.");
    expect(text(r)).toContain("models only part of the platform's API");
  });

  it("needs exactly one of search and typeName", async () => {
    for (const args of [{}, { search: "hire", typeName: "Hire" }]) {
      const r = await call(args);
      expect(r.isError).toBe(true);
      expect(text(r)).toContain("give exactly one of search or typeName");
    }
  });

  it("sends nothing to the platform but the one introspection", async () => {
    await call({ search: "contract" });
    await call({ typeName: "Contract" });
    expect(h.sandbox.requests.every((req) => req.operationName === "IntrospectionQuery")).toBe(
      true,
    );
    expect(h.sandbox.countRequests("IntrospectionQuery")).toBe(1);
  });
});

describe("schema search over the real schema", () => {
  const real = buildSchema(readReference("worksome.graphql"));

  it("puts the queries and types named for a topic first", () => {
    const found = searchSchema(real, "custom fields");
    expect(found.queries.map((q) => q.name).slice(0, 2)).toEqual(["customField", "customFields"]);
    expect(found.types[0]?.name).toBe("CustomField");
    // Words of a question that name nothing are left out.
    const asked = searchSchema(real, "what are the custom fields of a company?");
    expect(asked.words).toEqual(["custom", "field", "company"]);
    expect(asked.allWords).toBe(true);
    const projects = searchSchema(real, "projects");
    expect(
      projects.queries
        .map((q) => q.name)
        .slice(0, 2)
        .sort(),
    ).toEqual(["project", "projects"]);
  });

  it("leaves mutations out", () => {
    const found = searchSchema(real, "webhook");
    expect(found.queries.map((q) => q.name)).not.toContain("createWebhook");
    expect(found.types.map((t) => t.name)).not.toContain("CreateWebhookInput");
  });

  it("names the queries that return a type, directly or as a page", () => {
    expect(whereToRead(real, "Webhook")).toEqual(["webhook", "webhooks"]);
    expect(whereToRead(real, "Project")).toEqual(expect.arrayContaining(["project", "projects"]));
  });
});
