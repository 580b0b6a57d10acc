import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_FIXTURES, type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { createSeed } from "../../src/sandbox/seed/index.js";
import { gql, onlyError, TODAY } from "./helpers.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ today: TODAY, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

interface Page<T> {
  data: T[];
  paginatorInfo: {
    count: number;
    currentPage: number;
    firstItem: number | null;
    hasMorePages: boolean;
    lastItem: number | null;
    lastPage: number;
    perPage: number;
    total: number;
  };
}
const PAGE_INFO =
  "paginatorInfo { count currentPage firstItem hasMorePages lastItem lastPage perPage total }";

async function page<T>(
  field: "hires" | "contracts" | "invoices",
  args: string,
  fields: string,
  token: "full" | "limited" = "full",
): Promise<Page<T>> {
  const r = await gql<Record<string, Page<T>>>(
    sandbox,
    `{ ${field}(${args || "first: 100"}) { ${PAGE_INFO} data { ${fields} } } }`,
    { token },
  );
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data?.[field] as Page<T>;
}

const ids = (p: Page<{ id: string }>) => p.data.map((x) => x.id);
const byLocale = (a: string, b: string) => a.localeCompare(b, "en");

interface HireRow {
  id: string;
  activeStatus: string;
  startDate: string | null;
  endDate: string | null;
  company: { id: string; name: string };
  worker: { id: string; name: string; email: string | null };
  recruiter: { id: string } | null;
  latestContract: { id: string; status: string; jobName: string };
  createdAt: string;
  number: string;
  externalIdentifier: string | null;
}
const HIRE_FIELDS =
  "id activeStatus startDate endDate createdAt number externalIdentifier company { id name } worker { id name email } recruiter { id } latestContract { id status jobName }";

