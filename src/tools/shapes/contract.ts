// A contract as the tools show it: the output schemas and the mappings from the platform's answer,
// one pair per way a tool shows it. The selections are in src/client/operations/core.ts (the
// contract get_contract shows, a hire's contracts) and hires.ts (a hire's contracts as listed).
import * as z from "zod";
import type { HireContractTerms } from "../../client/operations/hires.js";
import type { ContractDetails, ContractPeriod, DraftTerms } from "../../client/operations/index.js";
import { idAndName, toIdAndName } from "./named.js";

/** The rate and its currency, which some selections add to a contract's period. */
interface ContractRate {
  currency: string;
  rate: number | null;
  rateType: string | null;
}

/** Currency and rate; fresh schemas for each object that spreads them. */
export const contractRate = () => ({
  currency: z.string(),
  /** Null when the platform hides rates from this account. */
  rate: z.number().nullable(),
  rateType: z.string().nullable(),
});

export function toContractRate(c: ContractRate): ContractRate {
  return { currency: c.currency, rate: c.rate, rateType: c.rateType };
}

/** Job, dates, currency and rate; fresh schemas for each object that spreads them. */
export const contractTerms = () => ({
  jobName: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  ...contractRate(),
});

/** The fields contractTerms() declares, from a contract that has them. */
function termsOf(
  c: ContractRate & { jobName: string; startDate: string | null; endDate: string | null },
) {
  return { jobName: c.jobName, startDate: c.startDate, endDate: c.endDate, ...toContractRate(c) };
}

/** "Net 30 days", "End of month + 30 days". */
function paymentTerms(method: string, days: number): string {
  if (method === "END_OF_MONTH") return `End of month + ${days} days`;
  if (method === "NET") return `Net ${days} days`;
  return `${method} ${days} days`;
}

/** As a hire's other contracts are named (get_contract): id, status and period. */
const contractPeriodOutput = z.object({
  id: z.string(),
  status: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
});

function toContractPeriod(c: ContractPeriod): z.infer<typeof contractPeriodOutput> {
  return { id: c.id, status: c.status, startDate: c.startDate, endDate: c.endDate };
}

/**
 * As submit_timesheets previews the terms hours count against: "active", the terms in force;
 * "latest", the hire has none in force (it ended).
 */
export const contractCoverOutput = contractPeriodOutput.extend({
  terms: z.enum(["active", "latest"]),
});

export function toContractCover(
  c: ContractPeriod,
  terms: "active" | "latest",
): z.infer<typeof contractCoverOutput> {
  return { id: c.id, status: c.status, terms, startDate: c.startDate, endDate: c.endDate };
}

/** As an event about its hire names it (list_changes): each part null where nothing says it. */
export const contractJobIfSaid = z.object({
  id: z.string().nullable(),
  jobName: z.string().nullable(),
});

/** As a change to its hire is previewed (cancel_hire, terminate_hire): which one, job, period. */
export const contractBriefOutput = z.object({
  id: z.string(),
  status: z.string(),
  jobName: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
});
type ContractBrief = z.infer<typeof contractBriefOutput>;

export function toContractBrief(c: ContractBrief): ContractBrief {
  return {
    id: c.id,
    status: c.status,
    jobName: c.jobName,
    startDate: c.startDate,
    endDate: c.endDate,
  };
}

/** As get_hire lists a hire's contracts: status, period and rate. */
export const contractRowOutput = contractPeriodOutput.extend(contractRate());

export function toContractRow(c: ContractPeriod & ContractRate): z.infer<typeof contractRowOutput> {
  return { ...toContractPeriod(c), ...toContractRate(c) };
}

/** As search_hires shows a hire's active, draft and latest contract: status and terms. */
export const contractSummaryOutput = contractBriefOutput.extend({
  rate: z.number().nullable(),
  rateType: z.string().nullable(),
  currency: z.string(),
});
export type ContractSummary = z.infer<typeof contractSummaryOutput>;

export function toContractSummary(c: ContractSummary | null): ContractSummary | null {
  if (!c) return null;
  return { ...toContractBrief(c), rate: c.rate, rateType: c.rateType, currency: c.currency };
}

