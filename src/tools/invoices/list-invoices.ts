import * as z from "zod";
import {
  type InvoiceDetails,
  invoiceByNumberQuery,
  listInvoicesQuery,
} from "../../client/operations/index.js";
import { clampPage, clampPageSize, describePage, type PageInfo } from "../../client/pagination.js";
import { oneLine, quoted, urlText } from "../../client/platform-text.js";
import {
  defineTool,
  readOnlyAnnotations,
  type ToolContext,
  ToolInputError,
} from "../define-tool.js";
import {
  hiddenFields,
  hiddenLine,
  money,
  pageArgs,
  pageOf,
  pageOutput,
  period,
  quantityText,
  rateText,
  requestOptions,
  upperCaseEnum,
} from "../format.js";
import { resolveAccounts } from "../known-ids.js";
import {
  type InvoiceOut,
  invoiceDetailsOutput,
  invoiceOutput,
  toInvoiceDetails,
  toInvoiceOutput,
} from "../shapes/invoice.js";
import type { BilledOut } from "../shapes/payment-request.js";

const INVOICE_STATUSES = ["PAID", "UNPAID", "OVERDUE", "CREDITED"] as const;
const TRANSACTION_TYPES = ["INVOICE", "CREDIT_NOTE", "BATCH_INVOICE"] as const;
const CURRENCIES = ["CAD", "DKK", "EUR", "GBP", "NOK", "SEK", "USD", "AED", "SGD", "AUD"] as const;
const ORDER_COLUMNS = ["DATE", "DUE_DATE", "NUMBER", "TOTAL_AMOUNT"] as const;
/** The list filters; a lookup by number takes none of them. */
const LIST_FILTERS = ["status", "transactionTypes", "search", "currency", "accounts", "orderBy"];

const NEWEST_FIRST = [
  { column: "DATE", order: "DESC" },
  { column: "NUMBER", order: "DESC" },
] as const;

type Totals = { currency: string; gross: number; open: number; count: number };

