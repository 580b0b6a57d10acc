// Jobs, candidates and bids, scoped like the core: a caller sees its companies' jobs only, and an
// account that may not see rates gets the job's and the bids' rates as restricted fields.
import type { AnyRecord, RequestContext, ResolverMap } from "../../context.js";
import { withArgs } from "../../context.js";
import { authorizationError, restrictedFieldError, ValidationCollector } from "../../errors.js";
import {
  type Comparable,
  columnOf,
  companyOf,
  dateRange,
  inRange,
  listFilter,
  orderOf,
  paginate,
  searchText,
  sortBy,
  workerName,
} from "../../kit.js";
import { referenced } from "../../records.js";
import type {
  JobBidsArgs,
  JobHiresArgs,
  JobJobCandidatesArgs,
  MutationAcceptBidArgs,
  MutationCreateJobArgs,
  MutationUpdateJobArgs,
  MutationUpdateJobCandidateStatusArgs,
  MutationUpdateJobCandidateStepArgs,
  QueryBidArgs,
  QueryBidsArgs,
  QueryJobArgs,
  QueryJobCandidateArgs,
  QueryJobCandidatesArgs,
  QueryJobsArgs,
} from "../../resolver-types.generated.js";

/** The yes-or-no filters of the jobs list. */
type JobFlag = "available" | "published" | "completed" | "removed" | "hasHire" | "hasBids";

import type { HireRecord } from "../../seed/index.js";
import { talentOf } from "../talent/seed.js";
import {
  acceptBid,
  canBePublished,
  createJob,
  updateJob,
  updateJobCandidateStatus,
  updateJobCandidateStep,
} from "./mutations.js";
import {
  type BidRecord,
  type JobCandidateRecord,
  type JobRecord,
  jobById,
  jobOfHire,
  jobsOf,
} from "./seed.js";

const visibleJob = (ctx: RequestContext, job: JobRecord) =>
  ctx.identity.companyIds.has(job.companyId);

const jobOf = (ctx: RequestContext, id: string) => referenced(jobsOf(ctx.data).jobs, id);

const candidatesOf = (ctx: RequestContext, jobId: string) =>
  [...jobsOf(ctx.data).candidates.values()].filter((c) => c.jobId === jobId);

const bidsOf = (ctx: RequestContext, jobId: string) =>
  [...jobsOf(ctx.data).bids.values()].filter((b) => b.jobId === jobId);

const isAvailable = (job: JobRecord) => job.status === "ACTIVE" && !job.paused;

function rateField(key: "rate" | "minimumRate" | "maximumRate") {
  return (job: JobRecord, _a: unknown, ctx: RequestContext) => {
    if (!ctx.identity.seesRates) throw restrictedFieldError();
    return job[key];
  };
}

const JOB_COLUMNS: Record<string, (ctx: RequestContext, j: JobRecord) => Comparable> = {
  CREATED_AT: (_c, j) => j.createdAt,
  EXPECTED_START_DATE: (_c, j) => j.startDate,
  PUBLISHED_DATE: (_c, j) => j.publishedAt,
  CANDIDATES: (c, j) => candidatesOf(c, j.id).length,
};

