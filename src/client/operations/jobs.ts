// Jobs with their candidates and bids, for the job tools; how the tools show each is in
// src/tools/shapes/job.ts and candidacy.ts. Counts come from the nested paginators' totals, so a
// page of jobs with its counts is one request.

import type {
  AcceptBidMutation,
  AcceptBidOutcomeQuery,
  BidForAcceptanceQuery,
  CandidaciesQuery,
  CandidateForUpdateQuery,
  CreateJobMutation,
  JobDetailsQuery,
  ListJobsQuery,
  UpdateJobCandidateStatusMutation,
} from "../operation-types.generated.js";
import { PAGINATOR_INFO_FIELDS } from "../pagination.js";
import { mutation, query } from "./define.js";

/** A job with its candidate and bid counts, as list_jobs shows a page of them. */
export type JobSummary = ListJobsQuery["jobs"]["data"][number];

export const listJobsQuery = query(
  "ListJobs",
  /* GraphQL */ `
    query ListJobs(
      $search: String
      $statuses: [JobStatus!]
      $accounts: [ID!]
      $first: Int!
      $page: Int
    ) {
      jobs(
        search: $search
        statuses: $statuses
        accounts: $accounts
        orderBy: [{ field: CREATED_AT, order: DESC }]
        first: $first
        page: $page
      ) {
        ${PAGINATOR_INFO_FIELDS}
        data {
          id
          number
          name
          status
          startDate
          endDate
          publishedAt
          currency
          company {
            id
            name
          }
          skills {
            name
          }
          jobCandidates(first: 1) {
            paginatorInfo {
              total
            }
          }
          bids(first: 1) {
            paginatorInfo {
              total
            }
          }
        }
      }
    }
  `,
);

/** One job with a page of its candidates and bids. */
export type JobDetails = NonNullable<JobDetailsQuery["job"]>;
export type JobCandidateRow = JobDetails["jobCandidates"]["data"][number];
export type BidRow = JobDetails["bids"]["data"][number];

export const jobDetailsQuery = query(
  "JobDetails",
  /* GraphQL */ `
    query JobDetails($id: ID!, $first: Int!, $page: Int) {
      job(id: $id) {
        id
        number
        name
        status
        description
        startDate
        endDate
        publishedAt
        currency
        rateType
        rate
        minimumRate
        maximumRate
        locationPreference
        company {
          id
          name
        }
        skills {
          name
        }
        jobCandidates(first: $first, page: $page) {
          ${PAGINATOR_INFO_FIELDS}
          data {
            id
            step
            status
            statusReason
            isPreferred
            worker {
              id
              name
              email
            }
            bid {
              id
            }
            hire {
              id
            }
          }
        }
        bids(first: $first, page: $page) {
          ${PAGINATOR_INFO_FIELDS}
          data {
            id
            status
            rate
            rateType
            currency
            worker {
              id
              name
            }
            supplier {
              id
              name
            }
          }
        }
      }
    }
  `,
);

// ---- candidates and bids by person -------------------------------------------------------------

/**
 * A page of candidates across jobs (or of the given jobs), by worker name: the platform cannot
 * search candidates or bids by name, so list_jobs and manage_candidate page through these. Every
 * bid makes its worker a candidate (step APPLIED), so a candidacy carries the worker's bid.
 */
export type Candidacy = CandidaciesQuery["jobCandidates"]["data"][number];

/** A candidate's bid (its terms) and the hire accepting it made, as the tools show them. */
const CANDIDATE_BID_AND_HIRE = `
  bid {
    id
    status
    rate
    rateType
    currency
  }
  hire {
    id
  }
`;

export const candidaciesQuery = query(
  "Candidacies",
  /* GraphQL */ `
    query Candidacies($jobs: [ID!], $first: Int!, $page: Int) {
      jobCandidates(
        jobs: $jobs
        orderBy: [{ column: WORKER_NAME, order: ASC }]
        first: $first
        page: $page
      ) {
        ${PAGINATOR_INFO_FIELDS}
        data {
          id
          step
          status
          statusReason
          worker {
            id
            name
            email
          }
          job {
            id
            number
            name
            status
            company {
              id
              name
            }
          }
          ${CANDIDATE_BID_AND_HIRE}
        }
      }
    }
  `,
);

/** A job's id, name and status: what a job given by id is checked against. */
export const jobRefQuery = query(
  "JobRef",
  /* GraphQL */ `
    query JobRef($id: ID!) {
      job(id: $id) {
        id
        name
        status
      }
    }
  `,
);

// ---- post_job --------------------------------------------------------------------------------

/** The company's newest jobs with the name (to tell ours apart); its name is in the accounts read. */
export const postJobContextQuery = query(
  "PostJobContext",
  /* GraphQL */ `
    query PostJobContext($company: ID!, $name: String!) {
      jobs(
        accounts: [$company]
        search: $name
        orderBy: [{ field: CREATED_AT, order: DESC }]
        first: 50
      ) {
        data {
          id
          name
          status
        }
      }
    }
  `,
);

