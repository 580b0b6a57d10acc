import { z } from "zod";
import { type InvoiceSummary, listInvoicesQuery } from "../client/operations.js";
import { clampPage, clampPageSize, describePage, readPage } from "../client/pagination.js";
import { defineTool } from "./define-tool.js";
import {
  hiddenFields,
  hiddenLine,
  money,
  pageArgs,
  pageOutput,
  requestOptions,
  upperCaseEnum,
} from "./format.js";
import { oneLine, quoted } from "./platform-text.js";

const INVOICE_STATUSES = ["PAID", "UNPAID", "OVERDUE", "CREDITED"] as const;
const CURRENCIES = ["CAD", "DKK", "EUR", "GBP", "NOK", "SEK", "USD", "AED", "SGD", "AUD"] as const;
const ORDER_COLUMNS = ["DATE", "DUE_DATE", "NUMBER", "TOTAL_AMOUNT"] as const;

const invoiceOutput = z.object({
  number: z.string().nullable(),
  date: z.string(),
  dueDate: z.string(),
  currency: z.string(),
  grossAmount: z.number(),
  openAmount: z.number(),
  overdue: z.boolean(),
  payer: z.string(),
  payee: z.string(),
  type: z.string(),
  company: z.object({ id: z.string(), name: z.string() }),
});

export const listInvoicesTool = defineTool({
  name: "list_invoices",
  title: "List invoices",
  toolset: "invoices",
  instruction:
    "list_invoices lists invoices with filters. Amounts come per currency; never add amounts of different currencies together.",
  description: [
    "List invoices and credit notes with amounts, due dates and what is still open, with totals per currency.",
    'Use when: "what do we owe in EUR?" (use {"status": ["UNPAID", "OVERDUE"], "currency": ["EUR"]}), "which invoices are overdue?", "find invoice 2026-0042", "what did we pay Harbor this year?".',
    "Do not use for: hires or workers (use search_hires); contract terms (use get_contract).",
    'Returns: a page of invoices, each with number, date, due date, currency, gross and open amount, payer, payee and whether it is overdue; gross and open totals per currency for this page only; paging such as "1–25 of 80, page 1 of 4".',
    'Examples: {"status": ["OVERDUE"]}; {"currency": ["DKK"], "orderBy": [{"column": "DUE_DATE", "order": "ASC"}]}; {"search": "2026-0042"}; {"accounts": ["cmp_castell"], "page": 2}.',
  ].join("\n"),
  inputSchema: {
    status: z
      .array(upperCaseEnum(INVOICE_STATUSES))
      .optional()
      .describe('Only these statuses. Unpaid money: ["UNPAID", "OVERDUE"]. Any letter case.'),
    search: z
      .string()
      .min(1)
      .optional()
      .describe("Free text matched against the invoice number, payer and payee."),
    currency: z
      .array(upperCaseEnum(CURRENCIES))
      .optional()
      .describe('Only invoices in these currencies, e.g. ["EUR"].'),
    accounts: z
      .array(z.string().min(1))
      .optional()
      .describe("Only invoices of these companies (company ids such as cmp_nordlys)."),
    orderBy: z
      .array(
        z.object({
          column: upperCaseEnum(ORDER_COLUMNS).describe("Column to sort by."),
          order: upperCaseEnum(["ASC", "DESC"] as const).describe("ASC or DESC."),
        }),
      )
      .optional()
      .describe('Sort order, e.g. [{"column": "DUE_DATE", "order": "ASC"}].'),
    ...pageArgs,
  },
  outputSchema: {
    invoices: z.array(invoiceOutput),
    totals: z.array(
      z.object({ currency: z.string(), gross: z.number(), open: z.number(), count: z.number() }),
    ),
    totalsCoverOnlyThisPage: z.boolean(),
    page: pageOutput,
    hiddenFields: z.array(z.string()),
  },
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  async handler(args, ctx) {
    const { data, restricted } = await ctx.client.run(
      listInvoicesQuery,
      {
        status: args.status,
        search: args.search,
        currency: args.currency,
        accounts: args.accounts,
        orderBy: args.orderBy,
        first: clampPageSize(args.first),
        page: clampPage(args.page),
      },
      requestOptions(ctx),
    );
    const today = new Date().toISOString().slice(0, 10);
    const invoices = data.invoices.data.map((i) => toOutput(i, today));
    const info = readPage(data.invoices.paginatorInfo);
    const summary = describePage(info);
    const byCurrency = new Map<
      string,
      { currency: string; gross: number; open: number; count: number }
    >();
    for (const i of invoices) {
      const t = byCurrency.get(i.currency) ?? { currency: i.currency, gross: 0, open: 0, count: 0 };
      t.gross = round2(t.gross + i.grossAmount);
      t.open = round2(t.open + i.openAmount);
      t.count += 1;
      byCurrency.set(i.currency, t);
    }
    const totals = [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
    const partial = info.hasMore || info.page > 1;
    const hidden = hiddenFields(restricted);

    const lines = [summary];
    for (const i of invoices) {
      const open = i.openAmount > 0 ? `, open ${money(i.openAmount)}` : ", paid";
      const flag = i.overdue ? " OVERDUE" : "";
      // Payer and payee are names, so quoted; number, dates and currency only kept to one line.
      lines.push(
        `- ${i.number === null ? "(no number)" : oneLine(i.number)} ${oneLine(i.date)}, due ${oneLine(i.dueDate)}: ${oneLine(i.currency)} ${money(i.grossAmount)}${open}${flag} — payer ${quoted(i.payer)} → payee ${quoted(i.payee)}`,
      );
    }
    if (totals.length > 0) {
      const scope = partial ? "Totals for this page only" : "Totals";
      const parts = totals.map(
        (t) => `${oneLine(t.currency)} ${money(t.gross)} gross, ${money(t.open)} open`,
      );
      lines.push(`${scope}: ${parts.join("; ")}.`);
    }
    const hiddenText = hiddenLine(hidden);
    if (hiddenText) lines.push(hiddenText);
    return {
      structured: {
        invoices,
        totals,
        totalsCoverOnlyThisPage: partial,
        page: { ...info, summary },
        hiddenFields: hidden,
      },
      text: lines.join("\n"),
    };
  },
});

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

function toOutput(i: InvoiceSummary, today: string): z.infer<typeof invoiceOutput> {
  // The platform's flag may be null; an open amount past its due date is overdue all the same.
  const overdue = i.isOverDue ?? (i.grossOpenAmount > 0 && i.dueDate < today);
  return {
    number: i.number,
    date: i.date,
    dueDate: i.dueDate,
    currency: i.currency,
    grossAmount: i.grossAmount,
    openAmount: i.grossOpenAmount,
    overdue,
    payer: i.payerDisplayName,
    payee: i.payeeDisplayName,
    type: i.transactionType,
    company: { id: i.company.id, name: i.company.name },
  };
}
