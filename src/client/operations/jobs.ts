// Jobs with their candidates and bids, for list_jobs. Counts come from the nested paginators' totals,
// so a page of jobs with its counts is one request.

import { query } from "../operations.js";
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

export const jobOperations = { listJobsQuery, jobDetailsQuery };
