import * as z from "zod";
import {
  type AcceptBidOutcome,
  acceptBidMutation,
  acceptBidOutcomeQuery,
  type BidForAcceptance,
  bidForAcceptanceQuery,
  type CandidateForUpdate,
  candidateForUpdateQuery,
  updateJobCandidateStatusMutation,
  updateJobCandidateStepMutation,
} from "../../client/operations/jobs.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import {
  askForConfirmation,
  confirmationTokenArg,
  confirmedWriteAnnotations,
  previewResult,
  previewTokenOutput,
  redeemConfirmation,
  type SendOutcome,
  sendOnce,
} from "../confirmation.js";
import { defineTool, NotAllowedError, type ToolContext, ToolInputError } from "../define-tool.js";
import { rateText, requestOptions, upperCaseEnum } from "../format.js";
import { refusedAsNotAllowed } from "../not-allowed.js";
import { CLOSED_JOB_STATUSES } from "./job-writes.js";

const TOOL = "manage_candidate";

/** Steps a person may set; the platform sets the others (INVITED_TO_APPLY, APPLIED, HIRING). */
export const MANUAL_STEPS = [
  "SHORTLISTED",
  "INTERVIEW_SELECTED",
  "INTERVIEW_SCHEDULED",
  "INTERVIEW_COMPLETED",
  "COMPLETION_ON_HOLD",
] as const;

/** JobCandidateStatusReason: why a candidate is not eligible any more. */
export const REJECTION_REASONS = [
  "SKILLS_OR_EXPERIENCE",
  "SPECIFIC_JOB_CRITERIA",
  "AVAILABILITY",
  "MARKET_ELIGIBILITY",
  "BUDGET",
  "ACCEPTED_OTHER_JOB",
  "OTHER_CANDIDATE_ACCEPTED",
  "ADDED_BY_MISTAKE",
  "EXISTING_APPLICATION_THROUGH_OTHER_CHANNELS",
] as const;

const ACCEPT_CONSEQUENCE =
  "Accepting creates a hire and an obligation to pay; it cannot be undone.";
const REJECT_CONSEQUENCE =
  "Their open bid is rejected for good; making them eligible again does not reopen it.";

const STATUSES = [
  "preview",
  "declined",
  "updated",
  "unchanged",
  "accepted",
  "not-changed",
  "outcome-unknown",
] as const;
type Status = (typeof STATUSES)[number];

const ref = z.object({ id: z.string(), name: z.string() });
const candidateOutput = z.object({
  id: z.string(),
  worker: ref,
  job: ref.extend({ status: z.string().nullable() }),
  company: ref,
  step: z.string(),
  status: z.string(),
  statusReason: z.string().nullable(),
  bid: z.object({ id: z.string(), status: z.string() }).nullable(),
  hireId: z.string().nullable(),
});
type CandidateOut = z.infer<typeof candidateOutput>;

const bidOutput = z.object({
  id: z.string(),
  status: z.string(),
  worker: ref,
  supplier: ref.nullable(),
  job: ref.extend({ status: z.string().nullable() }),
  company: ref,
  rate: z.number().nullable(),
  rateType: z.string().nullable(),
  currency: z.string(),
});
type BidOut = z.infer<typeof bidOutput>;

const hireOutput = z.object({ id: z.string(), status: z.string() });

interface Output {
  status: Status;
  action: "step" | "status" | "accept-bid";
  candidate?: CandidateOut;
  bid?: BidOut;
  hire?: z.infer<typeof hireOutput>;
  confirmationToken?: string;
  expiresAt?: string;
  note?: string;
}
type Result = { structured: Output; text: string; isError?: boolean };

