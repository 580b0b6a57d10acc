import type {
  CheckHiresQuery,
  GetContractQuery,
  HireContractQuery,
  InvoiceByNumberQuery,
  ListInvoicesQuery,
  SearchHiresQuery,
} from "../operation-types.generated.js";
import { PAGINATOR_INFO_FIELDS } from "../pagination.js";
import type { Operation } from "../types.js";
import { mutation, query } from "./define.js";
import { BILLED_PAYMENT_REQUEST_FIELDS } from "./payments.js";

// The operations of the first tools: who is signed in, hires, contracts, invoices, timesheets and
// terminating a hire. A test validates each one against the platform's real schema and the sandbox
// schema (test/client/operations.test.ts). Their result and variable types are generated from the
// documents: npm run generate:operations.

export const viewerQuery = query(
  "Viewer",
  /* GraphQL */ `
    query Viewer {
      viewer {
        id
        name
        email
      }
    }
  `,
);

export const terminateHireMutation = mutation(
  "TerminateHire",
  /* GraphQL */ `
    mutation TerminateHire($input: TerminateHireInput!) {
      terminateHire(input: $input) {
        id
        status
        terminationDate
      }
    }
  `,
  // A termination cannot be undone and has no idempotency key: never send it twice.
  "changes",
);

// ---- search_hires ----------------------------------------------------------------------------

const CONTRACT_TERMS_FIELDS = `
  id
  status
  jobName
  startDate
  endDate
  rate
  rateType
  currency
`;

/** A hire as search_hires shows it. */
export type HireSummary = SearchHiresQuery["hires"]["data"][number];

export const searchHiresQuery = query(
  "SearchHires",
  /* GraphQL */ `
    query SearchHires(
      $search: String
      $activeStatus: [HireActiveStatus!]
      $accounts: [ID!]
      $startDateRange: DateRangeInput
      $endDateRange: DateRangeInput
      $workers: [ID!]
      $contractStatus: [ContractStatus!]
      $externalIdentifiers: [String!]
      $owners: [ID!]
      $missingPaymentRequestDateRange: DateRangeInput
      $orderBy: [HiresOrderByClauseInput!]
      $first: Int!
      $page: Int
    ) {
      hires(
        search: $search
        activeStatus: $activeStatus
        accounts: $accounts
        startDateRange: $startDateRange
        endDateRange: $endDateRange
        workers: $workers
        contractStatus: $contractStatus
        externalIdentifiers: $externalIdentifiers
        owners: $owners
        missingPaymentRequestDateRange: $missingPaymentRequestDateRange
        orderBy: $orderBy
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
          terminationDate
          worker {
            id
            name
            email
          }
          company {
            id
            name
          }
          activeContract {
            ${CONTRACT_TERMS_FIELDS}
          }
          draftContract {
            ${CONTRACT_TERMS_FIELDS}
          }
          latestContract {
            ${CONTRACT_TERMS_FIELDS}
          }
        }
      }
    }
  `,
);

// ---- get_contract ----------------------------------------------------------------------------

/** A contract with its parties and documents, as get_contract shows it. */
export type ContractDetails = NonNullable<GetContractQuery["contract"]>;

const CONTRACT_FIELDS = `
  id
  status
  jobName
  startDate
  endDate
  currency
  rate
  rateType
  paymentTermMethod
  paymentTerm
  purchaseOrderNumber
  worker {
    id
    name
    email
  }
  company {
    id
    name
  }
  pdfUrl
  files {
    name
    url
  }
`;

export const getContractQuery = query(
  "GetContract",
  /* GraphQL */ `
    query GetContract($id: ID!) {
      contract(id: $id) {
        ${CONTRACT_FIELDS}
      }
    }
  `,
);

const DRAFT_TERMS_FIELDS = `${CONTRACT_TERMS_FIELDS}
  pdfUrl
`;

// The schema's Contract has no `hire` field: find the hire through the worker's hires there.
export const contractHiresQuery = query(
  "ContractHires",
  /* GraphQL */ `
    query ContractHires($id: ID!, $companies: [ID!]) {
      contract(id: $id) {
        id
        worker {
          hires(companies: $companies, first: 100) {
            data {
              id
              status
              latestContract {
                id
              }
              activeContract {
                id
              }
              draftContract {
                ${DRAFT_TERMS_FIELDS}
              }
              pendingContractChanges
              contracts(first: 100) {
                data {
                  id
                  status
                  startDate
                  endDate
                }
              }
            }
          }
        }
      }
    }
  `,
);

type ContractsOfHire = NonNullable<HireContractQuery["hire"]>;
/** A draft's headline terms and its document: enough to say what would change. */
export type DraftTerms = NonNullable<ContractsOfHire["draftContract"]>;
/** One of a hire's contracts: its id, status and period. */
export type ContractPeriod = ContractsOfHire["contracts"]["data"][number];

export const hireContractQuery = query(
  "HireContract",
  /* GraphQL */ `
    query HireContract($id: ID!) {
      hire(id: $id) {
        id
        status
        activeContract {
          ${CONTRACT_FIELDS}
        }
        draftContract {
          ${DRAFT_TERMS_FIELDS}
        }
        pendingContractChanges
        latestContract {
          ${CONTRACT_FIELDS}
        }
        contracts(first: 100) {
          data {
            id
            status
            startDate
            endDate
          }
        }
      }
    }
  `,
);

// ---- list_invoices ---------------------------------------------------------------------------

