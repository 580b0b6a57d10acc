import * as z from "zod";
import {
  getHireQuery,
  HIRE_LIST_LIMIT,
  type HireDetails,
  hirePaidRequestsQuery,
  hireTalentRecordQuery,
  type PaidRequestsPage,
} from "../../client/operations/hires.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import {
  defineTool,
  readOnlyAnnotations,
  type ToolContext,
  ToolInputError,
} from "../define-tool.js";
import { hiddenFields, hiddenLine, money, period, rateText, requestOptions } from "../format.js";
import {
  type HireDetailsOut,
  hireDetailsShape,
  type PaidTotals,
  toHireDetails,
} from "../shapes/hire.js";

/** Pages of paid payment requests read at most (1,000 requests); past that the total says so. */
const MAX_PAID_PAGES = 10;

export const getHireTool = defineTool({
  name: "get_hire",
  title: "Get hire",
  toolset: "hires",
  instruction:
    "get_hire takes a hire id and gives its whole picture in one call: current terms, an unsigned change, past contracts, owners, compliance gaps, custom fields and what has been paid.",
  readme: {
    does: "One hire's whole picture: terms, unsigned change, past contracts, owners, compliance gaps, custom fields (contract, job and talent-pool record), total paid",
  },
  description: [
    "One hire in full: worker, company, dates, the terms in force and any unsigned change, past contracts, owners, compliance gaps, custom fields, total paid, last payment request.",
    "Use when: everything about Ana's hire, who owns it, what is missing on it, how much we paid.",
    "Do not use for: finding a hire (use search_hires); documents (use get_contract).",
  ].join("\n"),
  inputSchema: {
    hireId: z.string().min(1).describe("The hire's id (from search_hires), e.g. 48213."),
  },
  outputSchema: hireDetailsShape,
  annotations: readOnlyAnnotations,
  async handler(args, ctx) {
    const { data, restricted } = await ctx.client.run(
      getHireQuery,
      { id: args.hireId, paidPage: 1 },
      requestOptions(ctx),
    );
    const hire = data.hire;
    if (!hire) {
      throw new ToolInputError(
        `no hire ${args.hireId} is visible to you`,
        "hireId",
        "Find the hire's id with search_hires.",
      );
    }
    const paid = await allPaid(ctx, hire.id, data.paid);
    // Only the job and the talent-pool record carry values besides the contract: Hire has none.
    const talent = await ctx.client.run(
      hireTalentRecordQuery,
      { company: hire.company.id, worker: hire.worker.id },
      requestOptions(ctx),
    );
    const record = talent.data.trustedContacts.data[0] ?? null;
    const structured = toHireDetails(hire, paid, record, [
      ...hiddenFields(restricted),
      ...hiddenFields(talent.restricted),
    ]);
    return { structured, text: render(structured, hire, record !== null) };
  },
});

/** The first page came with the hire; a hire paid more than 100 times needs a few more requests. */
async function allPaid(ctx: ToolContext, id: string, first: PaidRequestsPage): Promise<PaidTotals> {
  const rows = [...first.data];
  const last = Math.min(first.paginatorInfo.lastPage, MAX_PAID_PAGES);
  for (let page = 2; page <= last; page++) {
    const { data } = await ctx.client.run(
      hirePaidRequestsQuery,
      { id, paidPage: page },
      requestOptions(ctx),
    );
    rows.push(...data.paid.data);
  }
  const totals = new Map<string, { amount: number; requests: number }>();
  for (const r of rows) {
    const t = totals.get(r.currency) ?? { amount: 0, requests: 0 };
    // In cents, so a few hundred additions do not drift.
    t.amount += Math.round(r.netAmount * 100);
    t.requests += 1;
    totals.set(r.currency, t);
  }
  return {
    totalPaid: [...totals.entries()]
      .map(([currency, t]) => ({ currency, amount: t.amount / 100, requests: t.requests }))
      .sort((a, b) => a.currency.localeCompare(b.currency)),
    paidRequestsCounted: rows.length,
    paidRequestsTotal: first.paginatorInfo.total,
  };
}

// One line per place that holds values, labelled with it; "none" only when none holds any.
function customFieldLines(h: HireDetailsOut, raw: HireDetails, inTalentPool: boolean): string[] {
  const job = `job ${oneLine(raw.job.id)} ${quoted(raw.job.name)}`;
  const pool = "worker's talent-pool record";
  if (h.customFields.length === 0) {
    const record = inTalentPool ? `, or the ${pool}` : "; the worker is not in the talent pool";
    return [`Custom fields: none set on the contract, the ${job}${record}.`];
  }
  const places: Array<[HireDetailsOut["customFields"][number]["on"], string]> = [
    ["contract", "contract"],
    ["job", job],
    ["talentPool", pool],
  ];
  const lines: string[] = [];
  for (const [on, label] of places) {
    const values = h.customFields.filter((f) => f.on === on);
    if (values.length === 0) continue;
    const id = on === "job" ? "" : ` ${oneLine(values[0]?.onId ?? "")}`;
    lines.push(
      `Custom fields on the ${label}${id}: ${values.map((f) => `${quoted(f.title)}: ${quoted(f.value)}`).join("; ")}`,
    );
  }
  return lines;
}

