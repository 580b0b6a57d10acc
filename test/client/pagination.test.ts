import { describe, expect, it } from "vitest";
import {
  clampPage,
  clampPageSize,
  DEFAULT_PAGE_SIZE,
  describePage,
  MAX_PAGE_SIZE,
  type PaginatorInfo,
  pageSizeProblem,
  readPage,
} from "../../src/client/index.js";

function info(overrides: Partial<PaginatorInfo>): PaginatorInfo {
  return {
    count: 25,
    currentPage: 1,
    firstItem: 1,
    hasMorePages: true,
    lastItem: 25,
    lastPage: 6,
    perPage: 25,
    total: 143,
    ...overrides,
  };
}

describe("page size", () => {
  it("defaults to 25 for a chat", () => {
    expect(DEFAULT_PAGE_SIZE).toBe(25);
    expect(clampPageSize(undefined)).toBe(25);
    expect(clampPageSize(null)).toBe(25);
    expect(clampPageSize(Number.NaN)).toBe(25);
  });

  it("clamps to 1..100 and floors fractions", () => {
    expect(clampPageSize(0)).toBe(1);
    expect(clampPageSize(-5)).toBe(1);
    expect(clampPageSize(1)).toBe(1);
    expect(clampPageSize(100)).toBe(100);
    expect(clampPageSize(101)).toBe(MAX_PAGE_SIZE);
    expect(clampPageSize(10_000)).toBe(100);
    expect(clampPageSize(7.9)).toBe(7);
  });

  it("explains a page size the platform would not accept", () => {
    expect(pageSizeProblem(25)).toBeUndefined();
    expect(pageSizeProblem(1)).toBeUndefined();
    expect(pageSizeProblem(100)).toBeUndefined();
    expect(pageSizeProblem(0)).toBe("must be between 1 and 100");
    expect(pageSizeProblem(101)).toBe("must be between 1 and 100");
    expect(pageSizeProblem(2.5)).toBe("must be a whole number");
  });

  it("clamps the page number to 1 or more", () => {
    expect(clampPage(undefined)).toBe(1);
    expect(clampPage(0)).toBe(1);
    expect(clampPage(-3)).toBe(1);
    expect(clampPage(4)).toBe(4);
  });
});

describe("readPage and describePage", () => {
  it("first of several pages", () => {
    const page = readPage(info({}));
    expect(page).toEqual({
      page: 1,
      perPage: 25,
      total: 143,
      lastPage: 6,
      from: 1,
      to: 25,
      hasMore: true,
    });
    expect(describePage(page)).toBe("1–25 of 143, page 1 of 6; ask for page 2 for more");
  });

  it("the last, short page", () => {
    const page = readPage(
      info({
        count: 5,
        currentPage: 2,
        firstItem: 26,
        lastItem: 30,
        lastPage: 2,
        total: 30,
        hasMorePages: false,
      }),
    );
    expect(page.hasMore).toBe(false);
    expect(describePage(page)).toBe("26–30 of 30, page 2 of 2");
  });

  it("no results at all", () => {
    const page = readPage(
      info({
        count: 0,
        firstItem: null,
        lastItem: null,
        lastPage: 1,
        total: 0,
        hasMorePages: false,
      }),
    );
    expect(page).toMatchObject({ from: 0, to: 0, total: 0, lastPage: 1, hasMore: false });
    expect(describePage(page)).toBe("No results.");
  });

  it("a page past the end says where the results are", () => {
    const page = readPage(
      info({
        count: 0,
        currentPage: 9,
        firstItem: null,
        lastItem: null,
        lastPage: 6,
        hasMorePages: false,
      }),
    );
    expect(describePage(page)).toBe("No results on page 9; there are 143 in all, on pages 1 to 6.");
  });

  it("a platform that reports lastPage 0 for an empty list still reads as page 1 of 1", () => {
    const page = readPage(
      info({
        count: 0,
        firstItem: null,
        lastItem: null,
        lastPage: 0,
        total: 0,
        hasMorePages: false,
      }),
    );
    expect(page.lastPage).toBe(1);
  });
});
