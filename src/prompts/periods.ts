// Weeks (ISO 8601, Monday to Sunday) and months as the prompts take them, from today's date.
import { quoted } from "../client/platform-text.js";
import { PromptArgumentError } from "./define-prompt.js";

export interface Period {
  from: string;
  to: string;
  label: string;
}

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const utc = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** The Monday of the ISO week `date` is in. */
function mondayOf(ms: number): number {
  const weekday = (new Date(ms).getUTCDay() + 6) % 7;
  return ms - weekday * DAY_MS;
}

/** "2026-W47" for the ISO week starting on `monday`. */
function weekLabel(monday: number): string {
  const thursday = new Date(monday + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return `${year}-W${String(week).padStart(2, "0")}`;
}

function week(monday: number): Period {
  return { from: iso(monday), to: iso(monday + 6 * DAY_MS), label: weekLabel(monday) };
}

/** This week and the five before it, the most recent first. */
export function recentWeeks(today: string): string[] {
  const monday = mondayOf(utc(today));
  return Array.from({ length: 6 }, (_, i) => weekLabel(monday - i * 7 * DAY_MS));
}

/** A week given as "2026-W47" or a day in it (YYYY-MM-DD); by default last week. */
export function weekOf(value: string | undefined, today: string, argument: string): Period {
  const monday = mondayOf(utc(today));
  if (value === undefined) return week(monday - 7 * DAY_MS);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(utc(value))) {
    return week(mondayOf(utc(value)));
  }
  const match = /^(\d{4})-W(\d{2})$/i.exec(value.trim());
  if (match) {
    // ISO week 1 is the week with 4 January in it.
    const first = mondayOf(Date.UTC(Number(match[1]), 0, 4));
    const monday = first + (Number(match[2]) - 1) * 7 * DAY_MS;
    const found = week(monday);
    if (found.label === value.trim().toUpperCase()) return found;
  }
  throw new PromptArgumentError(
    argument,
    `${quoted(value)} is not a week: give an ISO week such as ${weekLabel(monday)}, or a day in it (YYYY-MM-DD).`,
  );
}

/** This month and the five before it, the most recent first. */
export function recentMonths(today: string): string[] {
  const [year, month] = today.split("-").map(Number) as [number, number];
  return Array.from({ length: 6 }, (_, i) => iso(Date.UTC(year, month - 1 - i, 1)).slice(0, 7));
}

/** A month given as YYYY-MM; by default last month in its first ten days, else this month. */
export function monthOf(value: string | undefined, today: string, argument: string): Period {
  const [thisMonth, lastMonth] = recentMonths(today) as [string, string];
  const label = value?.trim() ?? (Number(today.slice(8, 10)) <= 10 ? lastMonth : thisMonth);
  const match = /^(\d{4})-(\d{2})$/.exec(label);
  const month = match ? Number(match[2]) : 0;
  if (!match || month < 1 || month > 12) {
    throw new PromptArgumentError(
      argument,
      `${quoted(value)} is not a month: give it as YYYY-MM, for example ${thisMonth}.`,
    );
  }
  const year = Number(match[1]);
  const last = iso(Date.UTC(year, month, 1) - DAY_MS);
  return { from: `${label}-01`, to: last, label };
}

/** Today and the day `days` later. */
export function daysAhead(today: string, days: number): Period {
  const end = iso(utc(today) + days * DAY_MS);
  return { from: today, to: end, label: `the next ${days} days` };
}

/** What was typed so far, matched against fixed values: those starting with it first. */
export function fitting(values: readonly string[], typed: string): string[] {
  const needle = typed.trim().toLowerCase();
  const starts = values.filter((v) => v.toLowerCase().startsWith(needle));
  const contains = values.filter((v) => !starts.includes(v) && v.toLowerCase().includes(needle));
  return [...starts, ...contains];
}
