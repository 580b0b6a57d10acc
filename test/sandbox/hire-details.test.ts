// The hire-details domain: owners, compliance rows and PO number on hires, custom fields with
// their values on contracts, and projects, with the core's visibility rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  HIRE_DETAILS_FIXTURES,
  type HireDetailsData,
  hireDetailsOf,
} from "../../src/sandbox/domains/hire-details/seed.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { createSeed } from "../../src/sandbox/seed/index.js";
import { gql, onlyError, TODAY } from "./helpers.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ today: TODAY, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

interface ComplianceRow {
  name: string;
  actor: string;
  applicable: boolean;
  completed: boolean;
  completedAt: string | null;
  title: string;
  description: string;
}
interface ValueRow {
  displayValue: string | null;
  content: string | null;
  customFieldOption: { value: string } | null;
  appliesTo: { __typename: string; id: string };
}
interface FieldRow {
  id: string;
  title: string;
  fieldType: string;
  appliesTo: string;
  approval: boolean;
  account: { id: string };
  settings: { validation: string[] };
  customFieldOptions: { value: string; displayOrder: number }[];
  customFieldValues: ValueRow[];
}
interface ProjectRow {
  id: string;
  name: string;
  currency: string;
  endDate: string | null;
  internalBudget: number | null;
  spent: number;
  company: { id: string };
  creator: { id: string };
  owners: { id: string; name: string }[];
}

const FIELD_FIELDS = `id title fieldType appliesTo approval account { id } settings { validation }
  customFieldOptions { value displayOrder }
  customFieldValues { displayValue content customFieldOption { value } appliesTo { __typename ... on Contract { id } } }`;
const PROJECT_FIELDS =
  "id name currency endDate internalBudget spent company { id } creator { id } owners { id name }";

