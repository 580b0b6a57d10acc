// Payment requests and timesheets: list filters, ordering and visibility as the core applies them.
//
// Authorization: an account sees the payment requests of its companies' hires only; lists leave
// the others out, a single one asked for by id is refused. The rate is hidden as Contract.rate is
// (restricted field). The amounts stay visible: they are what the company is billed, as visible as
// its invoices' amounts, and the schema has them non-null, so hiding one would void the whole list.
import type { AnyRecord, RequestContext, ResolverMap } from "../../context.js";
import { withArgs } from "../../context.js";
import { authorizationError, restrictedFieldError, ValidationCollector } from "../../errors.js";
import {
  type Comparable,
  columnOf,
  companyOf,
  dateRange,
  inRange,
  listFilter,
  orderOf,
  paginate,
  searchText,
  sortBy,
  workerName,
} from "../../kit.js";
import { referenced } from "../../records.js";
import type {
  HirePaymentRequestsArgs,
  MutationUpdatePaymentRequestArgs,
  QueryPaymentRequestArgs,
  QueryPaymentRequestsArgs,
  TimesheetPaymentRequestsArgs,
  TimesheetRegistrationsArgs,
  UpdatePaymentRequestInput,
} from "../../resolver-types.generated.js";
import type { HireRecord } from "../../seed/index.js";
import {
  allPaymentRequests,
  type PaymentRequestRecord,
  type PaymentTimesheetRecord,
  paymentsState,
  round2,
} from "./store.js";

// Value-added tax on top of the net amount, as on the sandbox's invoices.
const TAX_RATE: Record<string, number> = { DKK: 0.25, USD: 0, EUR: 0.19 };

const visible = (ctx: RequestContext, r: PaymentRequestRecord) =>
  ctx.identity.companyIds.has(r.companyId);

const workerOfRequest = (ctx: RequestContext, r: PaymentRequestRecord) =>
  referenced(ctx.data.workers, r.workerId);

// The sandbox charges no service fee, whichever account type the amount is viewed as.
const netAmount = (r: PaymentRequestRecord) => round2(r.billedAmount + r.expensesAmount);

const overlaps = (
  from: string | null,
  to: string | null,
  range: { from: string | null; to: string | null },
) =>
  from !== null &&
  to !== null &&
  (range.to === null || from <= range.to) &&
  (range.from === null || to >= range.from);

const COLUMNS: Record<string, (ctx: RequestContext, r: PaymentRequestRecord) => Comparable> = {
  ISSUED_AT: (_c, r) => r.date,
  WORKER: (c, r) => workerName(workerOfRequest(c, r)),
  TOTAL_AMOUNT: (_c, r) => netAmount(r),
};

function orderClauses(ctx: RequestContext, args: QueryPaymentRequestsArgs) {
  const given = orderOf(args.orderBy, (c) => c.field);
  // Newest first unless told otherwise.
  const clauses = given.length > 0 ? given : [{ by: "ISSUED_AT", desc: true }];
  return clauses.flatMap(({ by, desc }) => {
    if (by === "PRIORITY") {
      // "Pending requests first, then by issued date."
      return [
        { key: (r: PaymentRequestRecord) => (r.status === "UNAPPROVED" ? 0 : 1), desc: false },
        { key: (r: PaymentRequestRecord) => r.date, desc },
      ];
    }
    const column = columnOf(COLUMNS, by);
    return [{ key: (r: PaymentRequestRecord) => column(ctx, r), desc }];
  });
}

