// The one table of which tool makes which change (src/tools/platform/mutation-tools.generated.ts,
// generated from the tools' imports) holds every mutation the client sends, each with a tool that
// can send it: no mutation is left without a tool, and no tool is named for one it cannot send.
import { describe, expect, it } from "vitest";
import {
  mappedMutations,
  toolForMutation,
  whoMakes,
} from "../../src/tools/platform/mutation-tools.js";
import { tools } from "../../src/tools/registry.js";
import { allOperations } from "../helpers/all-operations.js";
import { fileOf, operationsOf, rootFields } from "../helpers/tool-operations.js";

/** Each mutation operation's constant name and the root fields its document changes. */
const sent = Object.entries(allOperations)
  .filter(([, op]) => op.type === "mutation")
  .map(([constant, op]) => ({ constant, operation: op, fields: rootFields(op) }));

/**
 * Each tool with the operations its module, and the tool modules it imports, can send; the
 * discovery proxies run other tools and send nothing of their own.
 */
const sendable = tools
  .filter((t) => t.toolset !== "discovery")
  .map((t) => ({ name: t.name, operations: operationsOf(fileOf(t)) }));

describe("which tool makes which change", () => {
  it("maps every mutation the client sends to a tool that can send it", () => {
    expect(sent.length).toBeGreaterThan(0);
    for (const { constant, operation, fields } of sent) {
      const senders = sendable.filter((t) => t.operations.has(operation)).map((t) => t.name);
      expect(senders.length, constant).toBeGreaterThan(0);
      for (const field of fields)
        expect(senders, `${constant}: ${field}`).toContain(toolForMutation(field));
    }
  });

  it("names only mutations the client sends and tools the registry has", () => {
    const fields = new Set(sent.flatMap((s) => s.fields));
    for (const field of mappedMutations()) {
      expect(fields.has(field), field).toBe(true);
      expect(tools.map((t) => t.name)).toContain(toolForMutation(field));
    }
  });

  it("says plainly when no tool makes a change, and where a person makes it", () => {
    expect(toolForMutation("deletePaymentRequest")).toBeUndefined();
    expect(toolForMutation("constructor")).toBeUndefined();
    expect(whoMakes("deletePaymentRequest")).toBe(
      "no tool of this server makes deletePaymentRequest; a person makes that change in the platform's web app",
    );
    expect(whoMakes("updatePaymentRequest")).toBe(
      "this server's update_payment_request tool makes updatePaymentRequest, with its checks, and the person's confirmation where the change needs one",
    );
    expect(toolForMutation("updateTrustedContact")).toBe("update_talent_contact");
    // A delivery retry is made by manage_webhooks (the live toolset).
    expect(toolForMutation("retryWebhookEvent")).toBe("manage_webhooks");
    expect(whoMakes("cancelHire")).toBe(
      "this server's cancel_hire tool makes cancelHire, with its checks, and the person's confirmation where the change needs one",
    );
  });

  it("says how to reach a tool not listed, and that one turned off is off, without naming it", () => {
    const reach = (standing: "listed" | "unlisted" | "off") => ({
      standing: () => standing,
      readOnly: () => false,
      unlisted: [],
      show: async () => false,
    });
    expect(whoMakes("updatePaymentRequest", reach("unlisted"))).toBe(
      "this server's update_payment_request tool makes updatePaymentRequest, with its checks, and the person's confirmation where the change needs one (not in your tool list: call it through run_write_tool; find_tools shows its arguments)",
    );
    const off = whoMakes("updatePaymentRequest", reach("off"));
    expect(off).toBe(
      "whoever runs this server turned off its tool that makes updatePaymentRequest; a person can make that change in the platform's web app",
    );
    expect(off).not.toContain("update_payment_request");
  });
});
