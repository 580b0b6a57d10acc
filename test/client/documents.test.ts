import { parse, print } from "graphql";
import { describe, expect, it } from "vitest";
import { documentFor } from "../../src/client/documents.js";

const SEARCH = `query Search($first: Int!, $status: [Status!], $search: String, $range: DateRange, $from: Date, $to: Date, $ids: [ID!], $one: ID, $page: Int = 1) {
  hires(first: $first, status: $status, search: $search, range: $range, window: { from: $from, to: $to }, pick: [$one], page: $page) { id }
}`;
const normal = (document: string) => print(parse(document));

describe("documentFor", () => {
  it("leaves out the variables a call does not give, with the arguments and input fields they fill", () => {
    const sent = documentFor(
      { document: SEARCH },
      { first: 25, status: ["ACTIVE"], from: "2026-11-01" },
    );
    expect(normal(sent)).toBe(
      normal(`query Search($first: Int!, $status: [Status!], $from: Date, $one: ID, $page: Int = 1) {
        hires(first: $first, status: $status, window: { from: $from }, pick: [$one], page: $page) { id }
      }`),
    );
  });

  it("keeps a variable given as null, one with a default, a required one and one inside a list", () => {
    const sent = normal(documentFor({ document: SEARCH }, { first: 1, search: null }));
    expect(sent).toContain("$search: String");
    expect(sent).toContain("search: $search");
    expect(sent).toContain("$page: Int = 1");
    expect(sent).toContain("$first: Int!");
    expect(sent).toContain("pick: [$one]");
    expect(sent).not.toContain("$status");
    expect(sent).not.toContain("range");
  });

  it("sends the document as written when every variable is given, or it cannot be read", () => {
    const all = {
      first: 1,
      status: [],
      search: "a",
      range: {},
      from: "x",
      to: "y",
      ids: [],
      one: "1",
    };
    expect(documentFor({ document: SEARCH }, all)).toBe(SEARCH);
    expect(documentFor({ document: "query {" }, {})).toBe("query {");
  });
});
