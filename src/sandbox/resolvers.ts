// The executable schema: the agreed SDL plus resolvers over the seeded data, with the platform's
// visibility rules (company scoping, restricted fields) applied per identity.
import { buildSchema, type GraphQLSchema, isObjectType } from "graphql";
import * as z from "zod";
import type { AnyRecord, RequestContext, ResolverMap } from "./context.js";
import { withArgs } from "./context.js";
import { isRealDate } from "./dates.js";
import {
  checkHireCustomFieldValues,
  recordNewHireDetails,
} from "./domains/hire-details/custom-field-input.js";
import { hireDetailsOf } from "./domains/hire-details/seed.js";
import { SANDBOX_DOMAINS } from "./domains/index.js";
import { paymentRequestDates } from "./domains/payments/store.js";
import { type TrustedContactRecord, talentOf } from "./domains/talent/seed.js";
import { authorizationError, restrictedFieldError, ValidationCollector } from "./errors.js";
import {
  type Comparable,
  columnOf,
  companyOf,
  dateRange,
  inRange,
  lastPaymentRequestDate,
  latestContract,
  listFilter,
  newestWithStatus,
  orderOf,
  PRE_START,
  paginate,
  searchText,
  signedUrl,
  sortBy,
  termsContract,
  visibleHire,
  workerName,
  workerOf,
} from "./kit.js";
import { referenced } from "./records.js";
import type {
  CancelHireInput,
  CreateCustomTimesheetInput,
  HireContractsArgs,
  HireInput,
  InvoiceRowsArgs,
  MutationCancelHireArgs,
  MutationCreateCustomTimesheetArgs,
  MutationCreateDraftHireArgs,
  MutationTerminateHireArgs,
  QueryContractArgs,
  QueryContractsArgs,
  QueryHireArgs,
  QueryHiresArgs,
  QueryInvoiceArgs,
  QueryInvoicesArgs,
  TerminateHireInput,
  WorkerHiresArgs,
} from "./resolver-types.generated.js";
import { sandboxTypeDefs } from "./schema.js";
import type { ContractRecord, HireRecord, InvoiceRecord, TimesheetRecord } from "./seed/index.js";
import { PLATFORM_ENTITY_NAME } from "./seed/index.js";

// ---------- queries ----------

function filterHires(
  ctx: RequestContext,
  args: QueryHiresArgs,
  field: string,
  base?: HireRecord[],
) {
  const v = new ValidationCollector();
  const startRange = dateRange(args.startDateRange, "startDateRange", v);
  const endRange = dateRange(args.endDateRange, "endDateRange", v);
  const missing = dateRange(
    args.missingPaymentRequestDateRange,
    "missingPaymentRequestDateRange",
    v,
  );
  v.throwIfAny(field);
  const activeStatus = listFilter(args.activeStatus);
  const status = listFilter(args.status);
  const accounts = listFilter(args.accounts);
  const companies = listFilter(args.companies);
  const workers = listFilter(args.workers);
  const externalIds = listFilter(args.externalIdentifiers);
  const contractStatus = listFilter(args.contractStatus);
  const owners = listFilter(args.owners);
  const ownersOf = (h: HireRecord) => hireDetailsOf(ctx.data).owners.get(h.id) ?? [];
  const search = searchText(args.search);
  const hires = (base ?? [...ctx.data.hires.values()]).filter((h) => {
    if (!visibleHire(ctx, h)) return false;
    if (activeStatus && !activeStatus.has(h.status)) return false;
    if (status && !status.has(h.status)) return false;
    if (accounts && !accounts.has(h.companyId)) return false;
    if (companies && !companies.has(h.companyId)) return false;
    if (workers && !workers.has(h.workerId)) return false;
    if (externalIds && !externalIds.has(h.externalIdentifier)) return false;
    if (contractStatus && !contractStatus.has(latestContract(ctx, h).status)) return false;
    if (owners && !ownersOf(h).some((id) => owners.has(id))) return false;
    if (startRange && !inRange(h.startDate, startRange)) return false;
    if (endRange && !inRange(h.endDate, endRange)) return false;
    if (missing && paymentRequestDates(ctx.data, h.id).some((d) => inRange(d, missing))) {
      return false;
    }
    if (search) {
      const w = workerOf(ctx, h);
      const haystack = [
        workerName(w),
        w.email ?? "",
        companyOf(ctx, h.companyId).name,
        latestContract(ctx, h).jobName,
        h.number,
        h.externalIdentifier ?? "",
      ]
        .join("\n")
        .toLowerCase();
      if (!haystack.includes(search)) return false;
    }
    return true;
  });
  return hires;
}

