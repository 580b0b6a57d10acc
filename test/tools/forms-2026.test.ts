// The confirmation form on MCP 2026-07-28, through a real SDK client and a server per request
// (createMcpHandler): the form ends the call as input_required with a sealed requestState, and the
// client calls again with the answer. The same forms on 2025-11-25 run through the SDK's legacy
// shim in each tool's own tests.
import type { InputRequiredResult } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import type { SandboxData } from "../../src/sandbox/index.js";
import type { Clock } from "../../src/tools/define-tool.js";
import type { Harness, HarnessOptions } from "../helpers/mcp-harness.js";
import { changedWhileFormOpen } from "../helpers/preview-commitment.js";
import { callTool, formAnswering, useHarness } from "../helpers/tool-calls.js";

const TOOL = "terminate_hire";
const ARGS = { hireId: "hire_001", reason: "PROJECT_COMPLETED_EARLY", date: "2026-12-31" };
const MODERN = { protocol: "2026-07-28" } as const satisfies HarnessOptions;
const TICKED = { action: "accept", content: { confirm: true } } as const;

const harness = useHarness();

/** A client that shows forms, on 2026-07-28, answering each with `answer`. */
const formsOn2026 = (answer: Record<string, unknown>, options: HarnessOptions = {}) => {
  const e = formAnswering(answer);
  return { asked: e.asked, options: { ...e.options, ...MODERN, ...options } };
};

const terminations = (h: Harness) => h.sandbox.countRequests("TerminateHire");

/** The first round by hand: the tool's input_required answer, not fulfilled by the client. */
async function firstRound(h: Harness, args: Record<string, unknown> = ARGS) {
  const result = (await h.client.request(
    { method: "tools/call", params: { name: TOOL, arguments: args } },
    { allowInputRequired: true },
  )) as unknown as InputRequiredResult;
  expect(result.resultType).toBe("input_required");
  expect(typeof result.requestState).toBe("string");
  return result;
}

/** A retry by hand, as a client sends it: the arguments, the answers and the state echoed. */
function retry(
  h: Harness,
  requestState: string,
  answer: Record<string, unknown> = TICKED,
  args: Record<string, unknown> = ARGS,
) {
  return h.client.request(
    {
      method: "tools/call",
      params: { name: TOOL, arguments: args, inputResponses: { confirm: answer }, requestState },
    },
    { allowInputRequired: true },
  );
}

const textOf = (r: unknown) =>
  ((r as { content?: { text: string }[] }).content ?? []).map((c) => c.text).join("\n");