export const manageCandidateTool = defineTool({
  name: TOOL,
  title: "Manage job candidate",
  toolset: "jobs",
  instruction:
    "manage_candidate moves a job candidate to a step or sets their status; rejecting (NON_ELIGIBLE) and accepting a bid (a hire) need the person's confirmation.",
  description: [
    "Move a job candidate, set their status, or accept a bid.",
    "Use when: deciding on a candidate or bid. Do not use for: finding ids (list_jobs).",
    "Steps, ELIGIBLE: reversible. NON_ELIGIBLE and bids (the worker is offered a hire at the bid's rate; irreversible) preview first.",
    "Returns: the change or hire.",
    'Examples: {"candidateId":"jc_005","step":"INTERVIEW_SELECTED"}; {"bidId":"bid_003"}',
  ].join("\n"),
  inputSchema: {
    candidateId: z.string().min(1).optional().describe("Job candidate id."),
    step: upperCaseEnum(MANUAL_STEPS).optional().describe("A manual step."),
    status: upperCaseEnum(["ELIGIBLE", "NON_ELIGIBLE"] as const)
      .optional()
      .describe("NON_ELIGIBLE rejects their bid."),
    reason: z.string().min(1).optional().describe("e.g. BUDGET (NON_ELIGIBLE)."),
    bidId: z.string().min(1).optional().describe("Bid to accept."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum(STATUSES),
    action: z.enum(["step", "status", "accept-bid"]),
    candidate: candidateOutput.optional(),
    bid: bidOutput.optional(),
    hire: hireOutput.optional(),
    ...previewTokenOutput,
    note: z.string().optional(),
  },
  annotations: confirmedWriteAnnotations,
  async handler(args, ctx): Promise<Result> {
    const { confirmationToken, ...call } = args;
    const reason = checkArguments(args);
    const confirmed = args.bidId !== undefined || args.status === "NON_ELIGIBLE";
    if (confirmationToken !== undefined) {
      if (!confirmed) {
        throw new ToolInputError(
          "this change is reversible and needs no confirmationToken",
          "confirmationToken",
          "Leave confirmationToken out.",
        );
      }
      await redeemConfirmation(ctx, TOOL, confirmationToken, call);
    }
    if (args.bidId !== undefined) return acceptBid(ctx, args.bidId, call, confirmationToken);
    const candidate = await readCandidate(ctx, args.candidateId as string);
    if (args.step !== undefined) return moveStep(ctx, candidate, args.step);
    return setStatus(ctx, candidate, args.status as string, reason, call, confirmationToken);
  },
});

/** One action per call; returns the rejection reason, upper-cased, when one is given. */
function checkArguments(args: {
  candidateId?: string;
  step?: string;
  status?: string;
  reason?: string;
  bidId?: string;
}): string | undefined {
  if (args.bidId !== undefined) {
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
  if (args.candidateId === undefined) {
    throw new ToolInputError(
      "give candidateId (with step or status) or bidId",
      "candidateId",
      "list_jobs with a jobId shows its candidates and bids.",
    );
  }
  if ((args.step === undefined) === (args.status === undefined)) {
    throw new ToolInputError(
      "give either step or status with candidateId, one change per call",
      args.step === undefined ? "step" : "status",
    );
  }
  if (args.reason === undefined) return undefined;
  if (args.status !== "NON_ELIGIBLE") {
    throw new ToolInputError("a reason goes only with status NON_ELIGIBLE", "reason");
  }
  const reason = args.reason.trim().toUpperCase();
  if (!(REJECTION_REASONS as readonly string[]).includes(reason)) {
    throw new ToolInputError(
      `${oneLine(args.reason, 60)} is not a reason the platform knows`,
      "reason",
      `Use one of ${REJECTION_REASONS.join(", ")}.`,
    );
  }
  return reason;
}

async function readCandidate(ctx: ToolContext, id: string): Promise<CandidateForUpdate> {
  const { data } = await ctx.client.run(candidateForUpdateQuery, { id }, requestOptions(ctx));
  const candidate = data.jobCandidate;
  if (!candidate) {
    throw new ToolInputError(
      `there is no job candidate ${oneLine(id)} visible to you`,
      "candidateId",
      "list_jobs with the job's id shows its candidates.",
    );
  }
  if (CLOSED_JOB_STATUSES.has(candidate.job.status ?? "")) {
    throw new ToolInputError(
      `candidate ${oneLine(id)} is on job ${oneLine(candidate.job.id)}, which is ${oneLine(candidate.job.status)}; its candidates can no longer be changed`,
      "candidateId",
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

function toCandidate(c: CandidateForUpdate): CandidateOut {
  return {
    id: c.id,
    worker: { id: c.worker.id, name: c.worker.name },
    job: { id: c.job.id, name: c.job.name, status: c.job.status },
    company: { id: c.job.company.id, name: c.job.company.name },
    step: c.step,
    status: c.status,
    statusReason: c.statusReason,
    bid: c.bid ? { id: c.bid.id, status: c.bid.status } : null,
    hireId: c.hire?.id ?? null,
  };
}

/** "jc_003 "Mikkel Andersen" (wrk_053) on job job_002 "…" at "…"": after the word "candidate". */
const candidateText = (c: CandidateOut) =>
  `${oneLine(c.id)} ${quoted(c.worker.name)} (${oneLine(c.worker.id)}) on job ${oneLine(c.job.id)} ${quoted(c.job.name)} at ${quoted(c.company.name)}`;

async function moveStep(ctx: ToolContext, c: CandidateForUpdate, step: string): Promise<Result> {
  const before = toCandidate(c);
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
  const sent = await sendOnce(
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
    () => readCandidate(ctx, c.id),
  );
  const after = afterWrite(sent, before, (x) => x.step === step);
  if (after.kind !== "done") {
    return notDone(after, "step", before, `moved to step ${step}`, `at step ${oneLine(c.step)}`);
  }
  return {
    structured: { status: "updated", action: "step", candidate: after.candidate, ...after.note },
    text: [
      `Candidate ${candidateText(after.candidate)} moved from step ${oneLine(c.step)} to ${oneLine(after.candidate.step)}.`,
      after.note.note,
      "This can be undone: move them again with manage_candidate.",
    ]
      .filter(Boolean)
      .join("\n"),
  };
}

async function setStatus(
  ctx: ToolContext,
  c: CandidateForUpdate,
  status: string,
  reason: string | undefined,
  call: Record<string, unknown>,
  confirmationToken: string | undefined,
): Promise<Result> {
  const before = toCandidate(c);
  if (c.status === status) {
    return {
      structured: { status: "unchanged", action: "status", candidate: before },
      text: `Candidate ${candidateText(before)} is already ${status}. Nothing was changed.`,
    };
  }
  if (status === "NON_ELIGIBLE" && confirmationToken === undefined) {
    const answer = await askForConfirmation(ctx, {
      tool: TOOL,
      args: call,
      lines: rejectionLines(c, reason),
      consequence:
        c.bid?.status === "OPEN"
          ? REJECT_CONSEQUENCE
          : "They are out of the running for this job until made eligible again.",
      question: "Reject this candidate?",
    });
    if (answer.kind === "declined") {
      return {
        structured: { status: "declined", action: "status", candidate: before },
        text: `${answer.text} ${oneLine(c.id)} is still ${oneLine(c.status)}.`,
      };
    }
    if (answer.kind === "preview") {
      return previewResult(answer, { action: "status", candidate: before });
    }
  }
  const sent = await sendOnce(
    refusedAsNotAllowed(
      () =>
        ctx.client.run(
          updateJobCandidateStatusMutation,
          {
            input: {
              jobCandidate: c.id,
              status,
              ...(reason ? { statusReason: reason } : {}),
            },
          },
          requestOptions(ctx),
        ),
      `change the candidates of job ${oneLine(c.job.id)}`,
      "job management",
    ),
    () => readCandidate(ctx, c.id),
  );
  const after = afterWrite(sent, before, (x) => x.status === status);
  if (after.kind !== "done") {
    return notDone(after, "status", before, `set ${status}`, oneLine(c.status));
  }
  const a = after.candidate;
  const bid = a.bid ? ` Their bid ${oneLine(a.bid.id)} is ${oneLine(a.bid.status)}.` : "";
  return {
    structured: { status: "updated", action: "status", candidate: a, ...after.note },
    text: [
      `Candidate ${candidateText(a)} is now ${oneLine(a.status)}${a.statusReason ? ` (reason ${oneLine(a.statusReason)})` : ""}.${bid}`,
      after.note.note,
      status === "ELIGIBLE"
        ? "They are back in the running; a bid rejected earlier stays rejected."
        : "They can be made ELIGIBLE again with manage_candidate, but a rejected bid is not reopened.",
    ]
      .filter(Boolean)
      .join("\n"),
  };
}

function rejectionLines(c: CandidateForUpdate, reason: string | undefined): string[] {
  const candidate = toCandidate(c);
  const lines = [
    `Mark candidate ${candidateText(candidate)} NON_ELIGIBLE${reason ? ` (reason ${reason})` : ""}; they are now at step ${oneLine(c.step)}, ${oneLine(c.status)}.`,
  ];
  if (c.bid?.status === "OPEN") {
    lines.push(
      `Their open bid ${oneLine(c.bid.id)} at ${c.bid.rate === null ? `${oneLine(c.bid.currency)} rate hidden` : rateText(c.bid.rate, c.bid.currency, c.bid.rateType)} is rejected.`,
    );
  }
  if (c.hire) lines.push(`They have hire ${oneLine(c.hire.id)}; this does not cancel it.`);
  return lines;
}

type After =
  | { kind: "done"; candidate: CandidateOut; note: { note?: string } }
  | { kind: "not-done"; candidate: CandidateOut | null }
  | { kind: "unknown" };

/** What a candidate write did: its answer, or what reading the candidate back shows. */
function afterWrite(
  sent: SendOutcome<unknown, CandidateForUpdate>,
  before: CandidateOut,
  applied: (c: CandidateOut) => boolean,
): After {
  if (sent.kind === "unknown") return { kind: "unknown" };
  if (sent.kind === "sent") {
    const data = (sent.data as { data: Record<string, UpdatedFields> }).data;
    const updated = Object.values(data)[0] as UpdatedFields;
    return {
      kind: "done",
      candidate: {
        ...before,
        step: updated.step,
        status: updated.status,
        statusReason: updated.statusReason,
        bid: updated.bid,
      },
      note: {},
    };
  }
  const now = toCandidate(sent.state);
  if (!applied(now)) return { kind: "not-done", candidate: now };
  return {
    kind: "done",
    candidate: now,
    note: {
      note: "The connection dropped after the request was sent; reading the candidate back confirmed the change.",
    },
  };
}

interface UpdatedFields {
  step: string;
  status: string;
  statusReason: string | null;
  bid: { id: string; status: string } | null;
}

function notDone(
  after: Exclude<After, { kind: "done" }>,
  action: "step" | "status",
  before: CandidateOut,
  change: string,
  still: string,
): Result {
  if (after.kind === "unknown") {
    return {
      isError: true,
      structured: { status: "outcome-unknown", action, candidate: before },
      text: `It is not known whether ${oneLine(before.id)} was ${change}: the connection failed after the request was sent, and the candidate could not be read back. Do not send it again yet; check with list_jobs (jobId ${oneLine(before.job.id)}) in a minute.`,
    };
  }
  const now = after.candidate ?? before;
  return {
    isError: true,
    structured: { status: "not-changed", action, candidate: now },
    text: `${oneLine(before.id)} was NOT ${change}: the request failed, and reading the candidate back shows them still ${still}. Nothing changed; call manage_candidate again to retry.`,
  };
}

// ---- accepting a bid ---------------------------------------------------------------------------

async function readBid(ctx: ToolContext, id: string): Promise<BidForAcceptance | null> {
  const { data } = await ctx.client.run(bidForAcceptanceQuery, { id }, requestOptions(ctx));
  return data.bid;
}

function toBid(b: BidForAcceptance): BidOut {
  return {
    id: b.id,
    status: b.status,
    worker: { id: b.worker.id, name: b.worker.name },
    supplier: b.supplier ? { id: b.supplier.id, name: b.supplier.name } : null,
    job: { id: b.job.id, name: b.job.name, status: b.job.status },
    company: { id: b.job.company.id, name: b.job.company.name },
    rate: b.rate,
    rateType: b.rateType,
    currency: b.currency,
  };
}

const bidRate = (b: BidOut) =>
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

async function acceptBid(
  ctx: ToolContext,
  bidId: string,
  call: Record<string, unknown>,
  confirmationToken: string | undefined,
): Promise<Result> {
  const found = await readBid(ctx, bidId);
  if (!found) {
    throw new ToolInputError(
      `there is no bid ${oneLine(bidId)} visible to you`,
      "bidId",
      "list_jobs with the job's id shows its bids.",
    );
  }
  const bid = toBid(found);
  if (found.status !== "OPEN") {
    throw new ToolInputError(
      `bid ${oneLine(bidId)} is ${oneLine(found.status)}; only open bids can be accepted`,
      "bidId",
      "Nothing was changed.",
    );
  }
  if (found.job.status !== "ACTIVE") {
    throw new ToolInputError(
      `bid ${oneLine(bidId)} is on job ${oneLine(found.job.id)}, which is ${oneLine(found.job.status)}; only bids on active jobs can be accepted`,
      "bidId",
      "Nothing was changed.",
    );
  }
  if (!found.job.viewerCanCreateHire) {
    throw new NotAllowedError(`accept bid ${oneLine(bidId)} (it creates a hire)`, "hiring");
  }
  if (confirmationToken === undefined) {
    const via = bid.supplier
      ? ` via the agency ${quoted(bid.supplier.name)} (${oneLine(bid.supplier.id)})`
      : "";
    const answer = await askForConfirmation(ctx, {
      tool: TOOL,
      args: call,
      lines: [
        `Accept bid ${oneLine(bid.id)} from ${quoted(bid.worker.name)} (${oneLine(bid.worker.id)})${via} on job ${oneLine(bid.job.id)} ${quoted(bid.job.name)} at ${quoted(bid.company.name)}.`,
        `Rate: ${bidRate(bid)}. A hire is created and the worker is offered a draft contract at this rate.`,
      ],
      consequence: ACCEPT_CONSEQUENCE,
      question: "Accept this bid and hire the worker?",
    });
    if (answer.kind === "declined") {
      return {
        structured: { status: "declined", action: "accept-bid", bid },
        text: `${answer.text} Bid ${oneLine(bid.id)} is still OPEN.`,
      };
    }
    if (answer.kind === "preview") {
      return previewResult(answer, { action: "accept-bid", bid });
    }
  }
  const sent = await sendOnce(
    refusedAsNotAllowed(
      () => ctx.client.run(acceptBidMutation, { input: { bid: bid.id } }, requestOptions(ctx)),
      `accept bid ${oneLine(bid.id)} (it creates a hire)`,
      "hiring",
    ),
    () => readOutcome(ctx, bid.id),
  );
  if (sent.kind === "unknown") {
    return {
      isError: true,
      structured: { status: "outcome-unknown", action: "accept-bid", bid },
      text: `It is not known whether bid ${oneLine(bid.id)} was accepted: the connection failed after the request was sent, and the bid could not be read back. Do NOT send it again; check it with list_jobs (jobId ${oneLine(bid.job.id)}) or search_hires in a minute.`,
    };
  }
  if (sent.kind === "read-back") {
    const state = sent.state;
    const hire = state?.status === "ACCEPTED" ? hireOf(state) : null;
    if (!state || !hire) {
      return {
        isError: true,
        structured: {
          status: "not-changed",
          action: "accept-bid",
          bid: { ...bid, status: state?.status ?? bid.status },
        },
        text: `Bid ${oneLine(bid.id)} was NOT accepted: the request failed, and reading the bid back shows it ${state ? `still ${oneLine(state.status)}` : "not visible"} with no hire for ${quoted(bid.worker.name)}. Nothing changed; after the person confirms again, call manage_candidate without a token for a fresh preview.`,
      };
    }
    const accepted = { ...bid, status: state.status };
    return {
      structured: {
        status: "accepted",
        action: "accept-bid",
        bid: accepted,
        hire: { id: hire.id, status: hire.status },
        note: "The connection dropped after the request was sent; reading the bid back showed it accepted.",
      },
      text: [
        `Bid ${oneLine(bid.id)} is accepted: hire ${oneLine(hire.id)} (status ${oneLine(hire.status)}) for ${quoted(bid.worker.name)} at ${quoted(bid.company.name)}, at ${bidRate(accepted)}.`,
        "The connection dropped after the request was sent; reading the bid back confirmed it. It was sent once and must not be sent again.",
        `The worker is asked to accept the draft contract; see it with get_hire ${oneLine(hire.id)}. This cannot be undone.`,
      ].join("\n"),
    };
  }
  const hire = sent.data.data.acceptBid;
  const terms = hire.latestContract;
  const rate = terms
    ? terms.rate === null
      ? `${oneLine(terms.currency)}, rate hidden`
      : rateText(terms.rate, terms.currency, terms.rateType)
    : bidRate(bid);
  return {
    structured: {
      status: "accepted",
      action: "accept-bid",
      bid: { ...bid, status: "ACCEPTED" },
      hire: { id: hire.id, status: hire.status },
    },
    text: [
      `Bid ${oneLine(bid.id)} is accepted: hire ${oneLine(hire.id)} (status ${oneLine(hire.status)}) for ${quoted(hire.worker.name)} at ${quoted(hire.company.name)}, at ${rate}.`,
      `The worker is asked to accept the draft contract${terms ? ` ${oneLine(terms.id)}` : ""}; see it with get_hire ${oneLine(hire.id)}. This cannot be undone.`,
    ].join("\n"),
  };
}