const HIRE_COLUMNS: Record<string, (ctx: RequestContext, h: HireRecord) => Comparable> = {
  START_DATE: (_c, h) => h.startDate,
  END_DATE: (_c, h) => h.endDate,
  COMPANY_NAME: (c, h) => companyOf(c, h.companyId).name,
  WORKER_NAME: (c, h) => workerName(workerOf(c, h)),
  JOB_NAME: (c, h) => latestContract(c, h).jobName,
  HIRE_ID: (_c, h) => h.id,
  CREATED_AT: (_c, h) => h.createdAt,
  // Stand-in: agency hires vs direct hires.
  ENGAGEMENT_TYPE: (_c, h) => (h.recruiterId ? "AGENCY" : "DIRECT"),
  LAST_PAYMENT_REQUEST_DATE: (c, h) => lastPaymentRequestDate(c, h),
};

function hiresQuery(ctx: RequestContext, args: QueryHiresArgs, field: string) {
  const hires = filterHires(ctx, args, field);
  const clauses = orderOf(args.orderBy, (c) => c.field).map(({ by, desc }) => {
    const column = columnOf(HIRE_COLUMNS, by);
    return { key: (h: HireRecord) => column(ctx, h), desc };
  });
  return paginate(sortBy(hires, clauses), args, field);
}

function contractsQuery(
  ctx: RequestContext,
  args: QueryContractsArgs,
  field: string,
  base?: ContractRecord[],
) {
  const accounts = listFilter(args.accounts);
  const currencies = listFilter(args.currencies);
  const statuses = listFilter(args.statuses);
  const locations = listFilter(args.locationPreferences);
  const contracts = (base ?? [...ctx.data.contracts.values()]).filter((c) => {
    const hire = referenced(ctx.data.hires, c.hireId);
    if (!visibleHire(ctx, hire)) return false;
    if (accounts && !accounts.has(hire.companyId)) return false;
    if (currencies && !currencies.has(c.currency)) return false;
    if (statuses && !statuses.has(c.status)) return false;
    if (locations && !locations.has(c.locationPreference)) return false;
    return true;
  });
  return paginate(sortBy(contracts, []), args, field);
}

const INVOICE_COLUMNS: Record<string, (i: InvoiceRecord) => Comparable> = {
  DATE: (i) => i.date,
  DUE_DATE: (i) => i.dueDate,
  NUMBER: (i) => i.number,
  // The schema: "The net total."
  TOTAL_AMOUNT: (i) => i.netAmount,
};

/** "1,234.50", "DKK 1234.5", "-1234.50" → 1234.5; anything else → null. */
function searchedAmount(search: string): number | null {
  const text = search.replace(/^[a-z]{3}\s*/i, "").replace(/[\s,]/g, "");
  if (!/^-?\d+(\.\d{1,2})?$/.test(text)) return null;
  return Math.abs(Number(text));
}

// The schema: "Filter invoices by PO number, invoice number, worker name, or amount." Text matches
// part of the number, the PO number or the worker's name; an amount matches the net or gross total
// exactly (credit notes by their size).
function invoiceMatches(ctx: RequestContext, i: InvoiceRecord, search: string): boolean {
  const hire = i.hireId ? ctx.data.hires.get(i.hireId) : undefined;
  const workers = new Set(i.rows.map((r) => r.workerId).filter((id) => id !== null));
  if (hire) workers.add(hire.workerId);
  const names = [...workers].map((id) => workerName(referenced(ctx.data.workers, id)));
  const haystack = [i.number, i.purchaseOrderNumber ?? "", ...names].join("\n").toLowerCase();
  if (haystack.includes(search)) return true;
  const amount = searchedAmount(search);
  return (
    amount !== null && (Math.abs(i.netAmount) === amount || Math.abs(i.grossAmount) === amount)
  );
}

