// The one table of which tool makes which change (src/tools/platform/mutation-tools.generated.ts,
// generated from the tools' imports) holds every mutation the client sends, each with the tool
// whose file names it: checked here a second way, by the tool files' text.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Kind, parse } from "graphql";
import { describe, expect, it } from "vitest";
import {
  mappedMutations,
  toolForMutation,
  whoMakes,
} from "../../src/tools/platform/mutation-tools.js";
import { tools } from "../../src/tools/registry.js";
import { allOperations } from "../helpers/all-operations.js";

/** Each mutation operation's constant name and the root fields its document changes. */
const sent = Object.entries(allOperations)
  .filter(([, op]) => op.type === "mutation")
  .map(([constant, op]) => {
    const doc = parse(op.document);
    const fields = doc.definitions.flatMap((d) =>
      d.kind === Kind.OPERATION_DEFINITION
        ? d.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []))
        : [],
    );
    return { constant, fields };
  });

/** The tool files (src/tools/<toolset>/*.ts) and the tool name each defines. */
function toolFiles(): { name: string; source: string }[] {
  const root = join(import.meta.dirname, "../../src/tools");
  const found: { name: string; source: string }[] = [];
  for (const dir of readdirSync(root, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const file of readdirSync(join(root, dir.name))) {
      const source = readFileSync(join(root, dir.name, file), "utf8");
      const name =
        /const TOOL = "([a-z_]+)"/.exec(source)?.[1] ?? /name: "([a-z_]+)"/.exec(source)?.[1];
      if (name && tools.some((t) => t.name === name)) found.push({ name, source });
    }
  }
  return found;
}

describe("which tool makes which change", () => {
  it("maps every mutation the client sends to the tool whose file sends it", () => {
    expect(sent.length).toBeGreaterThan(0);
    const files = toolFiles();
    for (const { constant, fields } of sent) {
      const senders = files.filter((f) => f.source.includes(constant)).map((f) => f.name);
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
