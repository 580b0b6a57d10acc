// The sandbox's updatePaymentRequest and updateTrustedContact, spoken to over HTTP as a client
// would: what they change, what a later read shows, and the platform's refusals.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentsState } from "../../src/sandbox/domains/payments/store.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { gql, onlyError, TODAY } from "./helpers.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ today: TODAY, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

const UPDATE_REQUEST = `mutation($input: UpdatePaymentRequestInput!) {
  updatePaymentRequest(input: $input) { id purchaseOrderNumber comments }
}`;
const UPDATE_CONTACT = `mutation($input: UpdateTrustedContactInput!) {
  updateTrustedContact(input: $input) {
    id customFieldValues { customField { id } displayValue }
  }
}`;

function seededWhere(pick: (r: { status: string; paidAt: string | null }) => boolean) {
  let id = "";
  sandbox.edit((data) => {
    id = paymentsState(data).seeded.find(pick)?.id ?? "";
  });
  return id;
}

describe("updatePaymentRequest", () => {
  it("sets what is given, leaves the rest, and a later read shows it", async () => {
    const r = await gql<{ updatePaymentRequest: Record<string, string | null> }>(
      sandbox,
      UPDATE_REQUEST,
      { variables: { input: { id: "pr_0016", purchaseOrderNumber: "  PO-77  " } } },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data?.updatePaymentRequest).toEqual({
      id: "pr_0016",
      purchaseOrderNumber: "PO-77",
      comments: null,
    });
    const read = await gql<{ paymentRequest: Record<string, string | null> }>(
      sandbox,
      '{ paymentRequest(id: "pr_0016") { purchaseOrderNumber comments } }',
    );
    expect(read.data?.paymentRequest).toEqual({ purchaseOrderNumber: "PO-77", comments: null });
  });

  it("refuses cancelled, rejected and paid requests, unknown ids, long values and other accounts", async () => {
    for (const [id, message] of [
      [
        seededWhere((r) => r.status === "CANCELLED"),
        "A cancelled payment request cannot be updated.",
      ],
      [
        seededWhere((r) => r.status === "REJECTED"),
        "A rejected payment request cannot be updated.",
      ],
      [seededWhere((r) => r.paidAt !== null), "A paid payment request cannot be updated."],
      ["pr_9999", "The selected input.id is invalid."],
    ] as const) {
      const r = await gql(sandbox, UPDATE_REQUEST, {
        variables: { input: { id, comments: "x" } },
      });
      expect(onlyError(r).extensions.validation?.["input.id"], id).toEqual([message]);
    }
    const long = await gql(sandbox, UPDATE_REQUEST, {
      variables: { input: { id: "pr_0016", purchaseOrderNumber: "P".repeat(256) } },
    });
    expect(onlyError(long).extensions.validation?.["input.purchaseOrderNumber"]).toBeDefined();
    const limited = await gql(sandbox, UPDATE_REQUEST, {
      token: "limited",
      variables: { input: { id: "pr_0016", comments: "x" } },
    });
    expect(onlyError(limited).message).toBe("You are not authorized to perform this action.");
  });
});

describe("updateTrustedContact", () => {
  const tier = { singleSelect: { slug: "talent-tier", value: "any" } };

  it("sets, replaces and deletes custom field values, leaving the others", async () => {
    const fields = await gql<{
      customFields: {
        data: { id: string; slug: string; customFieldOptions: { id: string; value: string }[] }[];
      };
    }>(
      sandbox,
      '{ customFields(accounts: ["cmp_nordlys"], appliesTo: [TRUSTED_CONTACT]) { data { id slug customFieldOptions { id value } } } }',
    );
    const byslug = Object.fromEntries(
      (fields.data?.customFields.data ?? []).map((f) => [f.slug, f]),
    );
    const trial = byslug["talent-tier"]?.customFieldOptions.find((o) => o.value === "Trial")?.id;
    const notice = byslug["notice-period"]?.id;
    const set = await gql<{
      updateTrustedContact: {
        customFieldValues: { customField: { id: string }; displayValue: string }[];
      };
    }>(sandbox, UPDATE_CONTACT, {
      variables: {
        input: {
          id: "tc_001",
          customFieldValues: [
            { singleSelect: { slug: "talent-tier", value: trial } },
            { freeText: { id: notice, value: "One month" } },
          ],
        },
      },
    });
    expect(set.errors).toBeUndefined();
    expect(set.data?.updateTrustedContact.customFieldValues.map((v) => v.displayValue)).toEqual([
      "Trial",
      "One month",
    ]);
    const cleared = await gql<{
      updateTrustedContact: { customFieldValues: { displayValue: string }[] };
    }>(sandbox, UPDATE_CONTACT, {
      variables: {
        input: { id: "tc_001", customFieldValues: [{ freeText: { id: notice, value: null } }] },
      },
    });
    expect(cleared.data?.updateTrustedContact.customFieldValues.map((v) => v.displayValue)).toEqual(
      ["Trial"],
    );
  });

  it("refuses unknown fields and options, a value of the wrong type, unknown contacts and accounts that may not", async () => {
    const wrong = await gql(sandbox, UPDATE_CONTACT, {
      variables: {
        input: {
          id: "tc_001",
          customFieldValues: [
            { singleSelect: { slug: "no-such-field", value: "x" } },
            { freeText: { slug: "talent-tier", value: "Gold" } },
            { singleSelect: { slug: "talent-tier", value: "cfo_999" } },
          ],
        },
      },
    });
    expect(onlyError(wrong).extensions.validation).toEqual({
      "input.customFieldValues.0.singleSelect.id": ["The selected custom field is invalid."],
      "input.customFieldValues.1.freeText": [
        "The custom field Talent tier is a SINGLE_SELECT field.",
      ],
      "input.customFieldValues.2.singleSelect.value": [
        "The selected option for Talent tier is invalid.",
      ],
    });
    const unknown = await gql(sandbox, UPDATE_CONTACT, {
      variables: { input: { id: "tc_999", customFieldValues: [tier] } },
    });
    expect(onlyError(unknown).extensions.validation?.["input.id"]).toEqual([
      "The selected input.id is invalid.",
    ]);
    const limited = await gql(sandbox, UPDATE_CONTACT, {
      token: "limited",
      variables: { input: { id: "tc_001", customFieldValues: [] } },
    });
    expect(onlyError(limited).message).toBe("You are not authorized to perform this action.");
  });
});
