// A payment request as the tools show it: the output schema and the mapping from the platform's
// answer, one pair per selection in src/client/operations/payments.ts.
import * as z from "zod";
import type {
  BilledPaymentRequest,
  PaymentRequestSummary,
} from "../../client/operations/payments.js";
import type { PaymentRequestForUpdate } from "../../client/operations/records.js";
import { idAndName, toIdAndName } from "./named.js";

/** One day on a request's timesheet. */
const registrationOutput = z.object({
  date: z.string(),
  duration: z.number(),
  unit: z.string(),
  billable: z.boolean(),
});
export type RegistrationOut = z.infer<typeof registrationOutput>;

/** As list_payment_requests shows it. */
export const paymentRequestOutput = z.object({
  id: z.string(),
  number: z.string(),
  hireId: z.string().nullable(),
  worker: idAndName,
  company: idAndName,
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  status: z.string(),
  payoutStatus: z.string(),
  submittedOn: z.string(),
  approvedOn: z.string().nullable(),
  approvedAutomatically: z.boolean(),
  rejectedOn: z.string().nullable(),
  cancelledOn: z.string().nullable(),
  paidOn: z.string().nullable(),
  dueOn: z.string().nullable(),
  currency: z.string(),
  amount: z.number(),
  rate: z.number().nullable(),
  rateType: z.string().nullable(),
  quantity: z.number(),
  /** Hours charged: the quantity of an hourly request; null for other rate types. */
  hours: z.number().nullable(),
  comments: z.string().nullable(),
  /** Only with includeHours, and only the days inside `period` when one is given. */
  registrations: z.array(registrationOutput).nullable(),
});
export type PaymentRequestOut = z.infer<typeof paymentRequestOutput>;

export function toPaymentRequestOutput(
  r: PaymentRequestSummary,
  includeHours: boolean,
): PaymentRequestOut {
  const registrations = includeHours
    ? (r.timesheet?.registrations?.data ?? []).map((g) => ({
        date: g.date,
        duration: g.duration,
        unit: g.unit,
        billable: g.isBillable !== false,
      }))
    : null;
  return {
    id: r.id,
    number: r.number,
    hireId: r.hire?.id ?? null,
    worker: toIdAndName(r.worker),
    company: toIdAndName(r.company),
    startDate: r.startDate,
    endDate: r.endDate,
    status: r.status,
    payoutStatus: r.workerPayoutStatus,
    submittedOn: r.date,
    approvedOn: r.manuallyApprovedAt ?? r.autoApprovedAt,
    approvedAutomatically: r.manuallyApprovedAt === null && r.autoApprovedAt !== null,
    rejectedOn: r.rejectedAt,
    cancelledOn: r.cancelledAt,
    paidOn: r.paidAt,
    dueOn: r.dueAt,
    currency: r.currency,
    amount: r.netAmount,
    rate: r.rate,
    rateType: r.rateType,
    quantity: r.rateQuantity,
    hours: r.rateType === "HOURLY" ? r.rateQuantity : null,
    comments: r.comments,
    registrations,
  };
}

/** As a change to it is previewed (update_payment_request): who, when and how much. */
export const paymentRequestBriefOutput = z.object({
  number: z.string(),
  status: z.string(),
  worker: z.string(),
  company: z.string(),
  hire: z.string().nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  currency: z.string(),
  netAmount: z.number(),
});
export type PaymentRequestBrief = z.infer<typeof paymentRequestBriefOutput>;

export function toPaymentRequestBrief(r: PaymentRequestForUpdate): PaymentRequestBrief {
  return {
    number: r.number,
    status: r.status,
    worker: r.worker.name,
    company: r.company.name,
    hire: r.hire ? r.hire.number : null,
    startDate: r.startDate,
    endDate: r.endDate,
    currency: r.currency,
    netAmount: r.netAmount,
  };
}

/** As an invoice row bills it (list_invoices): the hours or days, rate and amount. */
export const billedOutput = z.object({
  paymentRequest: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  quantity: z.number(),
  rateType: z.string().nullable(),
  /** Null when hidden from you. */
  rate: z.number().nullable(),
  currency: z.string(),
  amount: z.number(),
});
export type BilledOut = z.infer<typeof billedOutput>;

export function toBilledOutput(r: BilledPaymentRequest): BilledOut {
  return {
    paymentRequest: r.number,
    startDate: r.startDate,
    endDate: r.endDate,
    quantity: r.rateQuantity,
    rateType: r.rateType,
    rate: r.rate,
    currency: r.currency,
    amount: r.netAmount,
  };
}
