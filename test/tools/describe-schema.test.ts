import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { buildSchema } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rootFieldsReturning, searchSchema, whereToRead } from "../../src/client/schema/index.js";
import type { PlatformClient } from "../../src/client/types.js";
import { parseConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { createServer } from "../../src/server.js";
import { loadCatalog } from "../../src/tools/catalog.js";
import { SEARCH_TEXT_BYTES } from "../../src/tools/platform/describe-schema.js";
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
    expect(t).toContain("Queries (4), to call with query_platform:");
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
    expect(o.queries.map((q) => q.name)).toEqual([
      "webhook",
      "webhooks",
      "webhookEvent",
      "webhookEvents",
      "createWebhook",
      "deleteWebhook",
      "updateWebhook",
      "retryWebhookEvent",
    ]);
    expect(o.types[0]).toMatchObject({ name: "Webhook", readBy: ["webhook", "webhooks"] });
  });

  it("finds mutations and says which tool of this server makes each change", async () => {
    const r = await call({ search: "trusted contact" });
    expect(r.isError).toBeFalsy();
    const t = text(r);
    expect(t).toContain("Mutations (3), changes query_platform refuses:");
    expect(t).toMatch(
      /- createTrustedContact\(input: CreateTrustedContactInput!\): TrustedContact! ".*" \[a change: this server's invite_to_talent_pool tool makes createTrustedContact, with its checks, and the person's confirmation where the change needs one \(not in your tool list: call it through run_write_tool; find_tools shows its arguments\)\]/,
    );
    // A tool not listed is named with how to reach it.
    expect(t).toContain(
      "[a change: this server's update_talent_contact tool makes updateTrustedContact, with its checks, and the person's confirmation where the change needs one (not in your tool list: call it through run_write_tool; find_tools shows its arguments)]",
    );
    const created = out(r).queries.find((q) => q.name === "createTrustedContact");
    expect(created).toMatchObject({
      type: "Mutation",
      refused:
        "a change: this server's invite_to_talent_pool tool makes createTrustedContact, with its checks, and the person's confirmation where the change needs one (not in your tool list: call it through run_write_tool; find_tools shows its arguments)",
    });
    expect(text(await call({ typeName: "Hire" }))).toContain(
      "Returned by the mutations: terminateHire (by terminate_hire), createDraftHire (by create_draft_hire (not in your tool list: call it through run_write_tool; find_tools shows its arguments)), cancelHire (by cancel_hire), acceptBid (by manage_candidate (not in your tool list: call it through run_write_tool; find_tools shows its arguments)); query_platform refuses them.",
    );
    const mutation = await call({ typeName: "Mutation" });
    expect(out(mutation).fields.find((f) => f.name === "cancelHire")?.refused).toBe(
      "a change: this server's cancel_hire tool makes cancelHire, with its checks, and the person's confirmation where the change needs one",
    );
  });

  it("says what the API cannot do when a search asks for a change no mutation makes", async () => {
    // Plural words are searched in the singular ("hours" is "hour"): the notice still follows them.
    for (const search of [
      "extend contract",
      "change rate",
      "approve payment request",
      "approve hours",
      "reject hours",
    ]) {
      const t = text(await call({ search }));
      expect(t, search).toContain(
        "The platform's public API cannot change a contract's rate or dates (so no extension)",
      );
      expect(t, search).toContain("a person does them in the platform's web app");
    }
    // A change some mutation makes gets its mutation, not the notice: a hire's approval request
    // is approved or rejected with actionApprovalApprovable (review_hire_approval).
    for (const search of ["approve approval request", "reject hire request"]) {
      const t = text(await call({ search }));
      expect(t, search).not.toContain("public API cannot");
    }
    // A change some mutation makes gets its mutation, not the notice.
    const cancel = text(await call({ search: "cancel hire" }));
    expect(cancel).toContain("cancelHire(input: CancelHireInput!)");
    expect(cancel).not.toContain("public API cannot");
  });

  it("always gives the root fields, with their arguments, that return the types a topic matched", async () => {
    // No root field's name holds every word; the types and fields that do are read and changed
    // through jobs and trustedContacts.
    const r = await call({ search: "custom field value" });
    expect(r.isError).toBeFalsy();
    const t = text(r);
    expect(t).toMatch(
      /Queries \(1, and \d+ returning what matched\), to call with query_platform:\n- customFields\(/,
    );
    expect(t).toMatch(/^- job\(id: ID!\): Job$/m);
    expect(t).toMatch(
      /^- trustedContacts\(accounts: \[ID!\], .*first: Int! = 10, page: Int\): TrustedContactPaginator!$/m,
    );
    expect(t).toMatch(
      /^- createJob\(input: CreateJobInput!\): Job! \[a change: this server's post_job tool makes createJob/m,
    );
    const names = out(r).queries.map((q) => q.name);
    expect(names).toEqual(
      expect.arrayContaining(["job", "jobs", "trustedContact", "trustedContacts"]),
    );
    // A topic whose own queries matched brings no others.
    const payments = await call({ search: "payment request" });
    expect(out(payments).queries.map((q) => q.name)).toEqual(
      expect.arrayContaining(["paymentRequest", "paymentRequests", "updatePaymentRequest"]),
    );
    expect(text(payments)).not.toContain("returning what matched");
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

  it("keeps mutations apart from the queries, and their inputs out of the types", () => {
    const found = searchSchema(real, "webhook");
    expect(found.queries.map((q) => q.name)).not.toContain("createWebhook");
    expect(found.mutations.map((q) => q.name)).toContain("createWebhook");
    expect(found.types.map((t) => t.name)).not.toContain("CreateWebhookInput");
  });

  it("finds the mutations no tool of this server makes (issue 22, finding 4)", () => {
    const names = (text: string) => searchSchema(real, text).mutations.map((m) => m.name);
    expect(names("update payment request")).toContain("updatePaymentRequest");
    expect(names("retry webhook event")).toContain("retryWebhookEvent");
    expect(names("update trusted contact")).toContain("updateTrustedContact");
    expect(rootFieldsReturning(real, "mutation", "TrustedContact").map((f) => f.name)).toEqual(
      expect.arrayContaining(["createTrustedContact", "updateTrustedContact"]),
    );
  });

  it("names the queries that return a type, directly or as a page", () => {
    expect(whereToRead(real, "Webhook")).toEqual(["webhook", "webhooks"]);
    expect(whereToRead(real, "Project")).toEqual(expect.arrayContaining(["project", "projects"]));
  });
});

describe("describe_schema's search over the real schema, through an MCP client", () => {
  let client: Client;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const real = buildSchema(readReference("worksome.graphql"));
    const workforce = createServer(
      { ...parseConfig([], { WORKFORCE_API_URL: "http://127.0.0.1:9", WORKFORCE_TOKEN: "t" }) },
      {
        client: {} as PlatformClient, // the schema comes from the source below: nothing is sent
        logger: createLogger("error", () => {}),
        catalog: await loadCatalog(),
        schemaSource: { get: async () => real },
      },
    );
    client = new Client({ name: "describe-schema-test", version: "0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await workforce.server.connect(serverSide);
    await client.connect(clientSide);
    close = async () => {
      await client.close();
      await workforce.close();
    };
  });
  afterAll(async () => {
    await close?.();
  });
  const search = (words: string) =>
    client.callTool({ name: "describe_schema", arguments: { search: words } });

  it("shows what matched every word first, then the partial matches, best first", async () => {
    const r = await search("hire compliances completed");
    const t = text(r);
    expect(t).toContain(
      "1 matched every word: in each list they come first, then what matched some of the words.",
    );
    const o = out(r);
    const mutations = o.queries.filter((q) => q.type === "Mutation").map((q) => q.name);
    expect(mutations[0]).toBe("createDraftHire");
    const fields = o.fields.map((f) => `${f.type}.${f.name}`);
    expect(fields).toEqual(
      expect.arrayContaining(["Hire.compliances", "Compliance.completed", "Gate.completed"]),
    );
    // Fields holding two of the words come before those holding one.
    expect(fields.indexOf("Hire.compliances")).toBeLessThan(fields.indexOf("Job.hires"));
    expect(o.types.map((x) => x.name)).toEqual(expect.arrayContaining(["Hire", "Compliance"]));
  });

  it(`answers every search within ${SEARCH_TEXT_BYTES / 1024} KB, saying when more matched`, async () => {
    for (const words of [
      "timesheet approval",
      "hire owner manager",
      "project milestone budget",
      "hire",
    ]) {
      const r = await search(words);
      const t = text(r);
      expect(Buffer.byteLength(t), words).toBeLessThanOrEqual(SEARCH_TEXT_BYTES);
      expect(out(r).more, words).toBe(true);
      expect(t).toContain("More matched than shown (the best first, within 6 KB)");
      if (words.includes(" ")) {
        expect(t).toContain("Nothing matched every word; these match some of them, best first.");
      }
    }
  });
});
