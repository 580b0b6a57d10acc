// Building blocks every sandbox domain's resolvers share: paging, filters, ordering, signed file
// URLs and the record look-ups that cross domains.
import { createHmac } from "node:crypto";
import type { RequestContext } from "./context.js";
import { isRealDate } from "./dates.js";
import { paymentRequestDates } from "./domains/payments/store.js";
import { ValidationCollector } from "./errors.js";
import { itemAt, referenced, referencedIn } from "./records.js";
import type { DateRangeInput, SortOrder } from "./resolver-types.generated.js";
import type { ContractRecord, HireRecord, HireStatus, WorkerRecord } from "./seed/index.js";

const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 10;
const SIGNING_KEY = "sandbox-file-signing";

/** The paging arguments every list field takes (`first: Int! = 10, page: Int`). */
interface PageArgs {
  first?: number | null;
  page?: number | null;
}

export function paginate<T>(items: T[], args: PageArgs, field: string) {
  const first = args.first ?? DEFAULT_PAGE_SIZE;
  const page = args.page ?? 1;
  const v = new ValidationCollector();
  if (first < 1 || first > MAX_PAGE_SIZE) {
    v.add("first", `The first must be between 1 and ${MAX_PAGE_SIZE}.`);
  }
  if (page < 1) v.add("page", "The page must be at least 1.");
  v.throwIfAny(field);
  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / first));
  const start = (page - 1) * first;
  const data = items.slice(start, start + first);
  return {
    data,
    paginatorInfo: {
      count: data.length,
      currentPage: page,
      firstItem: data.length > 0 ? start + 1 : null,
      lastItem: data.length > 0 ? start + data.length : null,
      hasMorePages: page < lastPage,
      lastPage,
      perPage: first,
      total,
    },
  };
}

/** A list filter: absent or empty means "no filter"; values are alternatives. */
export function listFilter(
  values: readonly unknown[] | null | undefined,
): ReadonlySet<unknown> | null {
  return values && values.length > 0 ? new Set(values) : null;
}

/** A `search` argument, trimmed and lower-cased; "" when absent. */
export function searchText(search: string | null | undefined): string {
  return search ? search.trim().toLowerCase() : "";
}

/**
 * A list's `orderBy` clauses as sort keys: each clause's column (which `column` picks from the
 * clause's generated type) and whether it asks for DESC. Clauses without a column are left out.
 */
export function orderOf<T extends { order?: SortOrder | null }>(
  clauses: readonly T[] | null | undefined,
  column: (clause: T) => string | null | undefined,
): Array<{ by: string; desc: boolean }> {
  return (clauses ?? []).flatMap((clause) => {
    const by = column(clause);
    return by ? [{ by, desc: clause.order === "DESC" }] : [];
  });
}

export type Comparable = string | number | null;

/** The sort column an orderBy clause names; the schema's enum lets no other name through. */
export function columnOf<C>(columns: Readonly<Record<string, C>>, name: string): C {
  const column = columns[name];
  if (column === undefined) throw new Error(`The sandbox cannot sort by ${name}.`);
  return column;
}
function compareValues(a: Comparable, b: Comparable): number {
  // Nulls sort first ascending (and so last descending).
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), "en");
}

export function sortBy<T extends { id: string }>(
  items: T[],
  clauses: Array<{ key: (item: T) => Comparable; desc: boolean }>,
): T[] {
  // Each item's keys once, not once per comparison: some keys scan other records.
  const keyed = items.map((item) => ({ item, keys: clauses.map((c) => c.key(item)) }));
  keyed.sort((x, y) => {
    for (const [i, c] of clauses.entries()) {
      const r = compareValues(itemAt(x.keys, i), itemAt(y.keys, i));
      if (r !== 0) return c.desc ? -r : r;
    }
    // Stable final tie-break so pages never overlap.
    return x.item.id < y.item.id ? -1 : x.item.id > y.item.id ? 1 : 0;
  });
  return keyed.map((k) => k.item);
}

/**
 * A `{ from, to }` argument, each side a date or open; an invalid side is added to `v` under the
 * argument's `name`. The Date scalar lets any value through, so each side is checked here.
 */
export function dateRange(
  range: DateRangeInput | null | undefined,
  name: string,
  v: ValidationCollector,
) {
  if (!range) return null;
  const sideOf = (side: "from" | "to"): string | null => {
    const value = range[side];
    if (value === undefined || value === null) return null;
    if (isRealDate(value)) return value;
    v.add(`${name}.${side}`, `The ${name}.${side} is not a valid date (YYYY-MM-DD).`);
    return null;
  };
  return { from: sideOf("from"), to: sideOf("to") };
}

export function inRange(date: string | null, range: { from: string | null; to: string | null }) {
  if (date === null) return false;
  if (range.from !== null && date < range.from) return false;
  if (range.to !== null && date > range.to) return false;
  return true;
}

export function signedUrl(ctx: RequestContext, path: string): string {
  const expires = Math.floor(Date.now() / 1000) + 3600;
  const signature = createHmac("sha256", SIGNING_KEY).update(`${path}:${expires}`).digest("hex");
  return `${ctx.baseUrl}${path}?expires=${expires}&signature=${signature}`;
}

export const workerName = (w: WorkerRecord) => `${w.firstName} ${w.lastName}`;
export const latestContract = (ctx: RequestContext, h: HireRecord) =>
  referenced(ctx.data.contracts, h.contractIds.at(-1));
export const companyOf = (ctx: RequestContext, id: string) => referencedIn(ctx.data.companies, id);
export const workerOf = (ctx: RequestContext, h: HireRecord) =>
  referenced(ctx.data.workers, h.workerId);
export const visibleHire = (ctx: RequestContext, h: HireRecord) =>
  ctx.identity.companyIds.has(h.companyId);

/** The day the hire's newest payment request was submitted, or null when it has none. */
export function lastPaymentRequestDate(ctx: RequestContext, h: HireRecord): string | null {
  let last: string | null = null;
  for (const date of paymentRequestDates(ctx.data, h.id)) {
    if (last === null || date > last) last = date;
  }
  return last;
}

/** The hire's newest contract in `status`, or null. */
export function newestWithStatus(
  ctx: RequestContext,
  h: HireRecord,
  status: ContractRecord["status"],
): ContractRecord | null {
  for (let i = h.contractIds.length - 1; i >= 0; i--) {
    const c = referenced(ctx.data.contracts, h.contractIds[i]);
    if (c.status === status) return c;
  }
  return null;
}

/** The contract whose terms are the hire's: the active one, else the latest. */
export const termsContract = (ctx: RequestContext, h: HireRecord) =>
  newestWithStatus(ctx, h, "ACTIVE") ?? latestContract(ctx, h);

export const PRE_START: ReadonlySet<HireStatus> = new Set(["DRAFT", "OFFERED", "READY"]);