describe("hire details", () => {
  it("gives Ana's hire its owners, compliance rows with two open gaps, and no PO number", async () => {
    const r = await gql<{
      hire: { owners: { id: string; name: string; email: string }[]; compliances: ComplianceRow[] };
    }>(
      sandbox,
      `{ hire(id: "hire_001") { owners { id name email }
          compliances { name actor applicable completed completedAt title description }
          purchaseOrderNumber } }`,
    );
    expect(r.errors).toBeUndefined();
    const hire = r.data?.hire as NonNullable<typeof r.data>["hire"] & {
      purchaseOrderNumber: string | null;
    };
    expect(hire.owners).toEqual([
      { id: "usr_001", name: "Maja Lindqvist", email: "maja.lindqvist@nordlys.example" },
      { id: "usr_003", name: "Freya Dahl", email: "freya.dahl@nordlys.example" },
    ]);
    expect(hire.purchaseOrderNumber).toBeNull();
    const gaps = hire.compliances.filter((c) => c.applicable && !c.completed);
    expect(gaps.map((c) => c.name).sort()).toEqual([...HIRE_DETAILS_FIXTURES.anaGaps].sort());
    expect(gaps.every((g) => g.completedAt === null && g.title.length > 0)).toBe(true);
    const done = hire.compliances.filter((c) => c.completed);
    expect(done.length).toBeGreaterThanOrEqual(3);
    expect(done[0]?.completedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    // Ana works remotely: the onsite rows do not apply to her hire.
    expect(hire.compliances.find((c) => c.name === "ONSITE_PRESENCE")).toMatchObject({
      applicable: false,
      completed: false,
    });
  });

  it("filters compliance rows by name", async () => {
    const r = await gql<{ hire: { compliances: ComplianceRow[] } }>(
      sandbox,
      `{ hire(id: "hire_001") { compliances(names: [BANK_ACCOUNT, IDENTIFICATION]) { name completed } } }`,
    );
    expect(r.data?.hire.compliances).toEqual([
      { name: "IDENTIFICATION", completed: true },
      { name: "BANK_ACCOUNT", completed: false },
    ]);
  });

  it("gives every hire an owner from its own company's team, and some active hires gaps", async () => {
    const r = await gql<{
      hires: {
        data: {
          id: string;
          status: string;
          company: { id: string };
          owners: { id: string }[];
          compliances: ComplianceRow[];
        }[];
      };
    }>(
      sandbox,
      "{ hires(first: 100) { data { id status company { id } owners { id } compliances { name applicable completed } } } }",
    );
    const hires = r.data?.hires.data ?? [];
    expect(hires.length).toBeGreaterThanOrEqual(50);
    const nordlysTeam = new Set(["usr_001", "usr_002", "usr_003", "usr_004"]);
    for (const h of hires) {
      expect(h.owners.length, h.id).toBeGreaterThanOrEqual(1);
      if (h.company.id === "cmp_nordlys") {
        expect(
          h.owners.every((o) => nordlysTeam.has(o.id)),
          h.id,
        ).toBe(true);
      } else {
        expect(
          h.owners.some((o) => nordlysTeam.has(o.id) && o.id !== "usr_001"),
          h.id,
        ).toBe(false);
      }
    }
    const activeWithGaps = hires.filter(
      (h) => h.status === "ACTIVE" && h.compliances.some((c) => c.applicable && !c.completed),
    );
    expect(activeWithGaps.length).toBeGreaterThanOrEqual(3);
    expect(activeWithGaps.length).toBeLessThan(hires.filter((h) => h.status === "ACTIVE").length);
  });

  it("seeds the same details on every run", () => {
    const a = createSeed(TODAY);
    const b = createSeed(TODAY);
    expect(JSON.stringify(serialise(hireDetailsOf(a)))).toBe(
      JSON.stringify(serialise(hireDetailsOf(b))),
    );
  });
});

describe("custom fields", () => {
  it("lists each company's fields, with options, and values on contracts", async () => {
    const r = await gql<{ customFields: { paginatorInfo: { total: number }; data: FieldRow[] } }>(
      sandbox,
      `{ customFields(accounts: ["cmp_nordlys"], first: 25) { paginatorInfo { total } data { ${FIELD_FIELDS} } } }`,
    );
    expect(r.errors).toBeUndefined();
    const fields = r.data?.customFields.data ?? [];
    expect(fields.length).toBe(7);
    expect(fields.every((f) => f.account.id === "cmp_nordlys")).toBe(true);
    const cost = fields.find((f) => f.title === "Cost center") as FieldRow;
    expect(cost).toMatchObject({
      fieldType: "SINGLE_SELECT",
      appliesTo: "CONTRACT",
      settings: { validation: ["REQUIRED"] },
    });
    expect(cost.customFieldOptions.map((o) => o.displayOrder)).toEqual([1, 2, 3]);
    const ana = cost.customFieldValues.find((v) => v.appliesTo.id === "ctr_002");
    expect(ana).toEqual({
      displayValue: HIRE_DETAILS_FIXTURES.anaCostCenter,
      content: null,
      customFieldOption: { value: HIRE_DETAILS_FIXTURES.anaCostCenter },
      appliesTo: { __typename: "Contract", id: "ctr_002" },
    });
    const budget = fields.find((f) => f.title === "Budget line") as FieldRow;
    expect(budget.fieldType).toBe("FREE_TEXT");
    expect(budget.customFieldValues.find((v) => v.appliesTo.id === "ctr_002")).toMatchObject({
      displayValue: HIRE_DETAILS_FIXTURES.anaBudgetLine,
      content: HIRE_DETAILS_FIXTURES.anaBudgetLine,
      customFieldOption: null,
    });
  });

  it("resolves every value's job, also the jobs made only for hires (job_h…)", async () => {
    const r = await gql<{
      customFields: { data: { customFieldValues: { appliesTo: { id?: string } }[] }[] };
    }>(
      sandbox,
      `{ customFields(appliesTo: [JOB], first: 100) { data { customFieldValues { appliesTo { ... on Job { id } } } } } }`,
    );
    expect(r.errors).toBeUndefined();
    const ids = (r.data?.customFields.data ?? []).flatMap((f) =>
      f.customFieldValues.map((v) => v.appliesTo.id),
    );
    expect(ids.some((id) => id?.startsWith("job_h"))).toBe(true);
    expect(ids.every((id) => typeof id === "string")).toBe(true);
  });

  it("filters by what the field applies to and by approval, and pages", async () => {
    const jobs = await gql<{ customFields: { data: FieldRow[] } }>(
      sandbox,
      `{ customFields(appliesTo: [JOB], first: 25) { data { ${FIELD_FIELDS} } } }`,
    );
    const jobFields = jobs.data?.customFields.data ?? [];
    expect(jobFields.length).toBe(6);
    expect(jobFields.every((f) => f.appliesTo === "JOB")).toBe(true);
    // Their values are set on jobs (Job.customFieldValues), not on contracts.
    const values = jobFields.flatMap((f) => f.customFieldValues);
    expect(values.length).toBeGreaterThan(0);
    expect(values.every((v) => v.appliesTo.__typename === "Job")).toBe(true);
    const approval = await gql<{ customFields: { data: FieldRow[] } }>(
      sandbox,
      `{ customFields(approval: true, first: 25) { data { ${FIELD_FIELDS} } } }`,
    );
    expect(approval.data?.customFields.data.map((f) => f.title)).toEqual(["Headcount approval"]);
    const paged = await gql<{
      customFields: { paginatorInfo: { total: number; lastPage: number }; data: FieldRow[] };
    }>(
      sandbox,
      "{ customFields(first: 4, page: 2) { paginatorInfo { total lastPage } data { id } } }",
    );
    expect(paged.data?.customFields.paginatorInfo).toEqual({ total: 19, lastPage: 5 });
    expect(paged.data?.customFields.data).toHaveLength(4);
  });

  it("reaches a company's own fields through Company.customFields", async () => {
    const r = await gql<{ hire: { company: { customFields: { data: FieldRow[] } } } }>(
      sandbox,
      `{ hire(id: "hire_002") { company { customFields(first: 25) { data { ${FIELD_FIELDS} } } } } }`,
    );
    const fields = r.data?.hire.company.customFields.data ?? [];
    expect(fields.map((f) => f.title)).toEqual([
      "Cost center",
      "Budget line",
      "Region",
      "Budget owner",
      "Talent tier",
      "Notice period",
    ]);
    expect(fields.every((f) => f.account.id === "cmp_harbor")).toBe(true);
  });

  it("shows the limited identity only its own company's fields", async () => {
    const r = await gql<{ customFields: { data: FieldRow[] } }>(
      sandbox,
      `{ customFields(accounts: ["cmp_harbor", "cmp_nordlys"], first: 25) { data { ${FIELD_FIELDS} } } }`,
      { token: "limited" },
    );
    const fields = r.data?.customFields.data ?? [];
    expect(fields.length).toBe(7);
    expect(fields.every((f) => f.account.id === "cmp_nordlys")).toBe(true);
  });
});

describe("projects", () => {
  it("lists projects with budgets, owners and status filters", async () => {
    const all = await gql<{ projects: { paginatorInfo: { total: number }; data: ProjectRow[] } }>(
      sandbox,
      `{ projects(first: 25) { paginatorInfo { total } data { ${PROJECT_FIELDS} } } }`,
    );
    expect(all.errors).toBeUndefined();
    const projects = all.data?.projects.data ?? [];
    expect(projects.length).toBeGreaterThanOrEqual(4);
    expect(projects.length).toBeLessThanOrEqual(6);
    expect(projects[0]).toMatchObject({
      id: "prj_001",
      name: "Smart meter roll-out",
      currency: "DKK",
      company: { id: "cmp_nordlys" },
      owners: [{ id: "usr_001" }, { id: "usr_003" }],
    });
    const ended = await gql<{ projects: { data: ProjectRow[] } }>(
      sandbox,
      `{ projects(status: [ENDED], first: 25) { data { ${PROJECT_FIELDS} } } }`,
    );
    expect(ended.data?.projects.data.map((p) => p.name)).toEqual(["Grid balancing pilot"]);
    expect((ended.data?.projects.data[0]?.endDate ?? "9") < TODAY).toBe(true);
    const search = await gql<{ projects: { data: ProjectRow[] } }>(
      sandbox,
      `{ projects(search: "TURBINES", owners: ["usr_003"], first: 25) { data { id } } }`,
    );
    expect(search.data?.projects.data).toEqual([{ id: "prj_002" }]);
  });

  it("finds one project by id, and refuses another company's for the limited identity", async () => {
    const one = await gql<{ project: ProjectRow | null }>(
      sandbox,
      `{ project(id: "prj_004") { ${PROJECT_FIELDS} } }`,
    );
    expect(one.data?.project).toMatchObject({ name: "Store network refresh", currency: "USD" });
    const none = await gql<{ project: ProjectRow | null }>(
      sandbox,
      '{ project(id: "prj_999") { id } }',
    );
    expect(none.data?.project).toBeNull();
    const refused = await gql(sandbox, '{ project(id: "prj_004") { id } }', { token: "limited" });
    expect(onlyError(refused).message).toBe("You are not authorized to perform this action.");
    const listed = await gql<{ projects: { data: ProjectRow[] } }>(
      sandbox,
      `{ projects(first: 25) { data { ${PROJECT_FIELDS} } } }`,
      { token: "limited" },
    );
    const companies = new Set(listed.data?.projects.data.map((p) => p.company.id));
    expect([...companies]).toEqual(["cmp_nordlys"]);
  });
});

function serialise(d: HireDetailsData) {
  return {
    users: [...d.users.values()],
    owners: [...d.owners.entries()],
    compliances: [...d.compliances.entries()],
    customFields: d.customFields,
    customFieldValues: d.customFieldValues,
    projects: d.projects,
  };
}