function invoicesQuery(ctx: RequestContext, args: QueryInvoicesArgs, field: string) {
  const accounts = listFilter(args.accounts);
  const status = listFilter(args.status);
  const currency = listFilter(args.currency);
  const types = listFilter(args.transactionTypes);
  const externalIds = listFilter(args.externalIdentifiers);
  const search = searchText(args.search);
  const invoices = ctx.data.invoices.filter((i) => {
    if (!ctx.identity.companyIds.has(i.companyId)) return false;
    if (accounts && !accounts.has(i.companyId)) return false;
    if (status && !status.has(i.status)) return false;
    if (currency && !currency.has(i.currency)) return false;
    if (types && !types.has(i.transactionType)) return false;
    if (externalIds && !externalIds.has(i.externalIdentifier)) return false;
    if (search && !invoiceMatches(ctx, i, search)) return false;
    return true;
  });
  // The platform states no default order, so the sandbox keeps its stored one (oldest first):
  // a client that needs an order has to ask for it, as it must of the platform.
  const clauses = orderOf(args.orderBy, (c) => c.column).map(({ by, desc }) => ({
    key: columnOf(INVOICE_COLUMNS, by),
    desc,
  }));
  return paginate(sortBy(invoices, clauses), args, field);
}

// ---------- mutations ----------

function requireHire(ctx: RequestContext, id: string, v: ValidationCollector): HireRecord | null {
  const hire = ctx.data.hires.get(id);
  if (!hire) {
    v.add("input.hire", "The selected input.hire is invalid.");
    return null;
  }
  if (!visibleHire(ctx, hire)) throw authorizationError();
  return hire;
}

function terminateHire(ctx: RequestContext, input: TerminateHireInput, field: string) {
  const v = new ValidationCollector();
  const hire = requireHire(ctx, input.hire, v);
  if (hire && !ctx.identity.managesHires) throw authorizationError();
  const { date } = input;
  if (!isRealDate(date)) {
    v.add("input.date", "The input.date is not a valid date (YYYY-MM-DD).");
  } else if (hire?.startDate && date < hire.startDate) {
    v.add("input.date", "The input.date must be a date on or after the hire's start date.");
  }
  if (hire && hire.status !== "ACTIVE") {
    v.add("input.hire", `Only active hires can be terminated; this hire is ${hire.status}.`);
  }
  const h = v.passed(field, hire);
  h.status = "TERMINATED";
  h.terminationDate = date;
  ctx.events.hire("HIRE_TERMINATED", h.id);
  return h;
}

function cancelHire(ctx: RequestContext, input: CancelHireInput, field: string) {
  const v = new ValidationCollector();
  const hire = requireHire(ctx, input.hire, v);
  if (hire && !ctx.identity.managesHires) throw authorizationError();
  if (input.message.trim() === "") {
    v.add("input.message", "The input.message field is required.");
  }
  if (hire && !PRE_START.has(hire.status)) {
    v.add(
      "input.hire",
      `Only draft, offered or ready hires can be cancelled; this hire is ${hire.status}.`,
    );
  }
  const h = v.passed(field, hire);
  h.status = "CANCELLED";
  ctx.events.hire("HIRE_CANCELLED", h.id);
  return h;
}