function jobsQuery(ctx: RequestContext, args: QueryJobsArgs, field: string) {
  const v = new ValidationCollector();
  const created = dateRange(args.createdAtDateRange, "createdAtDateRange", v);
  const start = dateRange(args.startDateRange, "startDateRange", v);
  const end = dateRange(args.endDateRange, "endDateRange", v);
  v.throwIfAny(field);
  const accounts = listFilter(args.accounts);
  const currencies = listFilter(args.currencies);
  const rateTypes = listFilter(args.rateTypes);
  const locations = listFilter(args.locationPreferences);
  const externalIds = listFilter(args.externalIdentifiers);
  const statuses = listFilter(args.statuses);
  // The schema: skills are names ("php", "Graphql api"), not ids.
  const skills = (args.skills ?? []).map((s) => s.trim().toLowerCase());
  const search = searchText(args.search);
  const skillNames = (j: JobRecord) =>
    j.skillIds.map((id) => talentOf(ctx.data).skills.get(id)?.name.toLowerCase());

  const jobs = [...jobsOf(ctx.data).jobs.values()].filter((j) => {
    if (!visibleJob(ctx, j)) return false;
    if (accounts && !accounts.has(j.companyId)) return false;
    if (statuses && !statuses.has(j.status)) return false;
    if (currencies && !currencies.has(j.currency)) return false;
    if (rateTypes && !rateTypes.has(j.rateType)) return false;
    if (locations && !locations.has(j.locationPreference)) return false;
    if (externalIds && !externalIds.has(j.externalIdentifier)) return false;
    if (skills.length > 0 && !skills.every((s) => skillNames(j).includes(s))) return false;
    const checks: Array<[JobFlag, boolean]> = [
      ["available", isAvailable(j)],
      ["published", j.publishedAt !== null],
      ["completed", j.status === "COMPLETED"],
      ["removed", j.status === "REMOVED"],
      ["hasHire", candidatesOf(ctx, j.id).some((c) => c.hireId !== null)],
      ["hasBids", bidsOf(ctx, j.id).length > 0],
    ];
    for (const [name, value] of checks) {
      const wanted = args[name];
      if (wanted !== undefined && wanted !== null && wanted !== value) return false;
    }
    if (created && !inRange(j.createdAt.slice(0, 10), created)) return false;
    if (start && !inRange(j.startDate, start)) return false;
    if (end && !inRange(j.endDate, end)) return false;
    if (search) {
      const haystack = [j.name, j.description, String(j.number), j.externalIdentifier ?? ""]
        .join("\n")
        .toLowerCase();
      if (!haystack.includes(search)) return false;
    }
    return true;
  });
  // Newest first unless an order is asked for (even one whose clauses name no column).
  const asked = args.orderBy && args.orderBy.length > 0;
  const given = asked ? orderOf(args.orderBy, (c) => c.field) : null;
  const clauses = (given ?? [{ by: "CREATED_AT", desc: true }]).map(({ by, desc }) => {
    const column = columnOf(JOB_COLUMNS, by);
    return { key: (j: JobRecord) => column(ctx, j), desc };
  });
  return paginate(sortBy(jobs, clauses), args, field);
}

const STEP_ORDER = [
  "SHORTLISTED",
  "INVITED_TO_APPLY",
  "APPLIED",
  "INTERVIEW_SELECTED",
  "INTERVIEW_SCHEDULED",
  "INTERVIEW_COMPLETED",
  "COMPLETION_ON_HOLD",
  "HIRING",
];
const CANDIDATE_COLUMNS: Record<
  string,
  (ctx: RequestContext, c: JobCandidateRecord) => Comparable
> = {
  WORKER_NAME: (ctx, c) => workerName(referenced(ctx.data.workers, c.workerId)),
  HIRING_STEP: (_ctx, c) => STEP_ORDER.indexOf(c.step),
  UPDATED_AT: (_ctx, c) => c.updatedAt,
};

function candidatesQuery(
  ctx: RequestContext,
  args: QueryJobCandidatesArgs,
  field: string,
  base?: JobCandidateRecord[],
) {
  const jobs = listFilter(args.jobs);
  const statuses = listFilter(args.statuses);
  const steps = listFilter(args.steps);
  const { preferred } = args;
  const candidates = (base ?? [...jobsOf(ctx.data).candidates.values()]).filter((c) => {
    if (!visibleJob(ctx, jobOf(ctx, c.jobId))) return false;
    if (jobs && !jobs.has(c.jobId)) return false;
    if (statuses && !statuses.has(c.status)) return false;
    if (steps && !steps.has(c.step)) return false;
    if (preferred !== undefined && preferred !== null && c.isPreferred !== preferred) return false;
    return true;
  });
  const clauses = orderOf(args.orderBy, (c) => c.column).map(({ by, desc }) => {
    const column = columnOf(CANDIDATE_COLUMNS, by);
    return { key: (r: JobCandidateRecord) => column(ctx, r), desc };
  });
  // Without an order, the order candidates were added in.
  return paginate(clauses.length > 0 ? sortBy(candidates, clauses) : candidates, args, field);
}

