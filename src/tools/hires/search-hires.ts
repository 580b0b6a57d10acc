import * as z from "zod";
import { searchHiresQuery } from "../../client/operations/index.js";
import { clampPage, clampPageSize } from "../../client/pagination.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import { defineTool, readOnlyAnnotations, ToolInputError } from "../define-tool.js";
import {
  dateRangeSchema,
  hiddenFields,
  hiddenLine,
  pageArgs,
  pageOf,
  pageOutput,
  period,
  rateText,
  requestOptions,
  upperCaseEnum,
} from "../format.js";
import { resolveAccounts, resolveWorkers } from "../known-ids.js";
import type { ContractSummary } from "../shapes/contract.js";
import { type HireSummaryOut, hireSummaryOutput, toHireSummary } from "../shapes/hire.js";

const HIRE_STATUSES = [
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

const CONTRACT_STATUSES = ["DRAFT", "ACTIVE", "ARCHIVED"] as const;

export const searchHiresTool = defineTool({
  name: "search_hires",
  title: "Search hires",
  toolset: "hires",
  instruction:
    "search_hires finds hires (a worker engaged by a company) by name, status, company, worker, owner or dates. Start here: it returns the hire, worker and contract ids the other tools take. The active contract holds the terms in force; a draft is not signed yet.",
  readme: {
    does: '"Who is active at Nordlys?", "my hires", "hires starting next month", "who has not logged hours this month?"; the terms in force and any unsigned change',
  },
  description: [
    "Find hires (a worker engaged by a company) by name, status, company, worker, owner, dates or missing hours.",
    "Use when: who is active at Nordlys, Ana's rate, my hires, who starts next month, who has not logged hours.",
    "Do not use for: one hire in full (use get_hire); documents (use get_contract).",
    "Returns: hires with ids, dates and terms in force (unsigned drafts apart; rates may be hidden). Paged.",
    'Example: {"activeStatus": ["ACTIVE"], "accounts": ["214"]}',
  ].join("\n"),
  inputSchema: {
    search: z.string().min(1).optional().describe("Worker name, email, job or hire number."),
    activeStatus: z.array(upperCaseEnum(HIRE_STATUSES)).optional().describe('e.g. ["ACTIVE"].'),
    accounts: z.array(z.string().min(1)).optional().describe("Company ids."),
    workers: z.array(z.string().min(1)).optional().describe("Worker ids."),
    owners: z
      .array(z.string().min(1))
      .optional()
      .describe("Owners' user ids (yours: list_accounts)."),
    contractStatus: z
      .array(upperCaseEnum(CONTRACT_STATUSES))
      .optional()
      .describe('["DRAFT"]: not signed yet.'),
    externalIdentifiers: z.array(z.string().min(1)).optional().describe("Your own systems' ids."),
    startDateRange: dateRangeSchema("start date").optional(),
    endDateRange: dateRangeSchema("end date").optional(),
    missingHoursBetween: dateRangeSchema("day")
      .describe("No payment request in range: who logged no hours.")
      .optional(),
    orderBy: z
      .array(
        z.object({
          field: upperCaseEnum(ORDER_COLUMNS).describe("Column."),
          order: upperCaseEnum(["ASC", "DESC"] as const).describe("ASC or DESC."),
        }),
      )
      .optional()
      .describe("Sort order."),
    ...pageArgs,
  },
  outputSchema: {
    hires: z.array(hireSummaryOutput),
    page: pageOutput,
    hiddenFields: z.array(z.string()),
  },
  annotations: readOnlyAnnotations,
  async handler(args, ctx) {
    for (const [name, range] of [
      ["startDateRange", args.startDateRange],
      ["endDateRange", args.endDateRange],
      ["missingHoursBetween", args.missingHoursBetween],
    ] as const) {
      if (range?.from && range.to && range.from > range.to) {
        throw new ToolInputError(
          `from (${range.from}) is after to (${range.to})`,
          name,
          "Swap the dates or leave one out.",
        );
      }
    }
    const accounts = await resolveAccounts(ctx, args.accounts);
    const workers = await resolveWorkers(ctx, args.workers);
    const { data, restricted } = await ctx.client.run(
      searchHiresQuery,
      {
        search: args.search,
        activeStatus: args.activeStatus,
        accounts: accounts.ids,
        startDateRange: args.startDateRange,
        endDateRange: args.endDateRange,
        workers: workers.ids,
        contractStatus: args.contractStatus,
        externalIdentifiers: args.externalIdentifiers,
        owners: args.owners,
        missingPaymentRequestDateRange: args.missingHoursBetween,
        orderBy: args.orderBy,
        first: clampPageSize(args.first),
        page: clampPage(args.page),
      },
      requestOptions(ctx),
    );
    const info = pageOf(data.hires.paginatorInfo);
    const hires = data.hires.data.map(toHireSummary);
    const hidden = hiddenFields(restricted);
    const lines = hires.map((hire) => renderHire(hire, args.search));
    const text = [...accounts.notes, ...workers.notes, info.summary, ...lines, hiddenLine(hidden)]
      .filter(Boolean)
      .join("\n");
    return {
      structured: { hires, page: info, hiddenFields: hidden },
      text,
    };
  },
});

const status = (c: ContractSummary) => oneLine(c.status).toLowerCase();

function termsText(c: ContractSummary, job: boolean): string {
  const name = job ? `job ${quoted(c.jobName)}, ` : "";
  return `${name}${rateText(c.rate, c.currency, c.rateType)}`;
}

// Names, emails and jobs are quoted; ids, statuses and dates are only kept to one line.
/** "from 2026-01-05, terminated 2026-10-01 (planned end 2027-02-28)", or the planned period. */
function dates(h: HireSummaryOut): string {
  if (!h.terminationDate) return period(h.startDate, h.endDate);
  const from = h.startDate ? `from ${oneLine(h.startDate)}, ` : "";
  const planned = h.endDate ? ` (planned end ${oneLine(h.endDate)})` : "";
  return `${from}terminated ${oneLine(h.terminationDate)}${planned}`;
}

/** "; matched the job title" when the search found the hire by its job and not its worker. */
function matchNote(h: HireSummaryOut, search: string | undefined): string {
  if (!search) return "";
  const needle = search.trim().toLowerCase();
  const has = (value: string | null | undefined) => !!value?.toLowerCase().includes(needle);
  const byWorker = has(h.worker.name) || has(h.worker.email) || has(h.number) || has(h.id);
  const jobs = [h.activeContract, h.draftContract, h.latestContract].map((c) => c?.jobName);
  return !byWorker && jobs.some(has) ? "; matched the job title" : "";
}

function renderHire(h: HireSummaryOut, search: string | undefined): string {
  const email = h.worker.email ? `; email ${quoted(h.worker.email)}` : "";
  const who = `${quoted(h.worker.name)} (worker ${oneLine(h.worker.id)}${email})`;
  const d = h.draftContract;
  let contract = "";
  if (h.activeContract) {
    // The terms in force; a draft beside them is a change nobody has signed yet.
    const c = h.activeContract;
    contract = ` — job ${quoted(c.jobName)}, contract ${oneLine(c.id)} (${status(c)}), ${rateText(c.rate, c.currency, c.rateType)}`;
    if (d) {
      const from = d.startDate ? ` from ${oneLine(d.startDate)}` : "";
      contract += `; unsigned change pending: contract ${oneLine(d.id)}, ${termsText(d, d.jobName !== c.jobName)}${from}, not signed yet`;
    }
  } else {
    // No terms in force: the latest contract (the draft, when it is the latest) and its status.
    const latest = h.latestContract ?? d;
    if (latest) {
      const unsigned = latest.status === "DRAFT" ? ", not signed yet" : "";
      contract = ` — no active contract; latest contract ${oneLine(latest.id)} (${status(latest)}${unsigned}): ${termsText(latest, true)}`;
    }
    if (d && d !== latest) {
      contract += `; draft contract ${oneLine(d.id)}: ${termsText(d, d.jobName !== latest?.jobName)}, not signed yet`;
    }
  }
  return `- ${oneLine(h.id)} (no. ${oneLine(h.number)}) ${oneLine(h.status)}: ${who} at ${quoted(h.company.name)} (${oneLine(h.company.id)}), ${dates(h)}${contract}${matchNote(h, search)}`;
}