// A draft hire gets a DRAFT contract and a placeholder worker until someone is offered the job.
function createDraftHire(ctx: RequestContext, input: HireInput, field: string) {
  const v = new ValidationCollector();
  const company = ctx.data.companies.find((c) => c.id === input.company);
  if (!company) v.add("input.company", "The selected input.company is invalid.");
  else if (!ctx.identity.companyIds.has(company.id) || !ctx.identity.managesHires) {
    throw authorizationError();
  }
  if (typeof input.name !== "string" || input.name.trim() === "") {
    v.add("input.name", "The input.name field is required.");
  }
  // As the platform: a draft hire needs a valid start date (PLATFORM-INTERFACE.md §4.3).
  if (input.startDate === undefined || input.startDate === null) {
    v.add("input.startDate", "The input.startDate field is required.");
  }
  for (const key of ["startDate", "endDate"] as const) {
    const value = input[key];
    if (value !== undefined && value !== null && !isRealDate(value)) {
      v.add(`input.${key}`, `The input.${key} is not a valid date (YYYY-MM-DD).`);
    }
  }
  const start = isRealDate(input.startDate) ? input.startDate : null;
  const end = isRealDate(input.endDate) ? input.endDate : null;
  if (start && end && end < start) {
    v.add("input.endDate", "The input.endDate must be a date after input.startDate.");
  }
  if (typeof input.rate === "number" && input.rate < 0) {
    v.add("input.rate", "The input.rate must be at least 0.");
  }
  const contact = company ? draftHireContact(ctx, company.id, input.trustedContact, v) : null;
  const values = company
    ? checkHireCustomFieldValues(ctx.data, company.id, input.customFieldValues, v)
    : [];
  const c = v.passed(field, company);
  const data = ctx.data;
  let worker = contact ? referenced(data.workers, contact.workerId) : null;
  if (!worker) {
    data.counters.worker += 1;
    worker = {
      __typename: "Worker",
      id: `wrk_${String(data.counters.worker).padStart(3, "0")}`,
      firstName: "Unassigned",
      lastName: "Worker",
      email: null,
      phone: null,
      jobTitle: null,
      avatar: null,
    };
    data.workers.set(worker.id, worker);
  }
  data.counters.hire += 1;
  data.counters.contract += 1;
  const hireId = `hire_${String(data.counters.hire).padStart(3, "0")}`;
  const contract: ContractRecord = {
    id: `ctr_${String(data.counters.contract).padStart(3, "0")}`,
    hireId,
    jobName: (input.name ?? "").trim(),
    jobDescription: typeof input.description === "string" ? input.description : "",
    locationPreference: null,
    status: "DRAFT",
    startDate: start,
    endDate: end,
    currency: c.currency,
    rateType: typeof input.rateType === "string" ? input.rateType : "HOURLY",
    rate: typeof input.rate === "number" ? input.rate : 0,
    purchaseOrderNumber:
      typeof input.purchaseOrderNumber === "string" ? input.purchaseOrderNumber : null,
    paymentTermMethod: "NET",
    paymentTerm: 30,
    files: [],
  };
  data.contracts.set(contract.id, contract);
  const hire: HireRecord = {
    id: hireId,
    number: `H-${10_000 + data.counters.hire}`,
    status: "DRAFT",
    workerId: worker.id,
    companyId: c.id,
    recruiterId: null,
    createdAt: data.today,
    startDate: start,
    endDate: end,
    terminationDate: null,
    externalIdentifier:
      typeof input.externalIdentifier === "string" ? input.externalIdentifier : null,
    contractIds: [contract.id],
  };
  data.hires.set(hire.id, hire);
  recordNewHireDetails(
    data,
    { hireId, contractId: contract.id, userId: ctx.identity.user.id },
    values,
  );
  return hire;
}

// A direct hire needs the worker in the hiring company's Talent Pool; a blocked or declined
// contact cannot be hired.
function draftHireContact(
  ctx: RequestContext,
  companyId: string,
  id: string | null | undefined,
  v: ValidationCollector,
): TrustedContactRecord | null {
  if (id === undefined || id === null) return null;
  const contact = talentOf(ctx.data).contacts.get(id);
  if (!contact || contact.companyId !== companyId) {
    v.add("input.trustedContact", "The selected input.trustedContact is invalid.");
    return null;
  }
  if (contact.status === "BLOCKED" || contact.status === "DECLINED") {
    v.add("input.trustedContact", `This trusted contact is ${contact.status} and cannot be hired.`);
    return null;
  }
  return contact;
}

type Rejection = { externalId: string | null; reason: string; message: string };