/** A job as post_job creates, edits and publishes it. */
export type PostedJob = CreateJobMutation["createJob"];

const POSTED_JOB_FIELDS = `
  id
  number
  name
  status
  description
  publishedAt
  canBePublished
  viewerCanEdit
  company {
    id
    name
  }
  skills {
    name
  }
`;

export const jobForPostingQuery = query(
  "JobForPosting",
  /* GraphQL */ `
    query JobForPosting($id: ID!) {
      job(id: $id) {
        ${POSTED_JOB_FIELDS}
      }
    }
  `,
);

export const createJobMutation = mutation(
  "CreateJob",
  /* GraphQL */ `
    mutation CreateJob($input: CreateJobInput!) {
      createJob(input: $input) {
        ${POSTED_JOB_FIELDS}
      }
    }
  `,
  // No idempotency key: a second request makes a second job.
  "adds",
);

export const updateJobMutation = mutation(
  "UpdateJob",
  /* GraphQL */ `
    mutation UpdateJob($input: UpdateJobInput!) {
      updateJob(input: $input) {
        ${POSTED_JOB_FIELDS}
      }
    }
  `,
  // Publishing cannot be undone: read the job back rather than sending it twice.
  "changes",
);

// ---- manage_candidate ------------------------------------------------------------------------

/** A candidate with its job, bid and hire: what manage_candidate decides from. */
export type CandidateForUpdate = NonNullable<CandidateForUpdateQuery["jobCandidate"]>;
export type CandidateBid = NonNullable<CandidateForUpdate["bid"]>;

export const candidateForUpdateQuery = query(
  "CandidateForUpdate",
  /* GraphQL */ `
    query CandidateForUpdate($id: ID!) {
      jobCandidate(id: $id) {
        id
        step
        status
        statusReason
        viewerCanUpdateStatus
        worker {
          id
          name
        }
        job {
          id
          name
          status
          company {
            id
            name
          }
        }
        ${CANDIDATE_BID_AND_HIRE}
      }
    }
  `,
);

/** A candidate after a step or status change. */
export type UpdatedCandidate = UpdateJobCandidateStatusMutation["updateJobCandidateStatus"];

const UPDATED_CANDIDATE_FIELDS = `
  id
  step
  status
  statusReason
  bid {
    id
    status
  }
`;

export const updateJobCandidateStepMutation = mutation(
  "UpdateJobCandidateStep",
  /* GraphQL */ `
    mutation UpdateJobCandidateStep($input: UpdateJobCandidateStepInput!) {
      updateJobCandidateStep(input: $input) {
        ${UPDATED_CANDIDATE_FIELDS}
      }
    }
  `,
  "changes",
);

export const updateJobCandidateStatusMutation = mutation(
  "UpdateJobCandidateStatus",
  /* GraphQL */ `
    mutation UpdateJobCandidateStatus($input: UpdateJobCandidateStatusInput!) {
      updateJobCandidateStatus(input: $input) {
        ${UPDATED_CANDIDATE_FIELDS}
      }
    }
  `,
  // Rejecting also rejects the candidate's open bid: never sent twice.
  "changes",
);

export type BidForAcceptance = NonNullable<BidForAcceptanceQuery["bid"]>;

export const bidForAcceptanceQuery = query(
  "BidForAcceptance",
  /* GraphQL */ `
    query BidForAcceptance($id: ID!) {
      bid(id: $id) {
        id
        status
        rate
        rateType
        currency
        worker {
          id
          name
        }
        supplier {
          id
          name
        }
        job {
          id
          name
          status
          viewerCanCreateHire
          company {
            id
            name
          }
        }
      }
    }
  `,
);

/** After an ambiguous acceptBid, the bid's hire is among its job's hires. */
export type AcceptBidOutcome = NonNullable<AcceptBidOutcomeQuery["bid"]>;

/** What acceptBid left behind: the bid's status and the hires on its job. */
export const acceptBidOutcomeQuery = query(
  "AcceptBidOutcome",
  /* GraphQL */ `
    query AcceptBidOutcome($id: ID!) {
      bid(id: $id) {
        status
        worker {
          id
        }
        job {
          hires(first: 100) {
            data {
              id
              status
              worker {
                id
              }
            }
          }
        }
      }
    }
  `,
);

/** The hire acceptBid makes, with its draft contract. */
export type AcceptedHire = AcceptBidMutation["acceptBid"];

// input.jobTitle is the draft contract's title; without it the platform takes the job's title now.
export const acceptBidMutation = mutation(
  "AcceptBid",
  /* GraphQL */ `
    mutation AcceptBid($input: AcceptBidInput!) {
      acceptBid(input: $input) {
        id
        status
        worker {
          id
          name
        }
        company {
          id
          name
        }
        latestContract {
          id
          status
          rate
          rateType
          currency
        }
      }
    }
  `,
  // Each accepted bid is a hire and an obligation to pay: never sent twice.
  "changes",
);
