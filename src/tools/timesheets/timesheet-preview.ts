// What submitting timesheet rows would do, read from the platform: each hire's worker and the terms
// in force (contract period, rate and currency), the money per day and per currency, and the days
// already logged for the hire (the payment request that holds them). Rows the platform would refuse,
// and days that have not begun yet, are refused before anything is previewed.
import * as z from "zod";
import type { CheckedHire, TimesheetTerms } from "../../client/operations/index.js";
import { oneLine } from "../../client/platform-text.js";
import { type Fact, type Proposal, whole } from "../confirmation.js";
import { type ToolContext, ToolInputError } from "../define-tool.js";
import { money, period, rateText } from "../format.js";
import { sentTextShown } from "../sent-text.js";
import {
  contractCoverOutput,
  contractRate,
  toContractCover,
  toContractRate,
} from "../shapes/contract.js";
import { hireTimesheetFields, toHireTimesheet } from "../shapes/hire.js";
import {
  checkHires,
  dayKey,
  type HireCheck,
  type LoggedEntry,
  type Row,
  readLogged,
} from "./timesheet-reads.js";
import type { InvalidRow } from "./timesheet-rows.js";

/** Rows that cannot be submitted as they are: nothing is previewed or sent. */
export class RowsRefusedError extends Error {
  override name = "RowsRefusedError";
  constructor(readonly invalidRows: InvalidRow[]) {
    super(`${invalidRows.length} rows cannot be submitted`);
  }
}

const hireOutput = z.object({
  ...hireTimesheetFields(),
  contract: contractCoverOutput,
  ...contractRate(),
  days: z.number(),
  hours: z.number(),
  /** Null when no amount is worked out here (a rate that is hidden or not hourly). */
  amount: z.number().nullable(),
});

export const previewOutput = z.object({
  hires: z.array(hireOutput),
  /** Payable hours and money per currency; hoursNotPriced: hours whose amount the platform sets. */
  totals: z.array(
    z.object({
      currency: z.string(),
      hours: z.number(),
      amount: z.number(),
      hoursNotPriced: z.number(),
    }),
  ),
  daysAlreadyLogged: z.array(
    z.object({
      index: z.number(),
      hireId: z.string(),
      reportedDate: z.string(),
      paymentRequests: z.array(z.string()),
    }),
  ),
  /** Rows whose externalId is registered already: they replace that registration. */
  replacedRegistrations: z.array(
    z.object({
      index: z.number(),
      paymentRequest: z.string(),
      previousDate: z.string(),
      previousHours: z.number().nullable(),
      unchanged: z.boolean(),
    }),
  ),
});
type PreviewOut = z.infer<typeof previewOutput>;

/**
 * The last day that has begun somewhere on Earth (UTC+14): hours for a later day cannot have been
 * worked yet, while no one east of UTC is refused their own today.
 */
function lastDayBegun(now: number): string {
  return new Date(now + 14 * 3_600_000).toISOString().slice(0, 10);
}

interface Found {
  hire: CheckedHire;
  terms: TimesheetTerms;
  which: "active" | "latest";
}

/** Hours count against the terms in force: the active contract, or the last one once it ended. */
function termsOf(hire: CheckedHire): Found {
  const terms = hire.activeContract ?? hire.latestContract;
  return { hire, terms, which: hire.activeContract ? "active" : "latest" };
}

/** Refuses rows for hires not found or not checked, days outside the terms, days not begun. */
function refuseRows(rows: Row[], checks: Map<string, HireCheck>, today: string): InvalidRow[] {
  const invalid: InvalidRow[] = [];
  rows.forEach((row, index) => {
    const base = { index, externalId: row.externalId };
    const check = checks.get(row.hireId) ?? { kind: "missing" };
    const hireId = oneLine(row.hireId);
    if (check.kind === "missing") {
      invalid.push({
        ...base,
        field: "hireId",
        problem: `hire ${hireId} was not found or is not visible to you`,
        fix: "Check the hire id with search_hires; you may also not be allowed to submit hours for this hire.",
      });
      return;
    }
    if (check.kind === "unchecked") {
      invalid.push({
        ...base,
        field: "hireId",
        problem: check.hidden
          ? `hire ${hireId}'s contract is not visible to your account, so its period and rate cannot be shown`
          : `the platform failed while reading hire ${hireId}`,
        fix: check.hidden
          ? "Ask someone who can see the hire's contract to submit these hours."
          : "Call again in a moment; the failure is usually temporary.",
      });
      return;
    }
    if (row.reportedDate > today) {
      invalid.push({
        ...base,
        field: "reportedDate",
        problem: `${row.reportedDate} has not begun yet anywhere (the latest date on Earth now is ${today})`,
        fix: "Submit hours once they are worked.",
      });
      return;
    }
    const { terms, which } = termsOf(check.hire);
    const covered =
      (terms.startDate === null || terms.startDate <= row.reportedDate) &&
      (terms.endDate === null || row.reportedDate <= terms.endDate);
    if (!covered) {
      invalid.push({
        ...base,
        field: "reportedDate",
        problem: `${row.reportedDate} is outside the ${which} contract's period (${period(terms.startDate, terms.endDate)}) of hire ${hireId}`,
        fix: "Check the contract's dates with get_contract and fix reportedDate.",
      });
    }
  });
  return invalid;
}

