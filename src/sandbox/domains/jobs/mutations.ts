// The jobs domain's writes, with the platform's rules: createJob makes a DRAFT, updateJob sets the
// details and publishes (never unpublishes), candidates move only to manual steps, and acceptBid
// hires the bid's worker with a draft contract at the bid's rate (the hire is OFFERED).
import type { RequestContext } from "../../context.js";
import { isRealDate } from "../../dates.js";
import { authorizationError, ValidationCollector } from "../../errors.js";
import { referenced } from "../../records.js";
import type {
  AcceptBidInput,
  CreateJobInput,
  UpdateJobCandidateStatusInput,
  UpdateJobCandidateStepInput,
  UpdateJobInput,
} from "../../resolver-types.generated.js";
import type { ContractRecord, HireRecord } from "../../seed/index.js";
import { talentOf } from "../talent/seed.js";
import {
  type JobCandidateHiringStep,
  type JobCandidateRecord,
  type JobRecord,
  jobsOf,
} from "./seed.js";

/** Steps a person may set; the platform sets the others (a share, a bid, a hire). */
const MANUAL_STEPS: ReadonlySet<JobCandidateHiringStep> = new Set([
  "SHORTLISTED",
  "INTERVIEW_SELECTED",
  "INTERVIEW_SCHEDULED",
  "INTERVIEW_COMPLETED",
  "COMPLETION_ON_HOLD",
]);

const CLOSED: ReadonlySet<string> = new Set(["COMPLETED", "REMOVED"]);
const pad = (n: number) => String(n).padStart(3, "0");

/** A write's timestamp: today, at a minute that grows with each write so the order is kept. */
function stamp(ctx: RequestContext): string {
  const store = jobsOf(ctx.data);
  const n = store.counters.job + store.counters.candidate + store.counters.bid;
  return `${ctx.data.today}T12:${String(n % 60).padStart(2, "0")}:00.000000Z`;
}

const mayManage = (ctx: RequestContext, companyId: string) =>
  ctx.identity.companyIds.has(companyId) && ctx.identity.managesJobs;

/** Skill names to ids; a name the platform does not know yet becomes a new skill. */
function skillIds(
  ctx: RequestContext,
  names: readonly string[] | null | undefined,
  path: string,
  v: ValidationCollector,
) {
  if (!names || names.length === 0) {
    v.add(path, `The ${path} field must have at least 1 item.`);
    return [];
  }
  const talent = talentOf(ctx.data);
  const ids: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (name === "") {
      v.add(path, `The ${path} must not contain empty names.`);
      continue;
    }
    let skill = [...talent.skills.values()].find(
      (s) => s.name.toLowerCase() === name.toLowerCase(),
    );
    if (!skill) {
      talent.counters.skill += 1;
      skill = { id: `skl_${pad(talent.counters.skill)}`, name, types: ["JOB"] };
      talent.skills.set(skill.id, skill);
    }
    if (!ids.includes(skill.id)) ids.push(skill.id);
  }
  return ids;
}

function requireJob(ctx: RequestContext, id: string, v: ValidationCollector): JobRecord | null {
  const job = jobsOf(ctx.data).jobs.get(id);
  if (!job) {
    v.add("input.id", "The selected input.id is invalid.");
    return null;
  }
  if (!mayManage(ctx, job.companyId)) throw authorizationError();
  return job;
}

export function createJob(ctx: RequestContext, input: CreateJobInput, field: string): JobRecord {
  const v = new ValidationCollector();
  const company = ctx.data.companies.find((c) => c.id === input.company);
  if (!company) v.add("input.company", "The selected input.company is invalid.");
  else if (!mayManage(ctx, company.id)) throw authorizationError();
  const name = input.name.trim();
  if (name === "") v.add("input.name", "The input.name field is required.");
  else if (name.length > 255) v.add("input.name", "The input.name may not be greater than 255.");
  // Validate everything before adding skills, so a refused call changes nothing.
  const owner = v.passed(field, company);
  const skills = skillIds(ctx, input.skills, "input.skills", v);
  v.throwIfAny(field);
  const store = jobsOf(ctx.data);
  store.counters.job += 1;
  const created = stamp(ctx);
  const job: JobRecord = {
    id: `job_${pad(store.counters.job)}`,
    number: 1_000 + store.counters.job,
    name,
    description: "",
    companyId: owner.id,
    status: "DRAFT",
    paused: false,
    skillIds: skills,
    currency: owner.currency,
    rateType: null,
    rate: null,
    minimumRate: null,
    maximumRate: null,
    locationPreference: null,
    startDate: null,
    endDate: null,
    requiredWorkers: 1,
    createdAt: created,
    updatedAt: created,
    publishedAt: null,
    externalIdentifier: null,
  };
  store.jobs.set(job.id, job);
  return job;
}

