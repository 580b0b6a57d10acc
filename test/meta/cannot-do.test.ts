// What the platform's public API cannot do is said where the assistant looks: in the server
// instructions and in the descriptions of the tools a person would ask. The claims are checked
// against the real schema, so this fails when the platform gains such a mutation.
import { buildSchema, isInputObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";
import { readReference } from "../helpers/reference.js";

describe("what the public API cannot do", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("holds for the real schema: no mutation changes a contract, none decides a payment request", () => {
    const schema = buildSchema(readReference("worksome.graphql"));
    const mutations = Object.keys(schema.getMutationType()?.getFields() ?? {});
    expect(mutations.length).toBeGreaterThan(50);
    expect(mutations.filter((name) => /contract/i.test(name))).toEqual([]);
    expect(mutations.filter((name) => /paymentRequest/i.test(name)).sort()).toEqual([
      "createPaymentRequest",
      "deletePaymentRequest",
      "updatePaymentRequest",
    ]);
    const update = schema.getType("UpdatePaymentRequestInput");
    if (!isInputObjectType(update)) throw new Error("UpdatePaymentRequestInput is missing");
    expect(Object.keys(update.getFields())).not.toContain("status");
  });

  it("is in the server instructions, with where a person does it instead", () => {
    const instructions = h.client.getInstructions() ?? "";
    expect(instructions).toContain("cannot change a contract's rate or dates (so no extension)");
    expect(instructions).toContain("cannot approve or reject payment requests");
    expect(instructions).toContain("a person does them in the platform's web app");
  });

  it("is in the descriptions of get_contract and list_payment_requests", async () => {
    const { tools } = await h.client.listTools();
    const description = (name: string) => tools.find((t) => t.name === name)?.description ?? "";
    expect(description("get_contract")).toContain(
      "The API cannot change rates or dates (extend); a person does, in the web app.",
    );
    expect(description("list_payment_requests")).toContain(
      "The API cannot approve them: a person does, in the web app.",
    );
  });
});
