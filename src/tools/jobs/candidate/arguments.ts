// Which arguments go together in one manage_candidate call, and the rejection reasons it takes.
import type { JobCandidateStatusReason } from "../../../client/operation-types.generated.js";
import { oneLine } from "../../../client/platform-text.js";
import { ToolInputError } from "../../define-tool.js";

/** JobCandidateStatusReason: why a candidate is not eligible any more. */
const REJECTION_REASONS = [
  "SKILLS_OR_EXPERIENCE",
  "SPECIFIC_JOB_CRITERIA",
  "AVAILABILITY",
  "MARKET_ELIGIBILITY",
  "BUDGET",
  "ACCEPTED_OTHER_JOB",
  "OTHER_CANDIDATE_ACCEPTED",
  "ADDED_BY_MISTAKE",
  "EXISTING_APPLICATION_THROUGH_OTHER_CHANNELS",
] as const satisfies readonly JobCandidateStatusReason[];

interface Args {
  candidateId?: string;
  step?: string;
  status?: string;
  reason?: string;
  bidId?: string;
  person?: string;
  job?: string;
}

/** One action per call; returns the rejection reason, upper-cased, when one is given. */
export function checkArguments(args: Args): JobCandidateStatusReason | undefined {
  if (args.job !== undefined && args.person === undefined) {
    throw new ToolInputError(
      "job goes with person: it says on which job the person is meant",
      "job",
      "Give person too, or use candidateId or bidId (list_jobs shows them).",
    );
  }
  if (args.person !== undefined) {
    refuseOthers(
      args,
      ["candidateId", "bidId"],
      "person names the candidate or bidder",
      "Give person (and job), or the id without person.",
    );
    if (args.step !== undefined && args.status !== undefined) {
      throw new ToolInputError("give either step or status, one change per call", "status");
    }
  } else if (args.bidId !== undefined) {
    refuseOthers(
      args,
      ["candidateId", "step", "status", "reason"],
      "bidId accepts a bid on its own",
      "Leave them out to accept the bid, or leave out bidId to change a candidate.",
    );
    return undefined;
  }
  if (args.candidateId === undefined && args.person === undefined) {
    throw new ToolInputError(
      "give candidateId or person (with step or status), or bidId or person to accept a bid",
      "candidateId",
      "list_jobs with a jobId shows its candidates and bids.",
    );
  }
  if (args.person === undefined && (args.step === undefined) === (args.status === undefined)) {
    throw new ToolInputError(
      "give either step or status with candidateId, one change per call",
      args.step === undefined ? "step" : "status",
    );
  }
  return rejectionReason(args);
}

/** Refuses those of `names` given: "<why>; candidateId and bidId do not go with it". */
function refuseOthers(args: Args, names: readonly (keyof Args)[], why: string, fix: string) {
  const extra = names.filter((k) => args[k] !== undefined);
  if (extra.length > 0) {
    throw new ToolInputError(
      `${why}; ${extra.join(" and ")} do not go with it`,
      extra.join(", "),
      fix,
    );
  }
}

/** The reason given, upper-cased, when it is one the platform knows and goes with a rejection. */
function rejectionReason(args: Args): JobCandidateStatusReason | undefined {
  if (args.reason === undefined) return undefined;
  if (args.status !== "NON_ELIGIBLE") {
    throw new ToolInputError("a reason goes only with status NON_ELIGIBLE", "reason");
  }
  const wanted = args.reason.trim().toUpperCase();
  const reason = REJECTION_REASONS.find((known) => known === wanted);
  if (!reason) {
    throw new ToolInputError(
      `${oneLine(args.reason, 60)} is not a reason the platform knows`,
      "reason",
      `Use one of ${REJECTION_REASONS.join(", ")}.`,
    );
  }
  return reason;
}