describe("terminate_hire confirmed in a form on MCP 2026-07-28 (input_required)", () => {
  it("asks with the preview and the one-box form, and sends exactly one termination on accept", async () => {
    const e = formsOn2026(TICKED);
    const h = await harness(e.options);
    const r = await callTool<{ status: string }>(h, TOOL, ARGS);
    expect(e.asked).toHaveLength(1);
    const form = e.asked[0];
    expect(form?.message).toContain("Ana Costa");
    expect(form?.message.trim().split("\n").at(-1)).toBe("This cannot be undone.");
    expect(form && "requestedSchema" in form && form.requestedSchema).toMatchObject({
      type: "object",
      properties: { confirm: { type: "boolean", title: "Terminate this hire?" } },
      required: ["confirm"],
    });
    expect(r.out.status, r.text).toBe("terminated");
    expect(terminations(h)).toBe(1);
  });

  it("sends nothing when the person leaves the box unticked", async () => {
    const h = await harness(formsOn2026({ action: "accept", content: { confirm: false } }).options);
    const r = await callTool<{ status: string }>(h, TOOL, ARGS);
    expect(r.out.status, r.text).toBe("declined");
    expect(r.text).toContain("nothing was changed");
    expect(terminations(h)).toBe(0);
  });

  it("says an answer that does not fit the form could not be read, and sends nothing", async () => {
    const h = await harness(
      formsOn2026({ action: "accept", content: { confirm: "yes please" } }).options,
    );
    const r = await callTool<{ status: string }>(h, TOOL, ARGS);
    expect(r.out.status, r.text).toBe("declined");
    expect(r.text).toContain("the form's answer could not be read; nothing changed");
    expect(h.stderr.some((l) => /\] warning: a form's answer did not fit the form/.test(l))).toBe(
      true,
    );
    expect(terminations(h)).toBe(0);
  });

  it("a replayed retry (same requestState and answer) sends nothing the second time (MCP 2026-07-28 mrtr: requestState is attacker-controlled)", async () => {
    const h = await harness(formsOn2026(TICKED).options);
    const { requestState } = await firstRound(h);
    const first = await retry(h, requestState as string);
    expect(textOf(first)).toContain("is terminated");
    expect(terminations(h)).toBe(1);
    const replayed = await retry(h, requestState as string);
    expect((replayed as { isError?: boolean }).isError).toBe(true);
    expect(textOf(replayed)).toContain("already used");
    expect(terminations(h)).toBe(1);
  });

  it("a declined form cannot be answered again with accept: its state is spent by any answer (MCP 2026-07-28 mrtr: requestState is attacker-controlled)", async () => {
    const h = await harness(formsOn2026(TICKED).options);
    const { requestState } = await firstRound(h);
    const declined = await retry(h, requestState as string, { action: "decline" });
    expect(textOf(declined)).toContain("nothing was changed");
    const replayed = await retry(h, requestState as string, TICKED);
    expect((replayed as { isError?: boolean }).isError).toBe(true);
    expect(textOf(replayed)).toContain("already used");
    expect(terminations(h)).toBe(0);
  });

  it("refuses a tampered requestState with -32602 before the tool runs (MCP 2026-07-28 mrtr: integrity-protect requestState)", async () => {
    const h = await harness(formsOn2026(TICKED).options);
    const { requestState } = await firstRound(h);
    const state = requestState as string;
    // One character of the sealed body changed.
    const at = state.length - 5;
    const tampered = `${state.slice(0, at)}${state[at] === "A" ? "B" : "A"}${state.slice(at + 1)}`;
    await expect(retry(h, tampered)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Invalid or expired requestState"),
    });
    await expect(retry(h, "not sealed at all")).rejects.toMatchObject({ code: -32602 });
    expect(terminations(h)).toBe(0);
  });

  it("refuses a requestState after its 10 minutes with -32602, sending nothing (MCP 2026-07-28 mrtr: expiry)", async () => {
    let now = Date.parse("2026-11-22T10:00:00Z");
    const clock: Clock = { now: () => now, sleep: async () => {} };
    const h = await harness(formsOn2026(TICKED, { clock }).options);
    const { requestState } = await firstRound(h);
    now += 10 * 60_000 + 1;
    await expect(retry(h, requestState as string)).rejects.toMatchObject({ code: -32602 });
    expect(terminations(h)).toBe(0);
  });

  it("refuses a form sealed for one person when another brings it back (MCP 2026-07-28 mrtr: bind state to the principal)", async () => {
    const h = await harness(formsOn2026(TICKED).options);
    h.identity = "person A";
    const { requestState } = await firstRound(h);
    h.identity = "person B";
    const r = await retry(h, requestState as string);
    expect((r as { isError?: boolean }).isError).toBe(true);
    expect(textOf(r)).toContain("Nothing was changed");
    expect(terminations(h)).toBe(0);
    // The rightful person's answer still works.
    h.identity = "person A";
    expect(textOf(await retry(h, requestState as string))).toContain("is terminated");
    expect(terminations(h)).toBe(1);
  });

  it("refuses an answer brought back with other arguments, naming them (MCP 2026-07-28 mrtr: bind state to the request's parameters)", async () => {
    const h = await harness(formsOn2026(TICKED).options);
    const { requestState } = await firstRound(h);
    const r = await retry(h, requestState as string, TICKED, { ...ARGS, date: "2026-12-01" });
    expect((r as { isError?: boolean }).isError).toBe(true);
    expect(textOf(r)).toContain("different now: date");
    expect(textOf(r)).toContain("Nothing was changed");
    expect(terminations(h)).toBe(0);
  });

  it("shows the form again, naming what changed, when the job changed while it was open", async () => {
    const { asked } = await changedWhileFormOpen(harness, {
      tool: TOOL,
      args: ARGS,
      mutation: "TerminateHire",
      label: "job",
      newValue: '"Platform Lead"',
      edit: (data: SandboxData) => {
        const contract = data.contracts.get("ctr_002");
        if (!contract) throw new Error("seed changed");
        contract.jobName = "Platform Lead";
      },
      options: MODERN,
    });
    expect(asked[1]?.message).toContain('job (was "');
  });

  it("after a second form the platform changed under too, sends nothing and says what changed", async () => {
    let forms = 0;
    let h: Harness | undefined;
    h = await harness({
      ...MODERN,
      clientCapabilities: { elicitation: { form: {} } },
      onElicit: () => {
        forms += 1;
        h?.sandbox.edit((data) => {
          const contract = data.contracts.get("ctr_002");
          if (contract) contract.jobName = `Platform Lead ${forms}`;
        });
        return TICKED;
      },
    });
    const r = await callTool<{ status: string; changedSincePreview?: string[] }>(h, TOOL, ARGS);
    expect(forms).toBe(2);
    expect(r.out.status, r.text).toBe("changed");
    expect(r.out.changedSincePreview).toEqual(["job"]);
    expect(r.text).toContain("Nothing was sent: while the form was open");
    expect(r.text).toContain('"Platform Lead 2"');
    expect(terminations(h)).toBe(0);
  });

  it("refuses with WORKFORCE_CONFIRM=elicitation when the client's request declares no forms", async () => {
    const h = await harness({ ...MODERN, config: { confirm: "elicitation" } });
    const r = await callTool(h, TOOL, ARGS);
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("cannot show forms");
    expect(terminations(h)).toBe(0);
  });

  it("gives a client that cannot show forms the preview and its token, as on 2025-11-25", async () => {
    const h = await harness(MODERN);
    const preview = await callTool<{ status: string; confirmationToken?: string }>(h, TOOL, ARGS);
    expect(preview.out.status, preview.text).toBe("preview");
    expect(terminations(h)).toBe(0);
    const done = await callTool<{ status: string }>(h, TOOL, {
      ...ARGS,
      confirmationToken: preview.out.confirmationToken,
    });
    expect(done.out.status, done.text).toBe("terminated");
    expect(terminations(h)).toBe(1);
  });
});
