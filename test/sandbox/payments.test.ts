// The payments domain: payment requests, their timesheets and daily registrations, over real HTTP.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { gql, onlyError, TODAY } from "./helpers.js";

// TODAY (2026-11-22) is a Sunday: last week is 2026-11-09 to 2026-11-15.
const LAST_WEEK = { from: "2026-11-09", to: "2026-11-15" };
const THIS_MONTH = { from: "2026-11-01", to: "2026-11-30" };

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

interface Registration {
  date: string;
  duration: number;
  unit: string;
  isBillable: boolean | null;
  externalIdentifier: string | null;
}
interface Request {
  id: string;
  number: string;
  status: string;
  workerStatus: string;
  workerPayoutStatus: string;
  startDate: string;
  endDate: string;
  date: string;
  issuedAt: string;
  currency: string;
  rate: number | null;
  rateType: string;
  rateQuantity: number;
  netAmount: number;
  grossAmount: number;
  billedAmount: number;
  manuallyApprovedAt: string | null;
  autoApprovedAt: string | null;
  rejectedAt: string | null;
  paidAt: string | null;
  hire: { id: string };
  worker: { name: string };
  company: { id: string };
  timesheet: { id: string; registrations: { data: Registration[] } } | null;
}
interface Page<T> {
  paginatorInfo: { total: number; count: number; hasMorePages: boolean; lastPage: number };
  data: T[];
}

const FIELDS = `id number status workerStatus workerPayoutStatus startDate endDate date issuedAt
  currency rate rateType rateQuantity netAmount(accountType: COMPANY)
  grossAmount(accountType: COMPANY) billedAmount manuallyApprovedAt autoApprovedAt rejectedAt
  paidAt hire { id } worker { name } company { id }
  timesheet { id registrations(first: 100) { data { date duration unit isBillable externalIdentifier } } }`;
const PAGE = "paginatorInfo { total count hasMorePages lastPage }";

async function requests(args: string, token: "full" | "limited" = "full") {
  const r = await gql<{ paymentRequests: Page<Request> }>(
    sandbox,
    `{ paymentRequests(${args}) { ${PAGE} data { ${FIELDS} } } }`,
    { token },
  );
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data?.paymentRequests as Page<Request>;
}

/** Every payment request the full token sees (a few pages of 100). */
async function everything(): Promise<Request[]> {
  const all: Request[] = [];
  for (let page = 1; ; page++) {
    const p = await requests(`first: 100, page: ${page}`);
    all.push(...p.data);
    if (!p.paginatorInfo.hasMorePages) return all;
  }
}

const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 100) / 100;

