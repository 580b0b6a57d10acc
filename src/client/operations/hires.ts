// One hire's whole picture in one request (get_hire); creating a draft hire and cancelling one.
import type {
  CreateDraftHireMutation,
  DraftHireFieldsQuery,
  GetHireQuery,
} from "../operation-types.generated.js";
import { mutation, query } from "./define.js";

const TERMS_FIELDS = `
  id
  jobName
  startDate
  endDate
  currency
  rate
  rateType
  paymentTermMethod
  paymentTerm
`;

/** A hire with its worker, company, contracts, owners and compliances, as get_hire shows it. */
export type HireDetails = NonNullable<GetHireQuery["hire"]>;
/** A contract's terms as get_hire shows them. */
export type HireContractTerms = NonNullable<HireDetails["activeContract"]>;
/** One page of the hire's paid payment requests: only what a total per currency needs. */
export type PaidRequestsPage = GetHireQuery["paid"];

/** Nested lists at most 25, as the platform's complexity advice says. */
export const HIRE_LIST_LIMIT = 25;
/** Paid payment requests per page: a flat list of two scalars, so a larger page is cheap. */
const PAID_PAGE_SIZE = 100;

// Paid = the worker has been paid (workerPayoutStatus PAID). netAmount as the company sees it:
// the total excluding taxes, fees included.
const PAID_REQUESTS = `
  paid: paymentRequests(hires: [$id], workerPayoutStatuses: [PAID], first: ${PAID_PAGE_SIZE}, page: $paidPage) {
    paginatorInfo {
      total
      lastPage
    }
    data {
      currency
      netAmount(accountType: COMPANY)
    }
  }
`;

// Custom field values as a job or a talent-pool record holds them.
const VALUE_FIELDS = `
  customFieldValues {
    displayValue
    customField {
      id
      title
    }
  }
`;

export const getHireQuery = query(
  "GetHire",
  /* GraphQL */ `
    query GetHire($id: ID!, $paidPage: Int) {
      hire(id: $id) {
        id
        number
        status
        createdAt
        startDate
        endDate
        terminationDate
        externalIdentifier
        purchaseOrderNumber
        lastPaymentRequestDate
        worker {
          id
          name
          email
        }
        company {
          id
          name
          customFields(first: ${HIRE_LIST_LIMIT}) {
            paginatorInfo {
              total
            }
            data {
              id
              title
              appliesTo
              customFieldValues {
                displayValue
                appliesTo {
                  ... on Contract {
                    id
                  }
                }
              }
            }
          }
        }
        recruiter {
          id
          name
        }
        activeContract {
          ${TERMS_FIELDS}
        }
        draftContract {
          ${TERMS_FIELDS}
        }
        pendingContractChanges
        contracts(first: ${HIRE_LIST_LIMIT}) {
          paginatorInfo {
            total
          }
          data {
            id
            status
            startDate
            endDate
            currency
            rate
            rateType
          }
        }
        owners {
          id
          name
          email
        }
        compliances {
          name
          title
          actor
          applicable
          completed
        }
        job {
          id
          name
          ${VALUE_FIELDS}
        }
      }
      ${PAID_REQUESTS}
    }
  `,
);

/** The worker's record in the hire company's talent pool, for its custom field values. */
export const hireTalentRecordQuery = query(
  "HireTalentRecord",
  /* GraphQL */ `
    query HireTalentRecord($company: ID!, $worker: ID!) {
      trustedContacts(accounts: [$company], workers: [$worker], first: 1) {
        data {
          id
          ${VALUE_FIELDS}
        }
      }
    }
  `,
);

/** The further pages of paid payment requests, for a hire with more than one page of them. */
export const hirePaidRequestsQuery = query(
  "HirePaidRequests",
  /* GraphQL */ `
    query HirePaidRequests($id: ID!, $paidPage: Int) {
      ${PAID_REQUESTS}
    }
  `,
);

// ---- create_draft_hire -------------------------------------------------------------------------

/** A new draft hire as create_draft_hire reports it; the rate is the caller's own (may be hidden). */
export type DraftHire = CreateDraftHireMutation["createDraftHire"];

const DRAFT_HIRE_FIELDS = `
  id
  status
  externalIdentifier
  startDate
  endDate
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
    jobName
    currency
    rateType
    purchaseOrderNumber
  }
`;

/** A custom field a draft hire can fill, with its options. */
export type HireCustomFieldDefinition = DraftHireFieldsQuery["customFields"]["data"][number];

/** A hire's custom fields are the company's contract fields. */
export const draftHireFieldsQuery = query(
  "DraftHireFields",
  /* GraphQL */ `
    query DraftHireFields($company: ID!) {
      customFields(accounts: [$company], appliesTo: [CONTRACT], first: 100) {
        paginatorInfo {
          total
        }
        data {
          id
          slug
          title
          fieldType
          customFieldOptions {
            id
            value
          }
        }
      }
    }
  `,
);

export const createDraftHireMutation = mutation(
  "CreateDraftHire",
  /* GraphQL */ `
    mutation CreateDraftHire($input: HireInput!) {
      createDraftHire(input: $input) {
        ${DRAFT_HIRE_FIELDS}
      }
    }
  `,
  // Each call makes another hire: never sent twice; found again by its externalIdentifier.
  "adds",
);

export const hiresByExternalIdQuery = query(
  "HiresByExternalId",
  /* GraphQL */ `
    query HiresByExternalId($externalIdentifier: String!) {
      hires(externalIdentifiers: [$externalIdentifier], first: 25) {
        data {
          ${DRAFT_HIRE_FIELDS}
        }
      }
    }
  `,
);

// ---- cancel_hire -------------------------------------------------------------------------------

export const hireForCancelQuery = query(
  "HireForCancel",
  /* GraphQL */ `
    query HireForCancel($id: ID!) {
      hire(id: $id) {
        id
        status
        startDate
        endDate
        canCancelContract
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
          jobName
          startDate
          endDate
        }
      }
    }
  `,
);

export const cancelHireMutation = mutation(
  "CancelHire",
  /* GraphQL */ `
    mutation CancelHire($input: CancelHireInput!) {
      cancelHire(input: $input) {
        id
        status
      }
    }
  `,
  // The worker is told each time it is sent: never twice.
  "changes",
);
