// The sandbox must not invent API: every type, field, argument and enum value it serves must exist
// with the same type in the platform's real schema.
import { readFileSync } from "node:fs";
import {
  buildSchema,
  type GraphQLNamedType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isUnionType,
} from "graphql";
import { describe, expect, it } from "vitest";
import { sandboxTypeDefs } from "../../src/sandbox/schema.js";
import { referencePath } from "../helpers/reference.js";

const referenceSchemaPath = referencePath("worksome.graphql");

function kindOf(type: GraphQLNamedType): string {
  if (isObjectType(type)) return "object";
  if (isInterfaceType(type)) return "interface";
  if (isInputObjectType(type)) return "input";
  if (isEnumType(type)) return "enum";
  if (isUnionType(type)) return "union";
  if (isScalarType(type)) return "scalar";
  return "unknown";
}

/** Every difference between the sandbox schema and the reference, as readable lines. */
function subsetProblems(sandbox: GraphQLSchema, reference: GraphQLSchema): string[] {
  const problems: string[] = [];
  for (const type of Object.values(sandbox.getTypeMap())) {
    if (type.name.startsWith("__")) continue;
    const ref = reference.getType(type.name);
    if (!ref) {
      problems.push(`type ${type.name} is missing`);
      continue;
    }
    if (kindOf(ref) !== kindOf(type)) {
      problems.push(
        `type ${type.name} is ${kindOf(type)} here but ${kindOf(ref)} in the reference`,
      );
      continue;
    }
    if (isEnumType(type) && isEnumType(ref)) {
      const values = new Set(ref.getValues().map((v) => v.name));
      for (const v of type.getValues()) {
        if (!values.has(v.name)) problems.push(`enum value ${type.name}.${v.name} is missing`);
      }
    }
    if (
      (isObjectType(type) || isInterfaceType(type)) &&
      (isObjectType(ref) || isInterfaceType(ref))
    ) {
      const refFields = ref.getFields();
      for (const field of Object.values(type.getFields())) {
        const refField = refFields[field.name];
        if (!refField) {
          problems.push(`field ${type.name}.${field.name} is missing`);
          continue;
        }
        if (String(refField.type) !== String(field.type)) {
          problems.push(
            `field ${type.name}.${field.name} is ${String(field.type)} here but ${String(refField.type)} in the reference`,
          );
        }
        for (const arg of field.args) {
          const refArg = refField.args.find((a) => a.name === arg.name);
          if (!refArg) problems.push(`argument ${type.name}.${field.name}(${arg.name}) is missing`);
          else if (String(refArg.type) !== String(arg.type)) {
            problems.push(
              `argument ${type.name}.${field.name}(${arg.name}) is ${String(arg.type)} here but ${String(refArg.type)} in the reference`,
            );
          }
        }
      }
      const refInterfaces = new Set(ref.getInterfaces().map((i) => i.name));
      for (const i of type.getInterfaces()) {
        if (!refInterfaces.has(i.name)) problems.push(`${type.name} does not implement ${i.name}`);
      }
    }
    if (isInputObjectType(type) && isInputObjectType(ref)) {
      const refFields = ref.getFields();
      for (const field of Object.values(type.getFields())) {
        const refField = refFields[field.name];
        if (!refField) problems.push(`input field ${type.name}.${field.name} is missing`);
        else if (String(refField.type) !== String(field.type)) {
          problems.push(
            `input field ${type.name}.${field.name} is ${String(field.type)} here but ${String(refField.type)} in the reference`,
          );
        }
      }
    }
  }
  return problems;
}

describe("sandbox schema", () => {
  const sandbox = buildSchema(sandboxTypeDefs);
  const reference = buildSchema(readFileSync(referenceSchemaPath, "utf8"));

  it("is a subset of the platform's real schema", () => {
    expect(subsetProblems(sandbox, reference)).toEqual([]);
  });

  it("the check catches invented fields, wrong types, missing enum values and wrong kinds", () => {
    const broken = buildSchema(`
      enum HireActiveStatus { ACTIVE SLEEPING }
      input DateRangeInput { from: String }
      type Hire { id: ID! shoeSize: Int }
      type Contract { id: ID! rate(precision: Int): Float }
      type Invoice { id: ID! }
      interface Company { id: ID! }
      type Query { hire(id: ID): Hire invoice(number: String!): Invoice comp: Company }
    `);
    const problems = subsetProblems(broken, reference);
    expect(problems).toEqual(
      expect.arrayContaining([
        "enum value HireActiveStatus.SLEEPING is missing",
        "input field DateRangeInput.from is String here but Date in the reference",
        "field Hire.shoeSize is missing",
        "argument Contract.rate(precision) is missing",
        "type Company is interface here but object in the reference",
        "argument Query.hire(id) is ID here but ID! in the reference",
        "field Query.comp is missing",
      ]),
    );
    expect(problems).toHaveLength(7);
  });
});
