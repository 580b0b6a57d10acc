import * as z from "zod";
import type { PaymentRequestTotalsQueryVariables } from "../../client/operation-types.generated.js";
import {
  listPaymentRequestsQuery,
  paymentRequestTotalsQuery,
  TOTALS_PAGE_SIZE,
} from "../../client/operations/payments.js";
import { clampPage, clampPageSize } from "../../client/pagination.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import {
  defineTool,
  readOnlyAnnotations,
  type ToolContext,
  ToolInputError,
} from "../define-tool.js";
import {
  dateSchema,
  hiddenFields,
  hiddenLine,
  money,
  pageOf,
  pageOutput,
  period,
  quantityText,
  rateText,
  requestOptions,
  upperCaseEnum,
} from "../format.js";
import { resolveAccounts, resolveHires } from "../known-ids.js";
import {
  type PaymentRequestOut,
  paymentRequestOutput,
  type RegistrationOut,
  toPaymentRequestOutput,
} from "../shapes/payment-request.js";

const STATUSES = ["UNAPPROVED", "APPROVED", "REJECTED", "CANCELLED"] as const;

export const listPaymentRequestsTool = defineTool({
  name: "list_payment_requests",
  title: "List payment requests",
  toolset: "timesheets",
  instruction:
    "list_payment_requests shows the hours and money workers submitted (payment requests) by hire, company, status or work period, with daily hours on request. It only reads: the API cannot approve them.",
  readme: {
    does: '"What hours did Ana log last week?", "unapproved payment requests", spend per period and status over every matching request (up to 1,000)',
  },
  description: [
    "List payment requests: hours or money workers submit per period, with totals per currency. The API cannot approve them: a person does, in the web app.",
    "Use when: hours Ana logged last week, unapproved payment requests, spend with Harbor & Pine this quarter.",
    "Do not use for: who has not logged hours (use search_hires). Paged.",
    'Example: {"hires": ["48213"], "period": {"from": "2026-11-09", "to": "2026-11-15"}, "includeHours": true}',
  ].join("\n"),
  inputSchema: {
    hires: z.array(z.string()).optional().describe("Hire ids, from search_hires."),
    accounts: z.array(z.string()).optional().describe("Company ids."),
    statuses: z
      .array(upperCaseEnum(STATUSES))
      .optional()
      .describe("UNAPPROVED: awaiting approval."),
    period: z
      .object({
        from: dateSchema("YYYY-MM-DD").optional(),
        to: dateSchema("YYYY-MM-DD").optional(),
      })
      .optional()
      .describe("Work period overlaps these days."),
    includeHours: z.boolean().optional().describe("Hours per day too."),
    first: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe("Rows (default 25); 0: totals only."),
    page: z.number().int().min(1).optional().describe("Page, from 1."),
  },
  outputSchema: {
    paymentRequests: z.array(paymentRequestOutput),
    /**
     * Per currency over every matching request (up to 1,000): payable is approved plus awaiting
     * approval; rejected and cancelled requests are not payable and counted apart.
     */
    totals: z.array(
      z.object({
        currency: z.string(),
        payable: z.number(),
        approved: z.number(),
        awaitingApproval: z.number(),
        rejected: z.number(),
        cancelled: z.number(),
        count: z.number(),
      }),
    ),
    /** Hours on the payable hourly requests the totals cover. */
    totalHours: z.number(),
    /** With a period and includeHours: the hours logged on the days inside it (this page). */
    hoursInPeriod: z.number().nullable(),
    /** How many requests the totals cover, of how many match: fewer only past 1,000. */
    totalsCover: z.object({ requests: z.number(), of: z.number() }),
    page: pageOutput,
    hiddenFields: z.array(z.string()),
  },
  annotations: readOnlyAnnotations,
  async handler(args, ctx) {
    const from = args.period?.from;
    const to = args.period?.to;
    if (from && to && from > to) {
      throw new ToolInputError(
        `from (${from}) is after to (${to})`,
        "period",
        "Swap the dates or leave one out.",
      );
    }
    // first: 0 asks for the totals alone: the rows are read (one, for the count) but not shown.
    const rowsWanted = args.first !== 0;
    const includeHours = args.includeHours === true && rowsWanted;
    const [hires, accounts] = await Promise.all([
      resolveHires(ctx, args.hires),
      resolveAccounts(ctx, args.accounts),
    ]);
    // One filter for the rows and the totals, so both always cover the same requests.
    const filters = {
      hires: hires.ids,
      accounts: accounts.ids,
      statuses: args.statuses,
      // Overlap: the period starts by `to` and ends on or after `from`.
      billingStartDateRange: to ? { to } : undefined,
      billingEndDateRange: from ? { from } : undefined,
      orderBy: [{ field: "ISSUED_AT" as const, order: "DESC" as const }],
    };
    const { data, restricted } = await ctx.client.run(
      listPaymentRequestsQuery,
      {
        ...filters,
        includeRegistrations: includeHours,
        first: rowsWanted ? clampPageSize(args.first) : 1,
        page: rowsWanted ? clampPage(args.page) : 1,
      },
      requestOptions(ctx),
    );
    const inPeriod = (date: string) => (!from || date >= from) && (!to || date <= to);
    const read = pageOf(data.paymentRequests.paginatorInfo);
    const info = rowsWanted
      ? read
      : {
          ...read,
          perPage: 0,
          from: 0,
          to: 0,
          lastPage: 0,
          hasMore: false,
          summary: `${read.total} ${read.total === 1 ? "request matches" : "requests match"}; rows left out (first: 0).`,
        };
    const requests: PaymentRequestOut[] = [];
    let cutRegistrations = false;
    /** Per request shown, the days logged outside the period (left out of its registrations). */
    const outside = new Map<PaymentRequestOut, number>();
    for (const r of rowsWanted ? data.paymentRequests.data : []) {
      const out = toPaymentRequestOutput(r, includeHours);
      if (out.registrations) {
        const kept = out.registrations.filter((g) => inPeriod(g.date));
        outside.set(out, out.registrations.length - kept.length);
        out.registrations = kept;
      }
      if (r.timesheet?.registrations?.paginatorInfo.hasMorePages) cutRegistrations = true;
      requests.push(out);
    }

    // Totals over the whole result: this page when it is all, else every page (100 at a time).
    const counted: TotalRow[] =
      !rowsWanted || info.hasMore || info.page > 1
        ? await everyRequest(ctx, filters, info.total)
        : requests.map((r) => ({ ...r, netAmount: r.amount, rateQuantity: r.quantity }));
    const totals = totalsOf(counted);
    const totalHours = round2(
      counted
        .filter((r) => PAYABLE.has(r.status) && r.rateType === "HOURLY")
        .reduce((sum, r) => sum + r.rateQuantity, 0),
    );
    const hoursInPeriod =
      includeHours && (from || to)
        ? round2(
            requests
              .flatMap((r) => r.registrations ?? [])
              .filter((g) => g.unit === "HOURS")
              .reduce((sum, g) => sum + g.duration, 0),
          )
        : null;
    const hidden = hiddenFields(restricted);
    const cover = { requests: counted.length, of: info.total };

    // The hours within the period, then the totals: the answers before the rows. A request's
    // billing period may reach outside the period asked for; its payable hours cover all of it.
    const within = period(from ?? null, to ?? null);
    const lines = [...hires.notes, ...accounts.notes];
    if (hoursInPeriod !== null && requests.length > 0) {
      const withoutDays = requests.filter(
        (r) => r.registrations?.length === 0 && outside.get(r) === 0,
      ).length;
      const shown = `${requests.length === 1 ? "the request" : `the ${requests.length} requests`} ${info.hasMore || info.page > 1 ? "on this page" : "shown"}`;
      lines.push(
        `Hours logged within ${within}: ${hoursInPeriod}, from the daily hours of ${shown}${withoutDays > 0 ? ` (${withoutDays} of them without daily hours)` : ""}.`,
      );
    }
    if (totals.length > 0) {
      const hoursScope = from || to ? ", over their whole billing periods" : "";
      lines.push(
        totalsLine(totals, cover, `Payable hours on hourly requests${hoursScope}: ${totalHours}.`),
      );
    }
    lines.push(info.summary);
    for (const r of requests) {
      lines.push(renderRequest(r));
      if (r.registrations) lines.push(renderDays(r.registrations, outside.get(r) ?? 0, within));
    }
    if (cutRegistrations)
      lines.push("Some timesheets have more than 100 days; only the first 100 are shown.");
    const hiddenText = hiddenLine(hidden);
    if (hiddenText) lines.push(hiddenText);
    return {
      structured: {
        paymentRequests: requests,
        totals,
        totalHours,
        hoursInPeriod,
        totalsCover: cover,
        page: info,
        hiddenFields: hidden,
      },
      text: lines.join("\n"),
    };
  },
});

