// Jobs with their candidates and bids, for list_jobs. Counts come from the nested paginators' totals,
// so a page of jobs with its counts is one request.

import { mutation, query } from "../operations.js";
import { PAGINATOR_INFO_FIELDS, type PaginatorInfo } from "../pagination.js";

interface Total {
  paginatorInfo: { total: number };
}

export interface JobSummary {
  id: string;
  number: number;
  name: string;
  status: string | null;
  startDate: string | null;
  endDate: string | null;
  publishedAt: string | null;
  currency: string;
  company: { id: string; name: string };
  skills: { name: string }[];
  jobCandidates: Total;
  bids: Total;
}

export interface ListJobsData {
  jobs: { paginatorInfo: PaginatorInfo; data: JobSummary[] };
}

export interface ListJobsVariables extends Record<string, unknown> {
  search?: string;
  statuses?: string[];
  accounts?: string[];
  first: number;
  page: number;
}

export const listJobsQuery = query<ListJobsData, ListJobsVariables>(
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

export interface JobCandidateRow {
  id: string;
  step: string;
  status: string;
  statusReason: string | null;
  isPreferred: boolean;
  worker: { id: string; name: string; email: string | null };
  bid: { id: string } | null;
  hire: { id: string } | null;
}

export interface BidRow {
  id: string;
  status: string;
  rate: number | null;
  rateType: string | null;
  currency: string;
  worker: { id: string; name: string };
  supplier: { id: string; name: string } | null;
}

export interface JobDetails extends Omit<JobSummary, "jobCandidates" | "bids"> {
  description: string | null;
  rateType: string | null;
  rate: number | null;
  minimumRate: number | null;
  maximumRate: number | null;
  locationPreference: string | null;
  jobCandidates: { paginatorInfo: PaginatorInfo; data: JobCandidateRow[] };
  bids: { paginatorInfo: PaginatorInfo; data: BidRow[] };
}

export interface JobDetailsData {
  job: JobDetails | null;
}

export const jobDetailsQuery = query<JobDetailsData, { id: string; first: number; page: number }>(
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

// ---- post_job --------------------------------------------------------------------------------

interface NamedRef {
  id: string;
  name: string;
}

export interface PostJobContextData {
  accounts: Array<{ __typename: string; id: string; name: string }>;
  jobs: { data: Array<{ id: string; name: string; status: string | null }> };
}

/** The company's name for the preview, and its newest jobs with the name (to tell ours apart). */
export const postJobContextQuery = query<PostJobContextData, { company: string; name: string }>(
  "PostJobContext",
  /* GraphQL */ `
    query PostJobContext($company: ID!, $name: String!) {
      accounts {
        __typename
        id
        name
      }
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

export interface PostedJob {
  id: string;
  number: number;
  name: string;
  status: string | null;
  description: string | null;
  publishedAt: string | null;
  canBePublished: boolean;
  viewerCanEdit: boolean;
  company: NamedRef;
  skills: { name: string }[];
}

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

export const jobForPostingQuery = query<{ job: PostedJob | null }, { id: string }>(
  "JobForPosting",
  /* GraphQL */ `
    query JobForPosting($id: ID!) {
      job(id: $id) {
        ${POSTED_JOB_FIELDS}
      }
    }
  `,
);

export interface CreateJobVariables extends Record<string, unknown> {
  input: { company: string; name: string; skills: string[] };
}

export const createJobMutation = mutation<{ createJob: PostedJob }, CreateJobVariables>(
  "CreateJob",
  /* GraphQL */ `
    mutation CreateJob($input: CreateJobInput!) {
      createJob(input: $input) {
        ${POSTED_JOB_FIELDS}
      }
    }
  `,
  // No idempotency key: a second request makes a second job.
  false,
);

export interface UpdateJobVariables extends Record<string, unknown> {
  input: {
    id: string;
    name?: string;
    description?: string;
    skills?: string[];
    published?: boolean;
  };
}

export const updateJobMutation = mutation<{ updateJob: PostedJob }, UpdateJobVariables>(
  "UpdateJob",
  /* GraphQL */ `
    mutation UpdateJob($input: UpdateJobInput!) {
      updateJob(input: $input) {
        ${POSTED_JOB_FIELDS}
      }
    }
  `,
  // Publishing cannot be undone: read the job back rather than sending it twice.
  false,
);

// ---- manage_candidate ------------------------------------------------------------------------

export interface CandidateBid {
  id: string;
  status: string;
  rate: number | null;
  rateType: string | null;
  currency: string;
}

export interface CandidateForUpdate {
  id: string;
  step: string;
  status: string;
  statusReason: string | null;
  viewerCanUpdateStatus: boolean;
  worker: NamedRef;
  job: { id: string; name: string; status: string | null; company: NamedRef };
  bid: CandidateBid | null;
  hire: { id: string } | null;
}

export const candidateForUpdateQuery = query<
  { jobCandidate: CandidateForUpdate | null },
  { id: string }
>(
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
      }
    }
  `,
);

export interface UpdatedCandidate {
  id: string;
  step: string;
  status: string;
  statusReason: string | null;
  bid: { id: string; status: string } | null;
}

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

export const updateJobCandidateStepMutation = mutation<
  { updateJobCandidateStep: UpdatedCandidate },
  { input: { jobCandidate: string; step: string } }
>(
  "UpdateJobCandidateStep",
  /* GraphQL */ `
    mutation UpdateJobCandidateStep($input: UpdateJobCandidateStepInput!) {
      updateJobCandidateStep(input: $input) {
        ${UPDATED_CANDIDATE_FIELDS}
      }
    }
  `,
  false,
);

export interface UpdateJobCandidateStatusVariables extends Record<string, unknown> {
  input: { jobCandidate: string; status: string; statusReason?: string; statusComment?: string };
}

export const updateJobCandidateStatusMutation = mutation<
  { updateJobCandidateStatus: UpdatedCandidate },
  UpdateJobCandidateStatusVariables
>(
  "UpdateJobCandidateStatus",
  /* GraphQL */ `
    mutation UpdateJobCandidateStatus($input: UpdateJobCandidateStatusInput!) {
      updateJobCandidateStatus(input: $input) {
        ${UPDATED_CANDIDATE_FIELDS}
      }
    }
  `,
  // Rejecting also rejects the candidate's open bid: never sent twice.
  false,
);

export interface BidForAcceptance extends CandidateBid {
  worker: NamedRef;
  supplier: NamedRef | null;
  job: {
    id: string;
    name: string;
    status: string | null;
    viewerCanCreateHire: boolean;
    company: NamedRef;
  };
}

export const bidForAcceptanceQuery = query<{ bid: BidForAcceptance | null }, { id: string }>(
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

export interface AcceptBidOutcome {
  status: string;
  worker: { id: string };
  /** The hires made on the job: after an ambiguous acceptBid, the bid's hire is among them. */
  job: { hires: { data: Array<{ id: string; status: string; worker: { id: string } }> } };
}

/** What acceptBid left behind: the bid's status and the hires on its job. */
export const acceptBidOutcomeQuery = query<{ bid: AcceptBidOutcome | null }, { id: string }>(
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

export interface AcceptedHire {
  id: string;
  status: string;
  worker: NamedRef;
  company: NamedRef;
  latestContract: {
    id: string;
    status: string;
    rate: number | null;
    rateType: string | null;
    currency: string;
  } | null;
}

export interface AcceptBidVariables extends Record<string, unknown> {
  /** jobTitle: the draft contract's title; without it the platform takes the job's title now. */
  input: { bid: string; jobTitle?: string };
}

export const acceptBidMutation = mutation<{ acceptBid: AcceptedHire }, AcceptBidVariables>(
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
  false,
);

export const jobOperations = {
  listJobsQuery,
  jobDetailsQuery,
  postJobContextQuery,
  jobForPostingQuery,
  createJobMutation,
  updateJobMutation,
  candidateForUpdateQuery,
  updateJobCandidateStepMutation,
  updateJobCandidateStatusMutation,
  bidForAcceptanceQuery,
  acceptBidOutcomeQuery,
  acceptBidMutation,
};
