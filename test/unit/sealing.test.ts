// A form's requestState: sealed with AES-256-GCM, so a client can neither read nor alter it, and it
// opens only with the key, under its own name, until it expires.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openRequestState, seal, sealRequestState } from "../../src/state/sealing.js";
import { encryptionKeyFrom, sealingKeyFor } from "../../src/state/sealing-key.js";

const NOW = Date.parse("2026-11-22T10:00:00Z");

describe("a sealed requestState (MCP 2026-07-28 mrtr: integrity-protect requestState)", () => {
  const key = randomBytes(32);
  const state = { expiresAt: NOW + 60_000, tool: "terminate_hire", identity: "someone" };

  it("opens with its key until it expires, and shows nothing of what it holds", () => {
    const sealed = sealRequestState(key, state);
    expect(sealed).not.toContain("terminate_hire");
    expect(Buffer.from(sealed.split(".")[1] ?? "", "base64url").toString()).not.toContain(
      "someone",
    );
    expect(openRequestState(key, sealed, NOW)).toEqual(state);
    expect(openRequestState(key, sealed, NOW + 60_000)).toBeUndefined();
  });

  it("does not open with another key, altered, or when sealed under another name", () => {
    const sealed = sealRequestState(key, state);
    expect(openRequestState(randomBytes(32), sealed, NOW)).toBeUndefined();
    const at = sealed.length - 3;
    const altered = `${sealed.slice(0, at)}${sealed[at] === "A" ? "B" : "A"}${sealed.slice(at + 1)}`;
    expect(openRequestState(key, altered, NOW)).toBeUndefined();
    // A stored sign-in record sealed with the same key is not a requestState.
    expect(openRequestState(key, seal(key, "oauth:grant:1", JSON.stringify(state)), NOW)).toBe(
      undefined,
    );
  });

  it("uses WORKFORCE_ENCRYPTION_KEY when set, else one random key for the process", () => {
    const configured = randomBytes(32).toString("base64");
    expect(sealingKeyFor(configured).equals(encryptionKeyFrom(configured))).toBe(true);
    const own = sealingKeyFor(undefined);
    expect(own).toHaveLength(32);
    expect(sealingKeyFor(undefined)).toBe(own);
  });
});