/** Pages of 100 read for totals at most: past 1,000 requests the totals say what they cover. */
const MAX_TOTAL_PAGES = 10;
const PAYABLE = new Set(["APPROVED", "UNAPPROVED"]);

interface TotalRow {
  id: string;
  status: string;
  currency: string;
  rateType: string | null;
  rateQuantity: number;
  netAmount: number;
}

/** Every matching request's amounts: the pages the listing's total needs, read side by side. */
async function everyRequest(
  ctx: ToolContext,
  filters: Omit<PaymentRequestTotalsQueryVariables, "page">,
  total: number,
): Promise<TotalRow[]> {
  const pages = Math.min(MAX_TOTAL_PAGES, Math.max(1, Math.ceil(total / TOTALS_PAGE_SIZE)));
  const read = await Promise.all(
    Array.from({ length: pages }, (_, i) =>
      ctx.client.run(paymentRequestTotalsQuery, { ...filters, page: i + 1 }, requestOptions(ctx)),
    ),
  );
  // Keyed by id: a request that moved between pages while they were read is counted once.
  const rows = new Map<string, TotalRow>();
  for (const { data } of read) for (const r of data.paymentRequests.data) rows.set(r.id, r);
  return [...rows.values()];
}

interface Totals {
  currency: string;
  payable: number;
  approved: number;
  awaitingApproval: number;
  rejected: number;
  cancelled: number;
  count: number;
}

