// createDraftHire for a Talent Pool contact and with custom field values: the worker is the
// contact's, the values land on the draft contract, and the caller owns the new hire.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type GqlResponse, gql, onlyError, TODAY } from "./helpers.js";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ today: TODAY, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.reset();
});

const CREATE = `mutation Create($input: HireInput!) {
  createDraftHire(input: $input) {
    id activeStatus externalIdentifier worker { id name } owners { id }
    latestContract { id status jobName }
  } }`;

interface Created {
  createDraftHire: {
    id: string;
    activeStatus: string;
    externalIdentifier: string | null;
    worker: { id: string; name: string };
    owners: { id: string }[];
    latestContract: { id: string; status: string; jobName: string };
  };
}
// The platform requires a start date; tests that are not about it give one.
const create = (input: Record<string, unknown>, token?: "full" | "limited") =>
  gql<Created>(sandbox, CREATE, {
    token,
    variables: { input: { startDate: "2027-01-04", ...input } },
  });

function validationKeys(r: GqlResponse<unknown>): Record<string, string[]> {
  const e = onlyError(r);
  expect(e.message).toBe("Validation failed for the field [createDraftHire].");
  expect(r.data).toBeNull();
  return e.extensions.validation ?? {};
}

const COST_CENTER_ENG = { singleSelect: { slug: "cost-center", value: "cfo_001" } };

describe("createDraftHire needs a start date, as the platform does", () => {
  it("refuses a draft without one", async () => {
    const r = await gql<Created>(sandbox, CREATE, {
      variables: { input: { company: "cmp_nordlys", name: "Data Platform Engineer" } },
    });
    expect(validationKeys(r)).toEqual({
      "input.startDate": ["The input.startDate field is required."],
    });
  });
});

describe("createDraftHire for a trusted contact", () => {
  it("hires the contact's worker, and the caller owns the hire", async () => {
    const r = await create({
      company: "cmp_nordlys",
      trustedContact: "tc_012",
      name: "Data Platform Engineer",
      externalIdentifier: "ERP-777",
    });
    expect(r.errors).toBeUndefined();
    expect(r.data?.createDraftHire).toMatchObject({
      activeStatus: "DRAFT",
      externalIdentifier: "ERP-777",
      worker: { id: "wrk_061", name: "Oliver Dahl" },
      owners: [{ id: "usr_001" }],
      latestContract: { status: "DRAFT", jobName: "Data Platform Engineer" },
    });
    // Found again by its external identifier, as after an ambiguous failure.
    const found = await gql<{ hires: { data: { id: string }[] } }>(
      sandbox,
      '{ hires(externalIdentifiers: ["ERP-777"]) { data { id } } }',
    );
    expect(found.data?.hires.data).toEqual([{ id: r.data?.createDraftHire.id }]);
  });

  it.each([
    ["a contact of another company's pool", "tc_024", "invalid"],
    ["an unknown contact", "tc_999", "invalid"],
    ["a blocked contact", "tc_010", "BLOCKED"],
    ["a declined contact", "tc_009", "DECLINED"],
  ])("rejects %s", async (_label, contact, words) => {
    const v = validationKeys(
      await create({ company: "cmp_nordlys", trustedContact: contact, name: "X" }),
    );
    expect(Object.keys(v)).toEqual(["input.trustedContact"]);
    expect(v["input.trustedContact"]?.join(" ")).toContain(words);
  });
});

describe("createDraftHire with custom field values", () => {
  it("stores the values on the draft contract", async () => {
    const r = await create({
      company: "cmp_nordlys",
      name: "Grid Analyst",
      customFieldValues: [COST_CENTER_ENG, { freeText: { id: "cf_002", value: "BL-2027-ENG-01" } }],
    });
    expect(r.errors).toBeUndefined();
    const contractId = r.data?.createDraftHire.latestContract.id;
    const values = await gql<{
      customFields: {
        data: {
          id: string;
          customFieldValues: { displayValue: string; appliesTo: { id: string } }[];
        }[];
      };
    }>(
      sandbox,
      '{ customFields(accounts: ["cmp_nordlys"], first: 100) { data { id customFieldValues { displayValue appliesTo { ... on Contract { id } } } } } }',
    );
    const onContract = (values.data?.customFields.data ?? []).flatMap((f) =>
      f.customFieldValues
        .filter((v) => v.appliesTo.id === contractId)
        .map((v) => `${f.id}=${v.displayValue}`),
    );
    expect(onContract.sort()).toEqual(["cf_001=DK-ENG Engineering", "cf_002=BL-2027-ENG-01"]);
  });

  it("leaves custom fields alone when none are given, even required ones", async () => {
    const r = await create({ company: "cmp_nordlys", name: "X", customFieldValues: [] });
    expect(r.errors).toBeUndefined();
  });

  it.each([
    [
      "a missing required field",
      [{ freeText: { slug: "budget-line", value: "B" } }],
      ["input.customFieldValues"],
    ],
    [
      "another company's field",
      [COST_CENTER_ENG, { freeText: { id: "cf_006", value: "B" } }],
      ["input.customFieldValues.1.freeText.id"],
    ],
    [
      "a job field",
      [COST_CENTER_ENG, { singleSelect: { slug: "department", value: "cfo_006" } }],
      ["input.customFieldValues.1.singleSelect.id"],
    ],
    [
      "an option of another field",
      [{ singleSelect: { slug: "cost-center", value: "cfo_004" } }],
      ["input.customFieldValues.0.singleSelect.value", "input.customFieldValues"],
    ],
    [
      "the wrong kind of value",
      [{ freeText: { slug: "cost-center", value: "DK-ENG" } }],
      ["input.customFieldValues.0.freeText", "input.customFieldValues"],
    ],
    [
      "two kinds in one entry",
      [{ ...COST_CENTER_ENG, freeText: { slug: "budget-line", value: "B" } }],
      ["input.customFieldValues.0", "input.customFieldValues"],
    ],
    [
      "the same field twice",
      [COST_CENTER_ENG, COST_CENTER_ENG],
      ["input.customFieldValues.1.singleSelect.id"],
    ],
  ])("rejects %s", async (_label, customFieldValues, keys) => {
    const v = validationKeys(
      await create({ company: "cmp_nordlys", name: "X", customFieldValues }),
    );
    expect(Object.keys(v).sort()).toEqual([...keys].sort());
  });

  it("creates nothing when the input is refused", async () => {
    const before = await gql<{ hires: { paginatorInfo: { total: number } } }>(
      sandbox,
      "{ hires(first: 1) { paginatorInfo { total } } }",
    );
    await create({ company: "cmp_nordlys", trustedContact: "tc_010", name: "X" });
    const after = await gql<{ hires: { paginatorInfo: { total: number } } }>(
      sandbox,
      "{ hires(first: 1) { paginatorInfo { total } } }",
    );
    expect(after.data?.hires.paginatorInfo.total).toBe(before.data?.hires.paginatorInfo.total);
  });

  it("refuses the limited identity before looking at the values", async () => {
    const r = await create(
      { company: "cmp_nordlys", trustedContact: "tc_012", name: "X" },
      "limited",
    );
    expect(onlyError(r).message).toBe("You are not authorized to perform this action.");
  });
});
