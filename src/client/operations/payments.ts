// Payment requests (the hours and money workers submit) and their timesheets: list_payment_requests,
// and the days already logged that submit_timesheets checks its rows against.

import { query } from "../operations.js";
import { PAGINATOR_INFO_FIELDS, type PaginatorInfo } from "../pagination.js";

export interface PaymentRegistration {
  date: string;
  duration: number;
  unit: string;
  isBillable: boolean | null;
  comments: string | null;
}

export interface PaymentRequestSummary {
  id: string;
  number: string;
  status: string;
  workerPayoutStatus: string;
  startDate: string | null;
  endDate: string | null;
  date: string;
  manuallyApprovedAt: string | null;
  autoApprovedAt: string | null;
  rejectedAt: string | null;
  cancelledAt: string | null;
  paidAt: string | null;
  dueAt: string | null;
  currency: string;
  /** Null when the platform hides rates from this account. */
  rate: number | null;
  rateType: string | null;
  rateQuantity: number;
  netAmount: number;
  comments: string | null;
  hire: { id: string } | null;
  worker: { id: string; name: string };
  company: { id: string; name: string };
  timesheet: {
    id: string;
    /** Selected only when the daily hours are asked for. */
    registrations?: { paginatorInfo: PaginatorInfo; data: PaymentRegistration[] };
  } | null;
}

export interface ListPaymentRequestsData {
  paymentRequests: { paginatorInfo: PaginatorInfo; data: PaymentRequestSummary[] };
}

export interface ListPaymentRequestsVariables extends Record<string, unknown> {
  hires?: string[];
  accounts?: string[];
  statuses?: string[];
  billingStartDateRange?: { from?: string; to?: string };
  billingEndDateRange?: { from?: string; to?: string };
  orderBy?: { field: string; order: string }[];
  includeRegistrations: boolean;
  first: number;
  page: number;
}

// A billing period overlaps [from, to] when it starts on or before `to` and ends on or after
// `from`: the two billing ranges together say exactly that, for requests with or without a
// timesheet. netAmount as the company sees it: the total excluding taxes, fees included.
export const listPaymentRequestsQuery = query<
  ListPaymentRequestsData,
  ListPaymentRequestsVariables
>(
  "ListPaymentRequests",
  /* GraphQL */ `
    query ListPaymentRequests(
      $hires: [ID!]
      $accounts: [ID!]
      $statuses: [PaymentRequestStatus!]
      $billingStartDateRange: DateRangeInput
      $billingEndDateRange: DateRangeInput
      $orderBy: [PaymentRequestOrderByClauseInput!]
      $includeRegistrations: Boolean!
      $first: Int!
      $page: Int
    ) {
      paymentRequests(
        hires: $hires
        accounts: $accounts
        statuses: $statuses
        billingStartDateRange: $billingStartDateRange
        billingEndDateRange: $billingEndDateRange
        orderBy: $orderBy
        first: $first
        page: $page
      ) {
        ${PAGINATOR_INFO_FIELDS}
        data {
          id
          number
          status
          workerPayoutStatus
          startDate
          endDate
          date
          manuallyApprovedAt
          autoApprovedAt
          rejectedAt
          cancelledAt
          paidAt
          dueAt
          currency
          rate
          rateType
          rateQuantity
          netAmount(accountType: COMPANY)
          comments
          hire {
            id
          }
          worker {
            id
            name
          }
          company {
            id
            name
          }
          timesheet {
            id
            registrations(first: 100) @include(if: $includeRegistrations) {
              ${PAGINATOR_INFO_FIELDS}
              data {
                date
                duration
                unit
                isBillable
                comments
              }
            }
          }
        }
      }
    }
  `,
);

export interface LoggedRegistration {
  date: string;
  type: string;
  duration: number;
  unit: string;
  externalIdentifier: string | null;
  isBillable: boolean | null;
}

export interface LoggedPaymentRequest {
  id: string;
  number: string;
  status: string;
  startDate: string | null;
  endDate: string | null;
  hire: { id: string } | null;
  timesheet: {
    registrations: { paginatorInfo: { hasMorePages: boolean }; data: LoggedRegistration[] };
  } | null;
}

export interface TimesheetDaysLoggedData {
  paymentRequests: { paginatorInfo: PaginatorInfo; data: LoggedPaymentRequest[] };
}

export interface TimesheetDaysLoggedVariables extends Record<string, unknown> {
  hires: string[];
  statuses: string[];
  billingStartDateRange: { to: string };
  billingEndDateRange: { from: string };
  first: number;
  page: number;
}

// The payment requests of some hires whose billing period overlaps the rows' days, with each day's
// registration and its externalIdentifier: a day already paid for, or a row about to replace one.
export const timesheetDaysLoggedQuery = query<
  TimesheetDaysLoggedData,
  TimesheetDaysLoggedVariables
>(
  "TimesheetDaysLogged",
  /* GraphQL */ `
    query TimesheetDaysLogged(
      $hires: [ID!]
      $statuses: [PaymentRequestStatus!]
      $billingStartDateRange: DateRangeInput
      $billingEndDateRange: DateRangeInput
      $first: Int!
      $page: Int
    ) {
      paymentRequests(
        hires: $hires
        statuses: $statuses
        billingStartDateRange: $billingStartDateRange
        billingEndDateRange: $billingEndDateRange
        first: $first
        page: $page
      ) {
        ${PAGINATOR_INFO_FIELDS}
        data {
          id
          number
          status
          startDate
          endDate
          hire {
            id
          }
          timesheet {
            registrations(first: 100) {
              paginatorInfo {
                hasMorePages
              }
              data {
                date
                type
                duration
                unit
                externalIdentifier
                isBillable
              }
            }
          }
        }
      }
    }
  `,
);

export const paymentOperations = { listPaymentRequestsQuery, timesheetDaysLoggedQuery };
