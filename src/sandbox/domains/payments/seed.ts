// Seeded payment requests: about half a year of them for every hire that has worked, weekly or
// monthly, in a mix of statuses by age. Hourly hires log daily hours on a timesheet.

import { addDays, endOfMonth, startOfNextMonth } from "../../dates.js";
import { itemAt } from "../../records.js";
import type { HireRecord, SandboxData } from "../../seed/index.js";
import {
  contractOn,
  dateTime,
  isWeekday,
  mondayOf,
  nextId,
  type PaymentRequestRecord,
  type PaymentTimesheetRecord,
  paymentsState,
  type RegistrationRecord,
  requestNumber,
  round2,
  seedInvoicedRequests,
} from "./store.js";

const HISTORY_DAYS = 182;
const HOURS = [8, 8, 8, 7.5, 7.5, 7, 6, 8.5, 9, 4];
/** Ana Costa: weekly, so "what did Ana log last week?" has exactly one answer. */
const ANA_HIRE_ID = "hire_001";
const HARBOR_HIRE_ID = "hire_002";

const startOfMonth = (date: string) => `${date.slice(0, 8)}01`;
const minDate = (a: string, b: string) => (a < b ? a : b);
const maxDate = (a: string, b: string) => (a > b ? a : b);

export function seedPayments(data: SandboxData, rand: () => number): void {
  const state = paymentsState(data);
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const today = data.today;
  const yesterday = addDays(today, -1);
  const monthStart = startOfMonth(today);
  const historyStart = addDays(today, -HISTORY_DAYS);

  const worked = [...data.hires.values()].filter(
    (h): h is HireRecord & { startDate: string } =>
      (h.status === "ACTIVE" || h.status === "ENDED" || h.status === "TERMINATED") &&
      h.startDate !== null &&
      h.startDate < today,
  );
  let activeSeen = 0;
  for (const [index, hire] of worked.entries()) {
    // The day the hire stopped (terminated or ended), if it has; the last day worked so far.
    const ended = [hire.terminationDate, hire.endDate]
      .filter((d): d is string => d !== null && d < today)
      .reduce<string | null>((a, d) => (a === null ? d : minDate(a, d)), null);
    const stop = ended ?? yesterday;
    const first = maxDate(hire.startDate, historyStart);
    const fixed = hire.id === ANA_HIRE_ID || hire.id === HARBOR_HIRE_ID;
    // A few active hires stopped submitting before this month: "who hasn't logged hours?".
    const forgetful = hire.status === "ACTIVE" && !fixed && activeSeen++ % 3 === 2;
    const rateType = contractOn(data, hire, first).rateType;
    const weekly = rateType === "HOURLY" && (fixed || index % 2 === 0);

    for (const [periodStart, periodEnd] of periods(first, stop, weekly)) {
      // A period is submitted once it is over, or once the hire has stopped within it.
      if (periodEnd > yesterday && ended === null) continue;
      const from = maxDate(periodStart, first);
      const to = minDate(periodEnd, stop);
      if (from > to) continue;
      const date = minDate(addDays(to, int(1, 3)), today);
      if (forgetful && date >= monthStart) continue;
      const request = makeRequest(data, state, hire, { from, to, date }, int, rand);
      if (request) {
        state.seeded.push(request);
        const list = state.seededByHire.get(hire.id) ?? [];
        list.push(request);
        state.seededByHire.set(hire.id, list);
      }
    }
  }
  // After the history, so its requests keep their ids.
  seedInvoicedRequests(data, state);
}

/** Weeks (Monday to Sunday) or calendar months covering `first`..`last`. */
function periods(first: string, last: string, weekly: boolean): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let start = weekly ? mondayOf(first) : startOfMonth(first);
  while (start <= last) {
    const end = weekly ? addDays(start, 6) : endOfMonth(start);
    out.push([start, end]);
    start = weekly ? addDays(start, 7) : startOfNextMonth(start);
  }
  return out;
}