/** A required field of a registration reads as null when it is missing or invalid. */
const requiredField = <T extends z.ZodType>(schema: T) => schema.nullable().catch(null);

/**
 * One registration of a custom timesheet's JSON payload. Anything but an object reads as an
 * empty one; the optional fields are left out when they are not of their type.
 */
const registrationRow = z.preprocess(
  (raw) => (raw !== null && typeof raw === "object" && !Array.isArray(raw) ? raw : {}),
  z.object({
    hireId: requiredField(z.string().min(1)),
    reportedDate: requiredField(z.string().refine(isRealDate)),
    hours: requiredField(z.number().nonnegative()),
    externalId: requiredField(z.string().min(1)),
    isPayable: z.boolean().catch(true),
    reference: z.string().optional().catch(undefined),
    meta: z.record(z.string(), z.unknown()).optional().catch(undefined),
  }),
);
const REQUIRED_REGISTRATION_FIELDS = ["hireId", "reportedDate", "hours", "externalId"] as const;

function createCustomTimesheet(
  ctx: RequestContext,
  input: CreateCustomTimesheetInput,
  field: string,
) {
  const v = new ValidationCollector();
  if (input.schema !== "default-json") {
    v.add("input.schema", 'The input.schema must be "default-json".');
  }
  let rows: unknown[] = [];
  try {
    const parsed: unknown = JSON.parse(input.data);
    if (Array.isArray(parsed)) rows = parsed;
    else if (parsed !== null && typeof parsed === "object") rows = [parsed];
    else v.add("input.data", "The input.data must be a registration object or an array of them.");
  } catch {
    v.add("input.data", "The input.data must be valid JSON text.");
  }
  if (v.empty && rows.length === 0) {
    v.add("input.data", "The input.data must contain at least one registration.");
  }
  if (rows.length > ctx.maxRegistrationsPerCall) {
    v.add(
      "input.data",
      `The input.data may contain at most ${ctx.maxRegistrationsPerCall} registrations.`,
    );
  }
  v.throwIfAny(field);

  const rejected: Rejection[] = [];
  let successful = 0;
  for (const raw of rows) {
    const row = registrationRow.parse(raw);
    const { hireId, reportedDate: date, hours, externalId } = row;
    if (hireId === null || date === null || hours === null || externalId === null) {
      const missing = REQUIRED_REGISTRATION_FIELDS.filter((name) => row[name] === null);
      rejected.push({
        externalId,
        reason: "MISSING_REQUIRED_FIELD",
        message: `Missing or invalid required field(s): ${missing.join(", ")}.`,
      });
      continue;
    }
    const hire = ctx.data.hires.get(hireId);
    if (!hire || !visibleHire(ctx, hire)) {
      rejected.push({
        externalId,
        reason: "HIRE_NOT_FOUND",
        message: `Hire ${hireId} was not found.`,
      });
      continue;
    }
    // The terms in force count: the active contract, or the latest of a hire that has none.
    const terms = termsContract(ctx, hire);
    const covered =
      (terms.startDate === null || terms.startDate <= date) &&
      (terms.endDate === null || date <= terms.endDate);
    if (!covered) {
      rejected.push({
        externalId,
        reason: "DATE_OUTSIDE_CONTRACT_PERIOD",
        message: `${date} is outside the contract period of hire ${hire.id}.`,
      });
      continue;
    }
    const record: TimesheetRecord = {
      hireId: hire.id,
      reportedDate: date,
      hours,
      externalId,
      isPayable: row.isPayable,
    };
    if (row.reference !== undefined) record.reference = row.reference;
    if (row.meta !== undefined) record.meta = row.meta;
    ctx.data.timesheets.set(record.externalId, record);
    successful += 1;
  }
  return {
    providedRegistrations: rows.length,
    successfulRegistrations: successful,
    rejectedRegistrations: rejected,
  };
}

// ---------- resolver map ----------