describe("seed", () => {
  it("has at least 50 hires covering all seven statuses, some through the agency", async () => {
    const all = await page<HireRow>("hires", "first: 100", HIRE_FIELDS);
    expect(all.paginatorInfo.total).toBeGreaterThanOrEqual(50);
    const statuses = new Set(all.data.map((h) => h.activeStatus));
    expect([...statuses].sort()).toEqual(
      ["ACTIVE", "CANCELLED", "DRAFT", "ENDED", "OFFERED", "READY", "TERMINATED"].sort(),
    );
    expect(all.data.filter((h) => h.recruiter?.id === SANDBOX_FIXTURES.agencyId).length).toBe(
      all.data.filter((h) => h.recruiter !== null).length,
    );
    expect(all.data.filter((h) => h.recruiter !== null).length).toBeGreaterThanOrEqual(5);
    expect(new Set(all.data.map((h) => h.company.id)).size).toBe(3);
    expect(new Set(all.data.map((h) => h.worker.name)).size).toBeGreaterThanOrEqual(40);
  });

  it("lists the companies, the organisation and the staffing agency as accounts", async () => {
    const r = await gql<{ accounts: Array<Record<string, string>> }>(
      sandbox,
      "{ accounts { __typename id name ... on Company { market currency } } }",
    );
    expect(r.data?.accounts).toEqual(
      expect.arrayContaining([
        {
          __typename: "Company",
          id: "cmp_nordlys",
          name: "Nordlys Energi A/S",
          market: "DK",
          currency: "DKK",
        },
        {
          __typename: "Company",
          id: "cmp_harbor",
          name: "Harbor & Pine Inc.",
          market: "US",
          currency: "USD",
        },
        {
          __typename: "Company",
          id: "cmp_castell",
          name: "Castell Retail GmbH",
          market: "DE",
          currency: "EUR",
        },
        { __typename: "Recruiter", id: "rec_brightpath", name: "Brightpath Staffing" },
      ]),
    );
  });

  it("has Ana Costa's revised hire at Nordlys, with an unsigned change pending", async () => {
    const r = await gql<{ hire: Record<string, unknown> }>(
      sandbox,
      `{ hire(id: "hire_001") { id activeStatus startDate endDate rate currency rateType
          canTerminateContract pendingContractChanges hasDraftContract
          worker { name email } company { id name }
          latestContract { id status rate startDate endDate files { id } }
          activeContract { id status currency rateType rate pdfUrl files { id name url } }
          draftContract { id status rate startDate }
          contracts { data { id status rate startDate endDate } } } }`,
    );
    const hire = r.data?.hire as {
      startDate: string;
      endDate: string;
      rate: number;
      activeContract: { id: string; rate: number; files: Array<{ name: string; url: string }> };
      contracts: { data: Array<{ id: string; status: string; rate: number }> };
    };
    expect(r.data?.hire).toMatchObject({
      activeStatus: "ACTIVE",
      startDate: "2026-07-25",
      endDate: "2027-07-20",
      canTerminateContract: true,
      worker: { name: "Ana Costa", email: "ana.costa@example.com" },
      company: { id: "cmp_nordlys", name: "Nordlys Energi A/S" },
      // The latest contract is the unsigned draft; the active one holds the terms in force.
      latestContract: {
        id: SANDBOX_FIXTURES.anaDraftContractId,
        status: "DRAFT",
        rate: 780,
        startDate: "2027-01-01",
        endDate: "2027-07-20",
        files: [],
      },
      activeContract: { id: "ctr_002", status: "ACTIVE", currency: "DKK", rateType: "HOURLY" },
      draftContract: { id: SANDBOX_FIXTURES.anaDraftContractId, status: "DRAFT", rate: 780 },
      pendingContractChanges: true,
      hasDraftContract: true,
      // The hire's own terms are the active contract's, not the draft's.
      rate: 725,
      currency: "DKK",
      rateType: "HOURLY",
    });
    const [original, revision, draft] = hire.contracts.data;
    expect(original).toMatchObject({ id: "ctr_001", status: "ARCHIVED" });
    expect(revision).toMatchObject({ id: "ctr_002", status: "ACTIVE" });
    expect(draft).toMatchObject({ id: SANDBOX_FIXTURES.anaDraftContractId, status: "DRAFT" });
    expect(revision?.rate).toBeGreaterThan(original?.rate ?? Number.POSITIVE_INFINITY);
    expect(hire.rate).toBe(revision?.rate);
    expect(hire.activeContract.files).toHaveLength(2);
    for (const file of hire.activeContract.files) {
      expect(file.name).toMatch(/\.pdf$/);
      expect(file.url.startsWith(`${sandbox.url}/files/`)).toBe(true);
      expect(file.url).toMatch(/[?&]expires=\d+&signature=[0-9a-f]{64}$/);
    }
  });

  it("seeds Ana's draft after every other contract, so no other contract id moves", () => {
    const data = createSeed(TODAY);
    const ids = [...data.contracts.keys()];
    expect(ids.at(-1)).toBe(SANDBOX_FIXTURES.anaDraftContractId);
    expect(ids).toEqual(ids.map((_, i) => `ctr_${String(i + 1).padStart(3, "0")}`));
    expect(data.hires.get("hire_001")?.contractIds).toEqual([
      "ctr_001",
      "ctr_002",
      SANDBOX_FIXTURES.anaDraftContractId,
    ]);
    expect(data.counters.contract).toBe(ids.length);
  });

  it("serves the contract document as its own signed pdfUrl, beside the attachments", async () => {
    const r = await gql<{ contract: { pdfUrl: string; files: Array<{ name: string }> } }>(
      sandbox,
      '{ contract(id: "ctr_002") { pdfUrl files { name } } }',
    );
    const contract = r.data?.contract;
    expect(contract?.pdfUrl.startsWith(`${sandbox.url}/files/contracts/ctr_002.pdf?`)).toBe(true);
    expect(contract?.pdfUrl).toMatch(/[?&]expires=\d+&signature=[0-9a-f]{64}$/);
    expect(contract?.files.map((f) => f.name)).not.toContain("ctr_002.pdf");
  });

  it("tells a draft hire's first contract apart from a pending change", async () => {
    const r = await gql<Record<string, Record<string, unknown>>>(
      sandbox,
      `{ draft: hire(id: "${SANDBOX_FIXTURES.draftHireId}") { ...c }
         harbor: hire(id: "${SANDBOX_FIXTURES.harborHireId}") { ...c }
         ended: hire(id: "${SANDBOX_FIXTURES.endedHireId}") { ...c } }
       fragment c on Hire { pendingContractChanges hasDraftContract
         activeContract { id } draftContract { id status } latestContract { id status } }`,
    );
    expect(r.data?.draft).toEqual({
      pendingContractChanges: false,
      hasDraftContract: true,
      activeContract: null,
      draftContract: { id: "ctr_004", status: "DRAFT" },
      latestContract: { id: "ctr_004", status: "DRAFT" },
    });
    expect(r.data?.harbor).toMatchObject({
      pendingContractChanges: false,
      hasDraftContract: false,
      activeContract: { id: "ctr_003" },
      draftContract: null,
    });
    expect(r.data?.ended).toMatchObject({
      pendingContractChanges: false,
      hasDraftContract: false,
      activeContract: null,
      draftContract: null,
      latestContract: { status: "ARCHIVED" },
    });
  });

  it("has the other fixtures: Harbor hire, draft hire, ended hire", async () => {
    const r = await gql<Record<string, { activeStatus: string; company: { id: string } }>>(
      sandbox,
      `{ harbor: hire(id: "${SANDBOX_FIXTURES.harborHireId}") { activeStatus company { id } }
         draft: hire(id: "${SANDBOX_FIXTURES.draftHireId}") { activeStatus company { id } }
         ended: hire(id: "${SANDBOX_FIXTURES.endedHireId}") { activeStatus company { id } } }`,
    );
    expect(r.data).toEqual({
      harbor: { activeStatus: "ACTIVE", company: { id: "cmp_harbor" } },
      draft: { activeStatus: "DRAFT", company: { id: "cmp_nordlys" } },
      ended: { activeStatus: "ENDED", company: { id: "cmp_nordlys" } },
    });
  });

  it("gives every hire a contract, with revisions, files, job names and terms", async () => {
    const hires = await page<{
      id: string;
      contracts: { data: Array<{ id: string; status: string }> };
      latestContract: { id: string };
    }>(
      "hires",
      "first: 100",
      "id latestContract { id } contracts(first: 100) { data { id status } }",
    );
    for (const h of hires.data) {
      expect(h.contracts.data.length).toBeGreaterThanOrEqual(1);
      expect(h.latestContract.id).toBe(h.contracts.data.at(-1)?.id);
    }
    const revised = hires.data.filter(
      (h) =>
        h.contracts.data.length > 1 &&
        h.contracts.data[0]?.status === "ARCHIVED" &&
        h.contracts.data.at(-1)?.status === "ACTIVE",
    );
    expect(revised.length).toBeGreaterThanOrEqual(3);

    const contracts = await page<{
      jobName: string;
      paymentTermMethod: string;
      paymentTerm: number;
      rateType: string;
      locationPreference: string | null;
      files: Array<{ id: string }>;
    }>(
      "contracts",
      "first: 100",
      "jobName paymentTermMethod paymentTerm rateType locationPreference files { id }",
    );
    expect(contracts.paginatorInfo.total).toBeGreaterThanOrEqual(hires.paginatorInfo.total);
    expect(contracts.data.every((c) => c.jobName.length > 0)).toBe(true);
    expect(new Set(contracts.data.map((c) => c.paymentTermMethod))).toEqual(
      new Set(["NET", "END_OF_MONTH"]),
    );
    expect(new Set(contracts.data.map((c) => c.locationPreference))).toEqual(
      new Set(["REMOTE_ONLY", "ONSITE_SOME", "ONSITE_ONLY", null]),
    );
    expect(new Set(contracts.data.map((c) => c.rateType)).size).toBeGreaterThanOrEqual(2);
    expect(contracts.data.filter((c) => c.files.length > 0).length).toBeGreaterThan(20);
  });

  it("dates are relative to today: hires start next month and end this month", async () => {
    const starting = await page<HireRow>(
      "hires",
      'first: 100, startDateRange: { from: "2026-12-01", to: "2026-12-31" }',
      "id activeStatus",
    );
    expect(starting.paginatorInfo.total).toBeGreaterThanOrEqual(3);
    const ending = await page<HireRow>(
      "hires",
      'first: 100, activeStatus: [ACTIVE], endDateRange: { from: "2026-11-22", to: "2026-11-30" }',
      "id",
    );
    expect(ending.paginatorInfo.total).toBeGreaterThanOrEqual(3);
    const shifted = createSeed("2027-03-10");
    expect(shifted.hires.get("hire_001")?.startDate).toBe("2026-11-10");
  });

  it("is deterministic", () => {
    expect(createSeed(TODAY)).toEqual(createSeed(TODAY));
  });

  it("has at least 60 consistent invoices in three currencies and all four statuses", async () => {
    interface Inv {
      number: string;
      currency: string;
      netAmount: number;
      taxAmount: number;
      grossAmount: number;
      grossOpenAmount: number;
      markedPaidAt: string | null;
      dueDate: string;
      date: string;
      isOverDue: boolean;
      isFullyCredited: boolean;
      transactionType: string;
      payerDisplayName: string;
      payeeDisplayName: string;
      company: { name: string };
      pdfUrl: string;
    }
    const fields =
      "number currency netAmount taxAmount grossAmount grossOpenAmount markedPaidAt dueDate date isOverDue isFullyCredited transactionType payerDisplayName payeeDisplayName company { name } pdfUrl";
    const all = await page<Inv>("invoices", "first: 100", fields);
    expect(all.paginatorInfo.total).toBeGreaterThanOrEqual(60);
    expect(new Set(all.data.map((i) => i.currency))).toEqual(new Set(["DKK", "USD", "EUR"]));
    for (const i of all.data) {
      expect(i.netAmount + i.taxAmount).toBeCloseTo(i.grossAmount, 2);
      expect(i.payerDisplayName).toBe(i.company.name);
      expect(["Workforce Platform ApS", "Brightpath Staffing"]).toContain(i.payeeDisplayName);
      expect(i.number).toMatch(/^(INV|CN)-\d{4}-\d{4}$/);
      expect(i.pdfUrl.startsWith(sandbox.url)).toBe(true);
    }
    expect(all.data.some((i) => i.payeeDisplayName === "Brightpath Staffing")).toBe(true);
    expect(all.data.some((i) => i.transactionType === "CREDIT_NOTE" && i.grossAmount < 0)).toBe(
      true,
    );

    const byStatus = async (status: string) =>
      (await page<Inv>("invoices", `first: 100, status: [${status}]`, fields)).data;
    const overdue = await byStatus("OVERDUE");
    expect(overdue.length).toBeGreaterThan(0);
    for (const i of overdue) {
      expect(i.dueDate < TODAY && i.grossOpenAmount > 0 && i.isOverDue).toBe(true);
    }
    const paid = await byStatus("PAID");
    expect(paid.length).toBeGreaterThan(0);
    for (const i of paid) expect(i.grossOpenAmount === 0 && i.markedPaidAt !== null).toBe(true);
    const credited = await byStatus("CREDITED");
    expect(credited.length).toBeGreaterThan(0);
    for (const i of credited) expect(i.isFullyCredited && i.grossOpenAmount === 0).toBe(true);
    const unpaid = await byStatus("UNPAID");
    expect(unpaid.length).toBeGreaterThan(0);
    for (const i of unpaid) expect(i.dueDate >= TODAY && !i.isOverDue).toBe(true);
  });
});