export const listInvoicesTool = defineTool({
  name: "list_invoices",
  title: "List invoices",
  toolset: "invoices",
  instruction:
    "list_invoices lists invoices with filters, or shows one by its number with its rows and PDF. Amounts come per currency; never add amounts of different currencies together.",
  readme: {
    does: "Invoices and credit notes, open amounts, totals per currency; one invoice (by number or its last digits) with each row's worker, hours, rate and amount, and its PDF",
  },
  description: [
    "List invoices and credit notes with open amounts and totals per currency; or one invoice by number, with rows and PDF.",
    "Use when: what do we owe in EUR, which invoices are overdue, show INV-2026-0042.",
    "Do not use for: hours or payment requests (use list_payment_requests).",
    "No date filter exists: order by DATE and page until the dates pass the period. Paged.",
    'Example: {"status": ["UNPAID", "OVERDUE"], "currency": ["EUR"]}',
  ].join("\n"),
  inputSchema: {
    number: z
      .string()
      .min(1)
      .optional()
      .describe("One invoice by number, or its last digits (42); with rows and PDF."),
    status: z
      .array(upperCaseEnum(INVOICE_STATUSES))
      .optional()
      .describe('E.g. ["UNPAID", "OVERDUE"].'),
    transactionTypes: z
      .array(upperCaseEnum(TRANSACTION_TYPES))
      .optional()
      .describe('E.g. ["CREDIT_NOTE"].'),
    search: z
      .string()
      .min(1)
      .optional()
      .describe("PO number, invoice number, worker name or amount."),
    currency: z.array(upperCaseEnum(CURRENCIES)).optional().describe('E.g. ["EUR"].'),
    accounts: z.array(z.string().min(1)).optional().describe("Company ids."),
    orderBy: z
      .array(
        z.object({
          column: upperCaseEnum(ORDER_COLUMNS).describe("TOTAL_AMOUNT is the net total."),
          order: upperCaseEnum(["ASC", "DESC"] as const).describe("ASC or DESC."),
        }),
      )
      .optional()
      .describe("Sort clauses; default newest DATE first."),
    ...pageArgs,
  },
  outputSchema: {
    invoices: z.array(invoiceOutput),
    totals: z.array(
      z.object({ currency: z.string(), gross: z.number(), open: z.number(), count: z.number() }),
    ),
    totalsCoverOnlyThisPage: z.boolean(),
    page: pageOutput,
    /** Only with number: the invoice's document and rows (its amounts are in `invoices`). */
    invoice: invoiceDetailsOutput.nullable(),
    hiddenFields: z.array(z.string()),
  },
  annotations: readOnlyAnnotations,
  async handler(args, ctx) {
    const today = new Date().toISOString().slice(0, 10);
    if (args.number !== undefined) {
      const given = LIST_FILTERS.filter((key) => args[key as keyof typeof args] !== undefined);
      if (given.length > 0) {
        throw new ToolInputError(
          `number looks up one invoice, so ${given.join(", ")} cannot be used with it`,
          given.join(", "),
          "Leave the other filters out, or drop number to list invoices.",
        );
      }
      const byNumber = (number: string) =>
        ctx.client.run(
          invoiceByNumberQuery,
          { number, first: clampPageSize(args.first), page: clampPage(args.page) },
          requestOptions(ctx),
        );
      let { data, restricted } = await byNumber(args.number);
      let note: string | undefined;
      if (!data.invoice) {
        const full = await fullNumber(ctx, args.number);
        if (full) {
          ({ data, restricted } = await byNumber(full));
          note = `${oneLine(args.number)} is not a whole invoice number; the one invoice ending so is ${oneLine(full)}.`;
        }
      }
      if (!data.invoice) {
        throw new ToolInputError(
          `no invoice numbered ${args.number} is visible to you`,
          "number",
          'Check the number as printed, or look for it with {"search": "<part of the number>"}.',
        );
      }
      return oneInvoice(data.invoice, today, hiddenFields(restricted), note);
    }

    const accounts = await resolveAccounts(ctx, args.accounts);
    const { data, restricted } = await ctx.client.run(
      listInvoicesQuery,
      {
        status: args.status,
        transactionTypes: args.transactionTypes,
        search: args.search,
        currency: args.currency,
        accounts: accounts.ids,
        // The platform states no default order; the description promises newest first.
        orderBy: args.orderBy ?? [...NEWEST_FIRST],
        first: clampPageSize(args.first),
        page: clampPage(args.page),
      },
      requestOptions(ctx),
    );
    const invoices = data.invoices.data.map((i) => toInvoiceOutput(i, today));
    const info = pageOf(data.invoices.paginatorInfo);
    const totals = totalsOf(invoices);
    const partial = info.hasMore || info.page > 1;
    const hidden = hiddenFields(restricted);

    const lines = [...accounts.notes, info.summary, ...invoices.map((i) => `- ${invoiceLine(i)}`)];
    if (totals.length > 0) {
      const scope = partial ? "Totals for this page only" : "Totals";
      lines.push(`${scope}: ${totalsText(totals)}.`);
    }
    const hiddenText = hiddenLine(hidden);
    if (hiddenText) lines.push(hiddenText);
    return {
      structured: {
        invoices,
        totals,
        totalsCoverOnlyThisPage: partial,
        page: info,
        invoice: null,
        hiddenFields: hidden,
      },
      text: lines.join("\n"),
    };
  },
});

/** Leading letters and trailing digits: "INV-0042" → INV and 42, "42" → no letters and 42. */
const SHORT_NUMBER = /^\s*(?:([a-z]+)[\s-]*)?#?0*(\d+)\s*$/i;

/**
 * The rule for a short number: the same leading letters, if given, and the same value of the last
 * digits, so "INV-0042" and "42" find "INV-2026-0042" (but not "INV-2026-0420"). It names an
 * invoice only when exactly one visible invoice fits; several are listed for the caller to choose.
 */
async function fullNumber(ctx: ToolContext, given: string): Promise<string | undefined> {
  const short = SHORT_NUMBER.exec(given);
  if (!short) return undefined;
  const [, letters, digits] = short as unknown as [string, string | undefined, string];
  const { data } = await ctx.client.run(
    listInvoicesQuery,
    { search: digits, orderBy: [...NEWEST_FIRST], first: 100, page: 1 },
    requestOptions(ctx),
  );
  const fits = data.invoices.data.filter((i) => {
    const parts = /^([a-z]*)\D*?(?:\d+\D+)*0*(\d+)$/i.exec(i.number ?? "");
    if (!parts || parts[2] !== digits) return false;
    return letters === undefined || parts[1]?.toLowerCase() === letters.toLowerCase();
  });
  if (fits.length <= 1) return fits[0]?.number ?? undefined;
  const listed = fits
    .slice(0, 10)
    .map((i) => `${oneLine(i.number ?? "")} (${oneLine(i.date)})`)
    .join(", ");
  throw new ToolInputError(
    `${given} is not a whole invoice number and ${fits.length} invoices end so: ${listed}${fits.length > 10 ? ", …" : ""}`,
    "number",
    "Give the whole number of the one you mean.",
  );
}

