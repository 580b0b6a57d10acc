import { z } from "zod";
import {
  type ContractDetails,
  type ContractPeriod,
  contractHiresQuery,
  getContractQuery,
  hireContractQuery,
} from "../client/operations.js";
import { defineTool, ToolInputError } from "./define-tool.js";
import { hiddenFields, hiddenLine, period, rateText, requestOptions } from "./format.js";
import { oneLine, quoted, urlText } from "./platform-text.js";

const contractRef = z.object({
  id: z.string(),
  status: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
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
    "get_contract takes a hire id or a contract id and shows that contract's terms, rate, dates and files.",
  description: [
    "Show one contract's terms: job, dates, rate, payment terms, worker, company and files.",
    'Use when: "what are Ana\'s contract terms?", "what is the payment term on ctr_002?", "show the signed contract file". Give contractId, or hireId for that hire\'s latest contract.',
    "Do not use for: finding a hire or listing many (use search_hires); invoices (use list_invoices).",
    'Returns: id, status, job, dates, currency, rate and rate type (may be hidden for some accounts), payment terms such as "Net 30 days", PO number, hire id, worker, company, files with short-lived download URLs, and the hire\'s other contracts. A revised contract gets a new id; the hire keeps its id.',
    'Examples: {"hireId": "hire_001"}; {"contractId": "ctr_002"}.',
  ].join("\n"),
  inputSchema: {
    contractId: z
      .string()
      .min(1)
      .optional()
      .describe("The contract's id, e.g. ctr_002. Give this or hireId, not both."),
    hireId: z
      .string()
      .min(1)
      .optional()
      .describe(
        "A hire's id (from search_hires), e.g. hire_001; returns its latest contract. Give this or contractId, not both.",
      ),
  },
  outputSchema: {
    id: z.string(),
    status: z.string(),
    jobName: z.string(),
    startDate: z.string().nullable(),
    endDate: z.string().nullable(),
    currency: z.string(),
    rate: z.number().nullable(),
    rateType: z.string().nullable(),
    paymentTerms: z.string(),
    purchaseOrderNumber: z.string().nullable(),
    hireId: z.string().nullable(),
    isLatest: z.boolean().nullable(),
    worker: z.object({ name: z.string(), email: z.string().nullable() }).nullable(),
    company: z.object({ id: z.string(), name: z.string() }),
    files: z.array(z.object({ name: z.string(), url: z.string() })),
    otherContracts: z.array(contractRef),
    hiddenFields: z.array(z.string()),
  },
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  async handler(args, ctx) {
    if ((args.contractId === undefined) === (args.hireId === undefined)) {
      throw new ToolInputError(
        "give exactly one of contractId or hireId",
        "contractId, hireId",
        "Pass contractId for a specific contract, or hireId for that hire's latest contract.",
      );
    }
    const options = requestOptions(ctx);
    let contract: ContractDetails;
    let hireId: string | null;
    let isLatest: boolean | null;
    let contracts: ContractPeriod[];
    let restricted: Parameters<typeof hiddenFields>[0];

    if (args.hireId !== undefined) {
      const result = await ctx.client.run(hireContractQuery, { id: args.hireId }, options);
      const hire = result.data.hire;
      if (!hire?.latestContract) {
        throw new ToolInputError(
          `no hire ${args.hireId} is visible to you`,
          "hireId",
          "Find the hire's id with search_hires.",
        );
      }
      contract = hire.latestContract;
      hireId = hire.id;
      isLatest = true;
      contracts = hire.contracts.data;
      restricted = result.restricted;
    } else {
      const id = args.contractId as string;
      const result = await ctx.client.run(getContractQuery, { id }, options);
      if (!result.data.contract) throw unknownContract(id);
      contract = result.data.contract;
      restricted = result.restricted;
      // The schema's Contract has no hire field: look through the worker's hires at that company.
      const owners = await ctx.client.run(
        contractHiresQuery,
        { id, companies: [contract.company.id] },
        options,
      );
      const hires = owners.data.contract?.worker?.hires.data ?? [];
      const hire = hires.find((h) => h.contracts.data.some((c) => c.id === id));
      hireId = hire?.id ?? null;
      isLatest = hire ? hire.latestContract?.id === id : null;
      contracts = hire?.contracts.data ?? [];
    }

    const hidden = hiddenFields(restricted);
    const structured = {
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
      hireId,
      isLatest,
      worker: contract.worker ? { name: contract.worker.name, email: contract.worker.email } : null,
      company: { id: contract.company.id, name: contract.company.name },
      files: contract.files.map((f) => ({ name: f.name, url: f.url })),
      otherContracts: contracts
        .filter((c) => c.id !== contract.id)
        .map((c) => ({ id: c.id, status: c.status, startDate: c.startDate, endDate: c.endDate })),
      hiddenFields: hidden,
    };
    return { structured, text: render(structured) };
  },
});

function unknownContract(id: string): ToolInputError {
  return new ToolInputError(
    `contract ${id} is unknown or not visible to you`,
    "contractId",
    "Use search_hires to find the hire and its latest contract id.",
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
  worker: { name: string; email: string | null } | null;
  company: { id: string; name: string };
  files: { name: string; url: string }[];
  otherContracts: z.infer<typeof contractRef>[];
  hiddenFields: string[];
};

// Names, emails, the job, PO number and file names are quoted; ids, statuses, dates one line only.
function render(c: Structured): string {
  const worker = c.worker
    ? `${quoted(c.worker.name)}${c.worker.email ? ` (email ${quoted(c.worker.email)})` : ""}`
    : "no worker yet";
  const status = oneLine(c.status).toLowerCase();
  const lines = [
    `Contract ${oneLine(c.id)} (${status}${c.isLatest ? ", latest" : c.isLatest === false ? ", not the latest" : ""}): job ${quoted(c.jobName)}`,
    `Worker: ${worker}; company: ${quoted(c.company.name)} (${oneLine(c.company.id)})`,
    `Hire: ${c.hireId === null ? "not found" : oneLine(c.hireId)}`,
    `Dates: ${period(c.startDate, c.endDate)}`,
    `Rate: ${c.rate === null ? "hidden" : rateText(c.rate, c.currency, c.rateType)}; payment terms: ${oneLine(c.paymentTerms)}`,
  ];
  if (c.purchaseOrderNumber) lines.push(`Purchase order: ${quoted(c.purchaseOrderNumber)}`);
  if (c.files.length > 0) {
    lines.push("Files (download links expire; ask again for fresh ones):");
    for (const f of c.files) lines.push(`- ${quoted(f.name)}: ${urlText(f.url)}`);
  } else {
    lines.push("Files: none");
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
