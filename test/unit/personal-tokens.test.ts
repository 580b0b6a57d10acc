// Checking the platform tokens HTTP clients bring (token passthrough), with a scripted platform and
// an injected clock: what is remembered and for how long, and how many checks an address may cause.
import { describe, expect, it } from "vitest";
import {
  ACCEPTED_FOR_MS,
  CACHE_SIZE,
  PersonalTokens,
  REFUSED_FOR_MS,
} from "../../src/auth/remote/personal-tokens.js";
import { AuthenticationError, NetworkError } from "../../src/client/errors.js";
import { createLogger } from "../../src/logger.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import { SharedStateUnavailableError, type StateStore } from "../../src/state/store.js";

const ALICE = { id: "u1", name: "Alice", email: "alice@example.com" };

function setup(options: { checksPerWindow?: number; state?: StateStore } = {}) {
  let now = 1_000_000;
  const asked: string[] = [];
  const lines: string[] = [];
  let platformDown = false;
  const tokens = new PersonalTokens({
    apiUrl: "https://api.example.com",
    timeoutMs: 1_000,
    state: options.state ?? createMemoryStore(() => now),
    logger: createLogger("debug", (line) => void lines.push(line)),
    now: () => now,
    checksPerWindow: options.checksPerWindow ?? 1_000_000,
    windowMs: 60_000,
    whoIs: async (token) => {
      asked.push(token);
      if (platformDown) throw new NetworkError("the platform could not be reached");
      if (token.startsWith("good")) return ALICE;
      throw new AuthenticationError("refused");
    },
  });
  return {
    tokens,
    asked,
    lines,
    advance: (ms: number) => {
      now += ms;
    },
    down: (value: boolean) => {
      platformDown = value;
    },
  };
}

describe("MCP security best practices (token passthrough): checking a client's own platform token", () => {
  it("asks the platform once and remembers an accepted token for a few minutes", async () => {
    const t = setup();
    expect(await t.tokens.check("good-1", "10.0.0.1")).toEqual({ ok: true, identity: ALICE });
    expect(await t.tokens.check("good-1", "10.0.0.2")).toEqual({ ok: true, identity: ALICE });
    t.advance(ACCEPTED_FOR_MS);
    await t.tokens.check("good-1", "10.0.0.1");
    expect(t.asked).toEqual(["good-1"]);
    t.advance(1);
    await t.tokens.check("good-1", "10.0.0.1");
    expect(t.asked).toEqual(["good-1", "good-1"]);
  });

  it("remembers a refused token too, and refuses an empty one without asking", async () => {
    const t = setup();
    expect(await t.tokens.check("bad-1", "10.0.0.1")).toEqual({ ok: false, reason: "refused" });
    expect(await t.tokens.check("bad-1", "10.0.0.1")).toEqual({ ok: false, reason: "refused" });
    expect(await t.tokens.check("", "10.0.0.1")).toEqual({ ok: false, reason: "refused" });
    expect(t.asked).toEqual(["bad-1"]);
    t.advance(REFUSED_FOR_MS);
    await t.tokens.check("bad-1", "10.0.0.1");
    expect(t.asked).toEqual(["bad-1"]);
    t.advance(1);
    await t.tokens.check("bad-1", "10.0.0.1");
    expect(t.asked).toEqual(["bad-1", "bad-1"]);
  });

  it("asks once for a burst of requests with the same new token", async () => {
    const t = setup();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => t.tokens.check("good-2", "10.0.0.1")),
    );
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(t.asked).toEqual(["good-2"]);
  });

  it("limits checks of unknown tokens per client address, with a Retry-After, and forgets them after the window", async () => {
    const t = setup({ checksPerWindow: 5 });
    const answers = [];
    for (let i = 0; i < 200; i++) answers.push(await t.tokens.check(`made-up-${i}`, "10.0.0.1"));
    expect(t.asked).toHaveLength(5);
    const limited = answers.filter((a) => !a.ok && a.reason === "rate-limited");
    expect(limited).toHaveLength(195);
    expect(limited[0]).toEqual({ ok: false, reason: "rate-limited", retryAfterSeconds: 60 });
    // Another address has its own limit; a token already known costs no check at all.
    expect((await t.tokens.check("good-3", "10.0.0.2")).ok).toBe(true);
    expect((await t.tokens.check("good-3", "10.0.0.1")).ok).toBe(true);
    expect(t.asked).toHaveLength(6);
    t.advance(60_000);
    expect((await t.tokens.check("good-4", "10.0.0.1")).ok).toBe(true);
  });

  it("keeps a bounded memory: a flood of refused tokens does not push out accepted ones", async () => {
    const t = setup();
    await t.tokens.check("good-5", "10.0.0.1");
    for (let i = 0; i < CACHE_SIZE + 50; i++) await t.tokens.check(`bad-${i}`, "10.0.0.1");
    const before = t.asked.length;
    expect((await t.tokens.check("good-5", "10.0.0.1")).ok).toBe(true);
    // The oldest refusals were forgotten (bounded), the accepted token was not.
    await t.tokens.check("bad-0", "10.0.0.1");
    expect(t.asked.slice(before)).toEqual(["bad-0"]);
  });

  it("remembers nothing when the platform cannot answer, and never logs the token", async () => {
    const t = setup();
    t.down(true);
    const answer = await t.tokens.check("good-6", "10.0.0.1");
    expect(answer).toMatchObject({ ok: false, reason: "unavailable" });
    t.down(false);
    expect((await t.tokens.check("good-6", "10.0.0.1")).ok).toBe(true);
    expect(t.asked).toEqual(["good-6", "good-6"]);
    expect(t.lines.join("")).toMatch(/Could not check a client's platform token/);
    expect(t.lines.join("")).not.toContain("good-6");
  });

  it("answers 'unavailable' when the shared state cannot count the check, asking nothing", async () => {
    const broken: StateStore = {
      ...createMemoryStore(),
      claimWindowSlot: async () => {
        throw new SharedStateUnavailableError("claim a rate-limit slot");
      },
    };
    const t = setup({ state: broken });
    expect(await t.tokens.check("good-7", "10.0.0.1")).toMatchObject({
      ok: false,
      reason: "unavailable",
      message: expect.stringMatching(/shared state/),
    });
    expect(t.asked).toEqual([]);
  });
});
