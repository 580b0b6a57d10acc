// What submit_timesheets reads from the platform: each hire with the terms in force (contract
// period, rate and currency), and the payment requests that already hold the rows' days, with
// each day's registration and its externalIdentifier.
import { mostTelling } from "../../client/classify.js";
import type { PlatformError } from "../../client/errors.js";
import {
  CHECK_HIRES_BATCH_SIZE,
  type CheckedHire,
  type CheckHiresVariables,
  checkHireAlias,
  checkHiresQuery,
  checkHireVariable,
} from "../../client/operations/index.js";
import { timesheetDaysLoggedQuery } from "../../client/operations/payments.js";
import { type ToolContext, ToolInputError } from "../define-tool.js";
import { requestOptions } from "../format.js";

export interface Row {
  hireId: string;
  reportedDate: string;
  hours: number;
  externalId: string;
  reference?: string;
  isPayable?: boolean;
  meta?: Record<string, unknown>;
}

export type HireCheck =
  | { kind: "found"; hire: CheckedHire }
  | { kind: "missing" }
  | { kind: "unchecked"; hidden: boolean };

/** Checks the hires CHECK_HIRES_BATCH_SIZE at a time, one aliased query per batch. */
export async function checkHires(ctx: ToolContext, ids: string[]): Promise<Map<string, HireCheck>> {
  const checks = new Map<string, HireCheck>();
  for (let start = 0; start < ids.length; start += CHECK_HIRES_BATCH_SIZE) {
    const batch = ids.slice(start, start + CHECK_HIRES_BATCH_SIZE);
    const variables: CheckHiresVariables = {};
    batch.forEach((id, i) => {
      variables[checkHireVariable(i)] = id;
    });
    // request, not run: one hire's error must not hide the others' answers.
    const { data, errors } = await ctx.client.request(
      checkHiresQuery(batch.length),
      variables,
      requestOptions(ctx),
    );
    // An error whose path starts with an alias belongs to that hire alone.
    const byAlias = new Map<string, PlatformError>();
    const unplaced: PlatformError[] = [];
    for (const error of errors) {
      const alias = error.path?.[0];
      const index = typeof alias === "string" ? /^h(\d+)$/.exec(alias)?.[1] : undefined;
      if (alias !== undefined && index !== undefined && Number(index) < batch.length) {
        if (!byAlias.has(alias as string)) byAlias.set(alias as string, error);
      } else unplaced.push(error);
    }
    const all = mostTelling(unplaced);
    if (all) throw all;
    batch.forEach((id, i) => {
      const alias = checkHireAlias(i);
      const error = byAlias.get(alias);
      const hire = data?.[alias];
      if (error) {
        // Another company's hire reads as "not authorised": for the preview that is "not found".
        const refused = error.kind === "authorization" || error.kind === "field-restricted";
        if (refused && error.path?.length === 1) checks.set(id, { kind: "missing" });
        else checks.set(id, { kind: "unchecked", hidden: refused });
      } else if (hire === null) {
        checks.set(id, { kind: "missing" });
      } else if (hire === undefined) {
        checks.set(id, { kind: "unchecked", hidden: false });
      } else if (!hire.latestContract) {
        // Restricted contracts come back null with no error of their own (see client.request).
        checks.set(id, { kind: "unchecked", hidden: true });
      } else {
        checks.set(id, { kind: "found", hire });
      }
    });
    const done = start + batch.length;
    await ctx.reportProgress(done, ids.length, `checked ${done} of ${ids.length} hires`);
  }
  return checks;
}

/** A registration (or a billing period without daily hours) the platform holds for a hire. */
export interface LoggedEntry {
  hireId: string;
  /** The payment request's number, e.g. PR-20044. */
  paymentRequest: string;
  status: string;
  date: string;
  /** Null for a request without daily hours: every day of its billing period counts as logged. */
  duration: number | null;
  unit: string | null;
  externalId: string | null;
  payable: boolean | null;
}

export interface Logged {
  /** By hire and day, for the rows' days. */
  byDay: Map<string, LoggedEntry[]>;
  /** By externalIdentifier, for the rows' externalIds. */
  byExternalId: Map<string, LoggedEntry[]>;
}

