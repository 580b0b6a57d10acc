import {
  buildSchema,
  type GraphQLSchema,
  getNamedType,
  isInterfaceType,
  isObjectType,
  parse,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolInputError } from "../../src/tools/define-tool.js";
import {
  checkQuery,
  OPERATION_NAME,
  PAGE_SIZE_ARGUMENTS,
  QUERY_LIMITS,
} from "../../src/tools/platform/query-checks.js";
import { MAX_QUERY_ANSWER_BYTES } from "../../src/tools/platform/query-platform.js";
import { SENSITIVE_FIELDS } from "../../src/tools/platform/sensitive-fields.js";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";
import { readReference } from "../helpers/reference.js";

interface Out {
  data: Record<string, unknown> | null;
  errors: { message: string; path: string | null; kind: string }[];
  hiddenFields: string[];
  cut: boolean;
  shortenedLists: string[];
}

type Result = Awaited<ReturnType<Harness["client"]["callTool"]>>;
const text = (r: Result) => (r.content as { text: string }[]).map((c) => c.text).join("\n");
const out = (r: Result) => r.structuredContent as unknown as Out;

/** Requests the platform received, the schema's one introspection left out. */
const platformRequests = (h: Harness) =>
  h.sandbox.requests.filter((r) => r.operationName !== "IntrospectionQuery").length;

const realSchema: GraphQLSchema = buildSchema(readReference("worksome.graphql"));

