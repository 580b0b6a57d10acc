// Accepting a bid: it creates a hire and an obligation to pay, so it is sent only after a preview
// the person confirms, and read back after a lost answer.
import {
  type AcceptBidOutcome,
  type AcceptedHire,
  acceptBidMutation,
  acceptBidOutcomeQuery,
  type BidForAcceptance,
  bidForAcceptanceQuery,
} from "../../../client/operations/jobs.js";
import { oneLine } from "../../../client/platform-text.js";
import { confirmedWrite, type Proposal, sendWrite, whole } from "../../confirmation.js";
import {
  type FormAnswer,
  NotAllowedError,
  type ToolContext,
  ToolInputError,
} from "../../define-tool.js";
import { requestOptions } from "../../format.js";
import { refusedAsNotAllowed } from "../../not-allowed.js";
import { type BidOut, toBidOutput } from "../../shapes/candidacy.js";
import { toIdAndStatus } from "../../shapes/named.js";
import { bidRate, type Result, TOOL } from "./candidate-record.js";

const ACCEPT_CONSEQUENCE =
  "Accepting creates a hire and an obligation to pay; it cannot be undone.";

async function readBid(ctx: ToolContext, id: string): Promise<BidForAcceptance | null> {
  const { data } = await ctx.client.run(bidForAcceptanceQuery, { id }, requestOptions(ctx));
  return data.bid;
}

/** The hire made for the bid's worker on its job, if any. */
const hireOf = (b: AcceptBidOutcome) =>
  b.job.hires.data.findLast((h) => h.worker.id === b.worker.id) ?? null;

async function readOutcome(ctx: ToolContext, id: string): Promise<AcceptBidOutcome | null> {
  const { data } = await ctx.client.run(acceptBidOutcomeQuery, { id }, requestOptions(ctx));
  return data.bid;
}

const bidTarget = (id: string) => `bid ${id}`;

/** The bid, when it can be accepted: open, on an active job, by an account that may hire. */
async function openBid(
  ctx: ToolContext,
  bidId: string,
  argument: string,
): Promise<BidForAcceptance> {
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
  return found;
}

/** Reads the bid and says what accepting it would do; refuses what cannot be done. */
async function proposeAcceptance(
  ctx: ToolContext,
  bidId: string,
  byName: boolean,
): Promise<Proposal<BidOut>> {
  const bid = toBidOutput(await openBid(ctx, bidId, byName ? "person" : "bidId"));
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

export async function acceptBid(
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
  if (sent.kind === "read-back") return acceptedOnReadBack(bid, sent.state as AcceptBidOutcome);
  return accepted(bid, sent.data.data.acceptBid);
}

/** The answer when the bid, read back after a lost answer, shows it accepted. */
function acceptedOnReadBack(bid: BidOut, state: AcceptBidOutcome): Result {
  const hire = hireOf(state) as { id: string; status: string };
  const acceptedBid = { ...bid, status: "ACCEPTED" };
  return {
    structured: {
      status: "accepted",
      action: "accept-bid",
      bid: acceptedBid,
      hire: toIdAndStatus(hire),
      note: "The connection dropped after the request was sent; reading the bid back showed it accepted.",
    },
    text: [
      `Bid ${oneLine(bid.id)} is accepted: hire ${oneLine(hire.id)} (status ${oneLine(hire.status)}) for ${whole(bid.worker.name)} at ${whole(bid.company.name)}, at ${bidRate(acceptedBid)}.`,
      "The connection dropped after the request was sent; reading the bid back confirmed it. It was sent once and must not be sent again.",
      `The worker is asked to accept the draft contract; see it with get_hire ${oneLine(hire.id)}. This cannot be undone.`,
    ].join("\n"),
  };
}

/** The answer from the hire the platform made. */
function accepted(bid: BidOut, hire: AcceptedHire): Result {
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
