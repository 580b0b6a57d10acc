// manage_candidate: its surface, and which act a call is. Each act is a module of ./candidate/:
// moving a step, setting a status (a rejection after confirmation), accepting a bid (a hire).
import * as z from "zod";
import type { JobCandidateHiringStep } from "../../client/operation-types.generated.js";
import { oneLine } from "../../client/platform-text.js";
import {
  confirmationTokenArg,
  confirmedWriteAnnotations,
  previewTokenOutput,
  refuseWhileUnknown,
} from "../confirmation.js";
import { defineTool, type FormAnswer, ToolInputError } from "../define-tool.js";
import { upperCaseEnum } from "../format.js";
import { bidOutput, candidateOutput } from "../shapes/candidacy.js";
import { idAndStatus } from "../shapes/named.js";
import { checkArguments } from "./candidate/arguments.js";
import { acceptBid } from "./candidate/bid-acceptance.js";
import {
  candidateTarget,
  type Result,
  readCandidate,
  STATUSES,
  TOOL,
} from "./candidate/candidate-record.js";
import { findByPerson } from "./candidate/find-by-person.js";
import { reject, setEligible } from "./candidate/status.js";
import { moveStep } from "./candidate/step.js";

/** Steps a person may set; the platform sets the others (INVITED_TO_APPLY, APPLIED, HIRING). */
const MANUAL_STEPS = [
  "SHORTLISTED",
  "INTERVIEW_SELECTED",
  "INTERVIEW_SCHEDULED",
  "INTERVIEW_COMPLETED",
  "COMPLETION_ON_HOLD",
] as const satisfies readonly JobCandidateHiringStep[];

export const manageCandidateTool = defineTool({
  name: TOOL,
  title: "Manage job candidate",
  toolset: "jobs",
  instruction:
    "manage_candidate moves a job candidate to a step or sets their status, by ids or by the person's name (and the job's); rejecting (NON_ELIGIBLE) and accepting a bid (a hire) need the person's confirmation.",
  readme: {
    does: "Moves a candidate to a step or sets a status, by id or by the person's name (and the job's); rejecting, and accepting a bid (which creates a hire), after confirmation",
  },
  description: [
    "Move a candidate, set their status or accept a bid, by id or name.",
    "Use when: deciding on a candidate or bid. Do not use for: finding ids (list_jobs).",
    "Steps, ELIGIBLE: reversible; NON_ELIGIBLE, bids (a hire; irreversible): preview first.",
    "Returns: the change or hire.",
    'Examples: {"candidateId":"5520","step":"SHORTLISTED"}; {"person":"Ana Costa","job":"3108"}',
  ].join("\n"),
  inputSchema: {
    candidateId: z.string().min(1).optional().describe("Candidate id."),
    step: upperCaseEnum(MANUAL_STEPS).optional().describe("A manual step."),
    status: upperCaseEnum(["ELIGIBLE", "NON_ELIGIBLE"] as const)
      .optional()
      .describe("NON_ELIGIBLE rejects their bid."),
    reason: z.string().min(1).optional().describe("e.g. BUDGET (NON_ELIGIBLE)."),
    bidId: z.string().min(1).optional().describe("Bid to accept."),
    person: z
      .string()
      .min(1)
      .optional()
      .describe("Name or worker id; no step/status: accept their bid."),
    job: z.string().min(1).optional().describe("Job name or id."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum(STATUSES),
    action: z.enum(["step", "status", "accept-bid"]),
    candidate: candidateOutput.optional(),
    bid: bidOutput.optional(),
    hire: idAndStatus.optional(),
    ...previewTokenOutput,
    note: z.string().optional(),
  },
  annotations: confirmedWriteAnnotations,
  async handler(args, ctx): Promise<Result | FormAnswer> {
    const { confirmationToken, ...call } = args;
    const reason = checkArguments(args);
    const accepting =
      args.bidId !== undefined ||
      (args.person !== undefined && args.step === undefined && args.status === undefined);
    const confirmed = accepting || args.status === "NON_ELIGIBLE";
    if (confirmationToken !== undefined && !confirmed) {
      throw new ToolInputError(
        "this change is reversible and needs no confirmationToken",
        "confirmationToken",
        "Leave confirmationToken out.",
      );
    }
    // A person (and job) named: found once, then the change goes on as if their ids were given.
    const found =
      args.person === undefined
        ? undefined
        : await findByPerson(ctx, args.person, args.job, accepting);
    if (accepting) {
      const bidId = args.bidId ?? (found?.bid?.id as string);
      return acceptBid(ctx, bidId, call, confirmationToken, found !== undefined);
    }
    const candidate = await readCandidate(
      ctx,
      args.candidateId ?? (found?.id as string),
      found ? "person" : "candidateId",
    );
    // Every change to this candidate waits while an earlier one's outcome is unknown.
    await refuseWhileUnknown(ctx, {
      tool: TOOL,
      target: candidateTarget(candidate.id),
      check: `list_jobs (jobId ${oneLine(candidate.job.id)})`,
    });
    if (args.step !== undefined) return moveStep(ctx, candidate, args.step);
    if (args.status === "NON_ELIGIBLE") {
      return reject(ctx, candidate, reason, call, confirmationToken, found !== undefined);
    }
    return setEligible(ctx, candidate);
  },
});