export const dayKey = (hireId: string, date: string) => `${hireId}\n${date}`;
const LOGGED_PAGE_SIZE = 50;
/** Pages of payment requests read per batch of hires at most, before asking for a smaller call. */
const MAX_LOGGED_PAGES = 40;

/**
 * The payment requests (approved or awaiting approval; rejected and cancelled ones pay nothing)
 * whose billing period overlaps the rows' days, per batch of hires.
 */
export async function readLogged(ctx: ToolContext, rows: readonly Row[]): Promise<Logged> {
  const logged: Logged = { byDay: new Map(), byExternalId: new Map() };
  const wanted = new Set(rows.map((r) => dayKey(r.hireId, r.reportedDate)));
  const externalIds = new Set(rows.map((r) => r.externalId));
  const hires = [...new Set(rows.map((r) => r.hireId))];
  const add = (map: Map<string, LoggedEntry[]>, key: string, entry: LoggedEntry) => {
    const list = map.get(key) ?? [];
    list.push(entry);
    map.set(key, list);
  };
  for (let start = 0; start < hires.length; start += CHECK_HIRES_BATCH_SIZE) {
    const batch = new Set(hires.slice(start, start + CHECK_HIRES_BATCH_SIZE));
    const dates = rows.filter((r) => batch.has(r.hireId)).map((r) => r.reportedDate);
    const from = dates.reduce((a, b) => (a < b ? a : b));
    const to = dates.reduce((a, b) => (a > b ? a : b));
    for (let page = 1; ; page++) {
      const { data } = await ctx.client.run(
        timesheetDaysLoggedQuery,
        {
          hires: [...batch],
          statuses: ["APPROVED", "UNAPPROVED"],
          billingStartDateRange: { to },
          billingEndDateRange: { from },
          first: LOGGED_PAGE_SIZE,
          page,
        },
        requestOptions(ctx),
      );
      for (const request of data.paymentRequests.data) {
        const hireId = request.hire?.id;
        if (!hireId || !batch.has(hireId)) continue;
        const base = {
          hireId,
          paymentRequest: request.number,
          status: request.status,
        };
        const days = request.timesheet?.registrations;
        if (days && !days.paginatorInfo.hasMorePages) {
          for (const day of days.data) {
            if (day.type === "BREAK") continue;
            const entry: LoggedEntry = {
              ...base,
              date: day.date,
              duration: day.duration,
              unit: day.unit,
              externalId: day.externalIdentifier,
              payable: day.isBillable,
            };
            if (wanted.has(dayKey(hireId, day.date)))
              add(logged.byDay, dayKey(hireId, day.date), entry);
            if (entry.externalId !== null && externalIds.has(entry.externalId)) {
              add(logged.byExternalId, entry.externalId, entry);
            }
          }
          continue;
        }
        // No daily hours (a daily or monthly rate), or more than one page of them: each row's day
        // inside the billing period counts as logged.
        for (const row of rows) {
          const inside =
            row.hireId === hireId &&
            (request.startDate === null || request.startDate <= row.reportedDate) &&
            (request.endDate === null || row.reportedDate <= request.endDate);
          const key = dayKey(hireId, row.reportedDate);
          if (!inside || logged.byDay.get(key)?.some((e) => e.paymentRequest === request.number)) {
            continue;
          }
          add(logged.byDay, key, {
            ...base,
            date: row.reportedDate,
            duration: null,
            unit: null,
            externalId: null,
            payable: null,
          });
        }
      }
      if (!data.paymentRequests.paginatorInfo.hasMorePages) break;
      if (page >= MAX_LOGGED_PAGES) {
        throw new ToolInputError(
          `the rows' hires have more than ${MAX_LOGGED_PAGES * LOGGED_PAGE_SIZE} payment requests between ${from} and ${to}, too many to check for days already logged`,
          "registrations",
          "Nothing was sent. Submit fewer hires or a shorter period per call.",
        );
      }
    }
  }
  return logged;
}

/** Whether what was read shows the row registered as it was sent. */
export function isRegistered(row: Row, logged: Logged): boolean {
  return (logged.byExternalId.get(row.externalId) ?? []).some(
    (e) => e.hireId === row.hireId && e.date === row.reportedDate && e.duration === row.hours,
  );
}