function paymentRequestsQuery(
  ctx: RequestContext,
  args: QueryPaymentRequestsArgs,
  field: string,
  base?: PaymentRequestRecord[],
) {
  const v = new ValidationCollector();
  const timesheetPeriod = dateRange(args.timesheetPeriod, "timesheetPeriod", v);
  const requested = dateRange(args.requestedDateRange, "requestedDateRange", v);
  const billingStart = dateRange(args.billingStartDateRange, "billingStartDateRange", v);
  const billingEnd = dateRange(args.billingEndDateRange, "billingEndDateRange", v);
  v.throwIfAny(field);
  const accounts = listFilter(args.accounts);
  const currencies = listFilter(args.currencies);
  const hires = listFilter(args.hires);
  const statuses = listFilter(args.statuses);
  const workerStatuses = listFilter(args.workerStatuses);
  const payoutStatuses = listFilter(args.workerPayoutStatuses);
  const rateTypes = listFilter(args.rateTypes);
  const externalIds = listFilter(args.externalIdentifiers);
  const hasTimesheet = args.hasTimesheet ?? null;
  const search = searchText(args.search);
  const requests = (base ?? allPaymentRequests(ctx.data)).filter((r) => {
    if (!visible(ctx, r)) return false;
    if (accounts && !accounts.has(r.companyId)) return false;
    if (currencies && !currencies.has(r.currency)) return false;
    if (hires && !hires.has(r.hireId)) return false;
    if (statuses && !statuses.has(r.status)) return false;
    if (workerStatuses && !workerStatuses.has(r.workerStatus)) return false;
    if (payoutStatuses && !payoutStatuses.has(r.workerPayoutStatus)) return false;
    if (rateTypes && !rateTypes.has(r.rateType)) return false;
    if (externalIds && !externalIds.has(r.externalIdentifier)) return false;
    if (hasTimesheet !== null && (r.timesheet !== null) !== hasTimesheet) return false;
    // "Has a timesheet between the range": its period overlaps the range.
    if (
      timesheetPeriod &&
      !(r.timesheet && overlaps(r.timesheet.startDate, r.timesheet.endDate, timesheetPeriod))
    ) {
      return false;
    }
    if (requested && !inRange(r.date, requested)) return false;
    if (billingStart && !inRange(r.startDate, billingStart)) return false;
    if (billingEnd && !inRange(r.endDate, billingEnd)) return false;
    if (search) {
      const hire = referenced(ctx.data.hires, r.hireId);
      const haystack = [
        r.number,
        r.purchaseOrderNumber ?? "",
        workerName(workerOfRequest(ctx, r)),
        hire.number,
      ]
        .join("\n")
        .toLowerCase();
      if (!haystack.includes(search)) return false;
    }
    return true;
  });
  return paginate(sortBy(requests, orderClauses(ctx, args)), args, field);
}

// ---------- updatePaymentRequest: the purchase-order number and comments ----------

const MAX_PURCHASE_ORDER = 255;
const MAX_COMMENTS = 5000;

/** Any payment request by id: listed, made from submissions, or billed on an invoice. */
function findPaymentRequest(ctx: RequestContext, id: string): PaymentRequestRecord | undefined {
  return (
    allPaymentRequests(ctx.data).find((r) => r.id === id) ??
    [...paymentsState(ctx.data).invoiced.values()].find((r) => r.id === id)
  );
}

/** As the platform reads text input: trimmed, and empty is null. */
const textInput = (value: string | null) => {
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
};

/**
 * Sets what was given of purchaseOrderNumber and comments (null clears). The company's hire
 * managers may; a cancelled or rejected request is closed, and a paid one has been billed as it is.
 */
function updatePaymentRequest(
  ctx: RequestContext,
  input: UpdatePaymentRequestInput,
  field: string,
) {
  const v = new ValidationCollector();
  const request = findPaymentRequest(ctx, input.id);
  if (!request) v.add("input.id", "The selected input.id is invalid.");
  else {
    if (!visible(ctx, request) || !ctx.identity.managesHires) throw authorizationError();
    if (request.status === "CANCELLED" || request.status === "REJECTED") {
      v.add("input.id", `A ${request.status.toLowerCase()} payment request cannot be updated.`);
    } else if (request.paidAt !== null) {
      v.add("input.id", "A paid payment request cannot be updated.");
    }
  }
  const changes: Partial<Pick<PaymentRequestRecord, "purchaseOrderNumber" | "comments">> = {};
  for (const [key, max] of [
    ["purchaseOrderNumber", MAX_PURCHASE_ORDER],
    ["comments", MAX_COMMENTS],
  ] as const) {
    const given = input[key];
    if (given === undefined) continue;
    const value = textInput(given);
    if (value !== null && value.length > max) {
      v.add(`input.${key}`, `The input.${key} may not be greater than ${max} characters.`);
    }
    changes[key] = value;
  }
  const r = v.passed(field, request);
  const state = paymentsState(ctx.data);
  const stored = state.seeded.includes(r) || [...state.invoiced.values()].includes(r);
  if (stored) {
    Object.assign(r, changes);
    return r;
  }
  // Made from submissions: made again on every read, with the edits laid over it.
  state.edits.set(r.id, { ...state.edits.get(r.id), ...changes });
  return findPaymentRequest(ctx, r.id);
}

