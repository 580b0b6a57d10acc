// The sandbox's own SDL: a small subset of the platform's public schema. Every name, argument and
// type here must exist with the same type in the real schema (test/sandbox/schema-subset.test.ts).
import { SANDBOX_DOMAINS } from "./domains/index.js";

/** The core: accounts, hires, contracts, invoices and timesheet submission. */
const coreTypeDefs = /* GraphQL */ `
scalar Date
scalar DateTime
scalar URL

enum HireActiveStatus {
  DRAFT
  OFFERED
  READY
  ACTIVE
  ENDED
  CANCELLED
  TERMINATED
}

enum ContractStatus {
  DRAFT
  ACTIVE
  ARCHIVED
}

enum InvoiceStatus {
  PAID
  UNPAID
  OVERDUE
  CREDITED
}

enum InvoicesOrderByColumn {
  DATE
  DUE_DATE
  NUMBER
  TOTAL_AMOUNT
}

enum SortOrder {
  ASC
  DESC
}

enum HireOrderByColumn {
  START_DATE
  END_DATE
  COMPANY_NAME
  WORKER_NAME
  JOB_NAME
  HIRE_ID
  CREATED_AT
  ENGAGEMENT_TYPE
  LAST_PAYMENT_REQUEST_DATE
}

enum Currency {
  CAD
  DKK
  EUR
  GBP
  NOK
  SEK
  USD
  AED
  SGD
  AUD
}

enum LocationPreference {
  ONSITE_ONLY
  ONSITE_SOME
  REMOTE_ONLY
}

enum ContractTerminationReason {
  WORKER_UNAVAILABILITY
  PROJECT_COMPLETED_EARLY
  MUTUAL_AGREEMENT_TO_TERMINATE
  BUDGET_CONSTRAINTS
  CHANGE_IN_PROJECT_SCOPE
  PERFORMANCE_ISSUES
  COMMUNICATION_ISSUES
  PERSONAL_REASONS
  LEGAL_OR_COMPLIANCE_ISSUES
  VIOLATION_OF_CONTRACT_TERMS
  UNFORESEEN_CIRCUMSTANCES
  DISSATISFACTION_WITH_QUALITY_OF_WORK
  CONFLICT_OF_INTEREST
  OTHER
}

enum PaymentTermMethod {
  END_OF_MONTH
  NET
}

enum RateType {
  HOURLY
  DAILY
  WEEKLY
  MONTHLY
  FIXED
  UNKNOWN
}

enum MarketCode {
  US
  UK
  IE
  EU
  CA
  FR
  DE
  DK
  NO
  SE
  FI
  LT
  UAE
  SG
  AU
  NL
  WW
}

enum InvoiceTransactionType {
  INVOICE
  CREDIT_NOTE
  BATCH_INVOICE
}

enum CustomTimesheetRejectionReason {
  MISSING_REQUIRED_FIELD
  HIRE_NOT_FOUND
  DATE_OUTSIDE_CONTRACT_PERIOD
}

"A person who signs in: the viewer."
type User {
  id: ID!
  name: String!
  email: String!
}

"Anything the caller can act as or on: companies, organisations, partners, staffing agencies, workers."
interface Account {
  id: ID!
  name: String!
  avatar: URL
}

type Company implements Account {
  id: ID!
  name: String!
  currency: String!
  market: MarketCode!
  avatar: URL
  externalIdentifier: String
}

type Organisation implements Account {
  id: ID!
  name: String!
  market: MarketCode!
  avatar: URL
}

"A partner account; the sandbox has none, but the platform's accounts list may."
type Partner implements Account {
  id: ID!
  name: String!
  currency: String!
  market: MarketCode!
  avatar: URL
}

"A staffing agency."
type Recruiter implements Account {
  id: ID!
  name: String!
  initials: String!
  avatar: URL
}

type Worker implements Account {
  id: ID!
  name: String!
  firstName: String!
  lastName: String!
  email: String
  phone: String
  avatar: URL
  jobTitle: String
  hires(companies: [ID!], status: HireActiveStatus, first: Int! = 10, page: Int): HirePaginator!
}

type File {
  id: ID!
  name: String!
  mimeType: String!
  size: Int!
  url: String!
}

"A stable engagement of one worker by one company. Revising its terms creates a new contract; the hire keeps its id."
type Hire {
  id: ID!
  number: String!
  status: HireActiveStatus!
  activeStatus: HireActiveStatus!
  worker: Worker!
  company: Company!
  recruiter: Recruiter
  createdAt: Date!
  startDate: Date
  endDate: Date
  terminationDate: Date
  currency: String!
  rate: Float
  rateType: String
  externalIdentifier: String
  canTerminateContract: Boolean!
  canCancelContract: Boolean!
  "The newest contract, not necessarily the active one: it may be an unsigned draft."
  latestContract: Contract!
  "The contract accepted by all parties: the terms in force."
  activeContract: Contract
  "The draft contract waiting for the other party to accept, if there is one."
  draftContract: Contract
  "Whether a draft change to the active contract awaits the worker's acceptance."
  pendingContractChanges: Boolean!
  "Whether the hire has a draft contract."
  hasDraftContract: Boolean!
  contracts(statuses: [ContractStatus!], first: Int! = 10, page: Int): ContractPaginator!
}

type Contract {
  id: ID!
  jobName: String!
  jobDescription: String!
  locationPreference: LocationPreference
  status: ContractStatus!
  startDate: Date
  endDate: Date
  currency: Currency!
  rateType: RateType
  rate: Float
  purchaseOrderNumber: String
  paymentTermMethod: PaymentTermMethod!
  paymentTerm: Int!
  worker: Worker
  company: Company!
  companyName: String
  "The contract document itself (a PDF); a signed URL that expires."
  pdfUrl: URL
  "Attachments (statement of work, NDA, supporting documents), not the contract itself."
  files: [File!]!
}

type Invoice {
  id: ID!
  number: String
  pdfUrl: URL!
  currency: Currency!
  grossAmount: Float!
  grossOpenAmount: Float!
  taxAmount: Float!
  netAmount: Float!
  markedPaidAt: Date
  dueDate: Date!
  date: Date!
  company: Company!
  payerDisplayName: String!
  payeeDisplayName: String!
  transactionType: InvoiceTransactionType!
  isFullyCredited: Boolean!
  isOverDue: Boolean
  externalIdentifier: String
  rows(first: Int! = 10, page: Int): InvoiceRowPaginator!
}

"A row on an invoice; the sandbox writes quantity, unit price and amount into its custom text."
type InvoiceRow {
  id: ID!
  worker: Worker
  customText: String
}

type PaginatorInfo {
  count: Int!
  currentPage: Int!
  firstItem: Int
  hasMorePages: Boolean!
  lastItem: Int
  lastPage: Int!
  perPage: Int!
  total: Int!
}

type HirePaginator {
  paginatorInfo: PaginatorInfo!
  data: [Hire!]!
}

type ContractPaginator {
  paginatorInfo: PaginatorInfo!
  data: [Contract!]!
}

type InvoicePaginator {
  paginatorInfo: PaginatorInfo!
  data: [Invoice!]!
}

type InvoiceRowPaginator {
  paginatorInfo: PaginatorInfo!
  data: [InvoiceRow!]!
}

type RejectedCustomTimesheetRegistration {
  externalId: String
  reason: CustomTimesheetRejectionReason!
  message: String!
}

type CreateCustomTimeSheetResponse {
  providedRegistrations: Int!
  successfulRegistrations: Int!
  rejectedRegistrations: [RejectedCustomTimesheetRegistration!]!
}

input DateRangeInput {
  from: Date
  to: Date
}

input HiresOrderByClauseInput {
  field: HireOrderByColumn
  order: SortOrder
}

input QueryInvoicesOrderByOrderByClause {
  column: InvoicesOrderByColumn!
  order: SortOrder!
}

input CreateCustomTimesheetInput {
  schema: String!
  data: String!
}

input TerminateHireInput {
  hire: ID!
  reason: ContractTerminationReason!
  comments: String
  date: Date!
  message: String
}

input HireInput {
  "The trusted contact to hire directly; the worker must be in the company's Talent Pool."
  trustedContact: ID
  name: String
  description: String
  rateType: RateType
  rate: Float
  startDate: Date
  endDate: Date
  purchaseOrderNumber: String
  "Values for the company's hire custom fields; an empty list leaves them alone."
  customFieldValues: [CustomFieldTypeValueInput!]
  company: ID!
  externalIdentifier: String
}

input CancelHireInput {
  hire: ID!
  message: String!
}

type Query {
  viewer: User!
  accounts: [Account!]!
  hire(id: ID!): Hire
  hires(
    accounts: [ID!]
    search: String
    status: [HireActiveStatus!]
    orderBy: [HiresOrderByClauseInput!]
    companies: [ID!]
    workers: [ID!]
    startDateRange: DateRangeInput
    endDateRange: DateRangeInput
    externalIdentifiers: [String!]
    contractStatus: [ContractStatus!]
    activeStatus: [HireActiveStatus!]
    "Filter hires by owner."
    owners: [ID!]
    "Only hires with no payment request submitted within the range, including those that never submitted one."
    missingPaymentRequestDateRange: DateRangeInput
    first: Int! = 10
    page: Int
  ): HirePaginator!
  contract(id: ID!): Contract
  contracts(
    accounts: [ID!]
    currencies: [Currency!]
    statuses: [ContractStatus!]
    locationPreferences: [LocationPreference!]
    first: Int! = 10
    page: Int
  ): ContractPaginator!
  invoices(
    accounts: [ID!]
    status: [InvoiceStatus!]
    transactionTypes: [InvoiceTransactionType!]
    search: String
    currency: [Currency!]
    externalIdentifiers: [String!]
    orderBy: [QueryInvoicesOrderByOrderByClause!]
    first: Int! = 10
    page: Int
  ): InvoicePaginator!
  invoice(number: String!): Invoice
}

type Mutation {
  createCustomTimesheet(input: CreateCustomTimesheetInput!): CreateCustomTimeSheetResponse!
  terminateHire(input: TerminateHireInput!): Hire!
  createDraftHire(input: HireInput!): Hire!
  cancelHire(input: CancelHireInput!): Hire!
}
`;

/** The whole sandbox schema: the core and every domain's fragment. */
export const sandboxTypeDefs = [coreTypeDefs, ...SANDBOX_DOMAINS.map((d) => d.typeDefs)].join("\n");
