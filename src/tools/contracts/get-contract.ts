import * as z from "zod";
import {
  type ContractDetails,
  type ContractPeriod,
  contractHiresQuery,
  type DraftTerms,
  getContractQuery,
  hireContractQuery,
} from "../../client/operations/index.js";
import { oneLine, quoted, urlText } from "../../client/platform-text.js";
import { defineTool, readOnlyAnnotations, ToolInputError } from "../define-tool.js";
import { hiddenFields, hiddenLine, period, rateText, requestOptions } from "../format.js";
import { contractTerms } from "./contract-terms.js";

const contractRef = z.object({
  id: z.string(),
  status: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
});

const draftOutput = z.object({
  id: z.string(),
  status: z.string(),
  ...contractTerms(),
  pdfUrl: z.string().nullable(),
});

/** "Net 30 days", "End of month + 30 days". */
export function paymentTerms(method: string, days: number): string {
  if (method === "END_OF_MONTH") return `End of month + ${days} days`;
  if (method === "NET") return `Net ${days} days`;
  return `${method} ${days} days`;
}

export const getContractTool = defineTool({
  name: "get_contract",
  title: "Get contract",
  toolset: "contracts",
  instruction:
    "get_contract takes a hire id (for its active contract, the terms in force) or a contract id, and shows the terms, the contract document, attachments and any unsigned change.",
  readme: {
    does: "A contract's terms, payment terms, the contract document (`pdfUrl`) and attachments",
  },
  description: [
    "One contract: job, dates, rate, payment terms, PO number, the contract document and attachments. With hireId: the hire's active contract, the terms in force.",
    "Use when: Ana's contract terms, the payment term of contract 90562, send me the signed contract.",
    "Do not use for: finding hires (use search_hires).",
    "Returns: terms, pdfUrl (the contract), attachments (links expire), any unsigned draft.",
    "The API cannot change rates or dates (extend); a person does, in the web app.",
  ].join("\n"),
  inputSchema: {
    contractId: z
      .string()
      .min(1)
      .optional()
      .describe("Contract id, e.g. 90562; or give hireId, not both."),
    hireId: z
      .string()
      .min(1)
      .optional()
      .describe("Hire id, e.g. 48213, for its active contract; or give contractId."),
  },
  outputSchema: {
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
    company: z.object({ id: z.string(), name: z.string() }),
    /** The contract document itself; the link expires. */
    pdfUrl: z.string().nullable(),
    /** Attachments, not the contract itself; the links expire. */
    files: z.array(z.object({ name: z.string(), url: z.string() })),
    /** The hire's unsigned draft, when it is not the contract shown: not in force. */
    draftContract: draftOutput.nullable(),
    otherContracts: z.array(contractRef),
    hiddenFields: z.array(z.string()),
  },
  annotations: readOnlyAnnotations,
  async handler(args, ctx) {
    if ((args.contractId === undefined) === (args.hireId === undefined)) {
      throw new ToolInputError(
        "give exactly one of contractId or hireId",
        "contractId, hireId",
        "Pass contractId for a specific contract, or hireId for that hire's active contract.",
      );
    }
    const options = requestOptions(ctx);
    let contract: ContractDetails;
    let hire: HireFacts | null;
    let restricted: Parameters<typeof hiddenFields>[0];
    /** Why this contract is the one shown, when a hire id was given and it has no active one. */
    let noActive: { hireId: string; hireStatus: string } | null = null;

    if (args.hireId !== undefined) {
      const result = await ctx.client.run(hireContractQuery, { id: args.hireId }, options);
      const found = result.data.hire;
      // The terms in force are the active contract's. Without one, the latest shows where it stands.
      const shown = found?.activeContract ?? found?.latestContract;
      if (!found || !shown) {
        throw new ToolInputError(
          `no hire ${args.hireId} is visible to you`,
          "hireId",
          "Find the hire's id with search_hires.",
        );
      }
      contract = shown;
      if (!found.activeContract) noActive = { hireId: found.id, hireStatus: found.status };
      hire = {
        id: found.id,
        latestId: found.latestContract?.id ?? null,
        activeId: found.activeContract?.id ?? null,
        draft: found.draftContract,
        pending: found.pendingContractChanges,
        contracts: found.contracts.data,
      };
      restricted = result.restricted;
    } else {
      const id = args.contractId as string;
      const result = await ctx.client.run(getContractQuery, { id }, options);
      if (!result.data.contract) throw unknownContract(id);
      contract = result.data.contract;
      // The schema's Contract has no hire field: look through the worker's hires at that company.
      const owners = await ctx.client.run(
        contractHiresQuery,
        { id, companies: [contract.company.id] },
        options,
      );
      restricted = [...result.restricted, ...owners.restricted];
      const hires = owners.data.contract?.worker?.hires.data ?? [];
      const found = hires.find((h) => h.contracts.data.some((c) => c.id === id));
      hire = found
        ? {
            id: found.id,
            latestId: found.latestContract?.id ?? null,
            activeId: found.activeContract?.id ?? null,
            draft: found.draftContract,
            pending: found.pendingContractChanges,
            contracts: found.contracts.data,
          }
        : null;
    }

    const draft = hire?.draft && hire.draft.id !== contract.id ? hire.draft : null;
    const structured: Structured = {
      id: contract.id,
      status: contract.status,
      jobName: contract.jobName,
      startDate: contract.startDate,
      endDate: contract.endDate,
      currency: contract.currency,
      rate: contract.rate,
      rateType: contract.rateType,
      paymentTerms: paymentTerms(contract.paymentTermMethod, contract.paymentTerm),
      purchaseOrderNumber: contract.purchaseOrderNumber,
      hireId: hire?.id ?? null,
      isLatest: hire ? hire.latestId === contract.id : null,
      activeContractId: hire?.activeId ?? null,
      pendingContractChanges: hire ? hire.pending : null,
      worker: contract.worker ? { name: contract.worker.name, email: contract.worker.email } : null,
      company: { id: contract.company.id, name: contract.company.name },
      pdfUrl: contract.pdfUrl,
      files: contract.files.map((f) => ({ name: f.name, url: f.url })),
      draftContract: draft
        ? {
            id: draft.id,
            status: draft.status,
            jobName: draft.jobName,
            startDate: draft.startDate,
            endDate: draft.endDate,
            currency: draft.currency,
            rate: draft.rate,
            rateType: draft.rateType,
            pdfUrl: draft.pdfUrl,
          }
        : null,
      otherContracts: (hire?.contracts ?? [])
        .filter((c) => c.id !== contract.id)
        .map((c) => ({ id: c.id, status: c.status, startDate: c.startDate, endDate: c.endDate })),
      hiddenFields: hiddenFields(restricted),
    };
    return { structured, text: render(structured, noActive) };
  },
});