function oneInvoice(found: InvoiceDetails, today: string, hidden: string[], note?: string) {
  const summary = toInvoiceOutput(found, today);
  const invoice = toInvoiceDetails(found);
  const rowsPage = invoice.rowsPage;
  const one: PageInfo = {
    page: 1,
    perPage: 1,
    total: 1,
    lastPage: 1,
    from: 1,
    to: 1,
    hasMore: false,
  };
  const lines = [
    ...(note ? [note] : []),
    `Invoice ${invoiceLine(summary)}`,
    `Net ${money(summary.netAmount)}, tax ${money(invoice.taxAmount)}${invoice.markedPaidAt ? `; marked paid ${oneLine(invoice.markedPaidAt)}` : ""}${invoice.fullyCredited ? "; fully credited" : ""}`,
    `Invoice document (PDF; the link expires, ask again for a fresh one): ${urlText(invoice.pdfUrl)}`,
    `Rows: ${rowsPage.summary}`,
  ];
  for (const r of invoice.rows) {
    const worker = r.worker ? `${quoted(r.worker.name)} (${oneLine(r.worker.id)})` : "no worker";
    const text = r.text === null ? "" : `; text ${quoted(r.text)}`;
    lines.push(`- ${oneLine(r.id)} ${worker}: ${billedText(r.billed)}${text}`);
  }
  const hiddenText = hiddenLine(hidden);
  if (hiddenText) lines.push(hiddenText);
  return {
    structured: {
      invoices: [summary],
      totals: totalsOf([summary]),
      totalsCoverOnlyThisPage: false,
      page: { ...one, summary: describePage(one) },
      invoice,
      hiddenFields: hidden,
    },
    text: lines.join("\n"),
  };
}

// Hours (or days) and rate come from the row's payment request, the only place they are given.
function billedText(b: BilledOut | null): string {
  if (!b) return "no payment request on the row, so no hours or rate";
  const rate = rateText(b.rate, b.currency, b.rateType);
  return `${period(b.startDate, b.endDate)}, ${quantityText(b.quantity, b.rateType)} at ${rate} = ${oneLine(b.currency)} ${money(b.amount)} (${oneLine(b.paymentRequest)})`;
}

const TYPE_LABELS: Record<string, string> = {
  CREDIT_NOTE: "credit note",
  BATCH_INVOICE: "batch invoice",
};

// Payer and payee are names, so quoted; number, dates, type and currency only kept to one line.
function invoiceLine(i: InvoiceOut): string {
  const open = i.openAmount > 0 ? `, open ${money(i.openAmount)}` : ", paid";
  const flag = i.overdue ? " OVERDUE" : "";
  const type = i.type in TYPE_LABELS ? ` (${TYPE_LABELS[i.type]})` : "";
  const number = i.number === null ? "(no number)" : oneLine(i.number);
  return `${number}${type} ${oneLine(i.date)}, due ${oneLine(i.dueDate)}: ${oneLine(i.currency)} ${money(i.grossAmount)} (net ${money(i.netAmount)})${open}${flag} — payer ${quoted(i.payer)} → payee ${quoted(i.payee)}`;
}

function totalsOf(invoices: InvoiceOut[]): Totals[] {
  const byCurrency = new Map<string, Totals>();
  for (const i of invoices) {
    const t = byCurrency.get(i.currency) ?? { currency: i.currency, gross: 0, open: 0, count: 0 };
    t.gross = round2(t.gross + i.grossAmount);
    t.open = round2(t.open + i.openAmount);
    t.count += 1;
    byCurrency.set(i.currency, t);
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

function totalsText(totals: Totals[]): string {
  return totals
    .map((t) => `${oneLine(t.currency)} ${money(t.gross)} gross, ${money(t.open)} open`)
    .join("; ");
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
