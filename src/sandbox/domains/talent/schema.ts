// The talent pool's slice of the platform schema: skills, trusted contacts, a worker's address.
export const talentTypeDefs = /* GraphQL */ `
"The status of a trusted contact."
enum ContactStatus {
  "Contact was invited."
  INVITED
  "Contact is active."
  ACTIVE
  "Contact was declined."
  DECLINED
  "Contact applied."
  APPLIED
  "Contact application was blocked."
  BLOCKED
}

enum TrustedContactHireStatus {
  "The contact is currently hired in one of the given companies"
  CURRENTLY_HIRED
  "The contact is not currently hired in one of the given companies"
  NOT_CURRENTLY_HIRED
}

enum TrustedContactHireHistory {
  "The contact has been previously hired by the company"
  PREVIOUSLY_HIRED
  "The contact has never been hired by the company"
  NOT_PREVIOUSLY_HIRED
}

enum TrustedContactOrigin {
  INVITED
  ADDED
}

enum TrustedContactOriginChannel {
  EXISTING_SETUP
  "Invited directly by the company"
  DIRECT_INVITE
  PERSONAL_INVITE
  CANDIDATE_SUBMISSION
  MARKETPLACE_HIRE
  EXTERNAL_LINK
  ORGANISATION_HIRE
}

enum TrustedContactOrderByColumn {
  WORKER_NAME
  WORKER_COUNTRY
  WORKER_DATE_ADDED
  WORKER_STATUS_UPDATED
}

enum SkillableType {
  WORKER
  TRUSTED_CONTACT
  JOB
}

enum CountryCode {
  AT
  CA
  DE
  DK
  FI
  GB
  NL
  NO
  PL
  SE
  US
}

type Skill {
  id: ID!
  name: String!
}

type SkillPaginator {
  paginatorInfo: PaginatorInfo!
  data: [Skill!]!
}

type Country {
  isoCode: CountryCode!
  name: String
}

type Address {
  city: String
  country: Country
}

extend type Worker {
  "The address that the worker is registered to."
  address: Address
}

"A worker in a company's Talent Pool."
type TrustedContact {
  id: ID!
  worker: Worker!
  company: Company!
  "A null value means the contact was added automatically by a process."
  invitedByUser: User
  skills: [Skill!]!
  status: ContactStatus!
  statusUpdatedAt: Date!
  invitedAt: Date!
  externalIdentifier: String
  origin: TrustedContactOrigin!
  originChannel: TrustedContactOriginChannel!
  "Whether the viewer is able to re-invite the trusted contact."
  viewerCanReInvite(account: ID!): Boolean!
  createdAt: Date!
}

type TrustedContactPaginator {
  paginatorInfo: PaginatorInfo!
  data: [TrustedContact!]!
}

input HireStatusFilterInput {
  status: TrustedContactHireStatus
  accounts: [ID!]
}

input HireHistoryFilterInput {
  status: TrustedContactHireHistory
  accounts: [ID!]
}

"The details for adding & inviting a trusted contact."
input CreateTrustedContactInput {
  company: ID!
  firstName: String!
  middleName: String
  lastName: String!
  email: String!
  country: String
  state: String
  links: [String!]!
  attachments: [ID!]!
  "The skills to associate with the trusted contact."
  skills: [String!]!
  "The message that will be sent to the trusted contact."
  message: String
  "Whether the worker should be notified that they have been added to the platform."
  notifyWorker: Boolean! = true
  externalIdentifier: String
  origin: TrustedContactOrigin!
  originChannel: TrustedContactOriginChannel!
}

"The input for resending an invitation to a Trusted Contact."
input ReinviteTrustedContactInput {
  "The ID of the Trusted Contact to re-invite (not the Worker ID)."
  id: ID!
}

"The details for editing a trusted contact."
input UpdateTrustedContactInput {
  "The ID of the trusted contact to be edited."
  id: ID!
  "The trusted contact links."
  links: [String!]
  "The trusted contact attachments."
  attachments: [ID!]
  "The skills to associate with the trusted contact."
  skills: [String!]
  "An identifier associated with the trusted contact from an external system."
  externalIdentifier: String
  "The custom fields for the trusted contact."
  customFieldValues: [CustomFieldTypeValueInput!]
}

input TrustedContactOrderByClauseInput {
  field: TrustedContactOrderByColumn!
  order: SortOrder!
}

extend type Query {
  trustedContact(id: ID!): TrustedContact
  skills(search: String, skillableType: [SkillableType!], first: Int! = 10, page: Int): SkillPaginator!
  trustedContacts(
    accounts: [ID!]
    workers: [ID!]
    search: String
    skills: [ID!]
    countries: [String!]
    statuses: [ContactStatus!]
    origin: TrustedContactOrigin
    hireHistory: HireHistoryFilterInput
    hireStatus: HireStatusFilterInput
    externalIdentifiers: [String!]
    orderBy: [TrustedContactOrderByClauseInput!]
    createdAtDateRange: DateRangeInput
    first: Int! = 10
    page: Int
  ): TrustedContactPaginator!
}

extend type Mutation {
  "Add and invite a new trusted contact. Only companies can add & invite trusted contacts."
  createTrustedContact(input: CreateTrustedContactInput!): TrustedContact!
  "Resend an invitation to a Trusted Contact that already exists in the Talent Pool."
  reinviteTrustedContact(input: ReinviteTrustedContactInput!): TrustedContact!
  "Update a trusted contact. Only companies can edit trusted contacts."
  updateTrustedContact(input: UpdateTrustedContactInput!): TrustedContact!
}
`;