const BID_COLUMNS: Record<string, (b: BidRecord) => Comparable> = {
  CREATED_AT: (b) => b.createdAt,
  STATUS: (b) => b.status,
};

function bidsQuery(ctx: RequestContext, args: QueryBidsArgs, field: string, base?: BidRecord[]) {
  const statuses = listFilter(args.statuses);
  const jobId = args.job;
  const accounts = listFilter(args.accounts);
  const companies = listFilter(args.companies);
  const bids = (base ?? [...jobsOf(ctx.data).bids.values()]).filter((b) => {
    const job = jobOf(ctx, b.jobId);
    if (!visibleJob(ctx, job)) return false;
    if (statuses && !statuses.has(b.status)) return false;
    if (jobId && b.jobId !== jobId) return false;
    if (companies && !companies.has(job.companyId)) return false;
    // Any account the bid involves: the job's company, the worker or the bidding agency.
    if (
      accounts &&
      !accounts.has(job.companyId) &&
      !accounts.has(b.workerId) &&
      !(b.supplierId && accounts.has(b.supplierId))
    ) {
      return false;
    }
    return true;
  });
  const given = orderOf(args.orderBy, (c) => c.field);
  const clauses = (given.length > 0 ? given : [{ by: "CREATED_AT", desc: false }]).map(
    ({ by, desc }) => ({ key: columnOf(BID_COLUMNS, by), desc }),
  );
  return paginate(sortBy(bids, clauses), args, field);
}

