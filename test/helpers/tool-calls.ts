// Small helpers the tool tests share: a harness per test (or per describe) that closes itself,
// calling a tool and reading its answer, a client that answers forms (elicitation), and moving the
// clock past a confirmation token's lifetime.
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/server";
import { afterAll, afterEach, beforeAll, vi } from "vitest";
import { type Harness, type HarnessOptions, startHarness } from "./mcp-harness.js";

export type ToolResult = Awaited<ReturnType<Harness["client"]["callTool"]>>;
export type ElicitParams = ElicitRequest["params"];

/** The answer's text blocks, joined with newlines. */
export const textOf = (r: ToolResult) =>
  (r.content as { text: string }[]).map((c) => c.text).join("\n");

/** Calls a tool; `out` is its structured content, `text` its text. */
export async function callTool<Out = unknown>(
  h: Harness,
  name: string,
  args: Record<string, unknown>,
) {
  const r = await h.client.callTool({ name, arguments: args });
  return { r, out: r.structuredContent as unknown as Out, text: textOf(r) };
}

/**
 * A harness per test: the returned function starts one, and every harness it started is closed
 * after each test. Closing one early (`await h.close()`) is fine; it is closed only once.
 */
export function useHarness() {
  let open: Harness[] = [];
  afterEach(async () => {
    const started = open;
    open = [];
    for (const h of started) await h.close();
  });
  return async (options: HarnessOptions = {}): Promise<Harness> => {
    const h = await startHarness(options);
    let closing: Promise<void> | undefined;
    const close = h.close.bind(h);
    h.close = () => {
      closing ??= close();
      return closing;
    };
    open.push(h);
    return h;
  };
}

/** One harness for a whole describe block: started before its tests, closed after them. */
export function useSharedHarness(options: HarnessOptions = {}): () => Harness {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startHarness(options);
  });
  afterAll(async () => {
    await h?.close();
    h = undefined;
  });
  return () => {
    if (!h) throw new Error("the shared harness is not started (use it inside a test)");
    return h;
  };
}

/**
 * Harness options for a client that shows forms and answers every one with `answer` (or what it
 * returns for the form); `asked` collects the forms in order.
 */
export function formAnswering(
  answer: Record<string, unknown> | ((params: ElicitParams) => Record<string, unknown>),
) {
  const asked: ElicitParams[] = [];
  return {
    asked,
    options: {
      clientCapabilities: { elicitation: {} },
      onElicit: (params: ElicitParams) => {
        asked.push(params);
        return (typeof answer === "function" ? answer(params) : answer) as ElicitResult;
      },
    } satisfies HarnessOptions,
  };
}

/** The form answers that must change nothing: decline, cancel, and accept with the box unticked. */
export const DECLINING_ANSWERS = [
  { action: "decline" },
  { action: "cancel" },
  { action: "accept", content: { confirm: false } },
] as const satisfies readonly Record<string, unknown>[];

/** The last line of a text (a preview's or a form's consequence). */
export const lastLine = (text: string) => text.trim().split("\n").at(-1);

/** A preview's confirmation token from `name`, for checking that another tool refuses it. */
export async function previewToken(h: Harness, name: string, args: Record<string, unknown>) {
  const { out } = await callTool<{ confirmationToken?: string }>(h, name, args);
  return out.confirmationToken;
}

/** Six minutes: longer than a confirmation token lives. */
export const PAST_TOKEN_LIFETIME_MS = 6 * 60_000;

/** Runs `fn` with Date.now() `ms` ahead of the real clock, and puts the clock back after. */
export async function withClockAhead<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const realNow = Date.now;
  const spy = vi.spyOn(Date, "now").mockImplementation(() => realNow() + ms);
  try {
    return await fn();
  } finally {
    spy.mockRestore();
  }
}