describe("authorization", () => {
  it("rejects another company's hire for the limited identity with null data", async () => {
    const r = await gql(sandbox, 'query { hire(id: "hire_002") { id } }', { token: "limited" });
    expect(r.body).toEqual({
      errors: [
        {
          message: "You are not authorized to perform this action.",
          locations: [{ line: 1, column: 9 }],
          path: ["hire"],
          extensions: { code: "DOWNSTREAM_SERVICE_ERROR", serviceName: "platform" },
        },
      ],
      data: { hire: null },
    });
  });

  it("answers null without an error for ids that do not exist", async () => {
    const r = await gql(
      sandbox,
      '{ hire(id: "hire_999") { id } contract(id: "ctr_999") { id } invoice(number: "INV-1999-0001") { id } }',
    );
    expect(r.body).toEqual({ data: { hire: null, contract: null, invoice: null } });
  });

  it("rejects another company's contract and invoice for the limited identity", async () => {
    const harbor = await page<{ number: string }>(
      "invoices",
      'first: 1, accounts: ["cmp_harbor"]',
      "number",
    );
    const number = harbor.data[0]?.number as string;
    const full = await gql<{ invoice: { number: string } }>(
      sandbox,
      `{ invoice(number: "${number}") { number } }`,
    );
    expect(full.data?.invoice.number).toBe(number);
    const r = await gql(
      sandbox,
      `{ contract(id: "ctr_003") { id } invoice(number: "${number}") { id } }`,
      { token: "limited" },
    );
    expect(r.data).toEqual({ contract: null, invoice: null });
    expect(r.errors?.map((e) => [e.path, e.message])).toEqual([
      [["contract"], "You are not authorized to perform this action."],
      [["invoice"], "You are not authorized to perform this action."],
    ]);
  });

  it("omits other companies' records from collections for the limited identity", async () => {
    const hires = await page<HireRow>("hires", "first: 100", "id company { id }", "limited");
    const nordlys = await page<HireRow>("hires", 'first: 100, accounts: ["cmp_nordlys"]', "id");
    expect(hires.data.every((h) => h.company.id === "cmp_nordlys")).toBe(true);
    expect(hires.paginatorInfo.total).toBe(nordlys.paginatorInfo.total);
    const invoices = await page<{ company: { id: string } }>(
      "invoices",
      "first: 100",
      "company { id }",
      "limited",
    );
    expect(invoices.data.every((i) => i.company.id === "cmp_nordlys")).toBe(true);
    const contracts = await page<{ company: { id: string } }>(
      "contracts",
      'first: 100, accounts: ["cmp_harbor"]',
      "company { id }",
      "limited",
    );
    expect(contracts.paginatorInfo.total).toBe(0);
    const accounts = await gql<{ accounts: Array<{ id: string }> }>(
      sandbox,
      "{ accounts { id } }",
      {
        token: "limited",
      },
    );
    expect(accounts.data?.accounts).toEqual([{ id: "cmp_nordlys" }]);
  });

  it("nulls restricted rates for the limited identity and keeps the rest", async () => {
    const r = await gql<{
      hires: Page<{ id: string; rate: number | null; worker: { name: string } }>;
    }>(sandbox, "{ hires(first: 2) { data { id rate worker { name } } } }", { token: "limited" });
    expect(r.data?.hires.data).toEqual([
      { id: "hire_001", rate: null, worker: { name: "Ana Costa" } },
      { id: "hire_003", rate: null, worker: expect.objectContaining({ name: expect.any(String) }) },
    ]);
    expect(r.errors).toEqual([
      expect.objectContaining({
        message: "You are not authorized to access this field.",
        path: ["hires", "data", 0, "rate"],
        extensions: { code: "DOWNSTREAM_SERVICE_ERROR", serviceName: "platform" },
      }),
      expect.objectContaining({ path: ["hires", "data", 1, "rate"] }),
    ]);
    const c = await gql<{ contract: { id: string; rate: number | null } }>(
      sandbox,
      '{ contract(id: "ctr_002") { id rate } }',
      { token: "limited" },
    );
    expect(c.data).toEqual({ contract: { id: "ctr_002", rate: null } });
    expect(onlyError(c).path).toEqual(["contract", "rate"]);
  });

  it("tells the limited identity it may not terminate or cancel", async () => {
    const r = await gql<
      Record<string, { canTerminateContract: boolean; canCancelContract: boolean }>
    >(
      sandbox,
      '{ a: hire(id: "hire_001") { canTerminateContract canCancelContract } d: hire(id: "hire_003") { canTerminateContract canCancelContract } }',
      { token: "limited" },
    );
    expect(r.data).toEqual({
      a: { canTerminateContract: false, canCancelContract: false },
      d: { canTerminateContract: false, canCancelContract: false },
    });
    const full = await gql<
      Record<string, { canTerminateContract: boolean; canCancelContract: boolean }>
    >(
      sandbox,
      '{ a: hire(id: "hire_001") { canTerminateContract canCancelContract } d: hire(id: "hire_003") { canTerminateContract canCancelContract } }',
    );
    expect(full.data).toEqual({
      a: { canTerminateContract: true, canCancelContract: false },
      d: { canTerminateContract: false, canCancelContract: true },
    });
  });
});