describe("query_platform against the sandbox", () => {
  let h: Harness;
  const call = (args: Record<string, unknown>) =>
    h.client.callTool({ name: "query_platform", arguments: args });
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("answers a query with the data as text and JSON, with the paging line", async () => {
    const r = await call({
      query:
        "{ webhooks(first: 2) { paginatorInfo { count currentPage firstItem lastItem lastPage perPage total hasMorePages } data { id title owner isActive } } }",
    });
    expect(r.isError).toBeFalsy();
    const o = out(r);
    const webhooks = o.data?.webhooks as { data: { id: string; title: string }[] };
    expect(webhooks.data.map((w) => w.id)).toEqual(["whk_001", "whk_002"]);
    expect(o.errors).toEqual([]);
    expect(o.cut).toBe(false);
    const t = text(r);
    expect(t).toContain("paginatorInfo: 1–2 of 3, page 1 of 2; ask for page 2 for more");
    expect(t).toContain('id: "whk_001", title: "Hires to HR system"');
    expect(t).toContain("isActive: false");
  });

  it("sends the query through the platform client as one named operation", async () => {
    const before = h.sandbox.countRequests(OPERATION_NAME);
    const r = await call({
      query: "query Mine($first: Int!) { hires(first: $first) { data { id } } }",
      variables: { first: 2 },
    });
    expect(r.isError).toBeFalsy();
    expect(h.sandbox.countRequests(OPERATION_NAME)).toBe(before + 1);
    const hires = out(r).data?.hires as { data: { id: string }[] };
    expect(hires.data).toHaveLength(2);
    expect(hires.data[0]?.id).toBe("hire_001");
  });

  it("reaches domains no other tool covers, such as projects", async () => {
    const r = await call({ query: "{ projects(first: 5) { data { id name } } }" });
    expect(r.isError).toBeFalsy();
    const projects = (out(r).data as { projects: { data: { id: string }[] } }).projects.data;
    expect(projects.length).toBeGreaterThan(0);
    for (const p of projects) expect(text(r)).toContain(`id: ${JSON.stringify(p.id)}`);
  });

  const refused: [string, Record<string, unknown>, RegExp][] = [
    [
      "a mutation",
      { query: 'mutation { cancelHire(input: { hire: "hire_003", message: "x" }) { id } }' },
      /mutations are refused: query_platform only reads/,
    ],
    ["a subscription", { query: "subscription { viewer { id } }" }, /subscriptions are refused/],
    [
      "an unknown field, with graphql's suggestion and the sandbox's caveat",
      { query: "{ hirez { data { id } } }" },
      /Cannot query field "hirez" on type "Query"\. Did you mean "hire" or "hires"\?[\s\S]*sandbox, which models only part of the platform/,
    ],
    [
      "a webhook's secret",
      { query: "{ webhooks { data { id secret } } }" },
      /never reads: Webhook\.secret \(the webhook's signing secret\)/,
    ],
    [
      "a secret behind an alias in a fragment",
      {
        query:
          'query { webhook(id: "whk_001") { ...W } } fragment W on Webhook { id signing: clientSecret }',
      },
      /Webhook\.clientSecret/,
    ],
    [
      "first: 500",
      { query: "{ hires(first: 500) { data { id } } }" },
      /first: 500 on hires \(at most 100/,
    ],
    [
      "a page size over 100 in a variable",
      { query: "query($n: Int!) { hires(first: $n) { data { id } } }", variables: { n: 101 } },
      /first: 101 on hires/,
    ],
    [
      "a page size over 100 on a nested list",
      { query: "{ hires(first: 5) { data { worker { hires(first: 200) { data { id } } } } } }" },
      /first: 200 on hires\.data\.worker\.hires/,
    ],
    [
      "a query nested too deep",
      {
        query:
          "{ hires { data { worker { hires { data { worker { hires { data { id } } } } } } } } }",
      },
      /nests 9 fields deep \(at most 8\)/,
    ],
    [
      "too many aliases",
      {
        query: `{ ${Array.from({ length: 21 }, (_, i) => `v${i}: viewer { id }`).join(" ")} }`,
      },
      /21 aliases \(at most 20\)/,
    ],
    [
      "aliases multiplied by fragment spreads",
      {
        query: `{ ${Array.from({ length: 3 }, (_, i) => `h${i}: hires(first: 1) { ...F }`).join(" ")} } fragment F on HirePaginator { ${Array.from({ length: 6 }, (_, i) => `d${i}: data { id }`).join(" ")} }`,
      },
      /21 aliases/,
    ],
    [
      "two operations",
      { query: "query A { viewer { id } } query B { viewer { name } }" },
      /2 operations; one per call/,
    ],
    ["a syntax error", { query: "{ hires { data { id" }, /not valid GraphQL: Expected Name/],
    [
      "a variable the query does not declare",
      { query: "{ hires { data { id } } }", variables: { first: 5 } },
      /argument `variables`: the query does not declare \$first/,
    ],
    [
      "a variable of the wrong type",
      { query: "query($h: ID!) { hire(id: $h) { id } }", variables: { h: ["hire_001"] } },
      /the variables do not fit the query/,
    ],
    [
      "raw introspection",
      { query: "{ __schema { types { name } } }" },
      /__schema \(introspection; describe_schema shows the schema\)/,
    ],
  ];

  it.each(refused)("refuses %s without a platform request", async (_what, args, message) => {
    const before = platformRequests(h);
    const r = await call(args);
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/query_platform did not run/);
    expect(text(r)).toMatch(message);
    expect(platformRequests(h)).toBe(before);
  });

  it("introspects once, shared with the schema resources", async () => {
    await h.client.readResource({ uri: "workforce://schema" });
    await call({ query: "{ viewer { id } }" });
    await h.client.callTool({ name: "describe_schema", arguments: { search: "hire" } });
    expect(h.sandbox.countRequests("IntrospectionQuery")).toBe(1);
  });

  it("cuts an oversize answer at about 24 KB and says how to narrow the query", async () => {
    const fields =
      "data { id status startDate endDate worker { name email firstName lastName jobTitle } company { id name } latestContract { id jobName currency } }";
    const r = await call({
      query: `{ a: hires(first: 100) { ${fields} } b: hires(first: 100, page: 1) { ${fields} } }`,
    });
    expect(r.isError).toBeFalsy();
    const t = text(r);
    expect(Buffer.byteLength(t)).toBeLessThanOrEqual(MAX_QUERY_ANSWER_BYTES + 200);
    expect(t).toMatch(
      /\[Answer cut at 24 KB of \d+ KB: narrow the query: fewer fields, a smaller first, or filters/,
    );
    const o = out(r);
    expect(o.cut).toBe(true);
    expect(o.shortenedLists.join(" ")).toMatch(/data: \d+ of \d+/);
    expect(Buffer.byteLength(JSON.stringify(o.data))).toBeLessThanOrEqual(MAX_QUERY_ANSWER_BYTES);
    // What is kept is the start of each list, ids intact.
    const a = (o.data as { a: { data: { id: string }[] } }).a.data;
    expect(a[0]?.id).toBe("hire_001");
  });
});

describe("query_platform with partial answers", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ token: "limited" });
  });
  afterAll(async () => {
    await h.close();
  });

  it("keeps the data and the platform's error together", async () => {
    const r = await h.client.callTool({
      name: "query_platform",
      arguments: { query: '{ viewer { name } hire(id: "hire_002") { id } }' },
    });
    expect(r.isError).toBeFalsy();
    const o = out(r);
    expect(o.data).toEqual({ viewer: { name: "Oskar Berg" }, hire: null });
    expect(o.errors).toEqual([expect.objectContaining({ path: "hire", kind: "authorization" })]);
    const t = text(r);
    expect(t).toContain("The platform answered with an error; the data below is partial");
    expect(t).toMatch(/- at hire: "This account is not allowed to use `hire`/);
    expect(t).toContain('viewer: { name: "Oskar Berg" }');
  });

  it("says which fields the platform hid, and leaves them null", async () => {
    const r = await h.client.callTool({
      name: "query_platform",
      arguments: { query: "{ hires(first: 2) { data { id latestContract { rate currency } } } }" },
    });
    expect(r.isError).toBeFalsy();
    expect(out(r).hiddenFields).toEqual(["rate"]);
    expect(text(r)).toContain("Rates are hidden for your account.");
    expect(text(r)).toContain("rate: null");
  });
});

