// Payment requests (hours and money) and their timesheets: a subset of the platform's types, with
// the same names, arguments and types.
export const paymentsTypeDefs = /* GraphQL */ `
"The approval status of a payment request from the company's perspective."
enum PaymentRequestStatus {
  APPROVED
  CANCELLED
  UNAPPROVED
  REJECTED
}

"The status of a payment request as seen by the worker who submitted it."
enum PaymentRequestWorkerStatus {
  DRAFT
  REJECTED
  CANCELLED
  PROCESSING
  COMPLETED
  REQUESTED
  APPROVED
}

"The worker payout status for a payment request, as seen by the company."
enum PaymentRequestWorkerPayoutStatus {
  PAID
  PREPAID
  DUE
  OVERDUE
  UNPAID
}

enum PaymentRequestOrderByColumn {
  ISSUED_AT
  PRIORITY
  WORKER
  TOTAL_AMOUNT
}

enum AccountType {
  WORKER
  COMPANY
  RECRUITER
  ORGANISATION
  PARTNER
}

enum TimesheetRegistrationType {
  DAY
  BREAK
  LINE
}

enum TimesheetRegistrationDurationUnit {
  HOURS
  DAYS
}

input PaymentRequestOrderByClauseInput {
  field: PaymentRequestOrderByColumn
  order: SortOrder
}

"Hours or money a worker asks to be paid for one billing period."
type PaymentRequest {
  id: ID!
  worker: Worker!
  recruiter: Recruiter
  company: Company!
  number: String!
  purchaseOrderNumber: String
  "The date that the billing period started."
  startDate: Date
  "The date that the billing period ended."
  endDate: Date
  currency: Currency!
  "The charged rate; hidden from accounts that may not see rates."
  rate: Float
  rateType: RateType
  "The quantity of the rate type: hours for an hourly rate, days for a daily one."
  rateQuantity: Float!
  expensesAmount: Float!
  "The total amount excluding taxes."
  netAmount(accountType: AccountType!): Float!
  "The total amount including taxes."
  grossAmount(accountType: AccountType!): Float!
  "The total amount excluding fees and expenses."
  billedAmount: Float!
  billedAmountWithExpenses: Float!
  "The date that the payment request was created."
  date: Date!
  manuallyApprovedAt: Date
  autoApprovedAt: Date
  rejectedAt: Date
  issuedAt: Date
  cancelledAt: Date
  paidAt: Date
  dueAt: Date
  hire: Hire
  comments: String
  workerStatus: PaymentRequestWorkerStatus!
  workerPayoutStatus: PaymentRequestWorkerPayoutStatus!
  status: PaymentRequestStatus!
  timesheet: Timesheet
  externalIdentifier: String
}

type PaymentRequestPaginator {
  paginatorInfo: PaginatorInfo!
  data: [PaymentRequest!]!
}

"Hours a worker logged for a hire over a billing period; they become payment requests."
type Timesheet {
  id: ID!
  worker: Worker
  hire: Hire
  startDate: Date
  endDate: Date
  createdAt: DateTime!
  paymentRequests(first: Int! = 10, page: Int): PaymentRequestPaginator!
  registrations(first: Int! = 10, page: Int): TimesheetRegistrationPaginator!
}

"One day on a timesheet."
type TimesheetRegistration {
  id: ID!
  type: TimesheetRegistrationType!
  date: Date!
  duration: Float!
  unit: TimesheetRegistrationDurationUnit!
  comments: String
  externalIdentifier: String
  isBillable: Boolean
}

type TimesheetRegistrationPaginator {
  paginatorInfo: PaginatorInfo!
  data: [TimesheetRegistration!]!
}

extend type Query {
  paymentRequest(id: ID!): PaymentRequest
  paymentRequests(
    accounts: [ID!]
    currencies: [Currency!]
    hasTimesheet: Boolean
    hires: [ID!]
    search: String
    statuses: [PaymentRequestStatus!]
    workerStatuses: [PaymentRequestWorkerStatus!]
    workerPayoutStatuses: [PaymentRequestWorkerPayoutStatus!]
    "Only show payment requests that have a timesheet between the specified date range."
    timesheetPeriod: DateRangeInput
    rateTypes: [RateType!]
    "Only show payment requests requested within the specified date range."
    requestedDateRange: DateRangeInput
    "Only show payment requests whose billing period start date falls within the specified range."
    billingStartDateRange: DateRangeInput
    "Only show payment requests whose billing period end date falls within the specified range."
    billingEndDateRange: DateRangeInput
    externalIdentifiers: [String!]
    orderBy: [PaymentRequestOrderByClauseInput!]
    first: Int! = 10
    page: Int
  ): PaymentRequestPaginator!
}

"""
The input used for updating a payment request: the fields the sandbox applies (the real input also
has startDate, endDate, expenseReports, rate, billableTime, billableTotal, taxLines and timesheet).
"""
input UpdatePaymentRequestInput {
  "The ID of the payment request to update."
  id: ID!
  "Comments related to the payment request."
  comments: String
  "The purchase order number for the payment request."
  purchaseOrderNumber: String
}

extend type Mutation {
  "Update a payment request."
  updatePaymentRequest(input: UpdatePaymentRequestInput!): PaymentRequest!
}

extend type InvoiceRow {
  "The payment request which the row on the invoice is related to."
  paymentRequest: PaymentRequest
}

extend type Hire {
  paymentRequests(
    statuses: [PaymentRequestStatus!]
    workerStatuses: [PaymentRequestWorkerStatus!]
    first: Int! = 10
    page: Int
  ): PaymentRequestPaginator!
}
`;