describe("pagination", () => {
  it("defaults to 10 per page, page 1, with complete paginatorInfo", async () => {
    const p = await page<{ id: string }>("hires", "page: 1", "id");
    const total = p.paginatorInfo.total;
    expect(p.paginatorInfo).toEqual({
      count: 10,
      currentPage: 1,
      firstItem: 1,
      hasMorePages: true,
      lastItem: 10,
      lastPage: Math.ceil(total / 10),
      perPage: 10,
      total,
    });
    expect(ids(p)[0]).toBe("hire_001");
  });

  it("walks all pages without gaps or overlaps", async () => {
    const seen: string[] = [];
    let n = 1;
    let info: Page<unknown>["paginatorInfo"];
    do {
      const p = await page<{ id: string }>("hires", `first: 25, page: ${n}`, "id");
      info = p.paginatorInfo;
      expect(info.firstItem).toBe((n - 1) * 25 + 1);
      expect(info.lastItem).toBe((n - 1) * 25 + p.data.length);
      seen.push(...ids(p));
      n += 1;
    } while (info.hasMorePages);
    expect(info.currentPage).toBe(info.lastPage);
    expect(seen).toHaveLength(info.total);
    expect(new Set(seen).size).toBe(info.total);
  });

  it("answers an empty page past the end and lastPage 1 for no results", async () => {
    const past = await page<{ id: string }>("hires", "first: 50, page: 9", "id");
    expect(past.data).toEqual([]);
    expect(past.paginatorInfo).toMatchObject({
      count: 0,
      currentPage: 9,
      firstItem: null,
      lastItem: null,
      hasMorePages: false,
      lastPage: 2,
    });
    const none = await page<{ id: string }>("hires", 'search: "no-such-hire-anywhere"', "id");
    expect(none.paginatorInfo).toMatchObject({ total: 0, lastPage: 1, count: 0, firstItem: null });
  });

  it.each([
    ["hires", "first: 0", "first"],
    ["hires", "first: 101", "first"],
    ["contracts", "first: 500", "first"],
    ["invoices", "page: 0", "page"],
  ])("rejects %s(%s) with a validation error on %s", async (field, args, key) => {
    const r = await gql(sandbox, `{ ${field}(${args}) { paginatorInfo { total } } }`);
    const e = onlyError(r);
    expect(e.message).toBe(`Validation failed for the field [${field}].`);
    expect(e.path).toEqual([field]);
    expect(e.extensions).toMatchObject({
      code: "DOWNSTREAM_SERVICE_ERROR",
      serviceName: "platform",
    });
    expect(Object.keys(e.extensions.validation ?? {})).toEqual([key]);
    expect(r.data).toBeNull();
  });

  it("accepts first: 100", async () => {
    const p = await page<{ id: string }>("invoices", "first: 100", "id");
    expect(p.paginatorInfo.perPage).toBe(100);
  });

  it("paginates Worker.hires and Hire.contracts", async () => {
    const r = await gql<{
      hire: {
        contracts: Page<{ id: string }>;
        worker: { hires: Page<{ id: string }> };
      };
    }>(
      sandbox,
      `{ hire(id: "hire_001") { contracts(first: 1, page: 2) { ${PAGE_INFO} data { id } }
         worker { hires(first: 1) { ${PAGE_INFO} data { id } } } } }`,
    );
    expect(ids(r.data?.hire.contracts as Page<{ id: string }>)).toEqual(["ctr_002"]);
    expect(r.data?.hire.contracts.paginatorInfo).toMatchObject({ total: 3, lastPage: 3 });
    expect(ids(r.data?.hire.worker.hires as Page<{ id: string }>)).toEqual(["hire_001"]);
    const bad = await gql(
      sandbox,
      '{ hire(id: "hire_001") { contracts(first: 0) { data { id } } } }',
    );
    expect(onlyError(bad).path).toEqual(["hire", "contracts"]);
  });

  it("finds workers with more than one hire through Worker.hires", async () => {
    const hires = await page<HireRow>("hires", "first: 100", "id worker { id }");
    const counts = new Map<string, number>();
    for (const h of hires.data) counts.set(h.worker.id, (counts.get(h.worker.id) ?? 0) + 1);
    const [workerId, n] = [...counts].find(([, c]) => c > 1) ?? [];
    expect(n).toBeGreaterThan(1);
    const hire = hires.data.find((h) => h.worker.id === workerId) as HireRow;
    const r = await gql<{ hire: { worker: { hires: Page<{ id: string }> } } }>(
      sandbox,
      `{ hire(id: "${hire.id}") { worker { hires { ${PAGE_INFO} data { id } } } } }`,
    );
    expect(r.data?.hire.worker.hires.paginatorInfo.total).toBe(n);
  });
});

