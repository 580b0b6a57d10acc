// A sandbox resolver reads its arguments only as the generated types say, so that renaming an
// argument in the sandbox's schema (and regenerating) makes the typecheck fail where it is read.
// The two `@ts-expect-error` lines are the test of that: `npm test` typechecks this file first, and
// fails as soon as either line stops being a type error.
import { describe, expect, it } from "vitest";
import { type ResolverMap, withArgs } from "../../src/sandbox/context.js";
import type { QueryHireArgs } from "../../src/sandbox/resolver-types.generated.js";

const resolvers: ResolverMap = {
  Query: {
    // Without withArgs the arguments are unknown: nothing can be read from them by name.
    untyped: (_p, args) =>
      // @ts-expect-error a resolver map hands arguments over as unknown
      args.id,
    typed: withArgs<QueryHireArgs>((_p, args) => ({
      id: args.id,
      // @ts-expect-error an argument the schema does not declare
      number: args.number,
    })),
  },
};

describe("sandbox resolver arguments", () => {
  it("reach a withArgs resolver as the executor passed them", () => {
    const typed = resolvers.Query?.typed;
    expect(typed?.({}, { id: "hire_001" }, Object.create(null), Object.create(null))).toEqual({
      id: "hire_001",
      number: undefined,
    });
  });
});
