// The records of the sandbox's sample data, as its resolvers read and change them. Domains add
// their own fields to SandboxData (`declare module "…/seed/types.js"`).
export type HireStatus =
  | "DRAFT"
  | "OFFERED"
  | "READY"
  | "ACTIVE"
  | "ENDED"
  | "CANCELLED"
  | "TERMINATED";
export type ContractStatus = "DRAFT" | "ACTIVE" | "ARCHIVED";
export type InvoiceStatus = "PAID" | "UNPAID" | "OVERDUE" | "CREDITED";
export type LocationPreference = "ONSITE_ONLY" | "ONSITE_SOME" | "REMOTE_ONLY";

export interface CompanyRecord {
  __typename: "Company";
  id: string;
  name: string;
  currency: string;
  market: string;
  externalIdentifier: string | null;
  avatar: null;
}
export interface OrganisationRecord {
  __typename: "Organisation";
  id: string;
  name: string;
  market: string;
  avatar: null;
}
export interface RecruiterRecord {
  __typename: "Recruiter";
  id: string;
  name: string;
  initials: string;
  avatar: null;
}
export interface WorkerRecord {
  __typename: "Worker";
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  jobTitle: string | null;
  avatar: null;
}
export interface FileRecord {
  id: string;
  name: string;
  mimeType: string;
  size: number;
}
export interface ContractRecord {
  id: string;
  hireId: string;
  jobName: string;
  jobDescription: string;
  locationPreference: LocationPreference | null;
  status: ContractStatus;
  startDate: string | null;
  endDate: string | null;
  currency: string;
  rateType: string;
  rate: number;
  purchaseOrderNumber: string | null;
  paymentTermMethod: "NET" | "END_OF_MONTH";
  paymentTerm: number;
  files: FileRecord[];
}
export interface HireRecord {
  id: string;
  number: string;
  status: HireStatus;
  workerId: string;
  companyId: string;
  recruiterId: string | null;
  createdAt: string;
  startDate: string | null;
  endDate: string | null;
  terminationDate: string | null;
  externalIdentifier: string | null;
  /** Oldest first; the last one is the latest contract. */
  contractIds: string[];
}
export interface InvoiceRowRecord {
  id: string;
  workerId: string | null;
  /** What the row bills: job, period, quantity × unit price = amount, PO number. */
  customText: string;
  /**
   * The period and hours the row bills, from which the payments domain makes the row's payment
   * request (InvoiceRow.paymentRequest). A credit note's rows share their invoice's object.
   */
  billed: {
    from: string;
    to: string;
    hours: number;
    rate: number;
    rateType: string;
    amount: number;
  };
}
export interface InvoiceRecord {
  id: string;
  number: string;
  hireId: string | null;
  /** The billed contract's PO number; `invoices(search:)` matches it. Not an Invoice field. */
  purchaseOrderNumber: string | null;
  companyId: string;
  currency: string;
  netAmount: number;
  taxAmount: number;
  grossAmount: number;
  grossOpenAmount: number;
  markedPaidAt: string | null;
  date: string;
  dueDate: string;
  payeeDisplayName: string;
  transactionType: "INVOICE" | "CREDIT_NOTE" | "BATCH_INVOICE";
  isFullyCredited: boolean;
  status: InvoiceStatus;
  externalIdentifier: string | null;
  rows: InvoiceRowRecord[];
}
export interface TimesheetRecord {
  hireId: string;
  reportedDate: string;
  hours: number;
  externalId: string;
  reference?: string;
  isPayable: boolean;
  meta?: Record<string, unknown>;
}

export interface SandboxData {
  today: string;
  companies: CompanyRecord[];
  organisations: OrganisationRecord[];
  recruiters: RecruiterRecord[];
  workers: Map<string, WorkerRecord>;
  hires: Map<string, HireRecord>;
  contracts: Map<string, ContractRecord>;
  invoices: InvoiceRecord[];
  timesheets: Map<string, TimesheetRecord>;
  counters: { hire: number; contract: number; worker: number; file: number };
}