function totalsOf(rows: TotalRow[]): Totals[] {
  // In cents, so a thousand additions do not drift.
  const byCurrency = new Map<string, Totals>();
  const key: Record<string, "approved" | "awaitingApproval" | "rejected" | "cancelled"> = {
    APPROVED: "approved",
    UNAPPROVED: "awaitingApproval",
    REJECTED: "rejected",
    CANCELLED: "cancelled",
  };
  for (const r of rows) {
    const t = byCurrency.get(r.currency) ?? {
      currency: r.currency,
      payable: 0,
      approved: 0,
      awaitingApproval: 0,
      rejected: 0,
      cancelled: 0,
      count: 0,
    };
    const cents = Math.round(r.netAmount * 100);
    const k = key[r.status];
    if (k) t[k] += cents;
    if (PAYABLE.has(r.status)) t.payable += cents;
    t.count += 1;
    byCurrency.set(r.currency, t);
  }
  return [...byCurrency.values()]
    .map((t) => ({
      ...t,
      payable: t.payable / 100,
      approved: t.approved / 100,
      awaitingApproval: t.awaitingApproval / 100,
      rejected: t.rejected / 100,
      cancelled: t.cancelled / 100,
    }))
    .sort((a, b) => a.currency.localeCompare(b.currency));
}

function totalsLine(totals: Totals[], cover: { requests: number; of: number }, hours: string) {
  const scope =
    cover.requests < cover.of
      ? `Totals over the newest ${cover.requests} of ${cover.of} requests (the most read)`
      : `Totals over all ${cover.of} ${cover.of === 1 ? "request" : "requests"}`;
  const parts = totals.map((t) => {
    const payable = [
      t.approved ? `approved ${money(t.approved)}` : "",
      t.awaitingApproval ? `awaiting approval ${money(t.awaitingApproval)}` : "",
    ].filter(Boolean);
    const not = [
      t.rejected ? `rejected ${money(t.rejected)}` : "",
      t.cancelled ? `cancelled ${money(t.cancelled)}` : "",
    ].filter(Boolean);
    return `${oneLine(t.currency)} ${money(t.payable)} payable${payable.length > 0 ? ` (${payable.join(", ")})` : ""}${not.length > 0 ? `, not counted: ${not.join(", ")}` : ""}`;
  });
  return `${scope}: ${parts.join("; ")}. ${hours}`;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

function statusText(r: PaymentRequestOut): string {
  const on = (d: string | null) => (d ? ` ${oneLine(d)}` : "");
  switch (r.status) {
    case "UNAPPROVED":
      return "awaiting approval";
    case "APPROVED": {
      const approved = `approved${on(r.approvedOn)}${r.approvedAutomatically ? " (automatically)" : ""}`;
      if (r.paidOn) return `${approved}, paid${on(r.paidOn)}`;
      if (r.payoutStatus === "OVERDUE") return `${approved}, payout overdue since${on(r.dueOn)}`;
      return `${approved}, payout due${on(r.dueOn)}`;
    }
    case "REJECTED":
      return `rejected${on(r.rejectedOn)}`;
    case "CANCELLED":
      return `cancelled${on(r.cancelledOn)}`;
    default:
      return oneLine(r.status).toLowerCase();
  }
}

// Names and comments are quoted; ids, statuses, dates and currencies only kept to one line.
function renderRequest(r: PaymentRequestOut): string {
  const quantity = quantityText(r.quantity, r.rateType);
  const rate = rateText(r.rate, r.currency, r.rateType);
  const hire = r.hireId ? ` ${oneLine(r.hireId)}` : "";
  const note = r.comments ? `; comment ${quoted(r.comments)}` : "";
  return `- ${oneLine(r.id)} (${oneLine(r.number)})${hire} ${quoted(r.worker.name)} at ${quoted(r.company.name)}: ${period(r.startDate, r.endDate)}, ${quantity}, ${oneLine(r.currency)} ${money(r.amount)} (${rate}) — ${statusText(r)}, submitted ${oneLine(r.submittedOn)}${note}`;
}

/** A request's daily hours within the period, and how many logged days lie outside it. */
function renderDays(days: RegistrationOut[], outside: number, within: string): string {
  const elsewhere = `${outside} ${outside === 1 ? "day" : "days"} logged outside it`;
  if (days.length === 0) {
    return outside === 0
      ? "  Daily hours: none logged on a timesheet."
      : `  Daily hours: none within ${within}; ${elsewhere}.`;
  }
  const parts = days.map((d) => {
    const unit = d.unit === "DAYS" ? (d.duration === 1 ? "day" : "days") : "h";
    return `${oneLine(d.date)} ${d.duration} ${unit}${d.billable ? "" : " (not billable)"}`;
  });
  return outside === 0
    ? `  Daily hours: ${parts.join(", ")}`
    : `  Daily hours within ${within}: ${parts.join(", ")}; ${elsewhere}, left out.`;
}