/** What a job needs before it can be published. */
export const canBePublished = (job: JobRecord) =>
  job.status === "DRAFT" && job.description.trim() !== "" && job.skillIds.length > 0;

export function updateJob(ctx: RequestContext, input: UpdateJobInput, field: string): JobRecord {
  const v = new ValidationCollector();
  const j = v.passed(field, requireJob(ctx, input.id, v));
  const given = (key: keyof UpdateJobInput) => input[key] !== undefined && input[key] !== null;
  if (given("name") && String(input.name).trim() === "") {
    v.add("input.name", "The input.name must not be empty.");
  }
  for (const key of ["startDate", "endDate"] as const) {
    if (given(key) && !isRealDate(input[key])) {
      v.add(`input.${key}`, `The input.${key} is not a valid date (YYYY-MM-DD).`);
    }
  }
  const start = input.startDate ?? j.startDate;
  const end = input.endDate ?? j.endDate;
  if (v.empty && start && end && end < start) {
    v.add("input.endDate", "The input.endDate must be a date after input.startDate.");
  }
  if (CLOSED.has(j.status)) {
    v.add("input.id", `The job is ${j.status}; it can no longer be changed.`);
  }
  if (input.published === false && j.publishedAt !== null) {
    v.add("input.published", "Job publication cannot be undone.");
  }
  v.throwIfAny(field);
  const skills = given("skills") ? skillIds(ctx, input.skills, "input.skills", v) : j.skillIds;
  const description = given("description") ? String(input.description) : j.description;
  const publishing = input.published === true && j.status === "DRAFT";
  if (publishing && description.trim() === "") {
    v.add("input.description", "The description is required to publish the job.");
  }
  v.throwIfAny(field);
  if (given("name")) j.name = String(input.name).trim();
  j.description = description;
  j.skillIds = skills;
  j.startDate = start;
  j.endDate = end;
  if (given("externalIdentifier")) j.externalIdentifier = String(input.externalIdentifier);
  j.updatedAt = stamp(ctx);
  if (publishing) {
    j.status = "ACTIVE";
    j.publishedAt = j.updatedAt;
  }
  return j;
}

function requireCandidate(ctx: RequestContext, id: string, v: ValidationCollector) {
  const candidate = jobsOf(ctx.data).candidates.get(id);
  if (!candidate) {
    v.add("input.jobCandidate", "The selected input.jobCandidate is invalid.");
    return null;
  }
  const job = referenced(jobsOf(ctx.data).jobs, candidate.jobId);
  if (!mayManage(ctx, job.companyId)) throw authorizationError();
  if (CLOSED.has(job.status)) {
    v.add(
      "input.jobCandidate",
      `The candidate's job is ${job.status}; its candidates can no longer be changed.`,
    );
  }
  return candidate;
}

export function updateJobCandidateStep(
  ctx: RequestContext,
  input: UpdateJobCandidateStepInput,
  field: string,
): JobCandidateRecord {
  const v = new ValidationCollector();
  const candidate = requireCandidate(ctx, input.jobCandidate, v);
  const { step } = input;
  if (!MANUAL_STEPS.has(step)) {
    v.add(
      "input.step",
      `Only manual steps can be set; ${step} is set by the platform (manual: ${[...MANUAL_STEPS].join(", ")}).`,
    );
  }
  if (candidate?.hireId) {
    v.add("input.jobCandidate", "The candidate has a hire for the job; their step stays HIRING.");
  }
  const c = v.passed(field, candidate);
  c.step = step;
  c.updatedAt = stamp(ctx);
  return c;
}

