// Payment requests and timesheets: the seeded ones, plus those the platform makes from timesheet
// registrations submitted through createCustomTimesheet (PLATFORM.md: accepted registrations are
// queued and become payment requests, which may be approved automatically).
//
// The records live beside SandboxData (a WeakMap per seeded data set), so the core types stay as
// they are. The core reads them too (hires' missingPaymentRequestDateRange and the
// LAST_PAYMENT_REQUEST_DATE order), so this file imports nothing at runtime but the date helpers.
import { addDays, toDate } from "../../dates.js";
import { itemAt, referenced } from "../../records.js";
import type {
  ContractRecord,
  HireRecord,
  InvoiceRowRecord,
  SandboxData,
  TimesheetRecord,
} from "../../seed/index.js";

type PaymentRequestStatus = "APPROVED" | "CANCELLED" | "UNAPPROVED" | "REJECTED";
type PaymentRequestWorkerStatus =
  | "REJECTED"
  | "CANCELLED"
  | "PROCESSING"
  | "COMPLETED"
  | "REQUESTED"
  | "APPROVED";
type PaymentRequestWorkerPayoutStatus = "PAID" | "DUE" | "OVERDUE" | "UNPAID";

export interface RegistrationRecord {
  id: string;
  type: "DAY";
  date: string;
  duration: number;
  unit: "HOURS" | "DAYS";
  comments: string | null;
  externalIdentifier: string | null;
  isBillable: boolean;
}

export interface PaymentTimesheetRecord {
  id: string;
  hireId: string;
  startDate: string;
  endDate: string;
  /** DateTime, as the platform writes it: 2026-11-16T09:00:00.000000Z. */
  createdAt: string;
  registrations: RegistrationRecord[];
}

export interface PaymentRequestRecord {
  id: string;
  number: string;
  hireId: string;
  companyId: string;
  workerId: string;
  recruiterId: string | null;
  purchaseOrderNumber: string | null;
  startDate: string;
  endDate: string;
  currency: string;
  rate: number;
  rateType: string;
  /** Hours for an hourly rate, days for a daily one, months for a monthly one. */
  rateQuantity: number;
  expensesAmount: number;
  /** rateQuantity × rate: the sandbox charges no fees. */
  billedAmount: number;
  /** The day it was submitted (PaymentRequest.date); issuedAt is the same day. */
  date: string;
  dueAt: string;
  manuallyApprovedAt: string | null;
  autoApprovedAt: string | null;
  rejectedAt: string | null;
  cancelledAt: string | null;
  paidAt: string | null;
  status: PaymentRequestStatus;
  workerStatus: PaymentRequestWorkerStatus;
  workerPayoutStatus: PaymentRequestWorkerPayoutStatus;
  comments: string | null;
  externalIdentifier: string | null;
  timesheet: PaymentTimesheetRecord | null;
}

interface PaymentsState {
  seeded: PaymentRequestRecord[];
  seededByHire: Map<string, PaymentRequestRecord[]>;
  /** Ids given to records made from submissions, by what they are made of, so they stay put. */
  derivedIds: Map<string, string>;
  /** The payment request each invoice row bills, by row id (InvoiceRow.paymentRequest). */
  invoiced: Map<string, PaymentRequestRecord>;
  counters: { request: number; timesheet: number; registration: number };
  /**
   * updatePaymentRequest's changes to requests made from submissions, by id: those are made again
   * on every read, so their edits are kept here and laid over them.
   */
  edits: Map<string, Partial<Pick<PaymentRequestRecord, "purchaseOrderNumber" | "comments">>>;
}

const states = new WeakMap<SandboxData, PaymentsState>();