describe("paymentRequests", () => {
  it("has months of requests for hires that worked, in all four approval statuses", async () => {
    const all = await everything();
    expect(all.length).toBeGreaterThan(200);
    expect(new Set(all.map((r) => r.status))).toEqual(
      new Set(["UNAPPROVED", "APPROVED", "REJECTED", "CANCELLED"]),
    );
    expect(new Set(all.map((r) => r.company.id))).toEqual(
      new Set(["cmp_nordlys", "cmp_harbor", "cmp_castell"]),
    );
    for (const r of all) {
      expect(r.date <= TODAY, r.id).toBe(true);
      expect(r.endDate < r.date, `${r.id} is submitted after its period`).toBe(true);
      expect(r.issuedAt).toBe(r.date);
      if (r.status === "UNAPPROVED") {
        expect(r.manuallyApprovedAt ?? r.autoApprovedAt ?? r.paidAt).toBeNull();
        expect(r.workerStatus).toBe("REQUESTED");
      }
      if (r.status === "APPROVED") {
        expect(r.manuallyApprovedAt ?? r.autoApprovedAt, r.id).not.toBeNull();
      }
      if (r.status === "REJECTED") expect(r.rejectedAt).not.toBeNull();
      if (r.paidAt) expect(r.workerPayoutStatus).toBe("PAID");
    }
    // Some approved ones are paid, some approved automatically.
    expect(all.some((r) => r.paidAt !== null)).toBe(true);
    expect(all.some((r) => r.status === "APPROVED" && r.autoApprovedAt !== null)).toBe(true);
  });

  it("charges hours × the contract's rate in its currency; hourly ones carry daily hours", async () => {
    const all = await everything();
    const hourly = all.filter((r) => r.rateType === "HOURLY");
    expect(hourly.length).toBeGreaterThan(100);
    for (const r of hourly) {
      expect(r.timesheet, r.id).not.toBeNull();
      const days = r.timesheet?.registrations.data ?? [];
      expect(sum(days.map((d) => d.duration))).toBe(r.rateQuantity);
      for (const d of days) {
        expect(d.unit).toBe("HOURS");
        expect(d.date >= r.startDate && d.date <= r.endDate, `${r.id} ${d.date}`).toBe(true);
      }
    }
    for (const r of all) {
      expect(r.netAmount).toBe(Math.round((r.rate as number) * r.rateQuantity * 100) / 100);
      expect(r.billedAmount).toBe(r.netAmount);
      expect(r.grossAmount).toBeGreaterThanOrEqual(r.netAmount);
    }
    expect(all.filter((r) => r.rateType !== "HOURLY").every((r) => r.timesheet === null)).toBe(
      true,
    );
  });

  it("has Ana's hours for last week (one weekly request at DKK 725) and for this month", async () => {
    const ana = await requests(
      `hires: ["hire_001"], timesheetPeriod: { from: "${LAST_WEEK.from}", to: "${LAST_WEEK.to}" }`,
    );
    expect(ana.data).toHaveLength(1);
    const week = ana.data[0] as Request;
    expect(week).toMatchObject({
      startDate: LAST_WEEK.from,
      endDate: LAST_WEEK.to,
      currency: "DKK",
      rate: 725,
      rateType: "HOURLY",
      worker: { name: "Ana Costa" },
    });
    expect(week.rateQuantity).toBeGreaterThan(0);
    const month = await requests(
      `hires: ["hire_001"], requestedDateRange: { from: "${THIS_MONTH.from}", to: "${THIS_MONTH.to}" }`,
    );
    expect(month.data.length).toBeGreaterThanOrEqual(2);
  });

  it("filters by hire, company, status, currency, timesheet and dates, newest first", async () => {
    const harbor = await requests(`accounts: ["cmp_harbor"], first: 100`);
    expect(harbor.data.length).toBeGreaterThan(0);
    expect(harbor.data.every((r) => r.company.id === "cmp_harbor" && r.currency === "USD")).toBe(
      true,
    );
    const dates = harbor.data.map((r) => r.date);
    expect(dates).toEqual([...dates].sort().reverse());

    const pending = await requests("statuses: [UNAPPROVED], first: 100");
    expect(pending.data.length).toBeGreaterThan(3);
    expect(pending.data.every((r) => r.status === "UNAPPROVED")).toBe(true);

    const eur = await requests("currencies: [EUR], hasTimesheet: false, first: 100");
    expect(eur.data.every((r) => r.currency === "EUR" && r.timesheet === null)).toBe(true);

    // Billing periods overlapping last week: starting by its end and ending from its start.
    const overlap = await requests(
      `billingStartDateRange: { to: "${LAST_WEEK.to}" }, billingEndDateRange: { from: "${LAST_WEEK.from}" }, first: 100`,
    );
    expect(overlap.data.length).toBeGreaterThan(5);
    for (const r of overlap.data) {
      expect(r.startDate <= LAST_WEEK.to && r.endDate >= LAST_WEEK.from, r.id).toBe(true);
    }
    const requested = await requests(`requestedDateRange: { from: "2026-11-16" }, first: 100`);
    expect(requested.data.every((r) => r.date >= "2026-11-16")).toBe(true);

    const byAmount = await requests("orderBy: [{ field: TOTAL_AMOUNT, order: DESC }], first: 50");
    const amounts = byAmount.data.map((r) => r.netAmount);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    const priority = await requests("orderBy: [{ field: PRIORITY, order: DESC }], first: 100");
    const firstOther = priority.data.findIndex((r) => r.status !== "UNAPPROVED");
    expect(firstOther).toBe(pending.paginatorInfo.total);
  });

  it("rejects a date range that is not a date, naming the argument", async () => {
    const r = await gql(
      sandbox,
      `{ paymentRequests(timesheetPeriod: { from: "2026-02-30" }) { data { id } } }`,
    );
    const e = onlyError(r);
    expect(e.message).toBe("Validation failed for the field [paymentRequests].");
    expect(Object.keys(e.extensions.validation ?? {})).toEqual(["timesheetPeriod.from"]);
  });

  it("Hire.paymentRequests and paymentRequest(id) agree with the list", async () => {
    const r = await gql<{
      hire: { paymentRequests: Page<{ id: string; status: string }> };
    }>(
      sandbox,
      `{ hire(id: "hire_001") { paymentRequests(statuses: [APPROVED], first: 100) { ${PAGE} data { id status } } } }`,
    );
    const viaHire = r.data?.hire.paymentRequests.data ?? [];
    const viaRoot = await requests(`hires: ["hire_001"], statuses: [APPROVED], first: 100`);
    expect(viaHire.map((x) => x.id)).toEqual(viaRoot.data.map((x) => x.id));
    expect(viaHire.length).toBeGreaterThan(3);
    const one = await gql<{ paymentRequest: { id: string; hire: { id: string } } }>(
      sandbox,
      `{ paymentRequest(id: "${viaHire[0]?.id}") { id hire { id } } }`,
    );
    expect(one.data?.paymentRequest).toEqual({ id: viaHire[0]?.id, hire: { id: "hire_001" } });
    const none = await gql(sandbox, `{ paymentRequest(id: "pr_999999") { id } }`);
    expect(none.data).toEqual({ paymentRequest: null });
  });
});

