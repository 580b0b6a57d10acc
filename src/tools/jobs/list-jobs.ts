import * as z from "zod";
import { jobDetailsQuery, listJobsQuery } from "../../client/operations/jobs.js";
import { clampPage, clampPageSize, MAX_PAGE_SIZE } from "../../client/pagination.js";
import { oneLine, quoted } from "../../client/platform-text.js";
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
  rateText,
  requestOptions,
} from "../format.js";
import { resolveAccounts } from "../known-ids.js";
import {
  candidacyOutput,
  type JobDetailOut,
  type JobOut,
  jobDetailOutput,
  jobOutput,
  toCandidacyOutput,
  toJobDetail,
  toJobOutput,
} from "../shapes/job.js";
import {
  bidRate,
  boundNote,
  type Candidacy,
  candidacyText,
  mayHaveMore,
  personRows,
  readCandidacies,
} from "./candidacies.js";

const JOB_STATUSES = ["DRAFT", "ACTIVE", "COMPLETED", "REMOVED"] as const;
// Words people use for the platform's statuses; the schema lists only the real values.
const STATUS_WORDS: Record<string, string> = { OPEN: "ACTIVE", PUBLISHED: "ACTIVE" };

type JobStatus = (typeof JOB_STATUSES)[number];

const jobStatus = z.preprocess((v) => {
  if (typeof v !== "string") return v;
  const upper = v.trim().toUpperCase();
  return STATUS_WORDS[upper] ?? upper;
}, z.enum(JOB_STATUSES));

export const listJobsTool = defineTool({
  name: "list_jobs",
  title: "List jobs",
  toolset: "jobs",
  instruction:
    "list_jobs lists jobs with their candidate and bid counts; with a jobId (or when one job matches) it shows that job's candidates and bids, whose ids the other job tools take; with a person (name or worker id), every job they are a candidate or bidder on.",
  readme: {
    does: "Jobs with candidate and bid counts; one job's candidates and bids; every job where a named person is a candidate or bidder",
  },
  description: [
    "Jobs with candidate and bid counts, or the candidates and bids of one job (jobId) or person.",
    "Use when: open jobs with no candidates, who applied to job 3108, Ana Costa's candidacies.",
    "Do not use for: the talent pool (search_talent_pool).",
  ].join("\n"),
  inputSchema: {
    search: z.string().min(1).optional().describe("Job name or description."),
    statuses: z.array(jobStatus).optional().describe("ACTIVE: published, open."),
    accounts: z.array(z.string().min(1)).optional().describe("Company ids (list_accounts)."),
    jobId: z.string().min(1).optional().describe("One job's candidates and bids."),
    person: z.string().min(1).optional().describe("Worker name or id."),
    ...pageArgs,
  },
  outputSchema: {
    jobs: z.array(jobOutput),
    /** The list's paging; null when one job is shown. */
    page: pageOutput.nullable(),
    /** The job asked for with jobId; null for a list. */
    job: jobDetailOutput.nullable(),
    /** With person: each job where they are a candidate. */
    candidacies: z.array(candidacyOutput).optional(),
    hiddenFields: z.array(z.string()),
  },
  annotations: readOnlyAnnotations,
  async handler(args, ctx) {
    const options = requestOptions(ctx);
    const first = clampPageSize(args.first);
    const page = clampPage(args.page);

    if (args.person !== undefined) return byPerson(ctx, { ...args, person: args.person });
    if (args.jobId !== undefined) {
      const extra = (["search", "statuses", "accounts"] as const).filter(
        (k) => args[k] !== undefined,
      );
      if (extra.length > 0) {
        throw new ToolInputError(
          `jobId shows one job; ${extra.join(" and ")} only filter the list`,
          extra.join(", "),
          "Leave them out with jobId, or leave out jobId to list jobs.",
        );
      }
      const detail = await readDetail(ctx, args.jobId, first, page);
      if (!detail) {
        throw new ToolInputError(
          `job ${args.jobId} is unknown or not visible to you`,
          "jobId",
          "Call list_jobs without jobId to find the job's id.",
        );
      }
      return {
        structured: { jobs: [], page: null, job: detail.job, hiddenFields: detail.hidden },
        text: [renderDetail(detail.job, detail.hidden), hiddenLine(detail.hidden)]
          .filter(Boolean)
          .join("\n"),
      };
    }

    const accounts = await resolveAccounts(ctx, args.accounts);
    const { data, restricted } = await ctx.client.run(
      listJobsQuery,
      { search: args.search, statuses: args.statuses, accounts: accounts.ids, first, page },
      options,
    );
    const info = pageOf(data.jobs.paginatorInfo);
    const jobs = data.jobs.data.map(toJobOutput);
    const only = info.total === 1 ? jobs[0] : undefined;
    // The one job that matches is the one asked about: its candidates and bids, not counts only.
    const detail = only && (await readDetail(ctx, only.id, clampPageSize(undefined), 1));
    if (detail) {
      const hidden = [...new Set([...hiddenFields(restricted), ...detail.hidden])];
      return {
        structured: { jobs, page: info, job: detail.job, hiddenFields: hidden },
        text: [
          ...accounts.notes,
          "One job matches:",
          renderDetail(detail.job, hidden),
          hiddenLine(hidden),
        ]
          .filter(Boolean)
          .join("\n"),
      };
    }
    const hidden = hiddenFields(restricted);
    const idle = jobs.filter((j) => j.status === "ACTIVE" && j.candidates === 0);
    const idleLine =
      idle.length > 0
        ? `Open jobs with no candidates${info.hasMore ? " on this page" : ""}: ${idle
            .map((j) => `${oneLine(j.id)} ${quoted(j.name)}`)
            .join(", ")}.`
        : undefined;
    const text = [
      ...accounts.notes,
      `Jobs: ${info.summary}`,
      ...jobs.map(renderSummary),
      idleLine,
      hiddenLine(hidden),
    ]
      .filter(Boolean)
      .join("\n");
    return {
      structured: { jobs, page: info, job: null, hiddenFields: hidden },
      text,
    };
  },
});