describe("hires filters and ordering", () => {
  let all: HireRow[];
  beforeAll(async () => {
    all = (await page<HireRow>("hires", "first: 100", HIRE_FIELDS)).data;
  });
  const expectIds = async (args: string, predicate: (h: HireRow) => boolean) => {
    const p = await page<{ id: string }>("hires", `first: 100, ${args}`, "id");
    const expected = all.filter(predicate).map((h) => h.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(p)).toEqual(expected);
  };

  it("filters by activeStatus and status alike, values being alternatives", async () => {
    const pred = (h: HireRow) => h.activeStatus === "DRAFT" || h.activeStatus === "READY";
    await expectIds("activeStatus: [DRAFT, READY]", pred);
    await expectIds("status: [DRAFT, READY]", pred);
  });

  it("filters by accounts, companies and workers", async () => {
    await expectIds(
      'accounts: ["cmp_harbor", "cmp_castell"]',
      (h) => h.company.id !== "cmp_nordlys",
    );
    await expectIds('companies: ["cmp_castell"]', (h) => h.company.id === "cmp_castell");
    await expectIds('workers: ["wrk_001"]', (h) => h.worker.id === "wrk_001");
  });

  it("combines different filters with AND", async () => {
    await expectIds(
      'accounts: ["cmp_nordlys"], activeStatus: [ACTIVE]',
      (h) => h.company.id === "cmp_nordlys" && h.activeStatus === "ACTIVE",
    );
  });

  it.each([
    ["worker name", "ANA COSTA", (h: HireRow) => h.worker.name === "Ana Costa"],
    ["worker email", "ana.costa@example", (h: HireRow) => h.worker.name === "Ana Costa"],
    ["company name", "harbor &", (h: HireRow) => h.company.id === "cmp_harbor"],
    ["job name", "turbine", (h: HireRow) => h.latestContract.jobName.includes("Turbine")],
    ["hire number", "H-10002", (h: HireRow) => h.id === "hire_002"],
    ["external identifier", "sap-emp-1001", (h: HireRow) => h.id === "hire_001"],
  ])("searches by %s, case-insensitively", async (_label, term, pred) => {
    await expectIds(`search: ${JSON.stringify(term)}`, pred);
  });

  it("filters by start and end date ranges, inclusive, with open ends", async () => {
    await expectIds(
      'startDateRange: { from: "2026-07-25", to: "2026-07-25" }',
      (h) => h.startDate === "2026-07-25",
    );
    await expectIds(
      'startDateRange: { from: "2026-12-01" }',
      (h) => (h.startDate ?? "") >= "2026-12-01",
    );
    await expectIds(
      'endDateRange: { to: "2026-11-22" }',
      (h) => h.endDate !== null && h.endDate <= "2026-11-22",
    );
  });

  it.each([
    ['startDateRange: { from: "2026-02-30" }', "startDateRange.from"],
    ['endDateRange: { to: "next week" }', "endDateRange.to"],
  ])("rejects %s with a validation error on %s", async (args, key) => {
    const e = onlyError(await gql(sandbox, `{ hires(${args}) { paginatorInfo { total } } }`));
    expect(Object.keys(e.extensions.validation ?? {})).toEqual([key]);
  });

  it("filters by externalIdentifiers and by the latest contract's status", async () => {
    await expectIds('externalIdentifiers: ["SAP-EMP-1001"]', (h) => h.id === "hire_001");
    await expectIds("contractStatus: [DRAFT]", (h) => h.latestContract.status === "DRAFT");
  });

  it("orders by HIRE_ID ascending by default", () => {
    expect(all.map((h) => h.id)).toEqual([...all.map((h) => h.id)].sort());
  });

  it.each([
    ["WORKER_NAME", "ASC", (h: HireRow) => h.worker.name],
    ["COMPANY_NAME", "DESC", (h: HireRow) => h.company.name],
    ["JOB_NAME", "ASC", (h: HireRow) => h.latestContract.jobName],
    ["CREATED_AT", "DESC", (h: HireRow) => h.createdAt],
    ["HIRE_ID", "DESC", (h: HireRow) => h.id],
  ])("orders by %s %s", async (column, order, key) => {
    const p = await page<HireRow>(
      "hires",
      `first: 100, orderBy: [{ field: ${column}, order: ${order} }]`,
      HIRE_FIELDS,
    );
    const keys = p.data.map(key);
    const sorted = [...keys].sort(byLocale);
    expect(keys).toEqual(order === "ASC" ? sorted : sorted.reverse());
  });

  it("orders by START_DATE and END_DATE with nulls first ascending", async () => {
    const start = await page<HireRow>(
      "hires",
      "first: 100, orderBy: [{ field: START_DATE, order: ASC }]",
      "id startDate",
    );
    const starts = start.data.map((h) => h.startDate ?? "");
    expect(starts).toEqual([...starts].sort());
    expect(start.data[0]?.startDate).toBeNull();
    const end = await page<HireRow>(
      "hires",
      "first: 100, orderBy: [{ field: END_DATE, order: DESC }]",
      "id endDate",
    );
    const ends = end.data.map((h) => h.endDate ?? "");
    expect(ends).toEqual([...ends].sort().reverse());
  });

  it("accepts ENGAGEMENT_TYPE and LAST_PAYMENT_REQUEST_DATE", async () => {
    for (const column of ["ENGAGEMENT_TYPE", "LAST_PAYMENT_REQUEST_DATE"]) {
      const p = await page<HireRow>(
        "hires",
        `first: 100, orderBy: [{ field: ${column}, order: DESC }]`,
        "id recruiter { id }",
      );
      expect(p.data).toHaveLength(all.length);
      if (column === "ENGAGEMENT_TYPE") {
        // Direct hires first when descending ("DIRECT" > "AGENCY").
        expect(p.data[0]?.recruiter).toBeNull();
        expect(p.data.at(-1)?.recruiter).not.toBeNull();
      }
    }
  });

  it("breaks ties with later clauses, then by id", async () => {
    const p = await page<HireRow>(
      "hires",
      "first: 100, orderBy: [{ field: COMPANY_NAME, order: ASC }, { field: START_DATE, order: DESC }]",
      HIRE_FIELDS,
    );
    const expected = [...all].sort(
      (a, b) =>
        byLocale(a.company.name, b.company.name) ||
        byLocale(b.startDate ?? "", a.startDate ?? "") ||
        byLocale(a.id, b.id),
    );
    expect(ids(p)).toEqual(expected.map((h) => h.id));
  });
});