describe("paymentRequests with the limited token", () => {
  it("sees Nordlys only, with the rate hidden and the amounts shown", async () => {
    const r = await gql<{ paymentRequests: Page<Request> }>(
      sandbox,
      `{ paymentRequests(first: 100) { ${PAGE} data { id company { id } rate netAmount(accountType: COMPANY) } } }`,
      { token: "limited" },
    );
    const page = r.data?.paymentRequests as Page<Request>;
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((x) => x.company.id === "cmp_nordlys")).toBe(true);
    expect(page.data.every((x) => x.rate === null && x.netAmount > 0)).toBe(true);
    expect(r.errors?.length).toBe(page.data.length);
    expect(r.errors?.[0]?.message).toBe("You are not authorized to access this field.");
    expect(r.errors?.[0]?.path).toEqual(["paymentRequests", "data", 0, "rate"]);

    const harbor = await requests(`accounts: ["cmp_harbor"], hires: ["hire_002"]`, "limited");
    expect(harbor.paginatorInfo.total).toBe(0);
  });

  it("refuses another company's payment request by id", async () => {
    const harbor = await requests(`hires: ["hire_002"], first: 1`);
    const id = harbor.data[0]?.id;
    const r = await gql(sandbox, `{ paymentRequest(id: "${id}") { id } }`, { token: "limited" });
    expect(onlyError(r).message).toBe("You are not authorized to perform this action.");
  });
});