interface HireFacts {
  id: string;
  latestId: string | null;
  activeId: string | null;
  draft: DraftTerms | null;
  pending: boolean;
  contracts: ContractPeriod[];
}

function unknownContract(id: string): ToolInputError {
  return new ToolInputError(
    `contract ${id} is unknown or not visible to you`,
    "contractId",
    "Use search_hires to find the hire and its contract ids.",
  );
}

type Structured = {
  id: string;
  status: string;
  jobName: string;
  startDate: string | null;
  endDate: string | null;
  currency: string;
  rate: number | null;
  rateType: string | null;
  paymentTerms: string;
  purchaseOrderNumber: string | null;
  hireId: string | null;
  isLatest: boolean | null;
  activeContractId: string | null;
  pendingContractChanges: boolean | null;
  worker: { name: string; email: string | null } | null;
  company: { id: string; name: string };
  pdfUrl: string | null;
  files: { name: string; url: string }[];
  draftContract: z.infer<typeof draftOutput> | null;
  otherContracts: z.infer<typeof contractRef>[];
  hiddenFields: string[];
};

/** "active: the terms in force", "draft, latest, not signed yet", "archived, not the latest". */
function standing(c: Structured): string {
  // The active contract is what counts, whether or not a newer draft exists.
  if (c.status === "ACTIVE" && c.activeContractId === c.id) return "active: the terms in force";
  const parts = [oneLine(c.status).toLowerCase()];
  if (c.isLatest === true) parts.push("latest");
  if (c.isLatest === false) parts.push("not the latest");
  if (c.status === "DRAFT") parts.push("not signed yet");
  return parts.join(", ");
}

