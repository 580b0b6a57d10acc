import * as z from "zod";
import {
  type ContractDetails,
  contractHiresQuery,
  getContractQuery,
  hireContractQuery,
} from "../../client/operations/index.js";
import { oneLine, quoted, urlText } from "../../client/platform-text.js";
import { defineTool, readOnlyAnnotations, ToolInputError } from "../define-tool.js";
import { hiddenFields, hiddenLine, period, rateText, requestOptions } from "../format.js";
import {
  type ContractDetailsOut,
  contractDetailsShape,
  type HireOfContract,
  toContractDetails,
} from "../shapes/contract.js";

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
  outputSchema: contractDetailsShape,
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
    let hire: HireOfContract | null;
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
      hire = found;
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
      hire = found ?? null;
    }

    const structured = toContractDetails(contract, hire, hiddenFields(restricted));
    return { structured, text: render(structured, noActive) };
  },
});

function unknownContract(id: string): ToolInputError {
  return new ToolInputError(
    `contract ${id} is unknown or not visible to you`,
    "contractId",
    "Use search_hires to find the hire and its contract ids.",
  );
}

type Structured = ContractDetailsOut;

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
