// The candidacy a person's name (and a job's) names, found once for manage_candidate; the change
// then goes on as if its ids were given.
import { type ToolContext, ToolInputError } from "../../define-tool.js";
import {
  boundNote,
  type Candidacy,
  candidacyList,
  jobsNamed,
  jobsWhere,
  mayHaveMore,
  personRows,
  readCandidacies,
  workerLabel,
} from "../candidacies.js";
import { CLOSED_JOB_STATUSES } from "../job-writes.js";

/**
 * The candidacy `person` (on `job`, when given) names: for accepting, the one with an open bid; for
 * a step or status, the one on a job still open. Several, or none, are an argument error that lists
 * what there is with its ids.
 */
export async function findByPerson(
  ctx: ToolContext,
  person: string,
  job: string | undefined,
  forBid: boolean,
): Promise<Candidacy> {
  const jobs = job === undefined ? undefined : await jobsNamed(ctx, job, "job");
  const scan = await readCandidacies(
    ctx,
    jobs?.map((j) => j.id),
  );
  const where = jobs && job !== undefined ? jobsWhere(jobs, job) : "on jobs you can see";
  const rows = personRows(scan, person, "person", where, "give job");
  const who = workerLabel(rows[0] as Candidacy);
  if (job === undefined && mayHaveMore(scan, rows)) {
    throw new ToolInputError(
      `${who} may be a candidate on more jobs than were read: ${boundNote(scan, "give job")}`,
      "job",
      "Give job (its id or name). Nothing was changed.",
    );
  }
  const found = {
    rows,
    who,
    jobNamed: job !== undefined,
    onJob: job === undefined ? "" : ` ${where}`,
  };
  return forBid ? withOpenBid(found) : onLiveJob(found);
}

/** A person's candidacies, read; `onJob` says which job was named (" on job …"), or is empty. */
interface PersonRows {
  rows: Candidacy[];
  who: string;
  jobNamed: boolean;
  onJob: string;
}

/** The one candidacy with an open bid; one bid on the job named, open or not. */
function withOpenBid({ rows, who, jobNamed, onJob }: PersonRows): Candidacy {
  // Without a job, only bids that can be accepted count: open ones on active jobs.
  const open = rows.filter(
    (c) => c.bid?.status === "OPEN" && (jobNamed || c.job.status === "ACTIVE"),
  );
  if (open.length === 1) return open[0] as Candidacy;
  const bids = rows.filter((c) => c.bid !== null);
  // One bid on the job named, no longer open: the acceptance's own checks say why not.
  if (open.length === 0 && jobNamed && bids.length === 1) return bids[0] as Candidacy;
  if (open.length === 0) {
    throw new ToolInputError(
      `${who} has no open bid${jobNamed ? onJob : " on an active job"}; ${candidacyList(rows)}`,
      jobNamed ? "job" : "person",
      "Nothing was changed. list_jobs with person shows every job they are on.",
    );
  }
  throw new ToolInputError(
    `${who} has ${open.length} open bids${onJob}: ${candidacyList(open)}`,
    "job",
    "Give job (its id or name) or bidId for the one to accept.",
  );
}

/** The one candidacy on a job still open (or on the job named). */
function onLiveJob({ rows, who, jobNamed, onJob }: PersonRows): Candidacy {
  const live = jobNamed ? rows : rows.filter((c) => !CLOSED_JOB_STATUSES.has(c.job.status ?? ""));
  if (live.length === 1) return live[0] as Candidacy;
  if (live.length === 0) {
    throw new ToolInputError(
      `${who} is a candidate only on closed jobs, whose candidates can no longer be changed; ${candidacyList(rows)}`,
      "person",
      "Nothing was changed.",
    );
  }
  throw new ToolInputError(
    `${who} is a candidate on ${live.length} jobs${onJob}: ${candidacyList(live)}`,
    "job",
    "Give job (its id or name) or candidateId for the one to change.",
  );
}
