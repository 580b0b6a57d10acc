import { PAGINATOR_INFO_FIELDS, type PaginatorInfo } from "./pagination.js";
import type { Operation } from "./types.js";

// Every GraphQL document the server sends lives here, as a named operation. A test validates each
// one against the platform's real schema and the sandbox schema (test/client/operations.test.ts).

export function query<TData, TVariables extends Record<string, unknown>>(
  name: string,
  document: string,
): Operation<TData, TVariables> {
  return { name, document, type: "query", safeToRepeat: true };
}

export function mutation<TData, TVariables extends Record<string, unknown>>(
  name: string,
  document: string,
  safeToRepeat: boolean,
): Operation<TData, TVariables> {
  return { name, document, type: "mutation", safeToRepeat };
}

export interface ViewerData {
  viewer: { id: string; name: string; email: string };
}

export const viewerQuery = query<ViewerData, Record<string, unknown>>(
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

export interface TerminateHireData {
  terminateHire: { id: string; status: string; terminationDate: string | null };
}

export interface TerminateHireVariables extends Record<string, unknown> {
  input: { hire: string; reason: string; date: string; comments?: string; message?: string };
}

export const terminateHireMutation = mutation<TerminateHireData, TerminateHireVariables>(
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
  false,
);

// ---- search_hires ----------------------------------------------------------------------------

/** A contract's headline terms, as search_hires shows them. */
export interface ContractTerms {
  id: string;
  status: string;
  jobName: string;
  startDate: string | null;
  endDate: string | null;
  rate: number | null;
  rateType: string | null;
  currency: string;
}

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

export interface HireSummary {
  id: string;
  status: string;
  startDate: string | null;
  endDate: string | null;
  worker: { id: string; name: string; email: string | null };
  company: { id: string; name: string };
  /** Accepted by all parties: the terms in force. */
  activeContract: ContractTerms | null;
  /** Waiting for the other party to accept: not signed yet. */
  draftContract: ContractTerms | null;
  /** The newest contract, whatever its status: it may be the draft. */
  latestContract: ContractTerms | null;
}

export interface SearchHiresData {
  hires: { paginatorInfo: PaginatorInfo; data: HireSummary[] };
}

export interface DateRange {
  from?: string;
  to?: string;
}

export interface SearchHiresVariables extends Record<string, unknown> {
  search?: string;
  activeStatus?: string[];
  accounts?: string[];
  startDateRange?: DateRange;
  endDateRange?: DateRange;
  workers?: string[];
  contractStatus?: string[];
  externalIdentifiers?: string[];
  missingPaymentRequestDateRange?: DateRange;
  orderBy?: { field: string; order: string }[];
  first: number;
  page: number;
}

export const searchHiresQuery = query<SearchHiresData, SearchHiresVariables>(
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
        missingPaymentRequestDateRange: $missingPaymentRequestDateRange
        orderBy: $orderBy
        first: $first
        page: $page
      ) {
        ${PAGINATOR_INFO_FIELDS}
        data {
          id
          status
          startDate
          endDate
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

export interface ContractDetails {
  id: string;
  status: string;
  jobName: string;
  startDate: string | null;
  endDate: string | null;
  currency: string;
  rate: number | null;
  rateType: string | null;
  paymentTermMethod: string;
  paymentTerm: number;
  purchaseOrderNumber: string | null;
  worker: { id: string; name: string; email: string | null } | null;
  company: { id: string; name: string };
  /** The contract document itself; a URL that changes over time. */
  pdfUrl: string | null;
  /** Attachments (statement of work, NDA, ...), not the contract itself. */
  files: { name: string; url: string }[];
}

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

export interface ContractPeriod {
  id: string;
  status: string;
  startDate: string | null;
  endDate: string | null;
}

export interface GetContractData {
  contract: ContractDetails | null;
}

export const getContractQuery = query<GetContractData, { id: string }>(
  "GetContract",
  /* GraphQL */ `
    query GetContract($id: ID!) {
      contract(id: $id) {
        ${CONTRACT_FIELDS}
      }
    }
  `,
);

/** A draft's headline terms and its document: enough to say what would change. */
export type DraftTerms = ContractTerms & { pdfUrl: string | null };

const DRAFT_TERMS_FIELDS = `${CONTRACT_TERMS_FIELDS}
  pdfUrl
`;

export interface ContractHiresData {
  contract: {
    id: string;
    worker: {
      hires: {
        data: {
          id: string;
          status: string;
          latestContract: { id: string } | null;
          activeContract: { id: string } | null;
          draftContract: DraftTerms | null;
          pendingContractChanges: boolean;
          contracts: { data: ContractPeriod[] };
        }[];
      };
    } | null;
  } | null;
}

// The schema's Contract has no `hire` field: find the hire through the worker's hires there.
export const contractHiresQuery = query<ContractHiresData, { id: string; companies: string[] }>(
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

export interface HireContractData {
  hire: {
    id: string;
    status: string;
    /** The terms in force; null when no contract has been accepted (or none is in force). */
    activeContract: ContractDetails | null;
    /** Not signed yet: a change to the active contract, or a first contract awaiting acceptance. */
    draftContract: DraftTerms | null;
    pendingContractChanges: boolean;
    /** Not necessarily the active one: it may be the draft. */
    latestContract: ContractDetails | null;
    contracts: { data: ContractPeriod[] };
  } | null;
}

export const hireContractQuery = query<HireContractData, { id: string }>(
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

export interface InvoiceSummary {
  id: string;
  number: string | null;
  date: string;
  dueDate: string;
  currency: string;
  grossAmount: number;
  netAmount: number;
  grossOpenAmount: number;
  isOverDue: boolean | null;
  payerDisplayName: string;
  payeeDisplayName: string;
  transactionType: string;
  company: { id: string; name: string };
}

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

export interface ListInvoicesData {
  invoices: { paginatorInfo: PaginatorInfo; data: InvoiceSummary[] };
}

export interface ListInvoicesVariables extends Record<string, unknown> {
  status?: string[];
  transactionTypes?: string[];
  search?: string;
  currency?: string[];
  accounts?: string[];
  orderBy?: { column: string; order: string }[];
  first: number;
  page: number;
}

export const listInvoicesQuery = query<ListInvoicesData, ListInvoicesVariables>(
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

export interface InvoiceRow {
  id: string;
  customText: string | null;
  worker: { id: string; name: string } | null;
}

export interface InvoiceByNumberData {
  invoice:
    | (InvoiceSummary & {
        taxAmount: number;
        markedPaidAt: string | null;
        isFullyCredited: boolean;
        externalIdentifier: string | null;
        /** The invoice document itself; a URL that changes over time. */
        pdfUrl: string;
        rows: { paginatorInfo: PaginatorInfo; data: InvoiceRow[] };
      })
    | null;
}

export interface InvoiceByNumberVariables extends Record<string, unknown> {
  number: string;
  first: number;
  page: number;
}

export const invoiceByNumberQuery = query<InvoiceByNumberData, InvoiceByNumberVariables>(
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
          }
        }
      }
    }
  `,
);

// ---- submit_timesheets -----------------------------------------------------------------------

export interface CheckedHire {
  id: string;
  status: string;
  worker: { id: string; name: string };
  company: { id: string; name: string };
  /** The terms in force; null before a hire starts (and for an account that may not see it). */
  activeContract: TimesheetTerms | null;
  /** The newest contract: the period that counts when no contract is active (an ended hire). */
  latestContract: TimesheetTerms | null;
}

/** A contract's period and the rate hours are paid at. */
export interface TimesheetTerms extends ContractPeriod {
  currency: string;
  /** Null when the platform hides rates from this account. */
  rate: number | null;
  rateType: string | null;
}

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
    operation = query<CheckHiresData, CheckHiresVariables>(
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

export interface SubmitTimesheetsData {
  createCustomTimesheet: {
    providedRegistrations: number;
    successfulRegistrations: number;
    rejectedRegistrations: { externalId: string | null; reason: string; message: string }[];
  };
}

export interface SubmitTimesheetsVariables extends Record<string, unknown> {
  input: { schema: string; data: string };
}

export const submitTimesheetsMutation = mutation<SubmitTimesheetsData, SubmitTimesheetsVariables>(
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
  false,
);

// ---- terminate_hire --------------------------------------------------------------------------

export interface HireForTerminationData {
  hire: {
    id: string;
    status: string;
    startDate: string | null;
    endDate: string | null;
    terminationDate: string | null;
    canTerminateContract: boolean;
    worker: { id: string; name: string };
    company: { id: string; name: string };
    activeContract: TerminationTerms | null;
    latestContract: TerminationTerms | null;
  } | null;
}

interface TerminationTerms {
  id: string;
  status: string;
  jobName: string;
  startDate: string | null;
  endDate: string | null;
}

export const hireForTerminationQuery = query<HireForTerminationData, { id: string }>(
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

/** All operations, for the validation test and anything that lists them. */
export const operations = {
  viewerQuery,
  searchHiresQuery,
  getContractQuery,
  contractHiresQuery,
  hireContractQuery,
  listInvoicesQuery,
  invoiceByNumberQuery,
  // A full batch; test/client/operations.test.ts also builds other sizes.
  checkHiresQuery: checkHiresQuery(CHECK_HIRES_BATCH_SIZE),
  submitTimesheetsMutation,
  hireForTerminationQuery,
  terminateHireMutation,
} satisfies Record<string, Operation<unknown, Record<string, unknown>>>;