export function paymentsState(data: SandboxData): PaymentsState {
  let state = states.get(data);
  if (!state) {
    state = {
      seeded: [],
      seededByHire: new Map(),
      derivedIds: new Map(),
      invoiced: new Map(),
      counters: { request: 0, timesheet: 0, registration: 0 },
      edits: new Map(),
    };
    states.set(data, state);
  }
  return state;
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");
export const round2 = (n: number) => Math.round(n * 100) / 100;

export function nextId(state: PaymentsState, kind: keyof PaymentsState["counters"]): string {
  state.counters[kind] += 1;
  const n = state.counters[kind];
  if (kind === "request") return `pr_${pad(n, 4)}`;
  if (kind === "timesheet") return `ts_${pad(n, 4)}`;
  return `treg_${pad(n, 5)}`;
}

/** The human reference printed on a payment request: PR-20001, PR-20002, … */
export const requestNumber = (id: string) => `PR-${20_000 + Number(id.slice(3))}`;

export const dateTime = (date: string, hour = 9) => `${date}T${pad(hour, 2)}:00:00.000000Z`;

/** Monday of the week `date` falls in. */
export function mondayOf(date: string): string {
  const day = toDate(date).getUTCDay(); // 0 = Sunday
  return addDays(date, day === 0 ? -6 : 1 - day);
}

export function isWeekday(date: string): boolean {
  const day = toDate(date).getUTCDay();
  return day !== 0 && day !== 6;
}

/** The contract whose terms applied on `date`: the newest signed one covering it, else the newest signed. */
export function contractOn(data: SandboxData, hire: HireRecord, date: string): ContractRecord {
  const contracts = hire.contractIds.map((id) => referenced(data.contracts, id));
  const signed = contracts.filter((c) => c.status !== "DRAFT");
  return (
    signed.findLast(
      (c) =>
        (c.startDate === null || c.startDate <= date) && (c.endDate === null || date <= c.endDate),
    ) ??
    signed.at(-1) ??
    itemAt(contracts, -1)
  );
}

/**
 * The payment requests the seeded invoices bill, one per row (a credit note's row and the row it
 * credits share one). They are approved and paid with their invoice. They stay out of the
 * paymentRequests lists, which have their own seeded history for the same hires: counting both
 * would bill the same weeks twice.
 */
export function seedInvoicedRequests(data: SandboxData, state: PaymentsState): void {
  const made = new Map<InvoiceRowRecord["billed"], PaymentRequestRecord>();
  for (const invoice of data.invoices) {
    const hire = invoice.hireId ? data.hires.get(invoice.hireId) : undefined;
    if (!hire) continue;
    for (const row of invoice.rows) {
      let request = made.get(row.billed);
      if (!request) {
        const b = row.billed;
        const id = nextId(state, "request");
        const paid = invoice.markedPaidAt;
        request = {
          id,
          number: requestNumber(id),
          hireId: hire.id,
          companyId: invoice.companyId,
          workerId: row.workerId ?? hire.workerId,
          recruiterId: hire.recruiterId,
          purchaseOrderNumber: invoice.purchaseOrderNumber,
          startDate: b.from,
          endDate: b.to,
          currency: invoice.currency,
          rate: b.rate,
          rateType: b.rateType,
          rateQuantity: quantityFor(b.rateType, b.hours),
          expensesAmount: 0,
          // The row's amount, not quantity × rate re-rounded: the invoice adds up to its rows.
          billedAmount: b.amount,
          date: addDays(b.to, 1),
          dueAt: invoice.dueDate,
          manuallyApprovedAt: addDays(b.to, 2),
          autoApprovedAt: null,
          rejectedAt: null,
          cancelledAt: null,
          paidAt: paid,
          status: "APPROVED",
          workerStatus: paid ? "COMPLETED" : "PROCESSING",
          workerPayoutStatus: paid ? "PAID" : "DUE",
          comments: null,
          externalIdentifier: null,
          timesheet: null,
        };
        made.set(row.billed, request);
      }
      state.invoiced.set(row.id, request);
    }
  }
}

/** Quantity in the contract's rate unit for billable hours: hours, 8-hour days or 160-hour months. */
function quantityFor(rateType: string, hours: number): number {
  if (rateType === "DAILY") return round2(hours / 8);
  if (rateType === "MONTHLY") return round2(hours / 160);
  return round2(hours);
}

function derivedId(state: PaymentsState, key: string, kind: keyof PaymentsState["counters"]) {
  let id = state.derivedIds.get(key);
  if (!id) {
    id = nextId(state, kind);
    state.derivedIds.set(key, id);
  }
  return id;
}

/**
 * The payment requests made from submitted registrations: one per hire and week (Monday to
 * Sunday), submitted today and approved automatically, as the platform may do. Registrations a
 * later submission replaces (same externalId) change the request; none is ever added twice.
 */
function fromSubmissions(data: SandboxData, state: PaymentsState): PaymentRequestRecord[] {
  const groups = new Map<string, { hireId: string; monday: string; rows: TimesheetRecord[] }>();
  for (const record of data.timesheets.values()) {
    const monday = mondayOf(record.reportedDate);
    const key = `${record.hireId}|${monday}`;
    const group = groups.get(key) ?? { hireId: record.hireId, monday, rows: [] };
    group.rows.push(record);
    groups.set(key, group);
  }
  const requests: PaymentRequestRecord[] = [];
  const byKey = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, { hireId, monday, rows }] of byKey) {
    rows.sort(
      (a, b) =>
        a.reportedDate.localeCompare(b.reportedDate) || a.externalId.localeCompare(b.externalId),
    );
    const hire = data.hires.get(hireId);
    if (!hire) continue;
    const contract = contractOn(data, hire, itemAt(rows, 0).reportedDate);
    const billableHours = rows.filter((r) => r.isPayable).reduce((sum, r) => sum + r.hours, 0);
    const quantity = quantityFor(contract.rateType, billableHours);
    const id = derivedId(state, `request|${key}`, "request");
    const startDate = monday;
    const endDate = addDays(monday, 6);
    requests.push({
      id,
      number: requestNumber(id),
      hireId,
      companyId: hire.companyId,
      workerId: hire.workerId,
      recruiterId: hire.recruiterId,
      purchaseOrderNumber: contract.purchaseOrderNumber,
      startDate,
      endDate,
      currency: contract.currency,
      rate: contract.rate,
      rateType: contract.rateType,
      rateQuantity: quantity,
      expensesAmount: 0,
      billedAmount: round2(quantity * contract.rate),
      date: data.today,
      dueAt: addDays(data.today, contract.paymentTerm),
      manuallyApprovedAt: null,
      autoApprovedAt: data.today,
      rejectedAt: null,
      cancelledAt: null,
      paidAt: null,
      status: "APPROVED",
      workerStatus: "APPROVED",
      workerPayoutStatus: "DUE",
      comments: null,
      externalIdentifier: null,
      timesheet: {
        id: derivedId(state, `timesheet|${key}`, "timesheet"),
        hireId,
        startDate,
        endDate,
        createdAt: dateTime(data.today),
        registrations: rows.map((r) => ({
          id: derivedId(state, `registration|${r.externalId}`, "registration"),
          type: "DAY",
          date: r.reportedDate,
          duration: r.hours,
          unit: "HOURS",
          comments: r.reference ?? null,
          externalIdentifier: r.externalId,
          isBillable: r.isPayable,
        })),
      },
      ...state.edits.get(id),
    });
  }
  return requests;
}

/** Every payment request: the seeded ones and those made from submitted registrations. */
export function allPaymentRequests(data: SandboxData): PaymentRequestRecord[] {
  const state = paymentsState(data);
  return data.timesheets.size === 0
    ? state.seeded
    : [...state.seeded, ...fromSubmissions(data, state)];
}

/** The days a hire's payment requests were submitted on, newest first not guaranteed. */
export function paymentRequestDates(data: SandboxData, hireId: string): string[] {
  const dates = (paymentsState(data).seededByHire.get(hireId) ?? []).map((r) => r.date);
  // Requests made from submissions are all dated today.
  for (const record of data.timesheets.values()) {
    if (record.hireId === hireId) {
      dates.push(data.today);
      break;
    }
  }
  return dates;
}
