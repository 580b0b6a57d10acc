// A job's candidate and bid as the tools show them: the output schemas and the mappings from the
// platform's answer, for the selections in src/client/operations/jobs.ts (JobDetails, Candidacies,
// CandidateForUpdate, BidForAcceptance). How a job shows its own candidates is in ./job.ts.
import * as z from "zod";
import type {
  BidForAcceptance,
  BidRow,
  Candidacy,
  CandidateForUpdate,
  JobCandidateRow,
} from "../../client/operations/jobs.js";
import {
  idAndName,
  idAndStatus,
  toIdAndName,
  toIdAndStatus,
  toWorkerWithEmail,
  workerWithEmail,
} from "./named.js";

/** A job by id, name and status: what a candidate or bid is on. */
const jobRefOutput = idAndName.extend({ status: z.string().nullable() });
const toJobRef = (j: { id: string; name: string; status: string | null }) => ({
  ...toIdAndName(j),
  status: j.status,
});

/** Where a candidate stands on the job: the hiring step, and whether they are still in the running. */
export const candidateStanding = {
  step: z.string(),
  status: z.string(),
  statusReason: z.string().nullable(),
};

export const toCandidateStanding = (
  c: Pick<JobCandidateRow, "step" | "status" | "statusReason">,
) => ({
  step: c.step,
  status: c.status,
  statusReason: c.statusReason,
});

/** As list_jobs shows a job's candidates. */
export const jobCandidateOutput = z.object({
  id: z.string(),
  worker: workerWithEmail,
  ...candidateStanding,
  preferred: z.boolean(),
  bidId: z.string().nullable(),
  hireId: z.string().nullable(),
});
export type JobCandidateOut = z.infer<typeof jobCandidateOutput>;

export function toJobCandidateOutput(c: JobCandidateRow): JobCandidateOut {
  return {
    id: c.id,
    worker: toWorkerWithEmail(c.worker),
    ...toCandidateStanding(c),
    preferred: c.isPreferred,
    bidId: c.bid?.id ?? null,
    hireId: c.hire?.id ?? null,
  };
}

/** Who bids: the worker, and the agency they bid through, if any. */
const bidParties = { worker: idAndName, supplier: idAndName.nullable() };
type BidPartiesIn = Pick<BidRow, "worker" | "supplier">;
const toBidParties = (b: BidPartiesIn) => ({
  worker: toIdAndName(b.worker),
  supplier: b.supplier ? toIdAndName(b.supplier) : null,
});

/** A bid's terms; the rate is null when hidden from you. */
const bidTerms = {
  rate: z.number().nullable(),
  rateType: z.string().nullable(),
  currency: z.string(),
};
type BidTermsIn = Pick<BidRow, "rate" | "rateType" | "currency">;
const toBidTerms = (b: BidTermsIn) => ({
  rate: b.rate,
  rateType: b.rateType,
  currency: b.currency,
});

/** As list_jobs shows a job's bids. */
export const jobBidOutput = z.object({
  id: z.string(),
  status: z.string(),
  ...bidParties,
  ...bidTerms,
});
export type JobBidOut = z.infer<typeof jobBidOutput>;

export const toJobBidOutput = (b: BidRow): JobBidOut => ({
  id: b.id,
  status: b.status,
  ...toBidParties(b),
  ...toBidTerms(b),
});

/** A candidacy's bid and its terms (list_jobs with person). */
export const candidacyBidOutput = z.object({ id: z.string(), status: z.string(), ...bidTerms });

export const toCandidacyBid = (b: NonNullable<Candidacy["bid"]>) => ({
  id: b.id,
  status: b.status,
  ...toBidTerms(b),
});

/** As manage_candidate changes it: on which job of which company, and where it stands. */
export const candidateOutput = z.object({
  id: z.string(),
  worker: idAndName,
  job: jobRefOutput,
  company: idAndName,
  ...candidateStanding,
  bid: idAndStatus.nullable(),
  hireId: z.string().nullable(),
});
export type CandidateOut = z.infer<typeof candidateOutput>;

export function toCandidateOutput(c: CandidateForUpdate): CandidateOut {
  return {
    id: c.id,
    worker: toIdAndName(c.worker),
    job: toJobRef(c.job),
    company: toIdAndName(c.job.company),
    ...toCandidateStanding(c),
    bid: c.bid ? toIdAndStatus(c.bid) : null,
    hireId: c.hire?.id ?? null,
  };
}

/** As manage_candidate accepts it: whose, through which agency, on which job, at what rate. */
export const bidOutput = z.object({
  id: z.string(),
  status: z.string(),
  ...bidParties,
  job: jobRefOutput,
  company: idAndName,
  ...bidTerms,
});
export type BidOut = z.infer<typeof bidOutput>;

export const toBidOutput = (b: BidForAcceptance): BidOut => ({
  id: b.id,
  status: b.status,
  ...toBidParties(b),
  job: toJobRef(b.job),
  company: toIdAndName(b.job.company),
  ...toBidTerms(b),
});
