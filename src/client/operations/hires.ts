// One hire's whole picture in one request (get_hire); creating a draft hire and cancelling one.
import { mutation, query } from "../operations.js";

/** A contract's terms as get_hire shows them. */
export interface HireContractTerms {
  id: string;
  jobName: string;
  startDate: string | null;
  endDate: string | null;
  currency: string;
  rate: number | null;
  rateType: string | null;
  paymentTermMethod: string;
  paymentTerm: number;
}

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

export interface HireCustomField {
  id: string;
  title: string;
  appliesTo: string;
  /** Values on every entity of this kind; keep those on the hire's contracts. */
  customFieldValues: { displayValue: string | null; appliesTo: { id?: string } }[];
}

export interface HireDetails {
  id: string;
  number: string;
  status: string;
  createdAt: string;
  startDate: string | null;
  endDate: string | null;
  terminationDate: string | null;
  externalIdentifier: string | null;
  purchaseOrderNumber: string | null;
  /** The day the worker last submitted a payment request; null if never. */
  lastPaymentRequestDate: string | null;
  worker: { id: string; name: string; email: string | null };
  company: {
    id: string;
    name: string;
    customFields: { paginatorInfo: { total: number }; data: HireCustomField[] };
  };
  recruiter: { id: string; name: string } | null;
  /** Accepted by all parties: the terms in force. */
  activeContract: HireContractTerms | null;
  /** Waiting for the other party to accept: not signed yet. */
  draftContract: HireContractTerms | null;
  pendingContractChanges: boolean;
  contracts: {
    paginatorInfo: { total: number };
    data: {
      id: string;
      status: string;
      startDate: string | null;
      endDate: string | null;
      currency: string;
      rate: number | null;
      rateType: string | null;
    }[];
  };
  owners: { id: string; name: string; email: string }[];
  compliances: {
    name: string;
    title: string;
    actor: string;
    applicable: boolean;
    completed: boolean;
  }[];
}

/** One page of the hire's paid payment requests: only what a total per currency needs. */
export interface PaidRequestsPage {
  paginatorInfo: { total: number; lastPage: number };
  data: { currency: string; netAmount: number }[];
}

export interface GetHireData {
  hire: HireDetails | null;
  paid: PaidRequestsPage;
}

/** Nested lists at most 25, as the platform's complexity advice says. */
export const HIRE_LIST_LIMIT = 25;
/** Paid payment requests per page: a flat list of two scalars, so a larger page is cheap. */
export const PAID_PAGE_SIZE = 100;

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

export const getHireQuery = query<GetHireData, { id: string; paidPage: number }>(
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
      }
      ${PAID_REQUESTS}
    }
  `,
);

/** The further pages of paid payment requests, for a hire with more than one page of them. */
export const hirePaidRequestsQuery = query<
  { paid: PaidRequestsPage },
  { id: string; paidPage: number }
>(
  "HirePaidRequests",
  /* GraphQL */ `
    query HirePaidRequests($id: ID!, $paidPage: Int) {
      ${PAID_REQUESTS}
    }
  `,
);

// ---- create_draft_hire -------------------------------------------------------------------------

/** A new draft hire as create_draft_hire reports it; the rate is the caller's own (may be hidden). */
export interface DraftHire {
  id: string;
  status: string;
  externalIdentifier: string | null;
  startDate: string | null;
  endDate: string | null;
  worker: { id: string; name: string };
  company: { id: string; name: string };
  latestContract: {
    id: string;
    status: string;
    jobName: string;
    currency: string;
    rateType: string | null;
    purchaseOrderNumber: string | null;
  };
}

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

/** A talent pool contact as create_draft_hire needs it (trustedContact(id) answers more). */
export interface PoolContact {
  id: string;
  status: string;
  worker: { id: string; name: string };
  company: { id: string; name: string };
}

export interface HireCustomFieldDefinition {
  id: string;
  slug: string | null;
  title: string;
  fieldType: string;
  customFieldOptions: { id: string; value: string }[];
}

export interface DraftHireFieldsData {
  customFields: { paginatorInfo: { total: number }; data: HireCustomFieldDefinition[] };
}

/** A hire's custom fields are the company's contract fields. */
export const draftHireFieldsQuery = query<DraftHireFieldsData, { company: string }>(
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

/** One value of HireInput.customFieldValues: exactly one member set. */
export type CustomFieldTypeValueInput =
  | { singleSelect: { id: string; value: string } }
  | { freeText: { id: string; value: string } }
  | { multiSelect: { id: string; values: string[] } };

export interface CreateDraftHireVariables extends Record<string, unknown> {
  input: {
    company: string;
    name: string;
    trustedContact?: string;
    rate?: number;
    rateType?: string;
    startDate?: string;
    endDate?: string;
    purchaseOrderNumber?: string;
    customFieldValues?: CustomFieldTypeValueInput[];
    externalIdentifier: string;
  };
}

export const createDraftHireMutation = mutation<
  { createDraftHire: DraftHire },
  CreateDraftHireVariables
>(
  "CreateDraftHire",
  /* GraphQL */ `
    mutation CreateDraftHire($input: HireInput!) {
      createDraftHire(input: $input) {
        ${DRAFT_HIRE_FIELDS}
      }
    }
  `,
  // Each call makes another hire: never sent twice; found again by its externalIdentifier.
  false,
);

export const hiresByExternalIdQuery = query<
  { hires: { data: DraftHire[] } },
  { externalIdentifier: string }
>(
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

export interface HireForCancelData {
  hire: {
    id: string;
    status: string;
    startDate: string | null;
    endDate: string | null;
    canCancelContract: boolean;
    worker: { id: string; name: string };
    company: { id: string; name: string };
    latestContract: {
      id: string;
      status: string;
      jobName: string;
      startDate: string | null;
      endDate: string | null;
    };
  } | null;
}

export const hireForCancelQuery = query<HireForCancelData, { id: string }>(
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

export const cancelHireMutation = mutation<
  { cancelHire: { id: string; status: string } },
  { input: { hire: string; message: string } }
>(
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
  false,
);

export const hireOperations = {
  getHireQuery,
  hirePaidRequestsQuery,
  draftHireFieldsQuery,
  createDraftHireMutation,
  hiresByExternalIdQuery,
  hireForCancelQuery,
  cancelHireMutation,
};