const INVOICE_SUMMARY_FIELDS = `
  id
  number
  date
  dueDate
  currency
  grossAmount
  netAmount
  grossOpenAmount
  isOverDue
  payerDisplayName
  payeeDisplayName
  transactionType
  company {
    id
    name
  }
`;

/** An invoice as list_invoices shows it. */
export type InvoiceSummary = ListInvoicesQuery["invoices"]["data"][number];
/** One invoice looked up by number: the summary with its document and a page of rows. */
export type InvoiceDetails = NonNullable<InvoiceByNumberQuery["invoice"]>;

export const listInvoicesQuery = query(
  "ListInvoices",
  /* GraphQL */ `
    query ListInvoices(
      $status: [InvoiceStatus!]
      $transactionTypes: [InvoiceTransactionType!]
      $search: String
      $currency: [Currency!]
      $accounts: [ID!]
      $orderBy: [QueryInvoicesOrderByOrderByClause!]
      $first: Int!
      $page: Int
    ) {
      invoices(
        status: $status
        transactionTypes: $transactionTypes
        search: $search
        currency: $currency
        accounts: $accounts
        orderBy: $orderBy
        first: $first
        page: $page
      ) {
        ${PAGINATOR_INFO_FIELDS}
        data {
          ${INVOICE_SUMMARY_FIELDS}
        }
      }
    }
  `,
);

export const invoiceByNumberQuery = query(
  "InvoiceByNumber",
  /* GraphQL */ `
    query InvoiceByNumber($number: String!, $first: Int!, $page: Int) {
      invoice(number: $number) {
        ${INVOICE_SUMMARY_FIELDS}
        taxAmount
        markedPaidAt
        isFullyCredited
        externalIdentifier
        pdfUrl
        rows(first: $first, page: $page) {
          ${PAGINATOR_INFO_FIELDS}
          data {
            id
            customText
            worker {
              id
              name
            }
            paymentRequest {${BILLED_PAYMENT_REQUEST_FIELDS}}
          }
        }
      }
    }
  `,
);

// ---- submit_timesheets -----------------------------------------------------------------------

/** One hire as CheckHires reads it (the generated type knows every alias; each is the same). */
export type CheckedHire = NonNullable<CheckHiresQuery["h0"]>;
/** A contract's period and the rate hours are paid at; the rate is null when hidden. */
export type TimesheetTerms = NonNullable<CheckedHire["activeContract"]>;

// The document is built for as many hires as a batch holds, so its own types are by alias:
/** `h0`, `h1`, …: one alias per hire, in the order of the ids given. */
export type CheckHiresData = Record<string, CheckedHire | null>;
/** `id0`, `id1`, …: the hire ids, matching the aliases. */
export type CheckHiresVariables = Record<string, string>;

/**
 * Hires checked per CheckHires request. The platform rejects queries over a complexity maximum it
 * does not publish; scored the usual way (a paginated field costs its children × `first`), one
 * hire here is about 500, so 25 are about 12,500: a quarter of ContractHires (a 100-hire page with
 * 100 contracts each, about 50,000), which the server already sends. 200 hires take 8 requests.
 */
export const CHECK_HIRES_BATCH_SIZE = 25;

const TIMESHEET_TERMS_FIELDS = "id status startDate endDate currency rate rateType";

export const checkHireAlias = (index: number) => `h${index}`;
export const checkHireVariable = (index: number) => `id${index}`;

const checkHiresQueries = new Map<number, Operation<CheckHiresData, CheckHiresVariables>>();

/** One named query that checks `count` hires at once through aliases (built once per count). */
export function checkHiresQuery(count: number): Operation<CheckHiresData, CheckHiresVariables> {
  if (!Number.isInteger(count) || count < 1) {
    throw new RangeError(`checkHiresQuery needs a positive whole count, not ${count}.`);
  }
  let operation = checkHiresQueries.get(count);
  if (!operation) {
    const indexes = Array.from({ length: count }, (_, i) => i);
    const variables = indexes.map((i) => `$${checkHireVariable(i)}: ID!`).join(", ");
    const fields = indexes.map(
      (i) => `
      ${checkHireAlias(i)}: hire(id: $${checkHireVariable(i)}) {
        id
        status
        worker {
          id
          name
        }
        company {
          id
          name
        }
        activeContract {
          ${TIMESHEET_TERMS_FIELDS}
        }
        latestContract {
          ${TIMESHEET_TERMS_FIELDS}
        }
      }`,
    );
    operation = query(
      "CheckHires",
      /* GraphQL */ `
    query CheckHires(${variables}) {${fields.join("")}
    }
  `,
    );
    checkHiresQueries.set(count, operation);
  }
  return operation;
}

export const submitTimesheetsMutation = mutation(
  "SubmitTimesheets",
  /* GraphQL */ `
    mutation SubmitTimesheets($input: CreateCustomTimesheetInput!) {
      createCustomTimesheet(input: $input) {
        providedRegistrations
        successfulRegistrations
        rejectedRegistrations {
          externalId
          reason
          message
        }
      }
    }
  `,
  // An upsert keyed by externalId, so a replay would not duplicate rows; still sent once: the
  // person confirmed one submission of money, and a lost answer is read back, never replayed.
  "changes",
);

// ---- terminate_hire --------------------------------------------------------------------------

export const hireForTerminationQuery = query(
  "HireForTermination",
  /* GraphQL */ `
    query HireForTermination($id: ID!) {
      hire(id: $id) {
        id
        status
        startDate
        endDate
        terminationDate
        canTerminateContract
        worker {
          id
          name
        }
        company {
          id
          name
        }
        activeContract {
          id
          status
          jobName
          startDate
          endDate
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
