// Jobs, job candidates and bids: the platform's names, arguments and types.
export const jobsTypeDefs = /* GraphQL */ `
enum JobStatus {
  DRAFT
  ACTIVE
  COMPLETED
  REMOVED
}

enum JobOrderByColumn {
  CREATED_AT
  EXPECTED_START_DATE
  PUBLISHED_DATE
  "Order by the number of candidates on the job."
  CANDIDATES
}

input JobsOrderByClauseInput {
  field: JobOrderByColumn
  order: SortOrder
}

enum JobCandidateHiringStep {
  "Shortlisted: they have been added as a candidate."
  SHORTLISTED
  "Invited to apply: the job has been shared with them."
  INVITED_TO_APPLY
  "Applied: they have submitted an offer."
  APPLIED
  "Hiring: they have a hire for the job."
  HIRING
  "The client wants to speak with the candidate."
  INTERVIEW_SELECTED
  "The interview's date and time are set."
  INTERVIEW_SCHEDULED
  "The interview is done; feedback is awaited."
  INTERVIEW_COMPLETED
  "On hold until other candidates have been interviewed."
  COMPLETION_ON_HOLD
}

enum JobCandidateStatus {
  "Still eligible for the job."
  ELIGIBLE
  "Not eligible for the job anymore."
  NON_ELIGIBLE
  "Submitted while already being submitted by someone else."
  DUPLICATE
}

enum JobCandidateStatusReason {
  SKILLS_OR_EXPERIENCE
  SPECIFIC_JOB_CRITERIA
  AVAILABILITY
  MARKET_ELIGIBILITY
  BUDGET
  ACCEPTED_OTHER_JOB
  OTHER_CANDIDATE_ACCEPTED
  ADDED_BY_MISTAKE
  EXISTING_APPLICATION_THROUGH_OTHER_CHANNELS
}

enum JobCandidateOrderByColumn {
  WORKER_NAME
  HIRING_STEP
  UPDATED_AT
}

input JobCandidateOrderByClauseInput {
  column: JobCandidateOrderByColumn!
  order: SortOrder! = ASC
}

enum SourcingChannel {
  TRUSTED_CONTACT
  CANDIDATE_SUBMISSION
  RECRUITER_ATTRIBUTION
  MARKETPLACE
}

enum BidStatus {
  "Offer was created."
  OPEN
  "Offer was accepted."
  ACCEPTED
  "Offer was rejected."
  REJECTED
  "Offer was cancelled."
  CANCELLED
}

enum BidOrderByColumn {
  CREATED_AT
  STATUS
}

input BidOrderByClauseInput {
  field: BidOrderByColumn!
  order: SortOrder!
}

type Job {
  id: ID!
  "The unique reference for the job."
  number: Int!
  name: String!
  skills: [Skill!]!
  description: String
  market: MarketCode!
  status: JobStatus
  currency: Currency!
  rateType: RateType
  "The payment amount per specified rate type."
  rate: Float
  minimumRate: Float
  maximumRate: Float
  locationPreference: LocationPreference
  startDate: Date
  endDate: Date
  requiredWorkers: Int
  "Whether the job is available to receive offers."
  available: Boolean!
  paused: Boolean!
  completed: Boolean!
  published: Boolean!
  draft: Boolean!
  removed: Boolean!
  publishedAt: DateTime
  company: Company!
  createdAt: DateTime!
  updatedAt: DateTime!
  externalIdentifier: String
  "Whether the viewer is able to edit the job."
  viewerCanEdit: Boolean!
  "Whether the viewer is able to create a hire on the job."
  viewerCanCreateHire: Boolean!
  "Determines if the job can be published."
  canBePublished: Boolean!
  "The hires made on the job."
  hires(first: Int! = 10, page: Int): HirePaginator!
  bids(first: Int! = 10, page: Int): BidPaginator!
  jobCandidates(first: Int! = 10, page: Int): JobCandidatePaginator!
}

type JobPaginator {
  paginatorInfo: PaginatorInfo!
  data: [Job!]!
}

"The relation between a job and a worker, making them a candidate for the job."
type JobCandidate {
  id: ID!
  job: Job!
  worker: Worker!
  "The active bid made by the worker for the job."
  bid: Bid
  "The hire created by the company for the job and worker pairing."
  hire: Hire
  sourcingChannel: SourcingChannel!
  step: JobCandidateHiringStep!
  status: JobCandidateStatus!
  statusReason: JobCandidateStatusReason
  "Internal comment on why the candidate is not eligible."
  statusComment: String
  isPreferred: Boolean!
  createdAt: DateTime!
  updatedAt: DateTime
  "Whether the viewer can update the job candidate status."
  viewerCanUpdateStatus: Boolean!
}

type JobCandidatePaginator {
  paginatorInfo: PaginatorInfo!
  data: [JobCandidate!]!
}

"A bid sent on a job."
type Bid {
  id: ID!
  status: BidStatus!
  job: Job!
  worker: Worker!
  "The supplier account for this bid, if applicable."
  supplier: Account
  "The rate proposed by the worker."
  rate: Float
  rateType: RateType
  currency: String!
  brief: String
}

type BidPaginator {
  paginatorInfo: PaginatorInfo!
  data: [Bid!]!
}

"createJob makes a DRAFT job with just these; updateJob sets the rest and publishes."
input CreateJobInput {
  company: ID!
  name: String!
  skills: [String!]!
}

"Only the fields given are changed. Setting published to true publishes the job: it cannot be undone."
input UpdateJobInput {
  id: ID!
  name: String
  description: String
  skills: [String!]
  startDate: Date
  endDate: Date
  published: Boolean
  externalIdentifier: String
}

input UpdateJobCandidateStepInput {
  jobCandidate: ID!
  "Only manual steps are accepted."
  step: JobCandidateHiringStep!
}

input UpdateJobCandidateStatusInput {
  jobCandidate: ID!
  status: JobCandidateStatus!
  statusReason: JobCandidateStatusReason
  "Internal note on the status reason."
  statusComment: String
}

"Hires the bid's worker: the hire gets a draft contract at the bid's rate, pending the worker's acceptance."
input AcceptBidInput {
  bid: ID!
  startDate: Date
  endDate: Date
  jobTitle: String
  jobDescription: String
  purchaseOrderNumber: String
  externalIdentifier: String
}

extend type Mutation {
  createJob(input: CreateJobInput!): Job!
  updateJob(input: UpdateJobInput!): Job!
  updateJobCandidateStep(input: UpdateJobCandidateStepInput!): JobCandidate!
  updateJobCandidateStatus(input: UpdateJobCandidateStatusInput!): JobCandidate!
  acceptBid(input: AcceptBidInput!): Hire!
}

extend type Query {
  jobCandidate(id: ID!): JobCandidate
  bid(id: ID!): Bid
  jobs(
    accounts: [ID!]
    search: String
    currencies: [Currency!]
    rateTypes: [RateType!]
    skills: [String!]
    locationPreferences: [LocationPreference!]
    available: Boolean
    published: Boolean
    completed: Boolean
    removed: Boolean
    hasHire: Boolean
    hasBids: Boolean
    externalIdentifiers: [String!]
    orderBy: [JobsOrderByClauseInput!]
    createdAtDateRange: DateRangeInput
    startDateRange: DateRangeInput
    endDateRange: DateRangeInput
    statuses: [JobStatus!]
    first: Int! = 10
    page: Int
  ): JobPaginator!
  job(id: ID!): Job
  jobCandidates(
    jobs: [ID!]
    statuses: [JobCandidateStatus!]
    steps: [JobCandidateHiringStep!]
    preferred: Boolean
    orderBy: [JobCandidateOrderByClauseInput!]
    first: Int! = 10
    page: Int
  ): JobCandidatePaginator!
  bids(
    statuses: [BidStatus!]
    job: ID
    accounts: [ID!]
    companies: [ID!]
    orderBy: [BidOrderByClauseInput!]
    first: Int! = 10
    page: Int
  ): BidPaginator!
}

extend type Hire {
  "The job that the hire is on."
  job: Job!
}
`;
