// What a hire's whole picture needs beyond the core: its owners, its compliance rows and PO
// number; the companies' custom fields (values live on contracts, as the real schema allows), and
// projects. Names, arguments and types as in the platform's schema.
export const hireDetailsTypeDefs = /* GraphQL */ `
scalar Decimal

enum ComplianceName {
  ADDRESS
  BANK_ACCOUNT
  BACKGROUND_CHECKS
  CONTRACT_DOC
  IDENTIFICATION
  FREELANCER_DK_BUSINESS_ENTITY
  FREELANCER_DE_BUSINESS_ENTITY
  FREELANCER_US_BUSINESS_ENTITY
  US_WORKER_CLASSIFICATION
  ONSITE_PRESENCE
}

enum ComplianceActorTypes {
  WORKER
  COMPANY
  RECRUITER
  WORKSOME
}

"A compliance requirement that must be met for business processes to proceed."
type Compliance {
  actor: ComplianceActorTypes!
  name: ComplianceName!
  "Whether this compliance applies to the current context"
  applicable: Boolean!
  "Whether this compliance has been completed"
  completed: Boolean!
  completedAt: DateTime
  type: String
  title: String!
  description: String!
}

enum CustomFieldType {
  SINGLE_SELECT
  FREE_TEXT
  MULTI_SELECT
  FILE_UPLOAD
}

enum TypeSupportingCustomFieldValues {
  JOB
  CONTRACT
  TRUSTED_CONTACT
  PAYMENT_REQUEST
  COMPANY_RECRUITER
}

enum CustomFieldVisibility {
  INTERNAL
  WORKER
}

enum CustomFieldValidationRules {
  REQUIRED
  NULLABLE
}

type CustomFieldSettings {
  validation: [CustomFieldValidationRules!]!
}

"What a custom field value applies to (the platform's members but CompanyRecruiter)."
union SupportsCustomFieldValue = Job | Contract | TrustedContact

type CustomField {
  id: ID!
  user: User
  account: Account!
  title: String!
  slug: String
  description: String
  fieldType: CustomFieldType!
  appliesTo: TypeSupportingCustomFieldValues!
  customFieldOptions: [CustomFieldOption!]!
  settings: CustomFieldSettings!
  visibility: CustomFieldVisibility!
  customFieldValues: [CustomFieldValue!]!
  isUsedInFieldValues: Boolean!
  approval: Boolean!
  apiOnly: Boolean!
  createdAt: DateTime!
}

type CustomFieldOption {
  id: ID!
  customField: CustomField!
  displayOrder: Int!
  value: String!
}

type CustomFieldValue {
  id: ID!
  account: Account!
  user: User!
  appliesTo: SupportsCustomFieldValue!
  customField: CustomField!
  customFieldOption: CustomFieldOption
  content: String
  "The value for display: the content of a free-text value, the option's value of a single-select one."
  displayValue: String
}

"A custom field is named by its id or by its slug (unique within the account)."
input SingleSelectCustomFieldValueInput {
  id: ID
  slug: String
  "The ID of the option to select. A null value indicates that the field value will be deleted."
  value: ID
}

input FreeTextCustomFieldValueInput {
  id: ID
  slug: String
  "A null value indicates that the field value will be deleted."
  value: String
}

input MultiSelectCustomFieldValueInput {
  id: ID
  slug: String
  "The IDs of the options to select."
  values: [ID!]!
}

"All input fields are mutually exclusive."
input CustomFieldTypeValueInput {
  singleSelect: SingleSelectCustomFieldValueInput
  freeText: FreeTextCustomFieldValueInput
  multiSelect: MultiSelectCustomFieldValueInput
}

type CustomFieldPaginator {
  paginatorInfo: PaginatorInfo!
  data: [CustomField!]!
}

enum ProjectStatusFilter {
  OPEN
  ENDED
}

"A project with a budget containing one or more jobs."
type Project {
  id: ID!
  name: String!
  description: String
  currency: Currency!
  creator: User!
  company: Company!
  internalBudget: Decimal
  allocatedBudget: Decimal!
  spent: Decimal!
  "Null while the project is active."
  endDate: Date
  owners: [User!]!
  externalIdentifier: String
}

type ProjectPaginator {
  paginatorInfo: PaginatorInfo!
  data: [Project!]!
}

extend type Company {
  customFields(first: Int! = 10, page: Int): CustomFieldPaginator!
}

extend type Job {
  "Additional custom fields for the job; never shown to workers."
  customFieldValues: [CustomFieldValue!]!
}

extend type TrustedContact {
  "The custom fields values for the trusted contact."
  customFieldValues: [CustomFieldValue!]!
}

extend type Hire {
  "The owners of the hire."
  owners: [User!]!
  "Compliance rows for this hire. Pass names to filter."
  compliances(names: [ComplianceName!]): [Compliance!]!
  "The assigned Purchase Order (PO) number, if one has been added."
  purchaseOrderNumber: String
  "The date the worker last submitted a payment request for this hire. Null if none ever was."
  lastPaymentRequestDate: Date
}

extend type Query {
  customFields(
    accounts: [ID!]
    approval: Boolean
    appliesTo: [TypeSupportingCustomFieldValues!]
    first: Int! = 10
    page: Int
  ): CustomFieldPaginator!
  projects(
    accounts: [ID!]
    search: String
    status: [ProjectStatusFilter!]
    owners: [ID!]
    externalIdentifiers: [String!]
    first: Int! = 10
    page: Int
  ): ProjectPaginator!
  project(id: ID!): Project
}
`;
