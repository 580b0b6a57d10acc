// A hire as the tools show it: the output schemas and the mappings from the platform's answer, one
// pair per way a tool shows it. The selections are in src/client/operations/hires.ts (and the
// approval request's hire in approvals.ts); its contracts' shapes are in contract.ts.
import * as z from "zod";
import type { ApprovalRequest } from "../../client/operations/approvals.js";
import type { DraftHire, HireDetails } from "../../client/operations/hires.js";
import type { HireSummary } from "../../client/operations/index.js";
import {
  contractJobIfSaid,
  contractRowOutput,
  contractSummaryOutput,
  contractTerms,
  contractTermsOutput,
  toContractRow,
  toContractSummary,
  toContractTerms,
} from "./contract.js";
import { fieldValueOutput } from "./custom-field.js";
import {
  idAndName,
  idAndNameIfSaid,
  toIdAndName,
  toUser,
  toWorkerWithEmail,
  userOutput,
  workerWithEmail,
} from "./named.js";

/** As search_hires lists it: who, where, when, and its contracts. */
export const hireSummaryOutput = z.object({
  id: z.string(),
  /** The hire number people quote (the platform's unique reference). */
  number: z.string(),
  status: z.string(),
  worker: workerWithEmail,
  company: idAndName,
  startDate: z.string().nullable(),
  /** The planned end; a terminated hire ends on terminationDate instead. */
  endDate: z.string().nullable(),
  terminationDate: z.string().nullable(),
  /** Accepted by all parties: the terms in force. */
  activeContract: contractSummaryOutput.nullable(),
  /** Not signed yet: a change to the active contract, or a first contract awaiting acceptance. */
  draftContract: contractSummaryOutput.nullable(),
  /** The newest contract when it is neither of those (an ended hire's archived one); else null. */
  latestContract: contractSummaryOutput.nullable(),
});

export type HireSummaryOut = z.infer<typeof hireSummaryOutput>;

export function toHireSummary(hire: HireSummary): HireSummaryOut {
  return {
    id: hire.id,
    number: hire.number,
    status: hire.status,
    worker: toWorkerWithEmail(hire.worker),
    company: toIdAndName(hire.company),
    startDate: hire.startDate,
    endDate: hire.endDate,
    terminationDate: hire.terminationDate,
    activeContract: toContractSummary(hire.activeContract),
    draftContract: toContractSummary(hire.draftContract),
    latestContract:
      hire.latestContract &&
      hire.latestContract.id !== hire.activeContract?.id &&
      hire.latestContract.id !== hire.draftContract?.id
        ? toContractSummary(hire.latestContract)
        : null,
  };
}

/** As get_hire shows one hire in full. */
export const hireDetailsShape = {
  id: z.string(),
  number: z.string(),
  status: z.string(),
  createdAt: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  terminationDate: z.string().nullable(),
  externalIdentifier: z.string().nullable(),
  purchaseOrderNumber: z.string().nullable(),
  worker: workerWithEmail,
  company: idAndName,
  staffingAgency: idAndName.nullable(),
  /** Accepted by all parties: the terms in force. */
  activeContract: contractTermsOutput.nullable(),
  /** Not signed yet: a pending change, or a first contract awaiting acceptance. */
  draftContract: contractTermsOutput.nullable(),
  pendingContractChanges: z.boolean(),
  contracts: z.array(contractRowOutput),
  contractsTotal: z.number(),
  owners: z.array(userOutput),
  /** Compliance items that apply to the hire and are not completed. */
  complianceGaps: z.array(z.object({ name: z.string(), title: z.string(), actor: z.string() })),
  /**
   * Custom field values, each with where it is set: the active contract (or, without one, the
   * newest), the hire's job, or the worker's record in the company's talent pool.
   */
  customFields: z.array(
    fieldValueOutput.extend({ on: z.enum(["contract", "job", "talentPool"]), onId: z.string() }),
  ),
  /** Paid payment requests (the worker has been paid), net of tax, summed per currency. */
  totalPaid: z.array(z.object({ currency: z.string(), amount: z.number(), requests: z.number() })),
  /** How many paid payment requests the totals cover, of how many there are. */
  paidRequestsCounted: z.number(),
  paidRequestsTotal: z.number(),
  lastPaymentRequestDate: z.string().nullable(),
  hiddenFields: z.array(z.string()),
};

/** What get_hire adds up of the hire's paid payment requests. */
export interface PaidTotals {
  totalPaid: { currency: string; amount: number; requests: number }[];
  paidRequestsCounted: number;
  paidRequestsTotal: number;
}

export type HireDetailsOut = z.infer<z.ZodObject<typeof hireDetailsShape>>;

type Values = HireDetails["job"]["customFieldValues"];

function valuesOf(values: Values, on: "job" | "talentPool", onId: string) {
  return values
    .filter((v) => v.displayValue !== null && v.displayValue !== "")
    .map((v) => ({
      fieldId: v.customField.id,
      title: v.customField.title,
      value: v.displayValue as string,
      on,
      onId,
    }));
}

