// An invoice as the tools show it: the output schema and the mapping from the platform's answer,
// for the selections of ListInvoices and InvoiceByNumber in src/client/operations/core.ts.
import * as z from "zod";
import type { InvoiceDetails, InvoiceSummary } from "../../client/operations/index.js";
import { pageOf, pageOutput } from "../format.js";
import { idAndName, toIdAndName } from "./named.js";
import { billedOutput, toBilledOutput } from "./payment-request.js";

/** As list_invoices lists it. */
export const invoiceOutput = z.object({
  number: z.string().nullable(),
  date: z.string(),
  dueDate: z.string(),
  currency: z.string(),
  grossAmount: z.number(),
  netAmount: z.number(),
  openAmount: z.number(),
  overdue: z.boolean(),
  payer: z.string(),
  payee: z.string(),
  type: z.string(),
  company: idAndName,
});
export type InvoiceOut = z.infer<typeof invoiceOutput>;

/** `today` (YYYY-MM-DD) decides whether an open amount is overdue when the platform does not say. */
export function toInvoiceOutput(i: InvoiceSummary, today: string): InvoiceOut {
  // The platform's flag may be null; an open amount past its due date is overdue all the same.
  const overdue = i.isOverDue ?? (i.grossOpenAmount > 0 && i.dueDate < today);
  return {
    number: i.number,
    date: i.date,
    dueDate: i.dueDate,
    currency: i.currency,
    grossAmount: i.grossAmount,
    netAmount: i.netAmount,
    openAmount: i.grossOpenAmount,
    overdue,
    payer: i.payerDisplayName,
    payee: i.payeeDisplayName,
    type: i.transactionType,
    company: toIdAndName(i.company),
  };
}

/** What a lookup by number adds to the invoice's entry in `invoices`: its document and rows. */
export const invoiceDetailsOutput = z.object({
  taxAmount: z.number(),
  markedPaidAt: z.string().nullable(),
  fullyCredited: z.boolean(),
  externalIdentifier: z.string().nullable(),
  /** The invoice document itself; the link expires. */
  pdfUrl: z.string(),
  rows: z.array(
    z.object({
      id: z.string(),
      text: z.string().nullable(),
      worker: idAndName.nullable(),
      /** From the row's payment request; null when the row has none. */
      billed: billedOutput.nullable(),
    }),
  ),
  rowsPage: pageOutput,
});
export type InvoiceDetailsOut = z.infer<typeof invoiceDetailsOutput>;

export function toInvoiceDetails(found: InvoiceDetails): InvoiceDetailsOut {
  return {
    taxAmount: found.taxAmount,
    markedPaidAt: found.markedPaidAt,
    fullyCredited: found.isFullyCredited,
    externalIdentifier: found.externalIdentifier,
    pdfUrl: found.pdfUrl,
    rows: found.rows.data.map((r) => ({
      id: r.id,
      text: r.customText,
      worker: r.worker ? toIdAndName(r.worker) : null,
      billed: r.paymentRequest ? toBilledOutput(r.paymentRequest) : null,
    })),
    rowsPage: pageOf(found.rows.paginatorInfo),
  };
}
