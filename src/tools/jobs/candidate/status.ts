// Setting a candidate's status: ELIGIBLE at once; NON_ELIGIBLE (a rejection, which rejects their
// open bid for good) after a preview the person confirms.
import type { JobCandidateStatusReason } from "../../../client/operation-types.generated.js";
import {
  type CandidateBid,
  type CandidateForUpdate,
  updateJobCandidateStatusMutation,
} from "../../../client/operations/jobs.js";
import { oneLine } from "../../../client/platform-text.js";
import { confirmedWrite, type Proposal } from "../../confirmation.js";
import { type FormAnswer, type ToolContext, ToolInputError } from "../../define-tool.js";
import { requestOptions } from "../../format.js";
import { type CandidateOut, toCandidateOutput } from "../../shapes/candidacy.js";
import {
  bidRate,
  candidateTarget,
  candidateText,
  changeCandidate,
  type Result,
  readCandidate,
  TOOL,
} from "./candidate-record.js";

const REJECT_CONSEQUENCE =
  "Their open bid is rejected for good; making them eligible again does not reopen it.";

export async function setEligible(ctx: ToolContext, c: CandidateForUpdate): Promise<Result> {
  const before = toCandidateOutput(c);
  if (c.status === "ELIGIBLE") {
    return {
      structured: { status: "unchanged", action: "status", candidate: before },
      text: `Candidate ${candidateText(before)} is already ELIGIBLE. Nothing was changed.`,
    };
  }
  return setStatus(ctx, before, "ELIGIBLE", undefined);
}

async function setStatus(
  ctx: ToolContext,
  before: CandidateOut,
  status: "ELIGIBLE" | "NON_ELIGIBLE",
  reason: JobCandidateStatusReason | undefined,
): Promise<Result> {
  return changeCandidate(ctx, before, {
    action: "status",
    send: () =>
      ctx.client.run(
        updateJobCandidateStatusMutation,
        {
          input: {
            jobCandidate: before.id,
            status,
            ...(reason ? { statusReason: reason } : {}),
          },
        },
        requestOptions(ctx),
      ),
    refused: `change the candidates of job ${oneLine(before.job.id)}`,
    pick: (data) => data.updateJobCandidateStatus,
    applied: (x) => x.status === status,
    doing: `Setting candidate ${oneLine(before.id)} ${status}`,
    done: (a) => {
      const bid = a.bid ? ` Their bid ${oneLine(a.bid.id)} is ${oneLine(a.bid.status)}.` : "";
      return `Candidate ${candidateText(a)} is now ${oneLine(a.status)}${a.statusReason ? ` (reason ${oneLine(a.statusReason)})` : ""}.${bid}`;
    },
    undo:
      status === "ELIGIBLE"
        ? "They are back in the running; a bid rejected earlier stays rejected."
        : "They can be made ELIGIBLE again with manage_candidate, but a rejected bid is not reopened.",
  });
}

export async function reject(
  ctx: ToolContext,
  c: CandidateForUpdate,
  reason: JobCandidateStatusReason | undefined,
  call: Record<string, unknown>,
  token: string | undefined,
  byName: boolean,
): Promise<Result | FormAnswer> {
  if (c.status === "NON_ELIGIBLE") {
    const before = toCandidateOutput(c);
    return {
      structured: { status: "unchanged", action: "status", candidate: before },
      text: `Candidate ${candidateText(before)} is already NON_ELIGIBLE. Nothing was changed.`,
    };
  }
  return confirmedWrite(ctx, {
    tool: TOOL,
    args: call,
    token,
    target: candidateTarget(c.id),
    check: `list_jobs (jobId ${oneLine(c.job.id)})`,
    propose: () => proposeRejection(ctx, c.id, reason, byName),
    fields: (candidate) => ({ action: "status" as const, candidate }),
    declined: (candidate) => ({
      text: `${oneLine(c.id)} is still ${oneLine(candidate.status)}.`,
    }),
    apply: ({ preview }) => setStatus(ctx, preview, "NON_ELIGIBLE", reason),
  });
}

/** Reads the candidate and says what rejecting them would do, with every fact it shows. */
async function proposeRejection(
  ctx: ToolContext,
  id: string,
  reason: string | undefined,
  byName: boolean,
): Promise<Proposal<CandidateOut>> {
  const c = await readCandidate(ctx, id);
  if (c.status === "NON_ELIGIBLE") {
    throw new ToolInputError(
      `candidate ${oneLine(id)} has been made NON_ELIGIBLE since the preview`,
      "candidateId",
      "Nothing was sent.",
    );
  }
  const openBid = c.bid?.status === "OPEN" ? c.bid : null;
  return {
    preview: toCandidateOutput(c),
    lines: rejectionLines(c, openBid, reason),
    consequence: openBid
      ? REJECT_CONSEQUENCE
      : "They are out of the running for this job until made eligible again.",
    question: "Reject this candidate?",
    facts: {
      worker: c.worker.name,
      job: c.job.name,
      company: c.job.company.name,
      step: c.step,
      status: c.status,
      "open bid": openBid ? `${openBid.id} at ${bidRate(openBid)}` : null,
      hire: c.hire?.id ?? null,
      // Found by name: the token holds to this candidate, whoever the name fits later.
      ...(byName ? { candidate: c.id } : {}),
    },
  };
}

function rejectionLines(
  c: CandidateForUpdate,
  openBid: CandidateBid | null,
  reason: string | undefined,
): string[] {
  const lines = [
    `Mark candidate ${candidateText(toCandidateOutput(c))} NON_ELIGIBLE${reason ? ` (reason ${reason})` : ""}; they are now at step ${oneLine(c.step)}, ${oneLine(c.status)}.`,
  ];
  if (openBid) {
    lines.push(`Their open bid ${oneLine(openBid.id)} at ${bidRate(openBid)} is rejected.`);
  }
  if (c.hire) lines.push(`They have hire ${oneLine(c.hire.id)}; this does not cancel it.`);
  return lines;
}
