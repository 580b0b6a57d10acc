// What manage_candidate's acts share: the answer they return, and a candidate read, shown and
// written once with its read-back.
import type * as z from "zod";
import {
  type CandidateForUpdate,
  candidateForUpdateQuery,
  type UpdatedCandidate,
} from "../../../client/operations/jobs.js";
import { oneLine } from "../../../client/platform-text.js";
import { sendWrite, whole } from "../../confirmation.js";
import { NotAllowedError, type ToolContext, ToolInputError } from "../../define-tool.js";
import { rateText, requestOptions } from "../../format.js";
import { refusedAsNotAllowed } from "../../not-allowed.js";
import { type BidOut, type CandidateOut, toCandidateOutput } from "../../shapes/candidacy.js";
import type { idAndStatus } from "../../shapes/named.js";
import { CLOSED_JOB_STATUSES } from "../job-writes.js";

export const TOOL = "manage_candidate";

export const STATUSES = [
  "preview",
  "changed",
  "declined",
  "updated",
  "unchanged",
  "accepted",
  "outcome-unknown",
] as const;
type Status = (typeof STATUSES)[number];

type Action = "step" | "status" | "accept-bid";

interface Output {
  status: Status;
  action: Action;
  candidate?: CandidateOut;
  bid?: BidOut;
  /** The hire an accepted bid made. */
  hire?: z.infer<typeof idAndStatus>;
  confirmationToken?: string;
  expiresAt?: string;
  changedSincePreview?: string[];
  note?: string;
}
export type Result = { structured: Output; text: string; isError?: boolean };

export const candidateTarget = (id: string) => `candidate ${id}`;

export async function readCandidate(
  ctx: ToolContext,
  id: string,
  argument = "candidateId",
): Promise<CandidateForUpdate> {
  const { data } = await ctx.client.run(candidateForUpdateQuery, { id }, requestOptions(ctx));
  const candidate = data.jobCandidate;
  if (!candidate) {
    throw new ToolInputError(
      `there is no job candidate ${oneLine(id)} visible to you`,
      argument,
      "list_jobs with the job's id shows its candidates.",
    );
  }
  if (CLOSED_JOB_STATUSES.has(candidate.job.status ?? "")) {
    throw new ToolInputError(
      `candidate ${oneLine(id)} is on job ${oneLine(candidate.job.id)}, which is ${oneLine(candidate.job.status)}; its candidates can no longer be changed`,
      argument,
      "Nothing was changed.",
    );
  }
  if (!candidate.viewerCanUpdateStatus) {
    throw new NotAllowedError(
      `manage the candidates of job ${oneLine(candidate.job.id)}`,
      "job management",
    );
  }
  return candidate;
}

/** "jc_003 "Mikkel Andersen" (wrk_053) on job job_002 "…" at "…"": after the word "candidate". */
export const candidateText = (c: CandidateOut) =>
  `${oneLine(c.id)} ${whole(c.worker.name)} (${oneLine(c.worker.id)}) on job ${oneLine(c.job.id)} ${whole(c.job.name)} at ${whole(c.company.name)}`;

/** "DKK 650.00 hourly", or "DKK, rate hidden" when the account may not see the rate. */
export const bidRate = (b: { rate: number | null; currency: string; rateType: string | null }) =>
  b.rate === null
    ? `${oneLine(b.currency)}, rate hidden`
    : rateText(b.rate, b.currency, b.rateType);

/** A change to a candidate, as `changeCandidate` sends it and answers. */
interface CandidateChange<T> {
  action: "step" | "status";
  send: () => Promise<{ data: T }>;
  /** What the person may not do when the platform refuses: "move the candidates of job …". */
  refused: string;
  /** Finds the updated fields in the mutation's answer. */
  pick: (data: T) => UpdatedCandidate;
  applied: (c: CandidateOut) => boolean;
  /** "Moving candidate jc_003 to step …", before an unknown outcome's text. */
  doing: string;
  /** The answer's first line, on the candidate as changed. */
  done: (after: CandidateOut) => string;
  /** The answer's last line: how the change is undone, or what stays. */
  undo: string;
}

/** Sends a candidate change once (after a lost answer, reads the candidate back) and answers. */
export async function changeCandidate<T>(
  ctx: ToolContext,
  before: CandidateOut,
  change: CandidateChange<T>,
): Promise<Result> {
  const sent = await sendWrite(ctx, {
    tool: TOOL,
    target: candidateTarget(before.id),
    check: `list_jobs (jobId ${oneLine(before.job.id)})`,
    send: refusedAsNotAllowed(change.send, change.refused, "job management"),
    readBack: () => readCandidate(ctx, before.id),
    applied: (c) => change.applied(toCandidateOutput(c)),
  });
  if (sent.kind === "unknown") {
    return {
      isError: true,
      structured: {
        status: "outcome-unknown",
        action: change.action,
        candidate: before,
        note: sent.text,
      },
      text: `${change.doing}: ${sent.text}`,
    };
  }
  const note =
    sent.kind === "read-back"
      ? "The connection dropped after the request was sent; reading the candidate back confirmed the change."
      : undefined;
  const after =
    sent.kind === "read-back"
      ? toCandidateOutput(sent.state)
      : updated(before, change.pick(sent.data.data));
  return {
    structured: {
      status: "updated",
      action: change.action,
      candidate: after,
      ...(note ? { note } : {}),
    },
    text: [change.done(after), note, change.undo].filter(Boolean).join("\n"),
  };
}

/** The candidate as before, with the fields the mutation answered. */
const updated = (before: CandidateOut, fields: UpdatedCandidate): CandidateOut => ({
  ...before,
  step: fields.step,
  status: fields.status,
  statusReason: fields.statusReason,
  bid: fields.bid,
});