/** One job with a page of its candidates and bids, or undefined when it is not visible. */
async function readDetail(ctx: ToolContext, id: string, first: number, page: number) {
  const { data, restricted } = await ctx.client.run(
    jobDetailsQuery,
    { id, first, page },
    requestOptions(ctx),
  );
  return data.job ? { job: toJobDetail(data.job), hidden: hiddenFields(restricted) } : undefined;
}

/** Every job where one person is a candidate or bidder, found by name or worker id. */
async function byPerson(
  ctx: ToolContext,
  args: {
    person: string;
    jobId?: string;
    search?: string;
    statuses?: JobStatus[];
    accounts?: string[];
    first?: number;
    page?: number;
  },
) {
  const extra = (["jobId", "first", "page"] as const).filter((k) => args[k] !== undefined);
  if (extra.length > 0) {
    throw new ToolInputError(
      `person lists every job they are on at once; ${extra.join(" and ")} ${extra.length === 1 ? "does" : "do"} not go with it`,
      extra.join(", "),
      "Leave them out with person.",
    );
  }
  const options = requestOptions(ctx);
  const filtered = [args.search, args.statuses, args.accounts].some((f) => f !== undefined);
  const accounts = await resolveAccounts(ctx, args.accounts);
  let jobIds: string[] | undefined;
  let jobsNote = "";
  if (filtered) {
    // The filters are the jobs query's; their ids narrow the candidates read.
    const { data } = await ctx.client.run(
      listJobsQuery,
      {
        search: args.search,
        statuses: args.statuses,
        accounts: accounts.ids,
        first: MAX_PAGE_SIZE,
      },
      options,
    );
    jobIds = data.jobs.data.map((j) => j.id);
    const total = data.jobs.paginatorInfo.total;
    if (total > jobIds.length) {
      jobsNote = `Only the newest ${jobIds.length} of the ${total} jobs matching the filters were read.`;
    }
    if (jobIds.length === 0) {
      return {
        structured: { jobs: [], page: null, job: null, candidacies: [], hiddenFields: [] },
        text: [
          ...accounts.notes,
          `No jobs match the filters, so ${quoted(args.person)} is a candidate on none of them.`,
        ].join("\n"),
      };
    }
  }
  const scan = await readCandidacies(ctx, jobIds);
  const where = filtered
    ? `on the ${jobIds?.length} jobs matching the filters`
    : "on jobs you can see";
  const narrow = "narrow the jobs with search, statuses or accounts";
  const rows = personRows(scan, args.person, "person", where, narrow);
  const bound = mayHaveMore(scan, rows) ? boundNote(scan, narrow) : "";
  const first = rows[0] as Candidacy;
  const email = first.worker.email ? `, email ${quoted(first.worker.email)}` : "";
  const candidacies = rows.map(toCandidacyOutput);
  return {
    structured: { jobs: [], page: null, job: null, candidacies, hiddenFields: scan.hidden },
    text: [
      ...accounts.notes,
      `${quoted(first.worker.name)} (${oneLine(first.worker.id)}${email}) is a candidate on ${plural(rows.length, "job")}${filtered ? " matching the filters" : ""}:`,
      ...rows.map(
        (c) =>
          `- ${oneLine(c.job.id)} #${c.job.number} ${quoted(c.job.name)} ${status(c.job.status)} at ${quoted(c.job.company.name)} (${oneLine(c.job.company.id)}): ${candidacyText(c)}`,
      ),
      jobsNote,
      bound && `Note: ${bound}; they may be a candidate on more jobs.`,
      hiddenLine(scan.hidden),
    ]
      .filter(Boolean)
      .join("\n"),
  };
}

