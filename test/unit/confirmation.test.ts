// The confirmation module on its own: what a token binds (tool, identity, arguments and the platform
// facts the preview showed), how a form answer is read, and what a lost answer leads to.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NetworkError, ValidationError } from "../../src/client/errors.js";
import type { Config } from "../../src/config.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import { openRequestState } from "../../src/state/sealing.js";
import { SharedStateUnavailableError, type StateStore } from "../../src/state/store.js";
import {
  type ChangeRequest,
  confirmChange,
  confirmedWrite,
  type Fact,
  OutcomeStillUnknownError,
  READ_BACK_DELAYS_MS,
  sendWrite,
  UNKNOWN_OUTCOME_HOLD_MS,
} from "../../src/tools/confirmation.js";
import type {
  ElicitResult,
  FormAnswer,
  FormReply,
  ToolContext,
} from "../../src/tools/define-tool.js";
import { DECLINING_ANSWERS } from "../helpers/tool-calls.js";

interface Waits {
  slept: number[];
  progress: string[];
}

function context(
  options: {
    confirm?: Config["confirm"];
    store?: StateStore;
    forms?: boolean;
    identity?: string;
  } = {},
): ToolContext & Waits {
  const slept: number[] = [];
  const progress: string[] = [];
  let now = Date.parse("2026-11-26T10:00:00Z");
  const store = options.store ?? createMemoryStore();
  return {
    config: { confirm: options.confirm ?? "token", maxAnswerBytes: 131072 } as Config,
    store,
    confirmations: store,
    identity: async () => options.identity ?? "someone",
    signal: new AbortController().signal,
    forms: options.forms ?? false,
    sealingKey: randomBytes(32),
    logger: { warning: () => {} },
    clock: {
      now: () => now,
      sleep: async (ms: number) => {
        slept.push(ms);
        now += ms;
      },
    },
    reportProgress: async (_p: number, _t?: number, message?: string) => {
      progress.push(message ?? "");
    },
    slept,
    progress,
  } as unknown as ToolContext & Waits;
}

/** A change whose platform facts are whatever `facts` holds when propose() runs. */
function change(
  args: Record<string, unknown>,
  facts: Record<string, Fact>,
  token?: string,
): ChangeRequest<null> & { proposed: number } {
  const request = {
    tool: "cancel_hire",
    args,
    token,
    target: "hire hire_003",
    proposed: 0,
    async propose() {
      request.proposed++;
      return {
        preview: null,
        lines: ["Cancel hire hire_003."],
        consequence: "This cannot be undone.",
        question: "Cancel this hire?",
        facts: { ...facts },
      };
    },
  };
  return request;
}

async function previewToken(ctx: ToolContext, args: Record<string, unknown>, facts = {}) {
  const d = await confirmChange(ctx, change(args, facts));
  if (d.kind !== "preview") throw new Error("expected a preview");
  return d.token;
}