describe("contracts filters", () => {
  interface ContractRow {
    id: string;
    currency: string;
    status: string;
    locationPreference: string | null;
    company: { id: string };
  }
  const FIELDS = "id currency status locationPreference company { id }";
  let all: ContractRow[];
  beforeAll(async () => {
    all = (await page<ContractRow>("contracts", "first: 100", FIELDS)).data;
  });
  it.each([
    ['accounts: ["cmp_castell"]', (c: ContractRow) => c.company.id === "cmp_castell"],
    ["currencies: [USD, EUR]", (c: ContractRow) => c.currency === "USD" || c.currency === "EUR"],
    ["statuses: [ARCHIVED]", (c: ContractRow) => c.status === "ARCHIVED"],
    [
      "locationPreferences: [ONSITE_ONLY]",
      (c: ContractRow) => c.locationPreference === "ONSITE_ONLY",
    ],
    [
      "currencies: [DKK], statuses: [ACTIVE]",
      (c: ContractRow) => c.currency === "DKK" && c.status === "ACTIVE",
    ],
  ])("filters by %s", async (args, pred) => {
    const p = await page<ContractRow>("contracts", `first: 100, ${args}`, FIELDS);
    const expected = all.filter(pred).map((c) => c.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(p)).toEqual(expected);
  });
});

