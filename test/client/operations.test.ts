import {
  buildSchema,
  type DocumentNode,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from "graphql";
import { describe, expect, it } from "vitest";
import { documentFor } from "../../src/client/documents.js";
import { introspectionOperation } from "../../src/client/index.js";
import {
  CHECK_HIRES_BATCH_SIZE,
  checkHireAlias,
  checkHiresQuery,
  checkHireVariable,
} from "../../src/client/operations/index.js";
import type { Operation } from "../../src/client/types.js";
import { sandboxTypeDefs } from "../../src/sandbox/schema.js";
import { allOperations as operations } from "../helpers/all-operations.js";
import { readReference } from "../helpers/reference.js";

// Every document the server sends, checked against the platform's real schema and the sandbox's.
// A new operation in src/client/operations/ is covered without touching this file.

const referenceSchema = buildSchema(readReference("worksome.graphql"));
const sandboxSchema = buildSchema(sandboxTypeDefs);

const all: [string, Operation<unknown, Record<string, unknown>>][] = [
  ...Object.entries(operations as Record<string, Operation<unknown, Record<string, unknown>>>),
  ["introspectionOperation", introspectionOperation],
];

function definitions(document: DocumentNode): OperationDefinitionNode[] {
  return document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
}

function errorsAgainst(schema: GraphQLSchema, document: DocumentNode): string[] {
  return validate(schema, document).map((e) => e.message);
}

describe("operations", () => {
  it("includes at least the operations the tools need", () => {
    expect(Object.keys(operations).length).toBeGreaterThanOrEqual(2);
  });

  describe.each(all)("%s", (_key, operation) => {
    const document = parse(operation.document);

    // The declared name is also the one its generated types are looked up by (define.ts).
    it("has exactly one operation, named as declared, of the declared type", () => {
      const ops = definitions(document);
      expect(ops).toHaveLength(1);
      expect(ops[0]?.name?.value).toBe(operation.name);
      expect(ops[0]?.operation).toBe(operation.type);
    });

    it("fits the platform's schema", () => {
      expect(errorsAgainst(referenceSchema, document)).toEqual([]);
    });

    it("fits the sandbox's schema", () => {
      expect(errorsAgainst(sandboxSchema, document)).toEqual([]);
    });

    it("still fits both when sent without every variable it can do without", () => {
      const lean = parse(documentFor(operation, {}));
      expect(errorsAgainst(referenceSchema, lean)).toEqual([]);
      expect(errorsAgainst(sandboxSchema, lean)).toEqual([]);
    });

    it("is resent after a lost answer only when it is a query", () => {
      // A mutation's lost answer is read back by its tool, never resent (src/client/operations/define.ts).
      expect(operation.safeToRepeat).toBe(operation.type === "query");
    });
  });

  it("names are unique", () => {
    const names = all.map(([, op]) => op.name);
    expect(new Set(names).size).toBe(names.length);
  });

  // The dry run builds CheckHires for as many hires as a batch holds: every size must fit too.
  describe.each([1, 3, CHECK_HIRES_BATCH_SIZE, 50])("CheckHires built for %i hires", (count) => {
    const operation = checkHiresQuery(count);
    const document = parse(operation.document);
    const op = definitions(document)[0] as OperationDefinitionNode;

    it("is one named query with one aliased hire field and one variable per hire", () => {
      expect(definitions(document)).toHaveLength(1);
      expect(op.name?.value).toBe("CheckHires");
      expect(op.operation).toBe("query");
      expect(operation.safeToRepeat).toBe(true);
      const aliases = op.selectionSet.selections.map((s) =>
        s.kind === Kind.FIELD ? `${s.alias?.value}:${s.name.value}` : "",
      );
      expect(aliases).toEqual(Array.from({ length: count }, (_, i) => `${checkHireAlias(i)}:hire`));
      expect(op.variableDefinitions?.map((v) => v.variable.name.value)).toEqual(
        Array.from({ length: count }, (_, i) => checkHireVariable(i)),
      );
    });

    it("fits the platform's schema and the sandbox's", () => {
      expect(errorsAgainst(referenceSchema, document)).toEqual([]);
      expect(errorsAgainst(sandboxSchema, document)).toEqual([]);
    });
  });

  it("the check would catch a document that no longer fits", () => {
    const stale = parse('query Stale { hire(id: "1") { id hourlyWage } }');
    expect(errorsAgainst(referenceSchema, stale)).not.toEqual([]);
    expect(errorsAgainst(sandboxSchema, stale)).not.toEqual([]);
  });
});
