import * as z from "zod";
import type {
  JobCandidateHiringStep,
  JobCandidateStatusReason,
} from "../../client/operation-types.generated.js";
import {
  type AcceptBidOutcome,
  type AcceptedHire,
  acceptBidMutation,
  acceptBidOutcomeQuery,
  type BidForAcceptance,
  bidForAcceptanceQuery,
  type CandidateBid,
  type CandidateForUpdate,
  candidateForUpdateQuery,
  type UpdatedCandidate,
  updateJobCandidateStatusMutation,
  updateJobCandidateStepMutation,
} from "../../client/operations/jobs.js";
import { oneLine } from "../../client/platform-text.js";
import {
  confirmationTokenArg,
  confirmedWrite,
  confirmedWriteAnnotations,
  type Proposal,
  previewTokenOutput,
  refuseWhileUnknown,
  sendWrite,
  whole,
} from "../confirmation.js";
import {
  defineTool,
  type FormAnswer,
  NotAllowedError,
  type ToolContext,
  ToolInputError,
} from "../define-tool.js";
import { rateText, requestOptions, upperCaseEnum } from "../format.js";
import { refusedAsNotAllowed } from "../not-allowed.js";
import {
  type BidOut,
  bidOutput,
  type CandidateOut,
  candidateOutput,
  toBidOutput,
  toCandidateOutput,
} from "../shapes/candidacy.js";
import { idAndStatus, toIdAndStatus } from "../shapes/named.js";
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
} from "./candidacies.js";
import { CLOSED_JOB_STATUSES } from "./job-writes.js";

const TOOL = "manage_candidate";

/** Steps a person may set; the platform sets the others (INVITED_TO_APPLY, APPLIED, HIRING). */
const MANUAL_STEPS = [
  "SHORTLISTED",
  "INTERVIEW_SELECTED",
  "INTERVIEW_SCHEDULED",
  "INTERVIEW_COMPLETED",
  "COMPLETION_ON_HOLD",
] as const satisfies readonly JobCandidateHiringStep[];

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

const ACCEPT_CONSEQUENCE =
  "Accepting creates a hire and an obligation to pay; it cannot be undone.";
const REJECT_CONSEQUENCE =
  "Their open bid is rejected for good; making them eligible again does not reopen it.";

