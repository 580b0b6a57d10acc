// Small helpers the tools share: argument schemas, request options, rendering.
import * as z from "zod";
import { describePage, type PageInfo, type PaginatorInfo, readPage } from "../client/pagination.js";
import { oneLine } from "../client/platform-text.js";
import type { RequestOptions, RestrictedField } from "../client/types.js";
import type { ToolContext } from "./define-tool.js";

/** True for a real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export function isRealDate(value: unknown): value is string {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const dateSchema = (description: string) =>
  z
    .string()
    .refine(isRealDate, { message: "must be a real date written YYYY-MM-DD" })
    .describe(description);

export const dateRangeSchema = (what: string) =>
  z
    .object({
      from: dateSchema("YYYY-MM-DD").optional(),
      to: dateSchema("YYYY-MM-DD").optional(),
    })
    .describe(`${what[0]?.toUpperCase()}${what.slice(1)} range, ends included.`);

/** Upper-cases strings so `active` and `Active` mean ACTIVE; the JSON Schema still lists the enum. */
export function upperCaseEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess((v) => (typeof v === "string" ? v.trim().toUpperCase() : v), z.enum(values));
}

export const pageArgs = {
  first: z.number().int().min(1).max(100).optional().describe("Page size (default 25)."),
  page: z.number().int().min(1).optional().describe("Page, from 1."),
};

export const pageOutput = z.object({
  page: z.number(),
  perPage: z.number(),
  total: z.number(),
  lastPage: z.number(),
  from: z.number(),
  to: z.number(),
  hasMore: z.boolean(),
  summary: z.string(),
});

/** The platform's paging as `pageOutput`, with its summary ("1–5 of 21, page 1 of 5; …"). */
export function pageOf(info: PaginatorInfo): PageInfo & { summary: string } {
  const page = readPage(info);
  return { ...page, summary: describePage(page) };
}

/** What every platform call gets: the cancellation signal and rate-limit waits as progress. */
export function requestOptions(ctx: ToolContext): RequestOptions {
  return {
    signal: ctx.signal,
    onWait: (waitMs) => {
      void ctx.reportProgress(
        0,
        undefined,
        `waiting ${Math.ceil(waitMs / 1000)} s for the rate limit`,
      );
    },
  };
}

/** Field names (last path segment) the platform hid from this caller, for example `rate`. */
export function hiddenFields(restricted: RestrictedField[]): string[] {
  const names = new Set<string>();
  for (const r of restricted) {
    const last = r.path
      .split(".")
      .filter((p) => !/^\d+$/.test(p))
      .pop();
    if (last) names.add(last);
  }
  return [...names].sort();
}

/** "Rates are hidden for your account." or a general line for other fields. */
export function hiddenLine(fields: string[]): string | undefined {
  if (fields.length === 0) return undefined;
  if (fields.length === 1 && fields[0] === "rate") return "Rates are hidden for your account.";
  return `Hidden for your account: ${fields.map((f) => oneLine(f)).join(", ")}.`;
}

// One formatter for the process: toLocaleString would build a new one on every call.
const twoDecimals = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** 1234.5 → "1,234.50". */
export function money(amount: number): string {
  return twoDecimals.format(amount);
}

/** "2026-01-01 – 2026-06-30", "from 2026-01-01", "no dates". Dates are platform strings too. */
export function period(start: string | null, end: string | null): string {
  if (start && end) return `${oneLine(start)} – ${oneLine(end)}`;
  if (start) return `from ${oneLine(start)}`;
  if (end) return `until ${oneLine(end)}`;
  return "no dates";
}

const UNITS: Record<string, string> = {
  HOURLY: "hours",
  DAILY: "days",
  WEEKLY: "weeks",
  MONTHLY: "months",
};

/** "40 hours", "3.5 days"; "quantity 2" for a rate type without a unit. */
export function quantityText(quantity: number, rateType: string | null): string {
  const unit = rateType ? UNITS[rateType] : undefined;
  return unit ? `${quantity} ${unit}` : `quantity ${quantity}`;
}

export function rateText(
  rate: number | null,
  currency: string | null,
  rateType: string | null,
): string {
  if (rate === null) return "rate hidden";
  const per = rateType ? ` ${oneLine(rateType).toLowerCase()}` : "";
  return `${oneLine(currency)} ${money(rate)}${per}`.trim();
}