export const jobsResolvers: ResolverMap = {
  Query: {
    jobs: withArgs<QueryJobsArgs>((_p, args, ctx, info) => jobsQuery(ctx, args, info.fieldName)),
    job: withArgs<QueryJobArgs>((_p, { id }, ctx) => {
      const job = jobById(ctx.data, id);
      if (!job) return null;
      if (!visibleJob(ctx, job)) throw authorizationError();
      return job;
    }),
    jobCandidates: withArgs<QueryJobCandidatesArgs>((_p, args, ctx, info) =>
      candidatesQuery(ctx, args, info.fieldName),
    ),
    bids: withArgs<QueryBidsArgs>((_p, args, ctx, info) => bidsQuery(ctx, args, info.fieldName)),
    jobCandidate: withArgs<QueryJobCandidateArgs>((_p, { id }, ctx) => {
      const candidate = jobsOf(ctx.data).candidates.get(id);
      if (!candidate) return null;
      if (!visibleJob(ctx, jobOf(ctx, candidate.jobId))) throw authorizationError();
      return candidate;
    }),
    bid: withArgs<QueryBidArgs>((_p, { id }, ctx) => {
      const bid = jobsOf(ctx.data).bids.get(id);
      if (!bid) return null;
      if (!visibleJob(ctx, jobOf(ctx, bid.jobId))) throw authorizationError();
      return bid;
    }),
  },
  Mutation: {
    createJob: withArgs<MutationCreateJobArgs>((_p, { input }, ctx, info) =>
      createJob(ctx, input, info.fieldName),
    ),
    updateJob: withArgs<MutationUpdateJobArgs>((_p, { input }, ctx, info) =>
      updateJob(ctx, input, info.fieldName),
    ),
    updateJobCandidateStep: withArgs<MutationUpdateJobCandidateStepArgs>(
      (_p, { input }, ctx, info) => updateJobCandidateStep(ctx, input, info.fieldName),
    ),
    updateJobCandidateStatus: withArgs<MutationUpdateJobCandidateStatusArgs>(
      (_p, { input }, ctx, info) => updateJobCandidateStatus(ctx, input, info.fieldName),
    ),
    acceptBid: withArgs<MutationAcceptBidArgs>((_p, { input }, ctx, info) =>
      acceptBid(ctx, input, info.fieldName),
    ),
  },
  Hire: {
    job: (h: HireRecord, _a, ctx) => jobOfHire(ctx.data, h),
  },
  Job: {
    skills: (j: JobRecord, _a, ctx) => j.skillIds.map((id) => talentOf(ctx.data).skills.get(id)),
    market: (j: AnyRecord, _a, ctx) => companyOf(ctx, j.companyId).market,
    rate: rateField("rate"),
    minimumRate: rateField("minimumRate"),
    maximumRate: rateField("maximumRate"),
    available: (j: AnyRecord) => isAvailable(j),
    completed: (j: AnyRecord) => j.status === "COMPLETED",
    published: (j: AnyRecord) => j.publishedAt !== null,
    draft: (j: AnyRecord) => j.status === "DRAFT",
    removed: (j: AnyRecord) => j.status === "REMOVED",
    company: (j: AnyRecord, _a, ctx) => companyOf(ctx, j.companyId),
    viewerCanEdit: (j: AnyRecord, _a, ctx) =>
      ctx.identity.managesJobs && !["COMPLETED", "REMOVED"].includes(j.status),
    viewerCanCreateHire: (j: AnyRecord, _a, ctx) =>
      ctx.identity.managesJobs && ctx.identity.managesHires && isAvailable(j),
    canBePublished: (j: AnyRecord) => canBePublished(j),
    // The hires made from this job's candidates, oldest first.
    hires: withArgs<JobHiresArgs>((j: AnyRecord, args, ctx, info) => {
      const hires = candidatesOf(ctx, j.id)
        .map((c) => (c.hireId ? ctx.data.hires.get(c.hireId) : undefined))
        .filter((h): h is HireRecord => h !== undefined);
      return paginate(hires, args, info.fieldName);
    }),
    bids: withArgs<JobBidsArgs>((j: JobRecord, args, ctx, info) =>
      bidsQuery(ctx, { first: args.first, page: args.page }, info.fieldName, bidsOf(ctx, j.id)),
    ),
    jobCandidates: withArgs<JobJobCandidatesArgs>((j: JobRecord, args, ctx, info) =>
      candidatesQuery(
        ctx,
        { first: args.first, page: args.page },
        info.fieldName,
        candidatesOf(ctx, j.id),
      ),
    ),
  },
  JobCandidate: {
    job: (c: AnyRecord, _a, ctx) => jobOf(ctx, c.jobId),
    worker: (c: AnyRecord, _a, ctx) => ctx.data.workers.get(c.workerId),
    bid: (c: AnyRecord, _a, ctx) => (c.bidId ? jobsOf(ctx.data).bids.get(c.bidId) : null),
    hire: (c: AnyRecord, _a, ctx) => (c.hireId ? ctx.data.hires.get(c.hireId) : null),
    viewerCanUpdateStatus: (c: AnyRecord, _a, ctx) =>
      ctx.identity.managesJobs && !["COMPLETED", "REMOVED"].includes(jobOf(ctx, c.jobId).status),
  },
  Bid: {
    job: (b: AnyRecord, _a, ctx) => jobOf(ctx, b.jobId),
    worker: (b: AnyRecord, _a, ctx) => ctx.data.workers.get(b.workerId),
    supplier: (b: AnyRecord, _a, ctx) =>
      b.supplierId ? (ctx.data.recruiters.find((r) => r.id === b.supplierId) ?? null) : null,
    rate: (b: BidRecord, _a, ctx) => {
      if (!ctx.identity.seesRates) throw restrictedFieldError();
      return b.rate;
    },
  },
};