describe("hires(missingPaymentRequestDateRange)", () => {
  type Hire = { id: string; activeStatus: string; paymentRequests: { data: { date: string }[] } };
  const hires = async (args: string) => {
    const r = await gql<{ hires: Page<Hire> }>(
      sandbox,
      `{ hires(${args}, first: 100) { ${PAGE} data { id activeStatus paymentRequests(first: 100) { data { date } } } } }`,
    );
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    return r.data?.hires.data ?? [];
  };
  const missing = `missingPaymentRequestDateRange: { from: "${THIS_MONTH.from}", to: "${THIS_MONTH.to}" }`;
  const inMonth = (h: Hire) =>
    h.paymentRequests.data.some((p) => p.date >= THIS_MONTH.from && p.date <= THIS_MONTH.to);

  it("returns the active hires with no request this month, and only those", async () => {
    const active = await hires("activeStatus: [ACTIVE]");
    const quiet = await hires(`activeStatus: [ACTIVE], ${missing}`);
    expect(quiet.length).toBeGreaterThanOrEqual(3);
    expect(quiet.length).toBeLessThan(active.length);
    expect(quiet.map((h) => h.id)).not.toContain("hire_001");
    expect(quiet.every((h) => !inMonth(h))).toBe(true);
    const quietIds = new Set(quiet.map((h) => h.id));
    expect(active.filter((h) => !quietIds.has(h.id)).every(inMonth)).toBe(true);
    // Some stopped submitting earlier; none of them lost their history.
    expect(quiet.some((h) => h.paymentRequests.data.length > 0)).toBe(true);
  });

  it("includes hires that never submitted one", async () => {
    const quiet = await hires(missing);
    const draft = quiet.find((h) => h.id === "hire_003");
    expect(draft).toMatchObject({ activeStatus: "DRAFT", paymentRequests: { data: [] } });
  });

  it("rejects a date that is not one", async () => {
    const r = await gql(
      sandbox,
      `{ hires(missingPaymentRequestDateRange: { to: "2026-13-01" }) { data { id } } }`,
    );
    expect(Object.keys(onlyError(r).extensions.validation ?? {})).toEqual([
      "missingPaymentRequestDateRange.to",
    ]);
  });

  it("orders by LAST_PAYMENT_REQUEST_DATE: the newest request's date, hires without one last", async () => {
    const r = await gql<{ hires: Page<Hire> }>(
      sandbox,
      `{ hires(orderBy: [{ field: LAST_PAYMENT_REQUEST_DATE, order: DESC }], first: 100) { data { id activeStatus paymentRequests(first: 1) { data { date } } } } }`,
    );
    const keys = (r.data?.hires.data ?? []).map((h) => h.paymentRequests.data[0]?.date ?? "");
    expect(keys).toEqual([...keys].sort().reverse());
    expect(keys[0]).not.toBe("");
    expect(keys.at(-1)).toBe("");
  });
});