describe("the confirmation token", () => {
  it("is refused for another tool, and used up by the refusal", async () => {
    const ctx = context();
    const token = await previewToken(ctx, { hireId: "hire_003" });
    await expect(
      confirmChange(ctx, { ...change({ hireId: "hire_003" }, {}, token), tool: "terminate_hire" }),
    ).rejects.toThrow(/issued by cancel_hire, not terminate_hire/);
    await expect(confirmChange(ctx, change({ hireId: "hire_003" }, {}, token))).rejects.toThrow(
      /unknown, expired or already used/,
    );
  });

  it("does not depend on the order of arguments or on nested key order", async () => {
    const ctx = context();
    const token = await previewToken(ctx, { a: 1, b: { x: 1, y: [1, 2] } });
    const d = await confirmChange(ctx, change({ b: { y: [1, 2], x: 1 }, a: 1 }, {}, token));
    expect(d.kind).toBe("confirmed");
  });

  it("is refused for other arguments, naming them", async () => {
    const ctx = context();
    const token = await previewToken(ctx, { hireId: "hire_003", message: "Sorry" });
    await expect(
      confirmChange(ctx, change({ hireId: "hire_003", message: "Sorry!" }, {}, token)),
    ).rejects.toThrow(/other arguments \(different now: message\)/);
  });

  it("is never issued when only a form may confirm", async () => {
    await expect(
      confirmChange(context({ confirm: "elicitation" }), change({}, {})),
    ).rejects.toThrow(/cannot show forms/);
    await expect(
      confirmChange(context({ confirm: "elicitation" }), change({}, {}, "x")),
    ).rejects.toThrow(/only from the person's form/);
  });

  it("reads the platform again and confirms only when every fact is as previewed", async () => {
    const ctx = context();
    const facts: Record<string, Fact> = { rate: "DKK 820.00", worker: "Ana" };
    const token = await previewToken(ctx, { bid: "bid_1" }, facts);
    const request = change({ bid: "bid_1" }, facts, token);
    const d = await confirmChange(ctx, request);
    expect(d.kind).toBe("confirmed");
    expect(request.proposed).toBe(1);
  });

  it("sends nothing when a fact changed, names it, and issues a fresh preview", async () => {
    const ctx = context();
    const token = await previewToken(ctx, { bid: "bid_1" }, { rate: "DKK 820.00", worker: "Ana" });
    const d = await confirmChange(
      ctx,
      change({ bid: "bid_1" }, { rate: "DKK 8,200.00", worker: "Ana" }, token),
    );
    if (d.kind !== "changed") throw new Error(`expected changed, got ${d.kind}`);
    expect(d.changed).toEqual(["rate"]);
    expect(d.text).toMatch(
      /^Nothing was sent: since the preview, this changed on the platform: rate \(now "DKK 8,200.00"\)\./,
    );
    // The fresh preview follows, with a fresh token bound to the new facts.
    expect(d.text).toContain(`confirmationToken: ${d.token}`);
    expect(d.token).not.toBe(token);
    const again = await confirmChange(
      ctx,
      change({ bid: "bid_1" }, { rate: "DKK 8,200.00", worker: "Ana" }, d.token),
    );
    expect(again.kind).toBe("confirmed");
  });

  it("shows every fact whole, however long", async () => {
    const ctx = context();
    const email = `${"a".repeat(64)}@${"sub".repeat(20)}.${"b".repeat(60)}.${"c".repeat(60)}.example.com`;
    const token = await previewToken(ctx, {}, { recipient: "x@example.com" });
    const d = await confirmChange(ctx, change({}, { recipient: email }, token));
    if (d.kind !== "changed") throw new Error("expected changed");
    expect(email.length).toBeGreaterThan(200);
    expect(d.text).toContain(JSON.stringify(email));
  });
});

describe("confirmation tokens in the state store", () => {
  it("are kept under a digest, with only digests of the arguments and facts, and taken once", async () => {
    const store = createMemoryStore();
    const written: string[] = [];
    const spy: StateStore = {
      ...store,
      set: async (key, value, ttl) => {
        written.push(key, value);
        await store.set(key, value, ttl);
      },
    };
    const ctx = context({ store: spy });
    const args = { hireId: "hire_003", reason: "Moved to Oslo" };
    const facts = { worker: "Ana Costa", email: "ana@example.com" };
    const token = await previewToken(ctx, args, facts);
    const text = written.join("\n");
    for (const secret of [token, "Moved to Oslo", "hire_003", "Ana Costa", "ana@example.com"]) {
      expect(text).not.toContain(secret);
    }
    await confirmChange(ctx, change(args, facts, token));
    await expect(confirmChange(ctx, change(args, facts, token))).rejects.toThrow(/already used/);
  });

  it("are bound to the identity that was shown the preview", async () => {
    const store = createMemoryStore();
    const mine = context({ store });
    const token = await previewToken(mine, { hireId: "hire_003" });
    const theirs = context({ store, identity: "someone else" });
    await expect(confirmChange(theirs, change({ hireId: "hire_003" }, {}, token))).rejects.toThrow(
      /unknown/,
    );
    // Refused for another identity, the token still works for its own.
    const d = await confirmChange(mine, change({ hireId: "hire_003" }, {}, token));
    expect(d.kind).toBe("confirmed");
  });

  it("a store that cannot be reached refuses the change, and nothing is sent", async () => {
    const down: StateStore = {
      ...createMemoryStore(),
      take: async () => {
        throw new SharedStateUnavailableError("read its shared state");
      },
    };
    await expect(
      confirmChange(context({ store: down }), change({}, {}, "token")),
    ).rejects.toBeInstanceOf(SharedStateUnavailableError);
  });

  it("every caller awaits (or returns) confirmChange and sendWrite: a refusal is a rejection", () => {
    const files = readdirSync("src/tools", { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => join("src/tools", f));
    const unawaited = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
        .filter(({ line }) => /\b(confirmChange|sendWrite)\(/.test(line))
        .filter(
          ({ line }) => !/\b(await|return)\s+(confirmChange|sendWrite)\(|function\s/.test(line),
        )
        .filter(({ line }) => !/^\s*(\*|\/\/|import|export \{)/.test(line))
        .map(({ at }) => at),
    );
    expect(unawaited).toEqual([]);
  });
});

describe("the form", () => {
  /** Calls as a client would: each form is answered in turn and the call made again with it. */
  async function throughForms<P>(
    ctx: ToolContext,
    request: ChangeRequest<P>,
    answers: ElicitResult[],
    asked: string[] = [],
  ) {
    let formReply: FormReply | undefined;
    for (;;) {
      const decision = await confirmChange({ ...ctx, formReply }, request);
      if (decision.kind !== "form") return decision;
      const { form } = decision.answer;
      asked.push(form.message);
      const state = openRequestState(ctx.sealingKey, form.requestState, ctx.clock.now());
      formReply = { state, answer: answers.shift() ?? { action: "cancel" } };
    }
  }
  const ticked: ElicitResult = { action: "accept", content: { confirm: true } };

  it("confirms when ticked and the platform still shows what the form showed", async () => {
    const ctx = context({ forms: true });
    const request = change({}, { rate: "DKK 820.00" });
    expect((await throughForms(ctx, request, [ticked])).kind).toBe("confirmed");
    // Read once for the form, once more before sending.
    expect(request.proposed).toBe(2);
  });

  it("is shown again, naming what changed with its old and new value, and sends nothing else", async () => {
    const asked: string[] = [];
    const ctx = context({ forms: true });
    const facts: Record<string, Fact> = { rate: "DKK 820.00" };
    const request = change({}, facts);
    const propose = request.propose;
    request.propose = async () => {
      const p = await propose();
      // Someone changes the rate while the first form is open.
      facts.rate = "DKK 8,200.00";
      return p;
    };
    const d = await throughForms(ctx, request, [ticked, ticked], asked);
    expect(d.kind).toBe("confirmed");
    expect(asked[1]).toMatch(
      /^Nothing was sent: while the form was open, this changed on the platform: rate \(was "DKK 820.00", now "DKK 8,200.00"\)\./,
    );
  });

  it("an answer that does not fit the form changes nothing and says so", async () => {
    const ctx = context({ forms: true });
    const d = await throughForms(ctx, change({}, {}), [{ action: "unreadable" }]);
    expect(d).toMatchObject({
      kind: "declined",
      text: "Not confirmed: the form's answer could not be read; nothing changed.",
    });
  });
});

// Every write tool confirms through confirmedWrite: the three answers that decline are tested here
// once; test/meta/confirmed-writes.test.ts declines one form of each tool's every act.
describe("a declined form, through confirmedWrite", () => {
  const ticked: ElicitResult = { action: "accept", content: { confirm: true } };
  const why = {
    decline: "the person declined",
    cancel: "the person cancelled",
    accept: "the box was left unticked",
  };

  for (const answer of DECLINING_ANSWERS) {
    const because = why[answer.action];
    it(`sends nothing when ${because}, says what stays, and its form cannot be answered again`, async () => {
      const ctx = context({ forms: true });
      const applied: unknown[] = [];
      const write = {
        ...change({ hireId: "hire_003" }, { status: "DRAFT" }),
        check: "get_hire (hireId hire_003)",
        fields: () => ({ hireId: "hire_003" }),
        declined: () => ({ text: "The hire is still DRAFT.", fields: { hireStatus: "DRAFT" } }),
        apply: async (proposal: unknown) => {
          applied.push(proposal);
          return { structured: { status: "cancelled" as const }, text: "Cancelled." };
        },
      };
      const { form } = (await confirmedWrite(ctx, write)) as FormAnswer;
      const state = openRequestState(ctx.sealingKey, form.requestState, ctx.clock.now());
      const declined = await confirmedWrite({ ...ctx, formReply: { state, answer } }, write);
      expect(declined).toEqual({
        structured: { status: "declined", hireId: "hire_003", hireStatus: "DRAFT" },
        text: `Not confirmed (${because}): nothing was changed. The hire is still DRAFT.`,
      });
      // Its state is spent by any answer: the same form answered again with a tick sends nothing.
      await expect(
        confirmedWrite({ ...ctx, formReply: { state, answer: ticked } }, write),
      ).rejects.toThrow("this form's answer was already used");
      expect(applied).toEqual([]);
    });
  }
});

describe("sendWrite", () => {
  const lost = () =>
    new NetworkError("connection reset after sending", {
      operation: "CancelHire",
      outcomeUnknown: true,
    });

  /** A cancellation whose answer is lost and that no read ever shows. */
  const neverShown = () => ({
    tool: "cancel_hire",
    target: "hire hire_003",
    check: "get_hire (hireId hire_003)",
    send: async (): Promise<never> => {
      throw lost();
    },
    readBack: async () => "READY",
    applied: (status: string) => status === "CANCELLED",
  });

  it("reads back with back-off instead of sending again, and succeeds when a read shows it", async () => {
    const ctx = context();
    let sent = 0;
    let reads = 0;
    const outcome = await sendWrite(ctx, {
      tool: "cancel_hire",
      target: "hire hire_003",
      check: "get_hire",
      send: async () => {
        sent++;
        throw lost();
      },
      readBack: async () => (++reads >= 3 ? "CANCELLED" : "READY"),
      applied: (status) => status === "CANCELLED",
    });
    expect(sent).toBe(1);
    expect(outcome).toEqual({ kind: "read-back", state: "CANCELLED" });
    expect(ctx.slept).toEqual(READ_BACK_DELAYS_MS.slice(1, 3));
    expect(ctx.progress[0]).toMatch(/answer was lost; reading back/);
  });

  it("stays UNKNOWN, and held, when the person cancels while it reads back (never 'not sent')", async () => {
    const ctx = context();
    // The person cancels during the wait before the second read.
    const cancelled = new AbortController();
    ctx.clock.sleep = async (_ms: number, signal: AbortSignal) => {
      cancelled.abort(new Error("the client cancelled the call"));
      throw signal.reason;
    };
    const outcome = await sendWrite({ ...ctx, signal: cancelled.signal }, neverShown());
    expect(outcome.kind).toBe("unknown");
    await expect(confirmChange(ctx, change({}, {}))).rejects.toBeInstanceOf(
      OutcomeStillUnknownError,
    );
  });

  it("says the outcome is unknown when no read shows the change, and holds further attempts", async () => {
    const ctx = context();
    const outcome = await sendWrite(ctx, neverShown());
    if (outcome.kind !== "unknown") throw new Error("expected unknown");
    expect(outcome.text).toContain("The outcome is UNKNOWN");
    expect(outcome.text).toContain("Do not send it again: check with get_hire (hireId hire_003)");
    expect(outcome.text).not.toMatch(/try again|safe to/i);
    // Every read was made, within a bounded time.
    expect(ctx.slept).toEqual(READ_BACK_DELAYS_MS.slice(1));
    expect(ctx.slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(20_000);
    const until = Date.parse("2026-11-26T10:00:00Z") + UNKNOWN_OUTCOME_HOLD_MS;
    expect(outcome.until).toBe(new Date(until).toISOString());
    // Another preview of the same change is refused while the outcome is unknown.
    await expect(confirmChange(ctx, change({}, {}))).rejects.toBeInstanceOf(
      OutcomeStillUnknownError,
    );
    // A change to something else is not held back.
    const other = { ...change({}, {}), target: "hire hire_004" };
    expect((await confirmChange(ctx, other)).kind).toBe("preview");
  });

  it("holds another attempt until exactly the end it states, counted from when the send began", async () => {
    const ctx = context();
    const began = ctx.clock.now();
    const outcome = await sendWrite(ctx, neverShown());
    if (outcome.kind !== "unknown") throw new Error("expected unknown");
    expect(outcome.until).toBe(new Date(began + UNKNOWN_OUTCOME_HOLD_MS).toISOString());
    // The read-back took its waits; the hold still ends when it said, not that much later.
    expect(ctx.clock.now()).toBeGreaterThan(began);
    const move = (to: number) => {
      ctx.clock.now = () => to;
    };
    move(began + UNKNOWN_OUTCOME_HOLD_MS - 1);
    await expect(confirmChange(ctx, change({}, {}))).rejects.toBeInstanceOf(
      OutcomeStillUnknownError,
    );
    move(began + UNKNOWN_OUTCOME_HOLD_MS);
    expect((await confirmChange(ctx, change({}, {}))).kind).toBe("preview");
  });

  it("throws a definite refusal as it is, reading nothing back", async () => {
    const ctx = context();
    let reads = 0;
    const refused = new ValidationError("The hire has started.", {
      operation: "CancelHire",
      validation: { "input.hire": ["The hire has started."] },
    });
    await expect(
      sendWrite(ctx, {
        tool: "cancel_hire",
        target: "hire hire_003",
        check: "get_hire",
        send: async () => {
          throw refused;
        },
        readBack: async () => {
          reads++;
          return "READY";
        },
        applied: () => false,
      }),
    ).rejects.toBe(refused);
    expect(reads).toBe(0);
  });
});