const rate = (c: { rate: number | null; currency: string; rateType: string | null }) =>
  c.rate === null ? "rate hidden" : rateText(c.rate, c.currency, c.rateType);

const ACTOR: Record<string, string> = {
  WORKER: "the worker",
  COMPANY: "your company",
  RECRUITER: "the staffing agency",
  WORKSOME: "the platform",
};

function paidLine(h: HireDetailsOut): string {
  const last = h.lastPaymentRequestDate
    ? `last payment request ${oneLine(h.lastPaymentRequestDate)}`
    : "no payment request yet";
  if (h.totalPaid.length === 0) return `Paid so far: nothing; ${last}.`;
  const sums = h.totalPaid
    .map(
      (t) =>
        `${oneLine(t.currency)} ${money(t.amount)} (${t.requests} request${t.requests === 1 ? "" : "s"})`,
    )
    .join(", ");
  const partial =
    h.paidRequestsCounted < h.paidRequestsTotal
      ? ` (the first ${h.paidRequestsCounted} of ${h.paidRequestsTotal} paid requests; list_payment_requests has them all)`
      : "";
  return `Paid so far (worker paid, excl. tax): ${sums}${partial}; ${last}.`;
}

// Names, emails, jobs, titles and values are quoted; ids, statuses, dates one line only.
function render(h: HireDetailsOut, raw: HireDetails, inTalentPool: boolean): string {
  const status = oneLine(h.status).toLowerCase();
  const email = h.worker.email ? `, email ${quoted(h.worker.email)}` : "";
  const lines = [
    `Hire ${oneLine(h.id)} (${oneLine(h.number)}), ${status}: ${quoted(h.worker.name)} (worker ${oneLine(h.worker.id)}${email}) at ${quoted(h.company.name)} (${oneLine(h.company.id)})`,
    `Dates: ${period(h.startDate, h.endDate)}${h.terminationDate ? `; terminated as of ${oneLine(h.terminationDate)}` : ""}; created ${oneLine(h.createdAt)}`,
  ];
  if (h.staffingAgency) {
    lines.push(
      `Staffing agency: ${quoted(h.staffingAgency.name)} (${oneLine(h.staffingAgency.id)})`,
    );
  }
  if (h.externalIdentifier) lines.push(`External id: ${quoted(h.externalIdentifier)}`);
  if (h.purchaseOrderNumber) lines.push(`Purchase order: ${quoted(h.purchaseOrderNumber)}`);

  const a = h.activeContract;
  if (a) {
    lines.push(
      `Current terms (active contract ${oneLine(a.id)}, signed): job ${quoted(a.jobName)}; ${rate(a)}; ${period(a.startDate, a.endDate)}; payment terms ${oneLine(a.paymentTerms)}`,
    );
  } else {
    lines.push("Current terms: no active contract (nothing signed by all parties is in force).");
  }
  const d = h.draftContract;
  if (d) {
    const what = h.pendingContractChanges
      ? "Pending change, NOT signed yet"
      : "Draft contract, NOT signed yet";
    lines.push(
      `${what} (draft ${oneLine(d.id)}): job ${quoted(d.jobName)}; ${rate(d)}; ${period(d.startDate, d.endDate)}; payment terms ${oneLine(d.paymentTerms)}. It applies only once accepted${a ? "; until then the current terms stand" : ""}.`,
    );
  }
  if (h.contracts.length > 0) {
    const shown = h.contracts
      .map(
        (c) =>
          `${oneLine(c.id)} (${oneLine(c.status).toLowerCase()}, ${period(c.startDate, c.endDate)}, ${rate(c)})`,
      )
      .join("; ");
    const more =
      h.contractsTotal > h.contracts.length
        ? ` (${h.contracts.length} of ${h.contractsTotal} shown; get_contract shows any one)`
        : "";
    lines.push(`Contracts${more}: ${shown}`);
  }
  lines.push(
    h.owners.length > 0
      ? `Owners: ${h.owners.map((o) => `${quoted(o.name)} (user ${oneLine(o.id)}, ${quoted(o.email)})`).join(", ")}`
      : "Owners: none",
  );
  lines.push(
    h.complianceGaps.length > 0
      ? `Compliance gaps (apply, not completed): ${h.complianceGaps
          .map(
            (g) =>
              `${quoted(g.title)} (${oneLine(g.name)}; for ${ACTOR[g.actor] ?? oneLine(g.actor)})`,
          )
          .join(", ")}`
      : "Compliance gaps: none; every item that applies is completed.",
  );
  lines.push(...customFieldLines(h, raw, inTalentPool));
  lines.push(paidLine(h));
  if (raw.company.customFields.paginatorInfo.total > raw.company.customFields.data.length) {
    lines.push(
      `Only the first ${HIRE_LIST_LIMIT} of the company's ${raw.company.customFields.paginatorInfo.total} custom fields were read.`,
    );
  }
  const hidden = hiddenLine(h.hiddenFields);
  if (hidden) lines.push(hidden);
  return lines.join("\n");
}
