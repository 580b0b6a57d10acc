import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NetworkError } from "../../src/client/errors.js";
import type { Config } from "../../src/config.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import { SharedStateUnavailableError, type StateStore } from "../../src/state/store.js";
import { askForConfirmation, redeemConfirmation, sendOnce } from "../../src/tools/confirmation.js";
import type { ToolContext } from "../../src/tools/define-tool.js";

function context(confirm: Config["confirm"] = "token", store = createMemoryStore()): ToolContext {
  return {
    config: { confirm } as Config,
    store,
    identity: "someone",
  } as unknown as ToolContext;
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
    await expect(
      redeemConfirmation(ctx, "terminate_hire", answer.token, { hireId: "hire_003" }),
    ).rejects.toThrow(/issued by cancel_hire, not terminate_hire/);
    await expect(
      redeemConfirmation(ctx, "cancel_hire", answer.token, { hireId: "hire_003" }),
    ).rejects.toThrow(/unknown, expired or already used/);
  });

  it("does not depend on the order of arguments or on nested key order", async () => {
    const ctx = context();
    const answer = await askForConfirmation(ctx, request({ a: 1, b: { x: 1, y: [1, 2] } }));
    if (answer.kind !== "preview") throw new Error("expected a preview");
    await expect(
      redeemConfirmation(ctx, "cancel_hire", answer.token, { b: { y: [1, 2], x: 1 }, a: 1 }),
    ).resolves.toBeUndefined();
  });

  it("is never issued when only a form may confirm", async () => {
    await expect(askForConfirmation(context("elicitation"), request({}))).rejects.toThrow(
      /cannot show forms/,
    );
    await expect(
      redeemConfirmation(context("elicitation"), "cancel_hire", "x", {}),
    ).rejects.toThrow(/only from the person's form/);
  });
});

describe("confirmation tokens in the state store", () => {
  it("are kept under a digest, with only digests of the arguments, and taken once", async () => {
    const store = createMemoryStore();
    const written: string[] = [];
    const spy: StateStore = {
      ...store,
      set: async (key, value, ttl) => {
        written.push(key, value);
        await store.set(key, value, ttl);
      },
    };
    const ctx = context("token", spy);
    const answer = await askForConfirmation(
      ctx,
      request({ hireId: "hire_003", reason: "Moved to Oslo" }),
    );
    if (answer.kind !== "preview") throw new Error("expected a preview");
    const text = written.join("\n");
    expect(text).not.toContain(answer.token);
    expect(text).not.toContain("Moved to Oslo");
    expect(text).not.toContain("hire_003");
    await redeemConfirmation(ctx, "cancel_hire", answer.token, {
      hireId: "hire_003",
      reason: "Moved to Oslo",
    });
    await expect(
      redeemConfirmation(ctx, "cancel_hire", answer.token, {
        hireId: "hire_003",
        reason: "Moved to Oslo",
      }),
    ).rejects.toThrow(/already used/);
  });

  it("are bound to the identity that was shown the preview", async () => {
    const store = createMemoryStore();
    const mine = context("token", store);
    const answer = await askForConfirmation(mine, request({ hireId: "hire_003" }));
    if (answer.kind !== "preview") throw new Error("expected a preview");
    const theirs = { ...mine, identity: "someone else" } as ToolContext;
    await expect(
      redeemConfirmation(theirs, "cancel_hire", answer.token, { hireId: "hire_003" }),
    ).rejects.toThrow(/unknown/);
    // Refused for another identity, the token still works for its own.
    await expect(
      redeemConfirmation(mine, "cancel_hire", answer.token, { hireId: "hire_003" }),
    ).resolves.toBeUndefined();
  });

  it("a store that cannot be reached refuses the change, and nothing is sent", async () => {
    const down: StateStore = {
      ...createMemoryStore(),
      take: async () => {
        throw new SharedStateUnavailableError("read its shared state");
      },
    };
    await expect(
      redeemConfirmation(context("token", down), "cancel_hire", "token", {}),
    ).rejects.toBeInstanceOf(SharedStateUnavailableError);
  });

  it("every caller awaits redeemConfirmation and askForConfirmation: a refusal is a rejection", () => {
    const files = readdirSync("src/tools", { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => join("src/tools", f));
    const unawaited = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
        .filter(({ line }) => /\b(redeemConfirmation|askForConfirmation)\(/.test(line))
        .filter(
          ({ line }) =>
            !/\bawait\s+(redeemConfirmation|askForConfirmation)\(|function\s/.test(line),
        )
        .filter(({ line }) => !/^\s*(\*|\/\/|import|export \{)/.test(line))
        .map(({ at }) => at),
    );
    expect(unawaited).toEqual([]);
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
