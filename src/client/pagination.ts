// One page shape for every list tool, so the assistant always reads paging the same way.

/** A chat reads a short page best; the platform's docs also suggest 25 rather than 100. */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** The platform's `paginatorInfo`, as the operations select it. */
export interface PaginatorInfo {
  count: number;
  currentPage: number;
  firstItem: number | null;
  hasMorePages: boolean;
  lastItem: number | null;
  lastPage: number;
  perPage: number;
  total: number;
}

/** Paste into a paginated selection: `hires(first: $first, page: $page) { ${PAGINATOR_INFO_FIELDS} data { … } }`. */
export const PAGINATOR_INFO_FIELDS =
  "paginatorInfo { count currentPage firstItem hasMorePages lastItem lastPage perPage total }";

export interface PageInfo {
  page: number;
  perPage: number;
  total: number;
  lastPage: number;
  /** 1-based index of the first item on this page; 0 when the page is empty. */
  from: number;
  /** 1-based index of the last item on this page; 0 when the page is empty. */
  to: number;
  hasMore: boolean;
}

/** A page size the platform accepts: missing → 25, below 1 → 1, above 100 → 100, fractions floored. */
export function clampPageSize(first: number | undefined | null): number {
  if (first === undefined || first === null || !Number.isFinite(first)) return DEFAULT_PAGE_SIZE;
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(first)));
}

/** Why a requested page size is not acceptable, or undefined when it is. */
export function pageSizeProblem(first: number): string | undefined {
  if (!Number.isInteger(first)) return "must be a whole number";
  if (first < 1 || first > MAX_PAGE_SIZE) return `must be between 1 and ${MAX_PAGE_SIZE}`;
  return undefined;
}

/** A page number the platform accepts: missing or below 1 → 1. */
export function clampPage(page: number | undefined | null): number {
  if (page === undefined || page === null || !Number.isFinite(page)) return 1;
  return Math.max(1, Math.floor(page));
}

export function readPage(info: PaginatorInfo): PageInfo {
  const empty = info.count === 0 || info.firstItem === null || info.lastItem === null;
  return {
    page: info.currentPage,
    perPage: info.perPage,
    total: info.total,
    lastPage: Math.max(1, info.lastPage),
    from: empty ? 0 : (info.firstItem ?? 0),
    to: empty ? 0 : (info.lastItem ?? 0),
    hasMore: info.hasMorePages,
  };
}

/** "1–25 of 143, page 1 of 6; ask for page 2 for more", "26–30 of 30, page 2 of 2", "No results." */
export function describePage(page: PageInfo): string {
  if (page.total === 0) return "No results.";
  if (page.from === 0) {
    return `No results on page ${page.page}; there are ${page.total} in all, on pages 1 to ${page.lastPage}.`;
  }
  const range = `${page.from}–${page.to} of ${page.total}, page ${page.page} of ${page.lastPage}`;
  return page.hasMore ? `${range}; ask for page ${page.page + 1} for more` : range;
}