// Status and PO number are left out: the field says the status, the hire carries the PO number.
/** As get_hire shows the terms in force and an unsigned change. */
export const contractTermsOutput = z.object({
  id: z.string(),
  ...contractTerms(),
  paymentTerms: z.string(),
});
type ContractTermsOut = z.infer<typeof contractTermsOutput>;

export function toContractTerms(c: HireContractTerms | null): ContractTermsOut | null {
  return (
    c && {
      id: c.id,
      ...termsOf(c),
      paymentTerms: paymentTerms(c.paymentTermMethod, c.paymentTerm),
    }
  );
}

/** As get_contract shows a hire's unsigned draft beside the contract asked for: not in force. */
const draftContractOutput = z.object({
  id: z.string(),
  status: z.string(),
  ...contractTerms(),
  pdfUrl: z.string().nullable(),
});

function toDraftContract(d: DraftTerms): z.infer<typeof draftContractOutput> {
  return {
    id: d.id,
    status: d.status,
    ...termsOf(d),
    pdfUrl: d.pdfUrl,
  };
}

/** As get_contract shows one contract: terms, parties, documents and where it stands in its hire. */
export const contractDetailsShape = {
  id: z.string(),
  status: z.string(),
  ...contractTerms(),
  paymentTerms: z.string(),
  purchaseOrderNumber: z.string().nullable(),
  hireId: z.string().nullable(),
  isLatest: z.boolean().nullable(),
  /** The hire's active contract (the terms in force), when it has one; null if none or unknown. */
  activeContractId: z.string().nullable(),
  /** Whether a draft change to the active contract awaits acceptance; null if the hire is unknown. */
  pendingContractChanges: z.boolean().nullable(),
  worker: z.object({ name: z.string(), email: z.string().nullable() }).nullable(),
  company: idAndName,
  /** The contract document itself; the link expires. */
  pdfUrl: z.string().nullable(),
  /** Attachments, not the contract itself; the links expire. */
  files: z.array(z.object({ name: z.string(), url: z.string() })),
  /** The hire's unsigned draft, when it is not the contract shown: not in force. */
  draftContract: draftContractOutput.nullable(),
  otherContracts: z.array(contractPeriodOutput),
  hiddenFields: z.array(z.string()),
};
export type ContractDetailsOut = z.infer<z.ZodObject<typeof contractDetailsShape>>;

/** What the contract's hire says about it: found by the hire id given, or among the worker's hires. */
export interface HireOfContract {
  id: string;
  latestContract: { id: string } | null;
  activeContract: { id: string } | null;
  draftContract: DraftTerms | null;
  pendingContractChanges: boolean;
  contracts: { data: ContractPeriod[] };
}

export function toContractDetails(
  contract: ContractDetails,
  hire: HireOfContract | null,
  hidden: string[],
): ContractDetailsOut {
  const draft =
    hire?.draftContract && hire.draftContract.id !== contract.id ? hire.draftContract : null;
  return {
    id: contract.id,
    status: contract.status,
    ...termsOf(contract),
    paymentTerms: paymentTerms(contract.paymentTermMethod, contract.paymentTerm),
    purchaseOrderNumber: contract.purchaseOrderNumber,
    hireId: hire?.id ?? null,
    isLatest: hire ? (hire.latestContract?.id ?? null) === contract.id : null,
    activeContractId: hire?.activeContract?.id ?? null,
    pendingContractChanges: hire ? hire.pendingContractChanges : null,
    worker: contract.worker ? { name: contract.worker.name, email: contract.worker.email } : null,
    company: toIdAndName(contract.company),
    pdfUrl: contract.pdfUrl,
    files: contract.files.map((f) => ({ name: f.name, url: f.url })),
    draftContract: draft ? toDraftContract(draft) : null,
    otherContracts: (hire?.contracts.data ?? [])
      .filter((c) => c.id !== contract.id)
      .map(toContractPeriod),
    hiddenFields: hidden,
  };
}