const coreResolvers: ResolverMap = {
  Query: {
    viewer: (_p, _a, ctx) => ctx.identity.user,
    accounts: (_p, _a, ctx) => [
      ...ctx.data.companies.filter((c) => ctx.identity.companyIds.has(c.id)),
      ...(ctx.identity.otherAccounts ? [...ctx.data.organisations, ...ctx.data.recruiters] : []),
    ],
    hire: withArgs<QueryHireArgs>((_p, { id }, ctx) => {
      const hire = ctx.data.hires.get(id);
      if (!hire) return null;
      if (!visibleHire(ctx, hire)) throw authorizationError();
      return hire;
    }),
    hires: withArgs<QueryHiresArgs>((_p, args, ctx, info) => hiresQuery(ctx, args, info.fieldName)),
    contract: withArgs<QueryContractArgs>((_p, { id }, ctx) => {
      const contract = ctx.data.contracts.get(id);
      if (!contract) return null;
      if (!visibleHire(ctx, referenced(ctx.data.hires, contract.hireId))) {
        throw authorizationError();
      }
      return contract;
    }),
    contracts: withArgs<QueryContractsArgs>((_p, args, ctx, info) =>
      contractsQuery(ctx, args, info.fieldName),
    ),
    invoices: withArgs<QueryInvoicesArgs>((_p, args, ctx, info) =>
      invoicesQuery(ctx, args, info.fieldName),
    ),
    invoice: withArgs<QueryInvoiceArgs>((_p, { number }, ctx) => {
      const invoice = ctx.data.invoices.find((i) => i.number === number);
      if (!invoice) return null;
      if (!ctx.identity.companyIds.has(invoice.companyId)) throw authorizationError();
      return invoice;
    }),
  },
  Mutation: {
    createCustomTimesheet: withArgs<MutationCreateCustomTimesheetArgs>((_p, { input }, ctx, info) =>
      createCustomTimesheet(ctx, input, info.fieldName),
    ),
    terminateHire: withArgs<MutationTerminateHireArgs>((_p, { input }, ctx, info) =>
      terminateHire(ctx, input, info.fieldName),
    ),
    createDraftHire: withArgs<MutationCreateDraftHireArgs>((_p, { input }, ctx, info) =>
      createDraftHire(ctx, input, info.fieldName),
    ),
    cancelHire: withArgs<MutationCancelHireArgs>((_p, { input }, ctx, info) =>
      cancelHire(ctx, input, info.fieldName),
    ),
  },
  Worker: {
    name: (w: AnyRecord) => workerName(w),
    hires: withArgs<WorkerHiresArgs>((w: AnyRecord, args, ctx, info) => {
      const own = [...ctx.data.hires.values()].filter((h) => h.workerId === w.id);
      const status = args.status ? [args.status] : null;
      const hires = filterHires(ctx, { companies: args.companies, status }, info.fieldName, own);
      return paginate(sortBy(hires, []), args, info.fieldName);
    }),
  },
  Hire: {
    status: (h: AnyRecord) => h.status,
    activeStatus: (h: AnyRecord) => h.status,
    worker: (h: AnyRecord, _a, ctx) => workerOf(ctx, h),
    company: (h: AnyRecord, _a, ctx) => companyOf(ctx, h.companyId),
    recruiter: (h: AnyRecord, _a, ctx) =>
      h.recruiterId ? ctx.data.recruiters.find((r) => r.id === h.recruiterId) : null,
    // The hire's terms are the active contract's; before one is accepted, the latest one's.
    currency: (h: AnyRecord, _a, ctx) => termsContract(ctx, h).currency,
    rate: (h: AnyRecord, _a, ctx) => {
      if (!ctx.identity.seesRates) throw restrictedFieldError();
      return termsContract(ctx, h).rate;
    },
    rateType: (h: AnyRecord, _a, ctx) => termsContract(ctx, h).rateType,
    canTerminateContract: (h: AnyRecord, _a, ctx) =>
      ctx.identity.managesHires && h.status === "ACTIVE",
    canCancelContract: (h: AnyRecord, _a, ctx) =>
      ctx.identity.managesHires && PRE_START.has(h.status),
    latestContract: (h: AnyRecord, _a, ctx) => latestContract(ctx, h),
    activeContract: (h: AnyRecord, _a, ctx) => newestWithStatus(ctx, h, "ACTIVE"),
    draftContract: (h: AnyRecord, _a, ctx) => newestWithStatus(ctx, h, "DRAFT"),
    // A change to an accepted agreement: a draft while an active contract is in force. A hire
    // whose first contract is still a draft has a draft contract, but no pending change.
    pendingContractChanges: (h: AnyRecord, _a, ctx) =>
      newestWithStatus(ctx, h, "DRAFT") !== null && newestWithStatus(ctx, h, "ACTIVE") !== null,
    hasDraftContract: (h: AnyRecord, _a, ctx) => newestWithStatus(ctx, h, "DRAFT") !== null,
    contracts: withArgs<HireContractsArgs>((h: HireRecord, args, ctx, info) => {
      const own = h.contractIds.map((id) => referenced(ctx.data.contracts, id));
      return contractsQuery(
        ctx,
        { statuses: args.statuses, first: args.first, page: args.page },
        info.fieldName,
        own,
      );
    }),
  },
  Contract: {
    rate: (c: AnyRecord, _a, ctx) => {
      if (!ctx.identity.seesRates) throw restrictedFieldError();
      return c.rate;
    },
    worker: (c: AnyRecord, _a, ctx) => workerOf(ctx, referenced(ctx.data.hires, c.hireId)),
    company: (c: AnyRecord, _a, ctx) =>
      companyOf(ctx, referenced(ctx.data.hires, c.hireId).companyId),
    companyName: (c: AnyRecord, _a, ctx) =>
      companyOf(ctx, referenced(ctx.data.hires, c.hireId).companyId).name,
    pdfUrl: (c: AnyRecord, _a, ctx) => signedUrl(ctx, `/files/contracts/${c.id}.pdf`),
    files: (c: ContractRecord, _a, ctx) =>
      c.files.map((f) => ({
        ...f,
        url: signedUrl(ctx, `/files/${f.id}/${encodeURIComponent(f.name)}`),
      })),
  },
  Invoice: {
    pdfUrl: (i: AnyRecord, _a, ctx) => signedUrl(ctx, `/files/invoices/${i.number}.pdf`),
    company: (i: AnyRecord, _a, ctx) => companyOf(ctx, i.companyId),
    payerDisplayName: (i: AnyRecord, _a, ctx) => companyOf(ctx, i.companyId).name,
    payeeDisplayName: (i: AnyRecord) => i.payeeDisplayName ?? PLATFORM_ENTITY_NAME,
    isOverDue: (i: AnyRecord) => i.status === "OVERDUE",
    rows: withArgs<InvoiceRowsArgs>((i: InvoiceRecord, args, _ctx, info) =>
      paginate(i.rows, args, info.fieldName),
    ),
  },
  InvoiceRow: {
    worker: (r: AnyRecord, _a, ctx) => (r.workerId ? ctx.data.workers.get(r.workerId) : null),
  },
};

/**
 * Builds the sandbox schema with its resolvers attached (once per process is enough). Its SDL is
 * ours and checked whole by the tests (test/client/operations.test.ts builds and validates it),
 * so the first request does not pay for graphql-js to check it again.
 */
export function createSandboxSchema(): GraphQLSchema {
  const schema = buildSchema(sandboxTypeDefs, { assumeValid: true, assumeValidSDL: true });
  for (const resolvers of [coreResolvers, ...SANDBOX_DOMAINS.map((d) => d.resolvers)]) {
    for (const [typeName, fields] of Object.entries(resolvers)) {
      const type = schema.getType(typeName);
      if (!isObjectType(type)) throw new Error(`Sandbox resolvers for unknown type ${typeName}`);
      const typeFields = type.getFields();
      for (const [fieldName, resolve] of Object.entries(fields)) {
        const field = typeFields[fieldName];
        if (!field) throw new Error(`Sandbox resolver for unknown field ${typeName}.${fieldName}`);
        field.resolve = resolve;
      }
    }
  }
  return schema;
}
