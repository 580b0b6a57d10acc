// A person's candidacies and bids across jobs, found by their name or worker id, for list_jobs and
// manage_candidate. The platform cannot search candidates or bids by name: the candidates (of every
// job, or of the jobs named) are read by worker name in pages of 100, up to a bound the answer
// states when it is reached. Every bid makes its worker a candidate, so a candidacy carries its bid.
import {
  type Candidacy,
  candidaciesQuery,
  jobRefQuery,
  listJobsQuery,
} from "../../client/operations/jobs.js";
import { MAX_PAGE_SIZE } from "../../client/pagination.js";
import { foldName, oneLine, quoted } from "../../client/platform-text.js";
import type { RestrictedField } from "../../client/types.js";
import { type ToolContext, ToolInputError } from "../define-tool.js";
import { hiddenFields, rateText, requestOptions } from "../format.js";
import { namesFitting } from "../known-ids.js";

export type { Candidacy };

/** Pages of candidates read at most: 500 candidates. */
const MAX_CANDIDACY_PAGES = 5;
/** How many people, jobs or candidacies an error lists at most. */
const SHOWN = 8;

export interface CandidacyScan {
  rows: Candidacy[];
  /** How many candidates there are in all (of the jobs asked for). */
  total: number;
  /** Fields the account may not see (a bid's rate). */
  hidden: string[];
}

/** Every candidate of `jobs` (or of every job you can see), up to the bound. */
export async function readCandidacies(ctx: ToolContext, jobs?: string[]): Promise<CandidacyScan> {
  const rows: Candidacy[] = [];
  const restricted: RestrictedField[] = [];
  let total = 0;
  for (let page = 1; page <= MAX_CANDIDACY_PAGES; page++) {
    const answer = await ctx.client.run(
      candidaciesQuery,
      { jobs, first: MAX_PAGE_SIZE, page },
      requestOptions(ctx),
    );
    restricted.push(...answer.restricted);
    rows.push(...answer.data.jobCandidates.data);
    total = answer.data.jobCandidates.paginatorInfo.total;
    if (!answer.data.jobCandidates.paginatorInfo.hasMorePages) break;
  }
  return { rows, total, hidden: hiddenFields(restricted) };
}

/** What a scan did not reach, and how to narrow it; empty when it read every candidate. */
export function boundNote(scan: CandidacyScan, narrow: string): string {
  if (scan.rows.length >= scan.total) return "";
  return `only the first ${scan.rows.length} of ${scan.total} candidates (by name) were read; ${narrow} to read the rest`;
}

/**
 * Whether the person of `rows` may have candidacies the scan did not reach: it stopped at the bound
 * while still on their name (candidates come by worker name, so a person's rows come together).
 */
export function mayHaveMore(scan: CandidacyScan, rows: Candidacy[]): boolean {
  const last = scan.rows.at(-1);
  return scan.rows.length < scan.total && rows.some((c) => c.worker.id === last?.worker.id);
}

/**
 * The items `text` names: the one with that id, else those with that whole name, else those whose
 * name contains it.
 */
function named<T>(items: T[], text: string, name: (t: T) => string, id?: (t: T) => string): T[] {
  const byId = id ? items.filter((t) => id(t) === text.trim()) : [];
  if (byId.length > 0) return byId;
  return foldName(text) === "" ? [] : namesFitting(items, text, name);
}

const listed = (labels: string[]) =>
  labels.length > SHOWN
    ? `${labels.slice(0, SHOWN).join("; ")}; and ${labels.length - SHOWN} more`
    : labels.join("; ");

export const workerLabel = (c: Candidacy) => `${quoted(c.worker.name)} (${oneLine(c.worker.id)})`;

const jobLabel = (j: { id: string; name: string; status: string | null }) =>
  `${oneLine(j.id)} ${quoted(j.name)} (${j.status === null ? "no status" : oneLine(j.status)})`;

/** "DKK 650.00 hourly", or "DKK amount hidden" when the account may not see the rate. */
export const bidRate = (b: { rate: number | null; currency: string; rateType: string | null }) =>
  b.rate === null
    ? `${oneLine(b.currency)} amount hidden`
    : rateText(b.rate, b.currency, b.rateType);

