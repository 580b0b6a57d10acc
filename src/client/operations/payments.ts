// Payment requests (the hours and money workers submit) and their timesheets: list_payment_requests,
// and the days already logged that submit_timesheets checks its rows against.

import type {
  ListPaymentRequestsQuery,
  ListPaymentRequestsQueryVariables,
  PaymentRequestTotalsQuery,
  PaymentRequestTotalsQueryVariables,
  TimesheetDaysLoggedQuery,
  TimesheetDaysLoggedQueryVariables,
} from "../operation-types.generated.js";
import { PAGINATOR_INFO_FIELDS } from "../pagination.js";
import { query } from "./define.js";

/** A payment request as list_payment_requests shows it; registrations only when asked for. */
export type PaymentRequestSummary = ListPaymentRequestsQuery["paymentRequests"]["data"][number];

// A billing period overlaps [from, to] when it starts on or before `to` and ends on or after
// `from`: the two billing ranges together say exactly that, for requests with or without a
// timesheet. netAmount as the company sees it: the total excluding taxes, fees included.
export const listPaymentRequestsQuery = query<
  ListPaymentRequestsQuery,
  ListPaymentRequestsQueryVariables
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

/** The page size of PaymentRequestTotals: the most the platform gives in one page. */
export const TOTALS_PAGE_SIZE = 100;

/** The same requests as ListPaymentRequests, only what totals need: a page of 100 at a time. */
export const paymentRequestTotalsQuery = query<
  PaymentRequestTotalsQuery,
  PaymentRequestTotalsQueryVariables
>(
  "PaymentRequestTotals",
  /* GraphQL */ `
    query PaymentRequestTotals(
      $hires: [ID!]
      $accounts: [ID!]
      $statuses: [PaymentRequestStatus!]
      $billingStartDateRange: DateRangeInput
      $billingEndDateRange: DateRangeInput
      $orderBy: [PaymentRequestOrderByClauseInput!]
      $page: Int
    ) {
      paymentRequests(
        hires: $hires
        accounts: $accounts
        statuses: $statuses
        billingStartDateRange: $billingStartDateRange
        billingEndDateRange: $billingEndDateRange
        orderBy: $orderBy
        first: ${TOTALS_PAGE_SIZE}
        page: $page
      ) {
        ${PAGINATOR_INFO_FIELDS}
        data {
          id
          status
          currency
          rateType
          rateQuantity
          netAmount(accountType: COMPANY)
        }
      }
    }
  `,
);

// The payment requests of some hires whose billing period overlaps the rows' days, with each day's
// registration and its externalIdentifier: a day already paid for, or a row about to replace one.
export const timesheetDaysLoggedQuery = query<
  TimesheetDaysLoggedQuery,
  TimesheetDaysLoggedQueryVariables
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
