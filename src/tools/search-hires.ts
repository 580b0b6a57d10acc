import { z } from "zod";
import { type HireSummary, searchHiresQuery } from "../client/operations.js";
import { clampPage, clampPageSize, describePage, readPage } from "../client/pagination.js";
import { defineTool, ToolInputError } from "./define-tool.js";
import {
  dateRangeSchema,
  hiddenFields,
  hiddenLine,
  pageArgs,
  pageOutput,
  period,
  rateText,
  requestOptions,
  upperCaseEnum,
} from "./format.js";
import { oneLine, quoted } from "./platform-text.js";

export const HIRE_STATUSES = [
  "DRAFT",
  "OFFERED",
  "READY",
  "ACTIVE",
  "ENDED",
  "CANCELLED",
  "TERMINATED",
] as const;

const ORDER_COLUMNS = [
  "START_DATE",
  "END_DATE",
  "COMPANY_NAME",
  "WORKER_NAME",
  "JOB_NAME",
  "HIRE_ID",
  "CREATED_AT",
  "ENGAGEMENT_TYPE",
  "LAST_PAYMENT_REQUEST_DATE",
] as const;

const hireOutput = z.object({
  id: z.string(),
  status: z.string(),
  worker: z.object({ name: z.string(), email: z.string().nullable() }),
  company: z.object({ id: z.string(), name: z.string() }),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  latestContract: z
    .object({
      id: z.string(),
      status: z.string(),
      jobName: z.string(),
      rate: z.number().nullable(),
      rateType: z.string().nullable(),
      currency: z.string(),
    })
    .nullable(),
});

export const searchHiresTool = defineTool({
  name: "search_hires",
  title: "Search hires",
  toolset: "hires",
  instruction:
    "search_hires finds hires (a worker engaged by a company) by name, status, dates or company. Start here: it returns the hire ids, and the latest contract ids, that the other tools take.",
  description: [
    "Find hires (one worker engaged by one company) by name, status, company or dates.",
    'Use when: "who is active at Nordlys?", "hires starting next month", "find Ana\'s hire", or to get the hire id another tool needs.',
    "Do not use for: the full terms, payment terms or files of a contract (use get_contract); invoices (use list_invoices).",
    'Returns: a page of hires, each with id, status, worker name and email, company, start and end dates, and the latest contract\'s id, status, job, rate and currency (rates may be hidden for some accounts), plus paging such as "1–25 of 143, page 1 of 6".',
    'Examples: {"activeStatus": ["ACTIVE"], "accounts": ["cmp_nordlys"]}; {"startDateRange": {"from": "2026-12-01", "to": "2026-12-31"}}; {"search": "Ana"}; {"orderBy": [{"field": "START_DATE", "order": "DESC"}], "page": 2}.',
  ].join("\n"),
  inputSchema: {
    search: z
      .string()
      .min(1)
      .optional()
      .describe("Free text matched against worker name, email, job and hire number."),
    activeStatus: z
      .array(upperCaseEnum(HIRE_STATUSES))
      .optional()
      .describe('Only hires in these statuses, e.g. ["ACTIVE"]. Any letter case is accepted.'),
    accounts: z
      .array(z.string().min(1))
      .optional()
      .describe("Only hires at these companies (company ids such as cmp_nordlys)."),
    startDateRange: dateRangeSchema("start date").optional(),
    endDateRange: dateRangeSchema("end date").optional(),
    orderBy: z
      .array(
        z.object({
          field: upperCaseEnum(ORDER_COLUMNS).describe("Column to sort by."),
          order: upperCaseEnum(["ASC", "DESC"] as const).describe("ASC or DESC."),
        }),
      )
      .optional()
      .describe('Sort order, first entry first, e.g. [{"field": "START_DATE", "order": "ASC"}].'),
    ...pageArgs,
  },
  outputSchema: {
    hires: z.array(hireOutput),
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
    for (const [name, range] of [
      ["startDateRange", args.startDateRange],
      ["endDateRange", args.endDateRange],
    ] as const) {
      if (range?.from && range.to && range.from > range.to) {
        throw new ToolInputError(
          `from (${range.from}) is after to (${range.to})`,
          name,
          "Swap the dates or leave one out.",
        );
      }
    }
    const { data, restricted } = await ctx.client.run(
      searchHiresQuery,
      {
        search: args.search,
        activeStatus: args.activeStatus,
        accounts: args.accounts,
        startDateRange: args.startDateRange,
        endDateRange: args.endDateRange,
        orderBy: args.orderBy,
        first: clampPageSize(args.first),
        page: clampPage(args.page),
      },
      requestOptions(ctx),
    );
    const info = readPage(data.hires.paginatorInfo);
    const summary = describePage(info);
    const hires = data.hires.data.map(toOutput);
    const hidden = hiddenFields(restricted);
    const lines = hires.map(renderHire);
    const text = [summary, ...lines, hiddenLine(hidden)].filter(Boolean).join("\n");
    return {
      structured: { hires, page: { ...info, summary }, hiddenFields: hidden },
      text,
    };
  },
});

function toOutput(hire: HireSummary): z.infer<typeof hireOutput> {
  const c = hire.latestContract;
  return {
    id: hire.id,
    status: hire.status,
    worker: { name: hire.worker.name, email: hire.worker.email },
    company: { id: hire.company.id, name: hire.company.name },
    startDate: hire.startDate,
    endDate: hire.endDate,
    latestContract: c
      ? {
          id: c.id,
          status: c.status,
          jobName: c.jobName,
          rate: c.rate,
          rateType: c.rateType,
          currency: c.currency,
        }
      : null,
  };
}

// Names, emails and jobs are quoted; ids, statuses and dates are only kept to one line.
function renderHire(h: z.infer<typeof hireOutput>): string {
  const c = h.latestContract;
  const contract = c
    ? ` — job ${quoted(c.jobName)}, contract ${oneLine(c.id)} (${oneLine(c.status).toLowerCase()}), ${rateText(c.rate, c.currency, c.rateType)}`
    : "";
  const email = h.worker.email ? ` (email ${quoted(h.worker.email)})` : "";
  return `- ${oneLine(h.id)} ${oneLine(h.status)}: ${quoted(h.worker.name)}${email} at ${quoted(h.company.name)} (${oneLine(h.company.id)}), ${period(h.startDate, h.endDate)}${contract}`;
}
