// A job as the tools show it: the output schemas and the mappings from the platform's answer, for
// the selections in src/client/operations/jobs.ts (ListJobs, JobDetails, Candidacies and the job
// post_job creates). Its candidates and bids, as it shows them, come from ./candidacy.ts.
import * as z from "zod";
import type { Candidacy, JobDetails, JobSummary, PostedJob } from "../../client/operations/jobs.js";
import { pageOf, pageOutput } from "../format.js";
import {
  candidacyBidOutput,
  candidateStanding,
  jobBidOutput,
  jobCandidateOutput,
  toCandidacyBid,
  toCandidateStanding,
  toJobBidOutput,
  toJobCandidateOutput,
} from "./candidacy.js";
import { idAndName, toIdAndName, toWorkerWithEmail, workerWithEmail } from "./named.js";

/** What every way of showing a job starts with: which job, and whose. */
const jobHead = z.object({
  id: z.string(),
  number: z.number(),
  name: z.string(),
  status: z.string().nullable(),
  company: idAndName,
});
const toJobHead = (j: Pick<JobSummary, "id" | "number" | "name" | "status" | "company">) => ({
  id: j.id,
  number: j.number,
  name: j.name,
  status: j.status,
  company: toIdAndName(j.company),
});

/** What a listed job and a job shown alone both have. */
const jobFields = jobHead.extend({
  currency: z.string(),
  skills: z.array(z.string()),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  publishedAt: z.string().nullable(),
});

function toJobFields(j: Omit<JobSummary, "jobCandidates" | "bids">): z.infer<typeof jobFields> {
  return {
    ...toJobHead(j),
    currency: j.currency,
    skills: j.skills.map((s) => s.name),
    startDate: j.startDate,
    endDate: j.endDate,
    publishedAt: j.publishedAt,
  };
}

/** As list_jobs lists it: with how many candidates and bids it has. */
export const jobOutput = jobFields.extend({ candidates: z.number(), bids: z.number() });
export type JobOut = z.infer<typeof jobOutput>;

export function toJobOutput(j: JobSummary): JobOut {
  return {
    ...toJobFields(j),
    candidates: j.jobCandidates.paginatorInfo.total,
    bids: j.bids.paginatorInfo.total,
  };
}

/** As list_jobs shows one job: its terms and a page of its candidates and bids. */
export const jobDetailOutput = jobFields.extend({
  description: z.string().nullable(),
  rate: z.number().nullable(),
  minimumRate: z.number().nullable(),
  maximumRate: z.number().nullable(),
  rateType: z.string().nullable(),
  locationPreference: z.string().nullable(),
  candidates: z.array(jobCandidateOutput),
  candidatesPage: pageOutput,
  bids: z.array(jobBidOutput),
  bidsPage: pageOutput,
});
export type JobDetailOut = z.infer<typeof jobDetailOutput>;

export function toJobDetail(j: JobDetails): JobDetailOut {
  return {
    ...toJobFields(j),
    description: j.description,
    rate: j.rate,
    minimumRate: j.minimumRate,
    maximumRate: j.maximumRate,
    rateType: j.rateType,
    locationPreference: j.locationPreference,
    candidates: j.jobCandidates.data.map(toJobCandidateOutput),
    candidatesPage: pageOf(j.jobCandidates.paginatorInfo),
    bids: j.bids.data.map(toJobBidOutput),
    bidsPage: pageOf(j.bids.paginatorInfo),
  };
}

/** As list_jobs shows a job where a person is a candidate: their step, status and bid there. */
export const candidacyOutput = z.object({
  id: z.string(),
  worker: workerWithEmail,
  job: jobHead,
  ...candidateStanding,
  bid: candidacyBidOutput.nullable(),
  hireId: z.string().nullable(),
});
export type CandidacyOut = z.infer<typeof candidacyOutput>;

export function toCandidacyOutput(c: Candidacy): CandidacyOut {
  return {
    id: c.id,
    worker: toWorkerWithEmail(c.worker),
    job: toJobHead(c.job),
    ...toCandidateStanding(c),
    bid: c.bid ? toCandidacyBid(c.bid) : null,
    hireId: c.hire?.id ?? null,
  };
}

/** As post_job creates, changes and publishes it. */
export const postedJobOutput = jobHead.extend({
  skills: z.array(z.string()),
  hasDescription: z.boolean(),
  publishedAt: z.string().nullable(),
});
export type PostedJobOut = z.infer<typeof postedJobOutput>;

export function toPostedJobOutput(j: PostedJob): PostedJobOut {
  return {
    ...toJobHead(j),
    skills: j.skills.map((s) => s.name),
    hasDescription: Boolean(j.description?.trim()),
    publishedAt: j.publishedAt,
  };
}