export function toHireDetails(
  hire: HireDetails,
  paid: PaidTotals,
  record: { id: string; customFieldValues: Values } | null,
  hidden: string[],
): HireDetailsOut {
  const contracts = hire.contracts.data.map(toContractRow);
  // Custom fields live on contracts: those of the terms in force, else of the newest contract.
  const valuesOn = hire.activeContract?.id ?? contracts.at(-1)?.id ?? null;
  const customFields: HireDetailsOut["customFields"] = [];
  if (valuesOn !== null) {
    for (const field of hire.company.customFields.data) {
      for (const v of field.customFieldValues) {
        if (
          "id" in v.appliesTo &&
          v.appliesTo.id === valuesOn &&
          v.displayValue !== null &&
          v.displayValue !== ""
        ) {
          customFields.push({
            fieldId: field.id,
            title: field.title,
            value: v.displayValue,
            on: "contract",
            onId: valuesOn,
          });
        }
      }
    }
  }
  customFields.push(...valuesOf(hire.job.customFieldValues, "job", hire.job.id));
  if (record) customFields.push(...valuesOf(record.customFieldValues, "talentPool", record.id));
  return {
    id: hire.id,
    number: hire.number,
    status: hire.status,
    createdAt: hire.createdAt,
    startDate: hire.startDate,
    endDate: hire.endDate,
    terminationDate: hire.terminationDate,
    externalIdentifier: hire.externalIdentifier,
    purchaseOrderNumber: hire.purchaseOrderNumber,
    worker: toWorkerWithEmail(hire.worker),
    company: toIdAndName(hire.company),
    staffingAgency: hire.recruiter ? toIdAndName(hire.recruiter) : null,
    activeContract: toContractTerms(hire.activeContract),
    draftContract: toContractTerms(hire.draftContract),
    pendingContractChanges: hire.pendingContractChanges,
    contracts,
    contractsTotal: hire.contracts.paginatorInfo.total,
    owners: hire.owners.map(toUser),
    complianceGaps: hire.compliances
      .filter((c) => c.applicable && !c.completed)
      .map((c) => ({ name: c.name, title: c.title, actor: c.actor })),
    customFields,
    ...paid,
    lastPaymentRequestDate: hire.lastPaymentRequestDate,
    hiddenFields: hidden,
  };
}

/** As create_draft_hire creates it, or finds it already made: the hire and its draft terms. */
export const draftHireOutput = z.object({
  id: z.string(),
  status: z.string(),
  worker: idAndName,
  company: idAndName,
  contractId: z.string(),
  // The rate is the one given in this call.
  ...contractTerms(),
  purchaseOrderNumber: z.string().nullable(),
});

export type DraftHireOut = z.infer<typeof draftHireOutput>;

/** The rate is the one given in the call: the platform does not show it back. */
export function toDraftHire(
  h: DraftHire,
  rate: number | null,
  rateType: string | null,
): DraftHireOut {
  const c = h.latestContract;
  return {
    id: h.id,
    status: h.status,
    worker: h.worker,
    company: h.company,
    contractId: c.id,
    jobName: c.jobName,
    startDate: h.startDate,
    endDate: h.endDate,
    currency: c.currency,
    rate,
    rateType: c.rateType ?? rateType,
    purchaseOrderNumber: c.purchaseOrderNumber,
  };
}

/** As an approval request names the hire it is about (list_hire_approvals, review_hire_approval). */
export const approvalHireOutput = z.object({
  id: z.string(),
  status: z.string(),
  workerId: z.string(),
  worker: z.string(),
  companyId: z.string(),
  company: z.string(),
  ...contractTerms(),
});
type ApprovalHireOut = z.infer<typeof approvalHireOutput>;
type ApprovedHire = Extract<NonNullable<ApprovalRequest["approvable"]>, { id: string }>;

export function toApprovalHire(h: ApprovedHire): ApprovalHireOut {
  return {
    id: h.id,
    status: h.status,
    workerId: h.worker.id,
    worker: h.worker.name,
    companyId: h.company.id,
    company: h.company.name,
    jobName: h.latestContract.jobName,
    startDate: h.startDate,
    endDate: h.endDate,
    currency: h.currency,
    rate: h.rate,
    rateType: h.rateType,
  };
}

/** As submit_timesheets previews hours for it: the hire asked for, its status, who and where. */
export const hireTimesheetFields = () => ({
  hireId: z.string(),
  hireStatus: z.string(),
  worker: z.string(),
  company: z.string(),
});

export function toHireTimesheet(
  hireId: string,
  h: { status: string; worker: { name: string }; company: { name: string } },
) {
  return { hireId, hireStatus: h.status, worker: h.worker.name, company: h.company.name };
}

/** As a change to it is previewed (cancel_hire, terminate_hire): who, where, and its status. */
export const hireChangeFields = () => ({
  worker: z.string(),
  company: z.string(),
  hireStatus: z.string(),
});

export function toHireChange(h: {
  status: string;
  worker: { name: string };
  company: { name: string };
}) {
  return { worker: h.worker.name, company: h.company.name, hireStatus: h.status };
}

/**
 * As list_changes shows a webhook event about a hire: the hire, worker, company and contract as
 * the platform read them, or (detailsFrom "event") only what the event carried. The mapping is the
 * change feed's (src/client/changes-feed.ts), which the workforce://changes resource shares.
 */
export const hireEventOutput = z.object({
  eventId: z.string(),
  event: z.string(),
  receivedAt: z.string(),
  hireId: z.string().nullable(),
  hireNumber: z.string().nullable(),
  newStatus: z.string().nullable(),
  worker: idAndNameIfSaid.nullable(),
  company: idAndName.extend({ name: z.string().nullable() }),
  contract: contractJobIfSaid.nullable(),
  detailsFrom: z.enum(["platform", "event"]),
});