describe("invoices filters and ordering", () => {
  interface InvRow {
    id: string;
    number: string;
    date: string;
    dueDate: string;
    grossAmount: number;
    netAmount: number;
    currency: string;
    transactionType: string;
    externalIdentifier: string | null;
    payeeDisplayName: string;
    company: { id: string; name: string };
    rows: Page<{ id: string; customText: string | null; worker: { id: string; name: string } }>;
  }
  const FIELDS = `id number date dueDate grossAmount netAmount currency transactionType externalIdentifier
    payeeDisplayName company { id name }
    rows(first: 100) { ${PAGE_INFO} data { id customText worker { id name } } }`;
  const rowText = (i: InvRow) => i.rows.data.map((r) => r.customText ?? "").join("\n");
  const workerNames = (i: InvRow) => i.rows.data.map((r) => r.worker.name);
  let all: InvRow[];
  beforeAll(async () => {
    all = (await page<InvRow>("invoices", "first: 100", FIELDS)).data;
  });

  // The platform states no default order; the sandbox's stored order is oldest first, so a
  // client that relies on an unstated newest-first default shows it.
  it("keeps its stored order, oldest first, when no order is given", () => {
    const dates = all.map((i) => i.date);
    expect(dates).toEqual([...dates].sort());
  });

  it.each([
    ['accounts: ["cmp_harbor"]', (i: InvRow) => i.company.id === "cmp_harbor"],
    ["currency: [EUR]", (i: InvRow) => i.currency === "EUR"],
    [
      "transactionTypes: [CREDIT_NOTE, BATCH_INVOICE]",
      (i: InvRow) => i.transactionType !== "INVOICE",
    ],
    ['search: "inv-2026-0001"', (i: InvRow) => i.number.startsWith("INV-2026-0001")],
    ['search: "ANA COSTA"', (i: InvRow) => workerNames(i).includes("Ana Costa")],
  ])("filters by %s", async (args, pred) => {
    const p = await page<InvRow>("invoices", `first: 100, ${args}`, FIELDS);
    const expected = all.filter(pred).map((i) => i.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(p)).toEqual(expected);
  });

  it("searches by PO number and by amount, as the schema describes search", async () => {
    const po = all
      .map(rowText)
      .join("\n")
      .match(/\(PO (PO-[A-Z]+-\d+)\)/)?.[1] as string;
    expect(po).toBeDefined();
    const byPo = await page<InvRow>(
      "invoices",
      `first: 100, search: "${po.toLowerCase()}"`,
      FIELDS,
    );
    const withPo = all.filter((i) => rowText(i).includes(`(PO ${po})`)).map((i) => i.id);
    expect(withPo.length).toBeGreaterThan(0);
    expect(ids(byPo)).toEqual(withPo);

    // A credited invoice and its credit note share the amount (the note's is negative).
    const credited = all.find((i) => i.transactionType === "CREDIT_NOTE") as InvRow;
    const amount = Math.abs(credited.netAmount);
    const same = (i: InvRow) =>
      Math.abs(i.netAmount) === amount || Math.abs(i.grossAmount) === amount;
    const expected = all.filter(same).map((i) => i.id);
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const formatted = amount.toLocaleString("en-US", { minimumFractionDigits: 2 });
    for (const term of [String(amount), formatted, `${credited.currency} ${formatted}`]) {
      const p = await page<InvRow>("invoices", `first: 100, search: "${term}"`, FIELDS);
      expect(ids(p), term).toEqual(expected);
    }
  });

  it("does not search payer or payee names: the schema's search has no such key", async () => {
    const p = await page<InvRow>("invoices", 'first: 100, search: "brightpath"', "id");
    expect(p.paginatorInfo.total).toBe(0);
  });

  it("gives every invoice rows that bill its net amount, linked to the hire's worker", () => {
    for (const i of all) {
      expect(i.rows.data.length).toBeGreaterThanOrEqual(1);
      expect(i.rows.paginatorInfo.total).toBe(i.rows.data.length);
      const billed = i.rows.data.map((r) =>
        Number((r.customText ?? "").match(/= [A-Z]{3} ([\d,.]+)/)?.[1]?.replace(/,/g, "")),
      );
      const sum = Math.round(billed.reduce((a, b) => a + b, 0) * 100) / 100;
      expect(sum, i.number).toBe(Math.abs(i.netAmount));
      for (const r of i.rows.data) expect(r.id).toMatch(/^row_\d{4}$/);
    }
    expect(all.some((i) => i.rows.data.length > 1)).toBe(true);
    const ana = all.filter((i) => workerNames(i).includes("Ana Costa"));
    expect(ana.length).toBeGreaterThan(0);
    for (const i of ana) expect(i.rows.data.every((r) => r.worker.id === "wrk_001")).toBe(true);
  });

  it("pages an invoice's rows", async () => {
    const multi = all.find((i) => i.rows.data.length > 1) as InvRow;
    const r = await gql<{ invoice: { rows: Page<{ id: string }> } }>(
      sandbox,
      `{ invoice(number: "${multi.number}") { rows(first: 1, page: 2) { ${PAGE_INFO} data { id } } } }`,
    );
    expect(r.data?.invoice.rows.data.map((x) => x.id)).toEqual([multi.rows.data[1]?.id]);
    expect(r.data?.invoice.rows.paginatorInfo).toMatchObject({ total: 2, currentPage: 2 });
  });

  it("filters by externalIdentifiers", async () => {
    const withId = all.filter((i) => i.externalIdentifier !== null);
    const chosen = withId.slice(0, 2).map((i) => i.externalIdentifier as string);
    const p = await page<InvRow>(
      "invoices",
      `externalIdentifiers: ${JSON.stringify(chosen)}`,
      FIELDS,
    );
    expect(p.data.map((i) => i.externalIdentifier).sort()).toEqual([...chosen].sort());
  });

  it.each([
    ["DUE_DATE", "ASC", (i: InvRow) => i.dueDate],
    ["NUMBER", "DESC", (i: InvRow) => i.number],
  ])("orders by %s %s", async (column, order, key) => {
    const p = await page<InvRow>(
      "invoices",
      `first: 100, orderBy: [{ column: ${column}, order: ${order} }]`,
      FIELDS,
    );
    const keys = p.data.map(key);
    const sorted = [...keys].sort(byLocale);
    expect(keys).toEqual(order === "ASC" ? sorted : sorted.reverse());
  });

  it("orders by TOTAL_AMOUNT (the net total, as the schema says) and DATE ascending", async () => {
    const p = await page<InvRow>(
      "invoices",
      "first: 100, orderBy: [{ column: TOTAL_AMOUNT, order: DESC }]",
      FIELDS,
    );
    const amounts = p.data.map((i) => i.netAmount);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    // Tax rates differ by currency, so the gross order is a different one.
    const gross = p.data.map((i) => i.grossAmount);
    expect(gross).not.toEqual([...gross].sort((a, b) => b - a));
    const d = await page<InvRow>(
      "invoices",
      "first: 100, orderBy: [{ column: DATE, order: ASC }]",
      FIELDS,
    );
    const dates = d.data.map((i) => i.date);
    expect(dates).toEqual([...dates].sort());
  });

  it("finds an invoice by its printed number", async () => {
    const target = all[5] as InvRow;
    const r = await gql<{ invoice: { id: string } }>(
      sandbox,
      `{ invoice(number: "${target.number}") { id } }`,
    );
    expect(r.data?.invoice.id).toBe(target.id);
  });
});
