// Payment requests (the hours and money workers submit) and their timesheets: list_payment_requests,
// and the days already logged that submit_timesheets checks its rows against.

import type {
  InvoiceByNumberQuery,
  ListPaymentRequestsQuery,
} from "../operation-types.generated.js";
import { PAGINATOR_INFO_FIELDS } from "../pagination.js";
import { query } from "./define.js";

// The selections of a payment request, one per way the tools show it; src/tools/shapes/
// payment-request.ts holds the output schema and mapping of each.

/** As list_payment_requests shows it; the daily hours only with $includeRegistrations. */
const PAYMENT_REQUEST_FIELDS = `
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
`;

/** As update_payment_request previews it and reads it back. */
export const PAYMENT_REQUEST_FOR_UPDATE_FIELDS = `
  id
  number
  status
  purchaseOrderNumber
  comments
  startDate
  endDate
  currency
  netAmount(accountType: COMPANY)
  paidAt
  worker {
    id
    name
  }
  company {
    id
    name
  }
  hire {
    id
    number
  }
`;

/** As an invoice row bills it (list_invoices): the hours or days, rate and amount. */
export const BILLED_PAYMENT_REQUEST_FIELDS = `
  number
  startDate
  endDate
  currency
  rate
  rateType
  rateQuantity
  netAmount(accountType: COMPANY)
`;

/** A payment request as list_payment_requests shows it; registrations only when asked for. */
export type PaymentRequestSummary = ListPaymentRequestsQuery["paymentRequests"]["data"][number];
/** A payment request as an invoice row bills it. */
export type BilledPaymentRequest = NonNullable<
  NonNullable<InvoiceByNumberQuery["invoice"]>["rows"]["data"][number]["paymentRequest"]
>;

// The filters of ListPaymentRequests and PaymentRequestTotals: one text, so the rows and the totals
// always cover the same requests.
const FILTER_VARIABLES = `
  $hires: [ID!]
  $accounts: [ID!]
  $statuses: [PaymentRequestStatus!]
  $billingStartDateRange: DateRangeInput
  $billingEndDateRange: DateRangeInput
  $orderBy: [PaymentRequestOrderByClauseInput!]
`;
const FILTER_ARGUMENTS = `
  hires: $hires
  accounts: $accounts
  statuses: $statuses
  billingStartDateRange: $billingStartDateRange
  billingEndDateRange: $billingEndDateRange
  orderBy: $orderBy
`;

// A billing period overlaps [from, to] when it starts on or before `to` and ends on or after
// `from`: the two billing ranges together say exactly that, for requests with or without a
// timesheet. netAmount as the company sees it: the total excluding taxes, fees included.
export const listPaymentRequestsQuery = query(
  "ListPaymentRequests",
  /* GraphQL */ `
    query ListPaymentRequests(
      ${FILTER_VARIABLES}
      $includeRegistrations: Boolean!
      $first: Int!
      $page: Int
    ) {
      paymentRequests(
        ${FILTER_ARGUMENTS}
        first: $first
        page: $page
      ) {
        ${PAGINATOR_INFO_FIELDS}
        data {${PAYMENT_REQUEST_FIELDS}}
      }
    }
  `,
);

/** The page size of PaymentRequestTotals: the most the platform gives in one page. */
export const TOTALS_PAGE_SIZE = 100;

/** The same requests as ListPaymentRequests, only what totals need: a page of 100 at a time. */
export const paymentRequestTotalsQuery = query(
  "PaymentRequestTotals",
  /* GraphQL */ `
    query PaymentRequestTotals(
      ${FILTER_VARIABLES}
      $page: Int
    ) {
      paymentRequests(
        ${FILTER_ARGUMENTS}
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
export const timesheetDaysLoggedQuery = query(
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