describe("query_platform's checks against the real schema", () => {
  const check = (query: string, variables: Record<string, unknown> = {}) =>
    checkQuery(realSchema, query, variables, { sandbox: false });
  const refusal = (query: string) => {
    try {
      check(query);
    } catch (error) {
      expect(error).toBeInstanceOf(ToolInputError);
      return (error as ToolInputError).message;
    }
    throw new Error("the query was not refused");
  };

  it("lists only fields that exist in the real schema", () => {
    expect(SENSITIVE_FIELDS.length).toBeGreaterThan(10);
    for (const { type, field } of SENSITIVE_FIELDS) {
      const t = realSchema.getType(type);
      expect(t, type).toBeDefined();
      expect(isObjectType(t) || isInterfaceType(t), type).toBe(true);
      if (isObjectType(t) || isInterfaceType(t)) {
        expect(Object.keys(t.getFields()), `${type}.${field}`).toContain(field);
      }
    }
  });

  it.each([
    ['{ webhook(id: "1") { secret } }', "Webhook.secret"],
    ["{ webhooks { data { clientSecret } } }", "Webhook.clientSecret"],
    ['{ worker(id: "1") { identification { nationality } } }', "Worker.identification"],
    ["{ multiFactors { data { ... on TotpMultiFactor { id } } } }", "Query.multiFactors"],
    ['{ contract(id: "1") { businessEntity { taxNumber } } }', "BusinessEntity.taxNumber"],
  ])("refuses %s", (query, field) => {
    expect(refusal(query)).toContain(field);
  });

  it("refuses a listed field asked for through an interface or union", () => {
    // Account is an interface; Worker implements it and its identification is listed.
    const sandboxLike = buildSchema(`
      interface Account { id: ID! identification: String }
      type Worker implements Account { id: ID! identification: String }
      type Query { accounts: [Account!]! }
    `);
    expect(() =>
      checkQuery(sandboxLike, "{ accounts { identification } }", {}, { sandbox: false }),
    ).toThrow(/Worker\.identification/);
  });

  it("sends an allowed query as one operation named QueryPlatform", () => {
    const checked = check("query Mine { webhooks(first: 5) { data { id title url } } }");
    const document = parse(checked.document);
    expect(document.definitions).toHaveLength(1);
    expect(checked.document).toMatch(/^query QueryPlatform \{/);
  });

  it("leaves the sandbox's caveat out against the real platform", () => {
    const message = refusal("{ hirez { id } }");
    expect(message).toMatch(/Did you mean "hire"/);
    try {
      check("{ hirez { id } }");
    } catch (error) {
      expect((error as ToolInputError).hint).not.toMatch(/sandbox/);
    }
  });

  it("knows every page-size argument of the real schema", () => {
    // Every Int argument, so a new paging argument (limit, perPage…) fails here until it is listed.
    const intArguments = new Set<string>();
    for (const type of Object.values(realSchema.getTypeMap())) {
      if (!isObjectType(type) && !isInterfaceType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        for (const arg of field.args) {
          if (getNamedType(arg.type).name === "Int") intArguments.add(arg.name);
        }
      }
    }
    expect([...intArguments].sort()).toEqual(["daysAhead", "first", "page"]);
    expect(PAGE_SIZE_ARGUMENTS).toEqual(["first"]);
    expect(QUERY_LIMITS.maxFirst).toBe(100);
  });
});