/** "candidate jc_001, step HIRING, ELIGIBLE; bid bid_001 ACCEPTED, DKK 650.00 hourly; hire …" */
export function candidacyText(c: Candidacy): string {
  const reason = c.statusReason ? ` (${oneLine(c.statusReason)})` : "";
  const parts = [
    `candidate ${oneLine(c.id)}, step ${oneLine(c.step)}, ${oneLine(c.status)}${reason}`,
  ];
  if (c.bid) parts.push(`bid ${oneLine(c.bid.id)} ${oneLine(c.bid.status)}, ${bidRate(c.bid)}`);
  if (c.hire) parts.push(`hire ${oneLine(c.hire.id)}`);
  return parts.join("; ");
}

/** One candidacy in an error's list: its job and what the person has there. */
const candidacyLine = (c: Candidacy) => `on job ${jobLabel(c.job)}: ${candidacyText(c)}`;

/** The candidacies in an error, listed. */
export const candidacyList = (rows: Candidacy[]) => listed(rows.map(candidacyLine));

/**
 * The candidacies of the one person `person` names (a worker id, a whole name or part of one):
 * an argument error when nobody fits, or when several people do.
 */
export function personRows(
  scan: CandidacyScan,
  person: string,
  argument: string,
  where: string,
  narrow: string,
): Candidacy[] {
  const rows = named(
    scan.rows,
    person,
    (c) => c.worker.name,
    (c) => c.worker.id,
  );
  const people = new Map<string, Candidacy[]>();
  for (const c of rows) people.set(c.worker.id, [...(people.get(c.worker.id) ?? []), c]);
  if (people.size === 0) {
    throw new ToolInputError(
      [
        `no candidate or bidder ${where} has the name or worker id ${quoted(person)}`,
        boundNote(scan, narrow),
      ]
        .filter(Boolean)
        .join("; "),
      argument,
      "Check the spelling, or see a job's candidates with list_jobs and its jobId.",
    );
  }
  if (people.size > 1) {
    const labels = [...people.values()].map(
      (own) =>
        `${workerLabel(own[0] as Candidacy)} on ${own.map((c) => jobLabel(c.job)).join(", ")}`,
    );
    throw new ToolInputError(
      `${quoted(person)} fits ${people.size} people: ${listed(labels)}`,
      argument,
      "Give the worker id or whole name of the one you mean.",
    );
  }
  return rows;
}

export interface JobRef {
  id: string;
  name: string;
  status: string | null;
}

/** The jobs `job` names (an id, a whole name or part of one); an argument error when none. */
export async function jobsNamed(
  ctx: ToolContext,
  job: string,
  argument: string,
): Promise<JobRef[]> {
  // An id always wins over a name: a job named with another job's id is not that job.
  const { data: byId } = await ctx.client.run(jobRefQuery, { id: job.trim() }, requestOptions(ctx));
  if (byId.job) return [byId.job];
  const { data } = await ctx.client.run(
    listJobsQuery,
    { search: job, first: MAX_PAGE_SIZE },
    requestOptions(ctx),
  );
  // The platform's search reads descriptions too: only names count here.
  const byName = named(data.jobs.data, job, (j) => j.name);
  if (byName.length > 0) return byName;
  const { total } = data.jobs.paginatorInfo;
  const unread =
    total > data.jobs.data.length
      ? ` among the newest ${data.jobs.data.length} of the ${total} jobs the search found`
      : "";
  throw new ToolInputError(
    `no job you can see has the name or id ${quoted(job)}${unread}`,
    argument,
    "list_jobs with search finds jobs by name.",
  );
}

/** "on job_002 "React Frontend Developer" (ACTIVE)", or "on 2 jobs named "Backend"". */
export const jobsWhere = (jobs: JobRef[], text: string) =>
  jobs.length === 1
    ? `on job ${jobLabel(jobs[0] as JobRef)}`
    : `on the ${jobs.length} jobs named ${quoted(text)}`;