const status = (s: string | null) => (s === null ? "no status" : oneLine(s));
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

// Job names, company names, people and skills are quoted; ids, statuses and dates one line only.
function renderSummary(j: JobOut): string {
  const skills = j.skills.length > 0 ? `; skills ${j.skills.map((s) => quoted(s)).join(", ")}` : "";
  return `- ${oneLine(j.id)} #${j.number} ${quoted(j.name)} ${status(j.status)} at ${quoted(j.company.name)} (${oneLine(j.company.id)}): ${plural(j.candidates, "candidate")}, ${plural(j.bids, "bid")}; ${period(j.startDate, j.endDate)}${skills}`;
}

/** "DKK 600.00–750.00 hourly", "DKK 560.00 hourly", "hidden", "not set". */
function jobRate(j: JobDetailOut, hidden: boolean): string {
  if (j.rate !== null) return rateText(j.rate, j.currency, j.rateType);
  if (j.minimumRate !== null || j.maximumRate !== null) {
    const per = j.rateType ? ` ${oneLine(j.rateType).toLowerCase()}` : "";
    const range = [j.minimumRate, j.maximumRate].map((r) => (r === null ? "?" : money(r)));
    return `${oneLine(j.currency)} ${range.join("–")}${per}`;
  }
  return hidden ? "hidden" : "not set";
}

function renderDetail(j: JobDetailOut, hidden: string[]): string {
  const ratesHidden = ["rate", "minimumRate", "maximumRate"].some((f) => hidden.includes(f));
  const lines = [
    `Job ${oneLine(j.id)} #${j.number} ${quoted(j.name)} (${status(j.status)}) at ${quoted(j.company.name)} (${oneLine(j.company.id)})`,
    `Dates: ${period(j.startDate, j.endDate)}; ${j.publishedAt ? `published ${oneLine(j.publishedAt.slice(0, 10))}` : "not published"}`,
    `Rate: ${jobRate(j, ratesHidden)}${j.locationPreference ? `; location ${oneLine(j.locationPreference)}` : ""}`,
    `Skills: ${j.skills.length > 0 ? j.skills.map((s) => quoted(s)).join(", ") : "none"}`,
  ];
  if (j.description) lines.push(`Description: ${quoted(j.description)}`);
  lines.push(
    j.candidatesPage.total === 0
      ? "Candidates: none."
      : `Candidates (${j.candidatesPage.summary}):`,
  );
  for (const c of j.candidates) {
    const extra = [
      c.statusReason ? `reason ${oneLine(c.statusReason)}` : "",
      c.preferred ? "preferred" : "",
      c.bidId ? `bid ${oneLine(c.bidId)}` : "",
      c.hireId ? `hire ${oneLine(c.hireId)}` : "",
    ].filter(Boolean);
    const email = c.worker.email ? `, email ${quoted(c.worker.email)}` : "";
    lines.push(
      `- ${oneLine(c.id)} ${quoted(c.worker.name)} (${oneLine(c.worker.id)}${email}): step ${oneLine(c.step)}, ${oneLine(c.status)}${extra.length > 0 ? `; ${extra.join(", ")}` : ""}`,
    );
  }
  lines.push(j.bidsPage.total === 0 ? "Bids: none." : `Bids (${j.bidsPage.summary}):`);
  for (const b of j.bids) {
    const via = b.supplier ? ` via ${quoted(b.supplier.name)} (${oneLine(b.supplier.id)})` : "";
    lines.push(
      `- ${oneLine(b.id)} ${oneLine(b.status)}: ${quoted(b.worker.name)} (${oneLine(b.worker.id)})${via}, ${bidRate(b)}`,
    );
  }
  return lines.join("\n");
}
