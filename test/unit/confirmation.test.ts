import { describe, expect, it } from "vitest";
import { NetworkError } from "../../src/client/errors.js";
import type { Config } from "../../src/config.js";
import { askForConfirmation, redeemConfirmation, sendOnce } from "../../src/tools/confirmation.js";
import type { ToolContext } from "../../src/tools/define-tool.js";

function context(confirm: Config["confirm"] = "token"): ToolContext {
  return { config: { confirm } as Config, state: new Map() } as unknown as ToolContext;
}
const request = (args: Record<string, unknown>) => ({
  tool: "cancel_hire",
  args,
  lines: ["Cancel hire hire_003."],
  consequence: "This cannot be undone.",
  question: "Cancel this hire?",
});

describe("the confirmation token", () => {
  it("is refused for another tool, and used up by the refusal", async () => {
    const ctx = context();
    const answer = await askForConfirmation(ctx, request({ hireId: "hire_003" }));
    if (answer.kind !== "preview") throw new Error("expected a preview");
    expect(() =>
      redeemConfirmation(ctx, "terminate_hire", answer.token, { hireId: "hire_003" }),
    ).toThrow(/issued by cancel_hire, not terminate_hire/);
    expect(() =>
      redeemConfirmation(ctx, "cancel_hire", answer.token, { hireId: "hire_003" }),
    ).toThrow(/unknown, expired or already used/);
  });

  it("does not depend on the order of arguments or on nested key order", async () => {
    const ctx = context();
    const answer = await askForConfirmation(ctx, request({ a: 1, b: { x: 1, y: [1, 2] } }));
    if (answer.kind !== "preview") throw new Error("expected a preview");
    expect(() =>
      redeemConfirmation(ctx, "cancel_hire", answer.token, { b: { y: [1, 2], x: 1 }, a: 1 }),
    ).not.toThrow();
  });

  it("is never issued when only a form may confirm", async () => {
    await expect(askForConfirmation(context("elicitation"), request({}))).rejects.toThrow(
      /cannot show forms/,
    );
    expect(() => redeemConfirmation(context("elicitation"), "cancel_hire", "x", {})).toThrow(
      /only from the person's form/,
    );
  });
});

describe("sendOnce", () => {
  it("reads back instead of sending again when the outcome is unknown", async () => {
    let sent = 0;
    const lost = new NetworkError("connection reset after sending", {
      operation: "CancelHire",
      outcomeUnknown: true,
    });
    const outcome = await sendOnce(
      async () => {
        sent++;
        throw lost;
      },
      async () => "CANCELLED",
    );
    expect(sent).toBe(1);
    expect(outcome).toEqual({ kind: "read-back", state: "CANCELLED" });
  });
});