interface Planned {
  index: number;
  row: Row;
  /** Null: the amount is not worked out here (rate hidden, or not an hourly rate). */
  amount: number | null;
  /** What the platform holds for the same hire and day, besides this call's rows: paid again. */
  logged: LoggedEntry[];
  /** The registration this row's externalId replaces. */
  replaces: LoggedEntry | undefined;
}

/** What the tool's handler needs of a proposal besides what it returns. */
export interface TimesheetProposal {
  out: PreviewOut;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const hoursText = (hours: number) => `${round2(hours)} h`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function amountOf(row: Row, terms: TimesheetTerms): number | null {
  if (row.isPayable === false) return 0;
  if (terms.rate === null || terms.rateType !== "HOURLY") return null;
  return round2(row.hours * terms.rate);
}

/** `2026-11-13: "PR-20044" (APPROVED, 8 h)`; in facts the number is left bare (quoted whole). */
function entryText(e: LoggedEntry, number: (n: string) => string = whole): string {
  const hours =
    e.duration === null
      ? "a billing period without daily hours"
      : `${round2(e.duration)} ${e.unit === "DAYS" ? "days" : "h"}`;
  return `${e.date}: ${number(e.paymentRequest)} (${oneLine(e.status)}, ${hours})`;
}

const bare = (n: string) => oneLine(n, Number.POSITIVE_INFINITY);

/**
 * Reads the platform and says what submitting the rows would do. Refuses (RowsRefusedError) rows
 * the platform would reject and days not begun, and (ToolInputError) days already logged for their
 * hire unless the person chose to include them.
 */
export async function proposeRows(
  ctx: ToolContext,
  rows: Row[],
  includeDaysAlreadyLogged: boolean,
): Promise<Proposal<TimesheetProposal>> {
  const checks = await checkHires(ctx, [...new Set(rows.map((r) => r.hireId))]);
  const invalid = refuseRows(rows, checks, lastDayBegun(ctx.clock.now()));
  if (invalid.length > 0) throw new RowsRefusedError(invalid);
  const logged = await readLogged(ctx, rows);
  const ownIds = new Set(rows.map((r) => r.externalId));
  const found = new Map<string, Found>();
  for (const [id, check] of checks) if (check.kind === "found") found.set(id, termsOf(check.hire));

  const planned: Planned[] = rows.map((row, index) => {
    const entries = logged.byDay.get(dayKey(row.hireId, row.reportedDate)) ?? [];
    const { terms } = found.get(row.hireId) as Found;
    return {
      index,
      row,
      amount: amountOf(row, terms),
      // A registration another row of this call replaces is not a second one for the day.
      logged: entries.filter((e) => e.externalId === null || !ownIds.has(e.externalId)),
      replaces: logged.byExternalId.get(row.externalId)?.find((e) => e.hireId === row.hireId),
    };
  });
  const twice = planned.filter((p) => p.logged.length > 0);
  if (twice.length > 0 && !includeDaysAlreadyLogged) refuseDaysLogged(twice);

  const out = previewOf(planned, found);
  const lines = previewLines(planned, found, out, includeDaysAlreadyLogged);
  refuseTooLarge(ctx, rows.length, lines, out);
  return {
    preview: { out },
    lines,
    consequence:
      "Money moves: accepted hours become payment requests, which the platform may approve and pay automatically; this server cannot withdraw them.",
    question: "Submit these hours for payment?",
    facts: factsOf(planned, found, out),
  };
}

function refuseDaysLogged(twice: Planned[]): never {
  const shown = twice.slice(0, 5).map((p) => {
    const requests = [...new Set(p.logged.map((e) => whole(e.paymentRequest)))].join(", ");
    return `row ${p.index} (hire ${oneLine(p.row.hireId)}, ${p.row.reportedDate}: payment request ${requests})`;
  });
  const more = twice.length > 5 ? ` and ${twice.length - 5} more` : "";
  throw new ToolInputError(
    `${plural(twice.length, "row is", "rows are")} for days already logged for their hire: ${shown.join("; ")}${more}`,
    `registrations[${(twice[0] as Planned).index}].reportedDate`,
    "Nothing was sent. Leave those days out (list_payment_requests shows what is logged). Only if the person wants those hours paid in addition, set includeDaysAlreadyLogged: true; the preview then marks each such day for them to confirm.",
  );
}

function previewOf(planned: Planned[], found: Map<string, Found>): PreviewOut {
  const byHire = new Map<string, Planned[]>();
  for (const p of planned) byHire.set(p.row.hireId, [...(byHire.get(p.row.hireId) ?? []), p]);
  const totals = new Map<string, PreviewOut["totals"][number]>();
  const hires = [...byHire].map(([hireId, own]) => {
    const { hire, terms, which } = found.get(hireId) as Found;
    const payable = own.filter((p) => p.row.isPayable !== false);
    const hours = round2(payable.reduce((sum, p) => sum + p.row.hours, 0));
    const priced = payable.every((p) => p.amount !== null);
    const amount = round2(own.reduce((sum, p) => sum + (p.amount ?? 0), 0));
    const total = totals.get(terms.currency) ?? {
      currency: terms.currency,
      hours: 0,
      amount: 0,
      hoursNotPriced: 0,
    };
    total.hours = round2(total.hours + hours);
    total.amount = round2(total.amount + amount);
    if (!priced) total.hoursNotPriced = round2(total.hoursNotPriced + hours);
    totals.set(terms.currency, total);
    return {
      ...toHireTimesheet(hireId, hire),
      contract: toContractCover(terms, which),
      ...toContractRate(terms),
      days: new Set(own.map((p) => p.row.reportedDate)).size,
      hours,
      amount: priced ? amount : null,
    };
  });
  return {
    hires,
    totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    daysAlreadyLogged: planned
      .filter((p) => p.logged.length > 0)
      .map((p) => ({
        index: p.index,
        hireId: p.row.hireId,
        reportedDate: p.row.reportedDate,
        paymentRequests: [...new Set(p.logged.map((e) => e.paymentRequest))],
      })),
    replacedRegistrations: planned.flatMap((p) =>
      p.replaces
        ? [
            {
              index: p.index,
              paymentRequest: p.replaces.paymentRequest,
              previousDate: p.replaces.date,
              previousHours: p.replaces.duration,
              unchanged: sameAsRegistered(p.row, p.replaces),
            },
          ]
        : [],
    ),
  };
}

const sameAsRegistered = (row: Row, e: LoggedEntry) =>
  e.date === row.reportedDate &&
  e.duration === row.hours &&
  e.unit === "HOURS" &&
  (e.payable ?? true) === (row.isPayable ?? true);

function priceText(p: Planned, terms: TimesheetTerms): string {
  if (p.row.isPayable === false) return "not payable";
  if (p.amount !== null) return `${oneLine(terms.currency)} ${money(p.amount)}`;
  return terms.rate === null ? "amount not visible to your account" : "amount set by the platform";
}

// The server's sentences first, platform values quoted whole on their lines; the consequence
// comes last (added by the confirmation module), so no name can pose as the server's words.
function previewLines(
  planned: Planned[],
  found: Map<string, Found>,
  out: PreviewOut,
  includeDaysAlreadyLogged: boolean,
): string[] {
  const dates = planned.map((p) => p.row.reportedDate).sort();
  const lines = [
    `Submit ${plural(planned.length, "row")} of hours for ${plural(out.hires.length, "hire")}, ${dates[0] === dates.at(-1) ? `on ${dates[0]}` : `${dates[0]} to ${dates.at(-1)}`}:`,
  ];
  for (const h of out.hires) {
    const { terms, which } = found.get(h.hireId) as Found;
    const total = h.amount !== null ? `, ${oneLine(h.currency)} ${money(h.amount)}` : "";
    lines.push(
      `Hire ${oneLine(h.hireId)} (${oneLine(h.hireStatus)}): worker ${whole(h.worker)} at ${whole(h.company)}; ${which} contract ${oneLine(terms.id)}, ${period(terms.startDate, terms.endDate)}, rate ${terms.rate === null ? `not visible to your account (${oneLine(terms.currency)})` : rateText(terms.rate, terms.currency, terms.rateType)}. ${plural(h.days, "day")}, ${hoursText(h.hours)} payable${total}:`,
    );
    const own = planned
      .filter((p) => p.row.hireId === h.hireId)
      .sort((a, b) => a.row.reportedDate.localeCompare(b.row.reportedDate) || a.index - b.index);
    for (const p of own) lines.push(rowLine(p, terms));
  }
  const totals = out.totals.map((t) => {
    const notPriced =
      t.hoursNotPriced > 0
        ? ` (${hoursText(t.hoursNotPriced)} of them at an amount not shown here)`
        : "";
    return `${oneLine(t.currency)} ${money(t.amount)} for ${hoursText(t.hours)}${notPriced}`;
  });
  lines.push(`Total payable: ${totals.join("; ")}.`);
  if (out.daysAlreadyLogged.length > 0 && includeDaysAlreadyLogged) {
    lines.push(
      `${plural(out.daysAlreadyLogged.length, "row is", "rows are")} for days ALREADY LOGGED for the hire (marked above): the person asked to include them (includeDaysAlreadyLogged), so those hours are added to what is logged and may be paid twice.`,
    );
  }
  if (out.replacedRegistrations.length > 0) {
    lines.push(
      `${plural(out.replacedRegistrations.length, "row replaces a registration", "rows replace registrations")} with the same externalId (marked above): the new hours take the place of the old, they are not added.`,
    );
  }
  return lines;
}

function rowLine(p: Planned, terms: TimesheetTerms): string {
  const parts = [`- ${p.row.reportedDate}: ${hoursText(p.row.hours)}, ${priceText(p, terms)}`];
  if (p.row.reference !== undefined) parts.push(`reference ${sentTextShown(p.row.reference)}`);
  if (p.row.meta !== undefined) parts.push(`meta ${sentTextShown(JSON.stringify(p.row.meta))}`);
  if (p.logged.length > 0) {
    parts.push(`ALREADY LOGGED: ${p.logged.map((e) => entryText(e)).join(", ")}`);
  }
  if (p.replaces) {
    parts.push(
      sameAsRegistered(p.row, p.replaces)
        ? `registered exactly so already under this externalId (${entryText(p.replaces)}): no change`
        : `replaces the registration under this externalId (${entryText(p.replaces)})`,
    );
  }
  return parts.join("; ");
}

/**
 * Every platform fact the preview shows that the person decides on, per hire: who, which terms at
 * what rate, and the days already logged or replaced; and the totals. The rows are bound as
 * arguments.
 */
function factsOf(
  planned: Planned[],
  found: Map<string, Found>,
  out: PreviewOut,
): Record<string, Fact> {
  const facts: Record<string, Fact> = {};
  for (const h of out.hires) {
    const { terms } = found.get(h.hireId) as Found;
    const id = oneLine(h.hireId);
    const own = planned.filter((p) => p.row.hireId === h.hireId);
    facts[`${id} worker`] = h.worker;
    facts[`${id} company`] = h.company;
    facts[`${id} hire status`] = h.hireStatus;
    facts[`${id} contract`] = `${terms.id} (${terms.status}, ${h.contract.terms})`;
    facts[`${id} contract period`] = period(terms.startDate, terms.endDate);
    facts[`${id} rate`] =
      terms.rate === null
        ? `not visible to your account (${terms.currency})`
        : rateText(terms.rate, terms.currency, terms.rateType);
    facts[`${id} days already logged`] = own
      .flatMap((p) => p.logged.map((e) => entryText(e, bare)))
      .sort();
    facts[`${id} registrations replaced`] = own
      .flatMap((p) => (p.replaces ? [`${p.row.externalId}: ${entryText(p.replaces, bare)}`] : []))
      .sort();
  }
  for (const t of out.totals) {
    const notPriced = t.hoursNotPriced > 0 ? `, ${hoursText(t.hoursNotPriced)} not priced` : "";
    facts[`total ${t.currency}`] =
      `${t.currency} ${money(t.amount)} for ${hoursText(t.hours)}${notPriced}`;
  }
  return facts;
}

/** A preview is never cut: one too large for an answer is refused, asking for smaller calls. */
function refuseTooLarge(ctx: ToolContext, count: number, lines: string[], out: PreviewOut): void {
  const bytes = Buffer.byteLength(lines.join("\n")) + Buffer.byteLength(JSON.stringify(out));
  const limit = ctx.config.maxAnswerBytes - 8192;
  if (bytes <= limit) return;
  throw new ToolInputError(
    `the preview of ${count} rows would be ${bytes} bytes, more than an answer may hold whole (${limit})`,
    "registrations",
    "Nothing was sent. Submit the rows in smaller calls (for example per hire or per week); a preview is never cut, since the person must see every row that is sent.",
  );
}