export const paymentsResolvers: ResolverMap = {
  Mutation: {
    updatePaymentRequest: withArgs<MutationUpdatePaymentRequestArgs>((_p, { input }, ctx, info) =>
      updatePaymentRequest(ctx, input, info.fieldName),
    ),
  },
  Query: {
    paymentRequest: withArgs<QueryPaymentRequestArgs>((_p, { id }, ctx) => {
      const request = findPaymentRequest(ctx, id);
      if (!request) return null;
      if (!visible(ctx, request)) throw authorizationError();
      return request;
    }),
    paymentRequests: withArgs<QueryPaymentRequestsArgs>((_p, args, ctx, info) =>
      paymentRequestsQuery(ctx, args, info.fieldName),
    ),
  },
  Hire: {
    paymentRequests: withArgs<HirePaymentRequestsArgs>((h: HireRecord, args, ctx, info) => {
      const own = allPaymentRequests(ctx.data).filter((r) => r.hireId === h.id);
      return paymentRequestsQuery(
        ctx,
        {
          statuses: args.statuses,
          workerStatuses: args.workerStatuses,
          first: args.first,
          page: args.page,
        },
        info.fieldName,
        own,
      );
    }),
  },
  InvoiceRow: {
    // The invoice was visible, so is what it bills.
    paymentRequest: (r: AnyRecord, _a, ctx) => paymentsState(ctx.data).invoiced.get(r.id) ?? null,
  },
  PaymentRequest: {
    worker: (r: AnyRecord, _a, ctx) => workerOfRequest(ctx, r),
    recruiter: (r: AnyRecord, _a, ctx) =>
      r.recruiterId ? ctx.data.recruiters.find((x) => x.id === r.recruiterId) : null,
    company: (r: AnyRecord, _a, ctx) => companyOf(ctx, r.companyId),
    rate: (r: AnyRecord, _a, ctx) => {
      if (!ctx.identity.seesRates) throw restrictedFieldError();
      return r.rate;
    },
    netAmount: (r: AnyRecord) => netAmount(r),
    grossAmount: (r: AnyRecord) => round2(netAmount(r) * (1 + (TAX_RATE[r.currency] ?? 0))),
    billedAmountWithExpenses: (r: AnyRecord) => netAmount(r),
    issuedAt: (r: AnyRecord) => r.date,
    hire: (r: AnyRecord, _a, ctx) => ctx.data.hires.get(r.hireId) ?? null,
  },
  Timesheet: {
    worker: (t: PaymentTimesheetRecord, _a, ctx) => {
      const hire = ctx.data.hires.get(t.hireId);
      return hire ? ctx.data.workers.get(hire.workerId) : null;
    },
    hire: (t: AnyRecord, _a, ctx) => ctx.data.hires.get(t.hireId) ?? null,
    paymentRequests: withArgs<TimesheetPaymentRequestsArgs>((t: AnyRecord, args, ctx, info) => {
      const own = allPaymentRequests(ctx.data).filter((r) => r.timesheet?.id === t.id);
      return paymentRequestsQuery(ctx, { first: args.first, page: args.page }, info.fieldName, own);
    }),
    registrations: withArgs<TimesheetRegistrationsArgs>(
      (t: PaymentTimesheetRecord, args, _ctx, info) =>
        paginate(t.registrations, args, info.fieldName),
    ),
  },
};