function makeRequest(
  data: SandboxData,
  state: ReturnType<typeof paymentsState>,
  hire: HireRecord,
  span: { from: string; to: string; date: string },
  int: (min: number, max: number) => number,
  rand: () => number,
): PaymentRequestRecord | null {
  const contract = contractOn(data, hire, span.from);
  const days: string[] = [];
  for (let d = span.from; d <= span.to; d = addDays(d, 1)) if (isWeekday(d)) days.push(d);
  if (days.length === 0) return null;

  let timesheet: PaymentTimesheetRecord | null = null;
  let quantity: number;
  if (contract.rateType === "HOURLY") {
    const registrations: RegistrationRecord[] = [];
    for (const date of days) {
      if (rand() < 0.08) continue; // a day off
      registrations.push({
        id: nextId(state, "registration"),
        type: "DAY",
        date,
        duration: itemAt(HOURS, int(0, HOURS.length - 1)),
        unit: "HOURS",
        comments: null,
        externalIdentifier: null,
        isBillable: true,
      });
    }
    if (registrations.length === 0) return null;
    quantity = round2(registrations.reduce((sum, r) => sum + r.duration, 0));
    timesheet = {
      id: nextId(state, "timesheet"),
      hireId: hire.id,
      startDate: span.from,
      endDate: span.to,
      createdAt: dateTime(span.date),
      registrations,
    };
  } else if (contract.rateType === "DAILY") {
    quantity = Math.max(1, days.length - int(0, 2));
  } else {
    // Monthly: the share of the month's working days worked.
    const monthDays = countWeekdays(startOfMonth(span.from), endOfMonth(span.from));
    quantity = round2(days.length / monthDays);
  }

  const id = nextId(state, "request");
  const base: PaymentRequestRecord = {
    id,
    number: requestNumber(id),
    hireId: hire.id,
    companyId: hire.companyId,
    workerId: hire.workerId,
    recruiterId: hire.recruiterId,
    purchaseOrderNumber: contract.purchaseOrderNumber,
    startDate: span.from,
    endDate: span.to,
    currency: contract.currency,
    rate: contract.rate,
    rateType: contract.rateType,
    rateQuantity: quantity,
    expensesAmount: 0,
    billedAmount: round2(quantity * contract.rate),
    date: span.date,
    dueAt: addDays(span.date, contract.paymentTerm),
    manuallyApprovedAt: null,
    autoApprovedAt: null,
    rejectedAt: null,
    cancelledAt: null,
    paidAt: null,
    status: "UNAPPROVED",
    workerStatus: "REQUESTED",
    workerPayoutStatus: "UNPAID",
    comments: null,
    externalIdentifier: null,
    timesheet,
  };
  return withStatus(base, data.today, int, rand);
}

/** Status by age: recent ones await approval (some approved automatically), older ones are paid. */
function withStatus(
  r: PaymentRequestRecord,
  today: string,
  int: (min: number, max: number) => number,
  rand: () => number,
): PaymentRequestRecord {
  const age = Math.round((Date.parse(today) - Date.parse(r.date)) / 86_400_000);
  const roll = rand();
  if (age > 14 && roll < 0.05) {
    return {
      ...r,
      status: "REJECTED",
      workerStatus: "REJECTED",
      rejectedAt: addDays(r.date, int(1, 3)),
      comments: "Hours do not match the agreed schedule; please correct and resubmit.",
    };
  }
  if (age > 14 && roll < 0.07) {
    return {
      ...r,
      status: "CANCELLED",
      workerStatus: "CANCELLED",
      cancelledAt: addDays(r.date, 1),
      comments: "Submitted twice by mistake.",
    };
  }
  if (age <= 14) {
    if (roll < 0.25) {
      return {
        ...r,
        status: "APPROVED",
        workerStatus: "APPROVED",
        workerPayoutStatus: "DUE",
        autoApprovedAt: r.date,
      };
    }
    return r;
  }
  const approvedOn = minDate(addDays(r.date, int(1, 4)), today);
  const approved = roll < 0.3 ? { autoApprovedAt: r.date } : { manuallyApprovedAt: approvedOn };
  if (age > 35) {
    return {
      ...r,
      ...approved,
      status: "APPROVED",
      workerStatus: "COMPLETED",
      workerPayoutStatus: "PAID",
      paidAt: minDate(addDays(r.dueAt, -int(0, 7)), today),
    };
  }
  return {
    ...r,
    ...approved,
    status: "APPROVED",
    workerStatus: "PROCESSING",
    workerPayoutStatus: r.dueAt < today ? "OVERDUE" : "DUE",
  };
}

function countWeekdays(from: string, to: string): number {
  let n = 0;
  for (let d = from; d <= to; d = addDays(d, 1)) if (isWeekday(d)) n += 1;
  return n;
}