const STATUSES = [
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
type Result = { structured: Output; text: string; isError?: boolean };

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

/** One action per call; returns the rejection reason, upper-cased, when one is given. */
function checkArguments(args: {
  candidateId?: string;
  step?: string;
  status?: string;
  reason?: string;
  bidId?: string;
  person?: string;
  job?: string;
}): JobCandidateStatusReason | undefined {
  if (args.job !== undefined && args.person === undefined) {
    throw new ToolInputError(
      "job goes with person: it says on which job the person is meant",
      "job",
      "Give person too, or use candidateId or bidId (list_jobs shows them).",
    );
  }
  if (args.person !== undefined) {
    const extra = (["candidateId", "bidId"] as const).filter((k) => args[k] !== undefined);
    if (extra.length > 0) {
      throw new ToolInputError(
        `person names the candidate or bidder; ${extra.join(" and ")} do not go with it`,
        extra.join(", "),
        "Give person (and job), or the id without person.",
      );
    }
    if (args.step !== undefined && args.status !== undefined) {
      throw new ToolInputError("give either step or status, one change per call", "status");
    }
  } else if (args.bidId !== undefined) {
    const extra = (["candidateId", "step", "status", "reason"] as const).filter(
      (k) => args[k] !== undefined,
    );
    if (extra.length > 0) {
      throw new ToolInputError(
        `bidId accepts a bid on its own; ${extra.join(" and ")} do not go with it`,
        extra.join(", "),
        "Leave them out to accept the bid, or leave out bidId to change a candidate.",
      );
    }
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

const candidateTarget = (id: string) => `candidate ${id}`;

/**
 * The candidacy `person` (on `job`, when given) names: for accepting, the one with an open bid; for
 * a step or status, the one on a job still open. Several, or none, are an argument error that lists
 * what there is with its ids.
 */
async function findByPerson(
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
  const onJob = job === undefined ? "" : ` ${where}`;
  if (forBid) {
    // Without a job, only bids that can be accepted count: open ones on active jobs.
    const open = rows.filter(
      (c) => c.bid?.status === "OPEN" && (job !== undefined || c.job.status === "ACTIVE"),
    );
    if (open.length === 1) return open[0] as Candidacy;
    const bids = rows.filter((c) => c.bid !== null);
    // One bid on the job named, no longer open: the acceptance's own checks say why not.
    if (open.length === 0 && job !== undefined && bids.length === 1) return bids[0] as Candidacy;
    if (open.length === 0) {
      throw new ToolInputError(
        `${who} has no open bid${job === undefined ? " on an active job" : onJob}; ${candidacyList(rows)}`,
        job === undefined ? "person" : "job",
        "Nothing was changed. list_jobs with person shows every job they are on.",
      );
    }
    throw new ToolInputError(
      `${who} has ${open.length} open bids${onJob}: ${candidacyList(open)}`,
      "job",
      "Give job (its id or name) or bidId for the one to accept.",
    );
  }
  const live =
    job === undefined ? rows.filter((c) => !CLOSED_JOB_STATUSES.has(c.job.status ?? "")) : rows;
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

async function readCandidate(
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
const candidateText = (c: CandidateOut) =>
  `${oneLine(c.id)} ${whole(c.worker.name)} (${oneLine(c.worker.id)}) on job ${oneLine(c.job.id)} ${whole(c.job.name)} at ${whole(c.company.name)}`;

type CandidateWrite =
  | { kind: "done"; candidate: CandidateOut; note?: string }
  | { kind: "unknown"; text: string };

/**
 * Sends a candidate write once; after a lost answer, reads the candidate back. `pick` finds the
 * updated fields in the mutation's answer.
 */
async function writeCandidate<T>(
  ctx: ToolContext,
  before: CandidateOut,
  send: () => Promise<{ data: T }>,
  pick: (data: T) => UpdatedCandidate,
  applied: (c: CandidateOut) => boolean,
): Promise<CandidateWrite> {
  const sent = await sendWrite(ctx, {
    tool: TOOL,
    target: candidateTarget(before.id),
    check: `list_jobs (jobId ${oneLine(before.job.id)})`,
    send,
    readBack: () => readCandidate(ctx, before.id),
    applied: (c) => applied(toCandidateOutput(c)),
  });
  if (sent.kind === "unknown") return { kind: "unknown", text: sent.text };
  if (sent.kind === "read-back") {
    return {
      kind: "done",
      candidate: toCandidateOutput(sent.state),
      note: "The connection dropped after the request was sent; reading the candidate back confirmed the change.",
    };
  }
  const updated = pick(sent.data.data);
  return {
    kind: "done",
    candidate: {
      ...before,
      step: updated.step,
      status: updated.status,
      statusReason: updated.statusReason,
      bid: updated.bid,
    },
  };
}

/** "Moving candidate jc_003 to step …: The outcome is UNKNOWN: …" */
function unknownResult(action: Action, candidate: CandidateOut, change: string, text: string) {
  return {
    isError: true,
    structured: { status: "outcome-unknown" as const, action, candidate, note: text },
    text: `${change}: ${text}`,
  };
}

async function moveStep(
  ctx: ToolContext,
  c: CandidateForUpdate,
  step: JobCandidateHiringStep,
): Promise<Result> {
  const before = toCandidateOutput(c);
  if (c.hire) {
    throw new ToolInputError(
      `candidate ${oneLine(c.id)} has hire ${oneLine(c.hire.id)} for this job; their step stays ${oneLine(c.step)}`,
      "step",
      "Nothing was changed.",
    );
  }
  if (c.step === step) {
    return {
      structured: { status: "unchanged", action: "step", candidate: before },
      text: `Candidate ${candidateText(before)} is already at step ${step}. Nothing was changed.`,
    };
  }
  const after = await writeCandidate(
    ctx,
    before,
    refusedAsNotAllowed(
      () =>
        ctx.client.run(
          updateJobCandidateStepMutation,
          { input: { jobCandidate: c.id, step } },
          requestOptions(ctx),
        ),
      `move the candidates of job ${oneLine(c.job.id)}`,
      "job management",
    ),
    (data) => data.updateJobCandidateStep,
    (x) => x.step === step,
  );
  if (after.kind === "unknown") {
    return unknownResult(
      "step",
      before,
      `Moving candidate ${oneLine(c.id)} to step ${step}`,
      after.text,
    );
  }
  return {
    structured: {
      status: "updated",
      action: "step",
      candidate: after.candidate,
      ...(after.note ? { note: after.note } : {}),
    },
    text: [
      `Candidate ${candidateText(after.candidate)} moved from step ${oneLine(c.step)} to ${oneLine(after.candidate.step)}.`,
      after.note,
      "This can be undone: move them again with manage_candidate.",
    ]
      .filter(Boolean)
      .join("\n"),
  };
}

async function setEligible(ctx: ToolContext, c: CandidateForUpdate): Promise<Result> {
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
  const after = await writeCandidate(
    ctx,
    before,
    refusedAsNotAllowed(
      () =>
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
      `change the candidates of job ${oneLine(before.job.id)}`,
      "job management",
    ),
    (data) => data.updateJobCandidateStatus,
    (x) => x.status === status,
  );
  if (after.kind === "unknown") {
    return unknownResult(
      "status",
      before,
      `Setting candidate ${oneLine(before.id)} ${status}`,
      after.text,
    );
  }
  const a = after.candidate;
  const bid = a.bid ? ` Their bid ${oneLine(a.bid.id)} is ${oneLine(a.bid.status)}.` : "";
  return {
    structured: {
      status: "updated",
      action: "status",
      candidate: a,
      ...(after.note ? { note: after.note } : {}),
    },
    text: [
      `Candidate ${candidateText(a)} is now ${oneLine(a.status)}${a.statusReason ? ` (reason ${oneLine(a.statusReason)})` : ""}.${bid}`,
      after.note,
      status === "ELIGIBLE"
        ? "They are back in the running; a bid rejected earlier stays rejected."
        : "They can be made ELIGIBLE again with manage_candidate, but a rejected bid is not reopened.",
    ]
      .filter(Boolean)
      .join("\n"),
  };
}

// ---- rejecting ---------------------------------------------------------------------------------

async function reject(
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

// ---- accepting a bid ---------------------------------------------------------------------------

async function readBid(ctx: ToolContext, id: string): Promise<BidForAcceptance | null> {
  const { data } = await ctx.client.run(bidForAcceptanceQuery, { id }, requestOptions(ctx));
  return data.bid;
}

/** "DKK 650.00 hourly", or "DKK, rate hidden" when the account may not see the rate. */
const bidRate = (b: { rate: number | null; currency: string; rateType: string | null }) =>
  b.rate === null
    ? `${oneLine(b.currency)}, rate hidden`
    : rateText(b.rate, b.currency, b.rateType);

/** The hire made for the bid's worker on its job, if any. */
const hireOf = (b: AcceptBidOutcome) =>
  b.job.hires.data.findLast((h) => h.worker.id === b.worker.id) ?? null;

async function readOutcome(ctx: ToolContext, id: string): Promise<AcceptBidOutcome | null> {
  const { data } = await ctx.client.run(acceptBidOutcomeQuery, { id }, requestOptions(ctx));
  return data.bid;
}

const bidTarget = (id: string) => `bid ${id}`;

/** Reads the bid and says what accepting it would do; refuses what cannot be done. */
async function proposeAcceptance(
  ctx: ToolContext,
  bidId: string,
  byName: boolean,
): Promise<Proposal<BidOut>> {
  const argument = byName ? "person" : "bidId";
  const found = await readBid(ctx, bidId);
  if (!found) {
    throw new ToolInputError(
      `there is no bid ${oneLine(bidId)} visible to you`,
      argument,
      "list_jobs with the job's id shows its bids.",
    );
  }
  if (found.status !== "OPEN") {
    throw new ToolInputError(
      `bid ${oneLine(bidId)} is ${oneLine(found.status)}; only open bids can be accepted`,
      argument,
      "Nothing was changed.",
    );
  }
  if (found.job.status !== "ACTIVE") {
    throw new ToolInputError(
      `bid ${oneLine(bidId)} is on job ${oneLine(found.job.id)}, which is ${oneLine(found.job.status)}; only bids on active jobs can be accepted`,
      argument,
      "Nothing was changed.",
    );
  }
  if (!found.job.viewerCanCreateHire) {
    throw new NotAllowedError(`accept bid ${oneLine(bidId)} (it creates a hire)`, "hiring");
  }
  const bid = toBidOutput(found);
  const via = bid.supplier
    ? ` via the agency ${whole(bid.supplier.name)} (${oneLine(bid.supplier.id)})`
    : "";
  return {
    preview: bid,
    lines: [
      `Accept bid ${oneLine(bid.id)} from ${whole(bid.worker.name)} (${oneLine(bid.worker.id)})${via} on job ${oneLine(bid.job.id)} ${whole(bid.job.name)} at ${whole(bid.company.name)}.`,
      `Rate: ${bidRate(bid)}. A hire is created and the worker is offered a draft contract at this rate.`,
    ],
    consequence: ACCEPT_CONSEQUENCE,
    question: "Accept this bid and hire the worker?",
    facts: {
      worker: bid.worker.name,
      agency: bid.supplier?.name ?? null,
      job: bid.job.name,
      company: bid.company.name,
      rate: bidRate(bid),
      // Found by name: the token holds to this bid, whoever the name fits later.
      ...(byName ? { bid: bid.id } : {}),
    },
  };
}

async function acceptBid(
  ctx: ToolContext,
  bidId: string,
  call: Record<string, unknown>,
  token: string | undefined,
  byName: boolean,
): Promise<Result | FormAnswer> {
  return confirmedWrite(ctx, {
    tool: TOOL,
    args: call,
    token,
    target: bidTarget(bidId),
    check: `list_jobs (the job of bid ${oneLine(bidId)})`,
    propose: () => proposeAcceptance(ctx, bidId, byName),
    fields: (bid) => ({ action: "accept-bid" as const, bid }),
    declined: (bid) => ({ text: `Bid ${oneLine(bid.id)} is still OPEN.` }),
    apply: ({ preview }) => sendAcceptance(ctx, preview),
  });
}

async function sendAcceptance(ctx: ToolContext, bid: BidOut): Promise<Result> {
  const sent = await sendWrite(ctx, {
    tool: TOOL,
    target: bidTarget(bid.id),
    check: `list_jobs (jobId ${oneLine(bid.job.id)})`,
    send: refusedAsNotAllowed(
      () =>
        ctx.client.run(
          acceptBidMutation,
          // The contract's title as previewed (the platform would take the job's title now).
          // The job's title is the platform's own default: nothing is sent that was not shown.
          { input: { bid: bid.id } },
          requestOptions(ctx),
        ),
      `accept bid ${oneLine(bid.id)} (it creates a hire)`,
      "hiring",
    ),
    readBack: () => readOutcome(ctx, bid.id),
    applied: (state) => state?.status === "ACCEPTED" && hireOf(state) !== null,
  });
  if (sent.kind === "unknown") {
    return {
      isError: true,
      structured: { status: "outcome-unknown", action: "accept-bid", bid, note: sent.text },
      text: `Accepting bid ${oneLine(bid.id)} from ${whole(bid.worker.name)}: ${sent.text}`,
    };
  }
  if (sent.kind === "read-back") {
    const hire = hireOf(sent.state as AcceptBidOutcome) as { id: string; status: string };
    const accepted = { ...bid, status: "ACCEPTED" };
    return {
      structured: {
        status: "accepted",
        action: "accept-bid",
        bid: accepted,
        hire: toIdAndStatus(hire),
        note: "The connection dropped after the request was sent; reading the bid back showed it accepted.",
      },
      text: [
        `Bid ${oneLine(bid.id)} is accepted: hire ${oneLine(hire.id)} (status ${oneLine(hire.status)}) for ${whole(bid.worker.name)} at ${whole(bid.company.name)}, at ${bidRate(accepted)}.`,
        "The connection dropped after the request was sent; reading the bid back confirmed it. It was sent once and must not be sent again.",
        `The worker is asked to accept the draft contract; see it with get_hire ${oneLine(hire.id)}. This cannot be undone.`,
      ].join("\n"),
    };
  }
  const hire = sent.data.data.acceptBid;
  const terms = hire.latestContract;
  return {
    structured: {
      status: "accepted",
      action: "accept-bid",
      bid: { ...bid, status: "ACCEPTED" },
      hire: toIdAndStatus(hire),
    },
    text: [
      `Bid ${oneLine(bid.id)} is accepted: hire ${oneLine(hire.id)} (status ${oneLine(hire.status)}) for ${whole(hire.worker.name)} at ${whole(hire.company.name)}, at ${terms ? bidRate(terms) : bidRate(bid)}.`,
      ...rateWarning(bid, terms),
      `The worker is asked to accept the draft contract${terms ? ` ${oneLine(terms.id)}` : ""}; see it with get_hire ${oneLine(hire.id)}. This cannot be undone.`,
    ].join("\n"),
  };
}

/** The platform sets the contract's rate from the bid when it accepts: say so if it differs. */
function rateWarning(bid: BidOut, terms: AcceptedHire["latestContract"]): string[] {
  if (!terms || bidRate(terms) === bidRate(bid)) return [];
  return [
    `Note: the draft contract's rate (${bidRate(terms)}) differs from the previewed ${bidRate(bid)}; the bid changed on the platform after it was read. Check the contract with get_hire before the worker accepts it.`,
  ];
}
