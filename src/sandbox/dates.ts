// Calendar-date helpers on "YYYY-MM-DD" strings, all in UTC so the seed never depends on the host's zone.

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written as YYYY-MM-DD (rejects 2026-02-30). */
export function isRealDate(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

export function toDate(value: string): Date {
  return new Date(`${value}T00:00:00Z`);
}

function fmt(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(value: string, days: number): string {
  const d = toDate(value);
  d.setUTCDate(d.getUTCDate() + days);
  return fmt(d);
}

export function endOfMonth(value: string): string {
  const d = toDate(value);
  return fmt(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)));
}

export function startOfNextMonth(value: string): string {
  const d = toDate(value);
  return fmt(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)));
}

export function todayUtc(): string {
  return fmt(new Date());
}