export function updateJobCandidateStatus(
  ctx: RequestContext,
  input: UpdateJobCandidateStatusInput,
  field: string,
): JobCandidateRecord {
  const v = new ValidationCollector();
  const candidate = requireCandidate(ctx, input.jobCandidate, v);
  const { status } = input;
  if (status === "ELIGIBLE" && input.statusReason) {
    v.add("input.statusReason", "A reason is only given when the candidate is not eligible.");
  }
  const c = v.passed(field, candidate);
  c.status = status;
  c.statusReason = status === "ELIGIBLE" ? null : (input.statusReason ?? null);
  c.statusComment = input.statusComment ?? null;
  c.updatedAt = stamp(ctx);
  // A candidate out of the running has their open bid rejected; it is not reopened later.
  const bid = c.bidId ? jobsOf(ctx.data).bids.get(c.bidId) : undefined;
  if (status !== "ELIGIBLE" && bid?.status === "OPEN") bid.status = "REJECTED";
  return c;
}

export function acceptBid(ctx: RequestContext, input: AcceptBidInput, field: string): HireRecord {
  const v = new ValidationCollector();
  const store = jobsOf(ctx.data);
  const bid = store.bids.get(input.bid);
  const job = bid ? referenced(store.jobs, bid.jobId) : undefined;
  if (!bid || !job) {
    v.add("input.bid", "The selected input.bid is invalid.");
  } else {
    if (!mayManage(ctx, job.companyId) || !ctx.identity.managesHires) throw authorizationError();
    if (bid.status !== "OPEN") {
      v.add("input.bid", `Only open bids can be accepted; this bid is ${bid.status}.`);
    }
    if (job.status !== "ACTIVE") {
      v.add(
        "input.bid",
        `The bid's job is ${job.status}; only bids on active jobs can be accepted.`,
      );
    }
  }
  for (const key of ["startDate", "endDate"] as const) {
    const value = input[key];
    if (value !== undefined && value !== null && !isRealDate(value)) {
      v.add(`input.${key}`, `The input.${key} is not a valid date (YYYY-MM-DD).`);
    }
  }
  const b = v.passed(field, bid);
  const j = v.passed(field, job);
  const start = input.startDate ?? j.startDate;
  const end = input.endDate ?? j.endDate;
  if (start && end && end < start) {
    v.add("input.endDate", "The input.endDate must be a date after input.startDate.");
  }
  v.throwIfAny(field);

  // As createDraftHire does: the core's counters, a hire and its first (draft) contract.
  const data = ctx.data;
  data.counters.hire += 1;
  data.counters.contract += 1;
  const hireId = `hire_${pad(data.counters.hire)}`;
  const contract: ContractRecord = {
    id: `ctr_${pad(data.counters.contract)}`,
    hireId,
    jobName: input.jobTitle ?? j.name,
    jobDescription: input.jobDescription ?? j.description,
    locationPreference: j.locationPreference,
    status: "DRAFT",
    startDate: start,
    endDate: end,
    currency: b.currency,
    rateType: b.rateType ?? j.rateType ?? "HOURLY",
    rate: b.rate ?? 0,
    purchaseOrderNumber: input.purchaseOrderNumber ?? null,
    paymentTermMethod: "NET",
    paymentTerm: 30,
    files: [],
  };
  data.contracts.set(contract.id, contract);
  // Offered: the draft contract waits for the worker's acceptance.
  const hire: HireRecord = {
    id: hireId,
    number: `H-${10_000 + data.counters.hire}`,
    status: "OFFERED",
    workerId: b.workerId,
    companyId: j.companyId,
    recruiterId: b.supplierId,
    createdAt: data.today,
    startDate: start,
    endDate: end,
    terminationDate: null,
    externalIdentifier: input.externalIdentifier ?? null,
    contractIds: [contract.id],
  };
  data.hires.set(hire.id, hire);
  b.status = "ACCEPTED";
  const candidate = [...store.candidates.values()].find(
    (c) => c.jobId === j.id && c.workerId === b.workerId,
  );
  if (candidate) {
    candidate.step = "HIRING";
    candidate.bidId = b.id;
    candidate.hireId = hire.id;
    candidate.updatedAt = stamp(ctx);
  }
  j.updatedAt = stamp(ctx);
  return hire;
}