describe("registrations submitted through createCustomTimesheet", () => {
  const SUBMIT = `mutation Submit($input: CreateCustomTimesheetInput!) {
    createCustomTimesheet(input: $input) { successfulRegistrations } }`;
  const submit = (rows: unknown[]) =>
    gql<{ createCustomTimesheet: { successfulRegistrations: number } }>(sandbox, SUBMIT, {
      variables: { input: { schema: "default-json", data: JSON.stringify(rows) } },
    });
  const submittedToday = `hires: ["hire_001"], requestedDateRange: { from: "${TODAY}" }`;

  it("become a payment request, approved automatically, with their registrations", async () => {
    const before = await requests(submittedToday);
    expect(before.data).toEqual([]);
    const r = await submit([
      { hireId: "hire_001", reportedDate: "2026-11-16", hours: 8, externalId: "api-1" },
      { hireId: "hire_001", reportedDate: "2026-11-17", hours: 6.5, externalId: "api-2" },
      {
        hireId: "hire_001",
        reportedDate: "2026-11-18",
        hours: 2,
        externalId: "api-3",
        isPayable: false,
        reference: "Internal training",
      },
    ]);
    expect(r.data?.createCustomTimesheet.successfulRegistrations).toBe(3);
    const after = await requests(submittedToday);
    expect(after.data).toHaveLength(1);
    const request = after.data[0] as Request;
    expect(request).toMatchObject({
      status: "APPROVED",
      autoApprovedAt: TODAY,
      manuallyApprovedAt: null,
      startDate: "2026-11-16",
      endDate: "2026-11-22",
      currency: "DKK",
      rate: 725,
      rateQuantity: 14.5,
      netAmount: 14.5 * 725,
    });
    expect(request.timesheet?.registrations.data).toEqual([
      {
        date: "2026-11-16",
        duration: 8,
        unit: "HOURS",
        isBillable: true,
        externalIdentifier: "api-1",
      },
      {
        date: "2026-11-17",
        duration: 6.5,
        unit: "HOURS",
        isBillable: true,
        externalIdentifier: "api-2",
      },
      {
        date: "2026-11-18",
        duration: 2,
        unit: "HOURS",
        isBillable: false,
        externalIdentifier: "api-3",
      },
    ]);

    // Sending a row again (same externalId) changes that request; it adds none.
    await submit([
      { hireId: "hire_001", reportedDate: "2026-11-17", hours: 7.5, externalId: "api-2" },
    ]);
    const again = await requests(submittedToday);
    expect(again.data.map((x) => x.id)).toEqual([request.id]);
    expect(again.data[0]?.rateQuantity).toBe(15.5);

    // The hire now has a request submitted today: not missing this month, newest first.
    const quiet = await gql<{ hires: Page<{ id: string }> }>(
      sandbox,
      `{ hires(missingPaymentRequestDateRange: { from: "${TODAY}", to: "${TODAY}" }, first: 100) { data { id } } }`,
    );
    expect(quiet.data?.hires.data.map((h) => h.id)).not.toContain("hire_001");
  });

  it("for a day a request already holds: a second request, approved automatically (the platform does not refuse it)", async () => {
    const week = await requests(
      `hires: ["hire_001"], statuses: [APPROVED, UNAPPROVED], billingStartDateRange: { to: "${LAST_WEEK.to}" }, billingEndDateRange: { from: "${LAST_WEEK.from}" }`,
    );
    expect(week.data).toHaveLength(1);
    const seeded = week.data[0] as Request;
    const logged = seeded.timesheet?.registrations.data[0] as Registration;
    expect(logged.externalIdentifier).toBeNull();
    const r = await submit([
      { hireId: "hire_001", reportedDate: logged.date, hours: 8, externalId: "api-twice" },
    ]);
    expect(r.data?.createCustomTimesheet.successfulRegistrations).toBe(1);
    const after = await requests(
      `hires: ["hire_001"], statuses: [APPROVED, UNAPPROVED], billingStartDateRange: { to: "${logged.date}" }, billingEndDateRange: { from: "${logged.date}" }`,
    );
    const holding = after.data.filter((x) =>
      x.timesheet?.registrations.data.some((d) => d.date === logged.date),
    );
    expect(holding.map((x) => x.id)).toEqual(expect.arrayContaining([seeded.id]));
    expect(holding).toHaveLength(2);
    const second = holding.find((x) => x.id !== seeded.id) as Request;
    expect(second).toMatchObject({ status: "APPROVED", autoApprovedAt: TODAY });
    expect(second.timesheet?.registrations.data[0]?.externalIdentifier).toBe("api-twice");
  });

  it("only for the hires the account may see", async () => {
    await submit([
      { hireId: "hire_002", reportedDate: "2026-11-16", hours: 8, externalId: "api-h" },
    ]);
    const limited = await gql<{ paymentRequests: Page<{ hire: { id: string } }> }>(
      sandbox,
      `{ paymentRequests(requestedDateRange: { from: "${TODAY}" }, first: 100) { data { hire { id } } } }`,
      { token: "limited" },
    );
    const seen = limited.data?.paymentRequests.data.map((r) => r.hire.id) ?? [];
    expect(seen).not.toContain("hire_002");
    const full = await requests(`hires: ["hire_002"], requestedDateRange: { from: "${TODAY}" }`);
    expect(full.data).toHaveLength(1);
  });
});
