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
  checkVariablesSize,
  estimateQuery,
  OPERATION_NAME,
  PAGE_SIZE_ARGUMENTS,
  QUERY_LIMITS,
} from "../../src/tools/platform/query-checks.js";
import { MAX_QUERY_ANSWER_BYTES } from "../../src/tools/platform/query-platform.js";
import { SENSITIVE_FIELDS } from "../../src/tools/platform/sensitive-fields.js";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";
import { readReference } from "../helpers/reference.js";
import { useHarness } from "../helpers/tool-calls.js";

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
      /mutations are refused: query_platform only reads\.\nThis server's cancel_hire tool makes cancelHire, with its checks, and the person's confirmation where the change needs one\. To read, write a query\./,
    ],
    [
      "a mutation no tool of this server makes, saying where a person makes it",
      { query: 'mutation { updateWebhook(input: { id: "whk_001", title: "x" }) { id } }' },
      /mutations are refused: query_platform only reads\.\nNo tool of this server makes updateWebhook; a person makes that change in the platform's web app\./,
    ],
    [
      "a mutation a tool not listed makes, naming it and how to reach it",
      { query: 'mutation { updatePaymentRequest(input: { id: "pr_0016" }) { id } }' },
      /mutations are refused: query_platform only reads\.\nThis server's update_payment_request tool makes updatePaymentRequest, with its checks, and the person's confirmation where the change needs one \(not in your tool list: call it through run_write_tool; find_tools shows its arguments\)\./,
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

  it("refuses 20 aliases of three nested full pages by their estimated size, sending nothing", async () => {
    // Each alias passes every per-field limit (first: 100, 7 deep): only their product is too much.
    const one =
      "jobs(first: 100) { data { hires(first: 100) { data { paymentRequests(first: 100) { data { id } } } } } }";
    const query = `{ ${Array.from({ length: 20 }, (_, i) => `j${i}: ${one}`).join(" ")} }`;
    const before = h.sandbox.countRequests(OPERATION_NAME);
    const r = await call({ query });
    expect(r.isError).toBe(true);
    const t = text(r);
    expect(t).toContain(
      "argument `query`: the query is over this server's limits: it could return about 40,404,020 values with every page full (at most 10,000); the largest part is j0.data.hires.data.paymentRequests.data: 1,000,000 items (100 × 100 × 100), 2,000,000 values with their fields.",
    );
    expect(t).toMatch(/Make it smaller: a smaller first, above all on the outer lists/);
    expect(t).not.toMatch(/aliases \(at most|fields deep|on jobs/);
    expect(h.sandbox.countRequests(OPERATION_NAME)).toBe(before);
  });

  it("counts a fragment, or an inline fragment, once for every place it is spread", async () => {
    const fragment =
      "fragment Hires on JobPaginator { data { hires(first: 100) { data { id status } } } }";
    // 1 + 20 jobs + 20 hires fields + 2,000 hires + 4,000 ids and statuses.
    const once = await call({ query: `{ a: jobs(first: 20) { ...Hires } } ${fragment}` });
    expect(once.isError).toBeFalsy();

    const before = h.sandbox.countRequests(OPERATION_NAME);
    const twice = await call({
      query: `{ a: jobs(first: 20) { ...Hires } b: jobs(first: 20) { ...Hires } } ${fragment}`,
    });
    expect(twice.isError).toBe(true);
    expect(text(twice)).toMatch(/about 12,082 values with every page full \(at most 10,000\)/);
    const inline = await call({
      query: `{ a: jobs(first: 20) { ...Hires } b: jobs(first: 20) { ... on JobPaginator { data { hires(first: 100) { data { id status } } } } } } ${fragment}`,
    });
    expect(inline.isError).toBe(true);
    expect(text(inline)).toMatch(/about 12,082 values/);
    expect(h.sandbox.countRequests(OPERATION_NAME)).toBe(before);
  });

  it("sends a reasonable query: 25 hires, each with a nested page of 10", async () => {
    const before = h.sandbox.countRequests(OPERATION_NAME);
    const r = await call({
      query:
        "{ hires(first: 25) { data { id status worker { name hires(first: 10) { data { id status } } } } } }",
    });
    expect(r.isError).toBeFalsy();
    expect(h.sandbox.countRequests(OPERATION_NAME)).toBe(before + 1);
    const hires = (out(r).data as { hires: { data: { worker: { hires: { data: unknown[] } } }[] } })
      .hires.data;
    expect(hires.length).toBeGreaterThan(0);
    expect(hires[0]?.worker.hires.data.length).toBeGreaterThan(0);
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

describe("query_platform's variables", () => {
  const harness = useHarness();
  const query = "query($ids: [ID!]) { projects(accounts: $ids, first: 5) { data { id } } }";

  it("refuses a 100,000-item list before anything reaches the platform", async () => {
    const h = await harness();
    const ids = Array.from({ length: 100_000 }, (_, i) => `cmp_${String(i).padStart(6, "0")}`);
    const r = await h.client.callTool({
      name: "query_platform",
      arguments: { query, variables: { ids } },
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain(
      "argument `variables`: the variables are 1.2 MB of JSON (at most 64 KB); the largest is $ids, a list of 100,000 items.",
    );
    expect(text(r)).toMatch(/split a long list of ids over several calls/);
    // Not even the schema was fetched.
    expect(h.sandbox.countRequests()).toBe(0);
  });

  /** A value `levels` objects (or lists) deep around one number. */
  const nested = (levels: number, list = false): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < levels; i++) value = list ? [value] : { a: value };
    return value;
  };

  it("refuses a 10,000-level variable, naming the limits, before anything walks or sends it", async () => {
    const h = await harness();
    for (const variables of [
      { deep: nested(10_000) },
      { ids: nested(10_000, true) },
      { first: 5, filter: nested(5_000) },
    ]) {
      const r = await h.client.callTool({
        name: "query_platform",
        arguments: { query, variables },
      });
      expect(r.isError).toBe(true);
      expect(text(r)).toContain(
        "argument `variables`: the variables nest more than 10 levels of objects and lists (at most 10 levels of objects and lists and 64 KB of JSON).",
      );
      expect(text(r)).toContain("Nothing was sent.");
      expect(text(r)).not.toContain("unexpected problem");
    }
    expect(h.stderr.join("")).not.toContain("error:");
    expect(h.sandbox.countRequests()).toBe(0);
  });

  it("takes variables nested as deep as the limit, and checks them against the query", async () => {
    const h = await harness();
    // The variables object is the first level: nine more fit.
    const r = await h.client.callTool({
      name: "query_platform",
      arguments: { query, variables: { ids: nested(9, true) } },
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("the variables do not fit the query");
    expect(h.sandbox.countRequests(OPERATION_NAME)).toBe(0);
  });

  it("sends a list of a thousand ids", async () => {
    const h = await harness();
    const ids = Array.from({ length: 1000 }, (_, i) => `cmp_${String(i).padStart(6, "0")}`);
    const r = await h.client.callTool({
      name: "query_platform",
      arguments: { query, variables: { ids } },
    });
    expect(r.isError).toBeFalsy();
    expect(h.sandbox.countRequests(OPERATION_NAME)).toBe(1);
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

  it("names, for each mutation refused, the tool that makes it, or that none does or the API has none", () => {
    const hint = (query: string) => {
      try {
        check(query);
      } catch (error) {
        return (error as ToolInputError).hint;
      }
      throw new Error("the query was not refused");
    };
    expect(
      hint(
        "mutation { updateWebhook(input: {}) { id } updateTrustedContact(input: {}) { id } cancelHire(input: {}) { id } }",
      ),
    ).toBe(
      "No tool of this server makes updateWebhook; a person makes that change in the platform's web app. This server's update_talent_contact tool makes updateTrustedContact, with its checks, and the person's confirmation where the change needs one. This server's cancel_hire tool makes cancelHire, with its checks, and the person's confirmation where the change needs one. To read, write a query.",
    );
    expect(hint("mutation { deleteEverything { id } }")).toBe(
      "The platform's API has no mutation deleteEverything; describe_schema lists the changes it offers. To read, write a query.",
    );
  });

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

  it.each([
    [
      "a paged list without first, at the schema's default page of 10",
      "{ hires { data { id } } }",
      {},
      21,
    ],
    [
      "first, with the paginator's info once",
      "{ hires(first: 25) { paginatorInfo { total } data { id } } }",
      {},
      53,
    ],
    ["first from a variable", "query($n: Int!) { hires(first: $n) { data { id } } }", { n: 7 }, 15],
    ["an unpaged list as 10 items", "{ hires(first: 2) { data { owners { id } } } }", {}, 43],
    [
      "a fragment as often as it is spread",
      "{ a: hires(first: 5) { ...F } b: hires(first: 5) { ...F } } fragment F on HirePaginator { data { id } }",
      {},
      22,
    ],
    [
      "inline fragments each",
      "{ hires(first: 5) { ... on HirePaginator { data { id } } ... on HirePaginator { data { status } } } }",
      {},
      21,
    ],
  ])("estimates %s", (_what, query, variables, values) => {
    expect(estimateQuery(realSchema, query, variables).values).toBe(values);
  });

  it("draws the line at the ceiling: a nested page of 48 passes, of 49 is refused", () => {
    const query =
      "query($n: Int!) { jobs(first: 100) { data { hires(first: $n) { data { id } } } } }";
    expect(QUERY_LIMITS.maxValues).toBe(10_000);
    // 1 + 100 jobs + 100 hires fields + 100n hires + 100n ids.
    expect(() => check(query, { n: 48 })).not.toThrow();
    expect(() => check(query, { n: 49 })).toThrow(
      "it could return about 10,001 values with every page full (at most 10,000); the largest part is jobs.data.hires.data: 4,900 items (100 × 49), 9,800 values with their fields",
    );
  });

  it("says which page sizes it assumed", () => {
    expect(
      refusal("{ jobs(first: 100) { data { hires { data { worker { skills { id name } } } } } } }"),
    ).toContain(
      "the largest part is jobs.data.hires.data.worker.skills: 10,000 items (100 × default 10 × unpaged 10)",
    );
  });

  it("stops counting at the field limit when fragments multiply", () => {
    // Each fragment spreads the next twice: 2^11 copies of the last one, far over 500 fields.
    const fragments = Array.from(
      { length: 11 },
      (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`,
    );
    fragments.push("fragment F11 on Query { hires(first: 100) { data { id } } }");
    const message = refusal(`{ ...F0 } ${fragments.join(" ")}`);
    expect(message).toMatch(/it could return at least [\d,]+ values/);
    expect(message).toContain("it selects over 500 fields once fragments are spread");
  });

  it("refuses variables over 64 KB of JSON, and takes 64 KB", () => {
    // {"s":"…"} is the string and 8 bytes.
    const max = QUERY_LIMITS.maxVariablesBytes;
    expect(max).toBe(64 * 1024);
    expect(() => checkVariablesSize({ s: "x".repeat(max - 8) })).not.toThrow();
    expect(() => checkVariablesSize({ s: "x".repeat(max - 7) })).toThrow(
      "the variables are 65,537 bytes of JSON (at most 65,536 bytes); the largest is $s, 65,531 bytes",
    );
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