// Names, emails, the job, PO number and file names are quoted; ids, statuses, dates one line only.
function render(c: Structured, noActive: { hireId: string; hireStatus: string } | null): string {
  const worker = c.worker
    ? `${quoted(c.worker.name)}${c.worker.email ? ` (email ${quoted(c.worker.email)})` : ""}`
    : "no worker yet";
  const lines: string[] = [];
  if (noActive) {
    lines.push(
      `Hire ${oneLine(noActive.hireId)} (${oneLine(noActive.hireStatus)}) has no active contract: no terms are in force. Its latest contract, status ${oneLine(c.status).toLowerCase()}:`,
    );
  }
  lines.push(
    `Contract ${oneLine(c.id)} (${standing(c)}): job ${quoted(c.jobName)}`,
    `Worker: ${worker}; company: ${quoted(c.company.name)} (${oneLine(c.company.id)})`,
    `Hire: ${c.hireId === null ? "not found" : oneLine(c.hireId)}`,
    `Dates: ${period(c.startDate, c.endDate)}`,
    `Rate: ${c.rate === null ? "hidden" : rateText(c.rate, c.currency, c.rateType)}; payment terms: ${oneLine(c.paymentTerms)}`,
  );
  if (c.activeContractId && c.activeContractId !== c.id) {
    lines.push(
      `Not the terms in force: those are in the hire's active contract ${oneLine(c.activeContractId)}.`,
    );
  }
  if (c.purchaseOrderNumber) lines.push(`Purchase order: ${quoted(c.purchaseOrderNumber)}`);
  const unsigned = c.status === "DRAFT" ? ", not signed yet" : "";
  lines.push(
    c.pdfUrl
      ? `Contract document (PDF${unsigned}; the link expires, ask again for a fresh one): ${urlText(c.pdfUrl)}`
      : "Contract document: the platform gave no link.",
  );
  if (c.files.length > 0) {
    lines.push("Attachments (download links expire; ask again for fresh ones):");
    for (const f of c.files) lines.push(`- ${quoted(f.name)}: ${urlText(f.url)}`);
  } else {
    lines.push("Attachments: none");
  }
  const d = c.draftContract;
  if (d) {
    const what = c.pendingContractChanges ? "Unsigned change pending" : "Draft contract";
    const job = d.jobName === c.jobName ? "" : `job ${quoted(d.jobName)}, `;
    const rate = rateText(d.rate, d.currency, d.rateType);
    const inForce =
      c.status === "ACTIVE" ? " The terms above stay in force until it is accepted." : "";
    lines.push(
      `${what}: contract ${oneLine(d.id)} (${oneLine(d.status).toLowerCase()}), ${job}${rate}, ${period(d.startDate, d.endDate)}; not signed yet.${inForce}`,
    );
    if (d.pdfUrl) lines.push(`Its document (not signed; the link expires): ${urlText(d.pdfUrl)}`);
  }
  if (c.otherContracts.length > 0) {
    const others = c.otherContracts
      .map((o) => `${oneLine(o.id)} (${oneLine(o.status).toLowerCase()})`)
      .join(", ");
    lines.push(
      `Other contracts of this hire: ${others}. Revising a contract creates a new contract id; the hire keeps its id.`,
    );
  }
  const hidden = hiddenLine(c.hiddenFields);
  if (hidden) lines.push(hidden);
  return lines.join("\n");
}
