// terminate_hire through a real MCP client against the sandbox: preview, confirmation, elicitation,
// refusals and the read-back after an ambiguous failure.
import { describe, expect, it } from "vitest";
import type { SandboxData } from "../../src/sandbox/index.js";
import type { Harness } from "../helpers/mcp-harness.js";
import {
  appliedAfterLostAnswer,
  changedBeforeTokenConfirmation,
  changedWhileFormOpen,
} from "../helpers/preview-commitment.js";
import {
  callTool,
  formAnswering,
  PAST_TOKEN_LIFETIME_MS,
  useHarness,
  withClockAhead,
} from "../helpers/tool-calls.js";

interface Out {
  status: string;
  hireId: string;
  preview?: {
    worker: string;
    company: string;
    hireStatus: string;
    canTerminateContract: boolean;
    contract: { id: string; status: string; jobName: string } | null;
  };
  confirmationToken?: string;
  terminationDate?: string | null;
  note?: string;
}

const ARGS = { hireId: "hire_001", reason: "PROJECT_COMPLETED_EARLY", date: "2026-12-31" };

const harness = useHarness();

const RENAMED_JOB = {
  tool: "terminate_hire",
  args: ARGS,
  mutation: "TerminateHire",
  label: "job",
  newValue: '"Platform Lead"',
  edit: (data: SandboxData) => {
    const contract = data.contracts.get("ctr_002");
    if (!contract) throw new Error("seed changed");
    contract.jobName = "Platform Lead";
  },
};

const call = (h: Harness, args: Record<string, unknown>) =>
  callTool<Out>(h, "terminate_hire", args);
const hireStatus = async (h: Harness, id = "hire_001") => {
  const r = await h.client.callTool({ name: "search_hires", arguments: { search: "Ana Costa" } });
  const hires = (r.structuredContent as { hires: { id: string; status: string }[] }).hires;
  return hires.find((x) => x.id === id)?.status;
};

describe("terminate_hire with the token round trip", () => {
  it("previews without changing anything, then terminates with the token", async () => {
    const h = await harness();
    const first = await call(h, { ...ARGS, reason: "project_completed_early" });
    expect(first.r.isError).toBeFalsy();
    expect(first.out.status).toBe("preview");
    expect(first.out.preview).toMatchObject({
      worker: "Ana Costa",
      hireStatus: "ACTIVE",
      canTerminateContract: true,
      // The terms in force, not Ana's unsigned change (ctr_065, the latest contract).
      contract: { id: "ctr_002", status: "ACTIVE" },
    });
    expect(first.text).toContain("PROJECT_COMPLETED_EARLY");
    expect(first.text).toContain("wait for their answer");
    // The consequence is the server's last line.
    expect(first.text.trim().split("\n").at(-1)).toBe("This cannot be undone.");
    expect(first.out.confirmationToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
    expect(await hireStatus(h)).toBe("ACTIVE");

    const second = await call(h, { ...ARGS, confirmationToken: first.out.confirmationToken });
    expect(second.r.isError).toBeFalsy();
    expect(second.out).toMatchObject({ status: "terminated", terminationDate: "2026-12-31" });
    expect(h.sandbox.countRequests("TerminateHire")).toBe(1);
    expect(await hireStatus(h)).toBe("TERMINATED");

    // Single use: the same token again is refused, and nothing more is sent.
    const reuse = await call(h, { ...ARGS, confirmationToken: first.out.confirmationToken });
    expect(reuse.r.isError).toBe(true);
    expect(reuse.text).toContain("without confirmationToken");
    expect(h.sandbox.countRequests("TerminateHire")).toBe(1);
  });

  it("binds the token to every argument, free text included", async () => {
    const h = await harness();
    const withText = { ...ARGS, comments: "Budget cut.", message: "Thank you, Ana." };
    for (const [changed, name] of [
      [{ comments: "Something else entirely." }, "comments"],
      [{ message: "A different message." }, "message"],
      [{ comments: undefined }, "comments"],
    ] as const) {
      const { out } = await call(h, withText);
      const r = await call(h, {
        ...withText,
        ...changed,
        confirmationToken: out.confirmationToken,
      });
      expect(r.r.isError).toBe(true);
      expect(r.text).toContain(`different now: ${name}`);
    }
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
    // The preview quoted exactly what would be sent.
    const { text: preview } = await call(h, withText);
    expect(preview).toContain('Message to the worker: "Thank you, Ana."');
  });

  it("binds the token to the hire, reason and date", async () => {
    const h = await harness();
    const { out } = await call(h, ARGS);
    const other = await call(h, {
      ...ARGS,
      date: "2027-01-15",
      confirmationToken: out.confirmationToken,
    });
    expect(other.r.isError).toBe(true);
    expect(other.text).toContain("different now: date");
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
    const made = await call(h, { ...ARGS, confirmationToken: "not-a-real-token" });
    expect(made.r.isError).toBe(true);
    expect(made.text).toContain("fresh preview");
  });

  it("refuses an expired token", async () => {
    const h = await harness();
    const { out } = await call(h, ARGS);
    const late = await withClockAhead(PAST_TOKEN_LIFETIME_MS, () =>
      call(h, { ...ARGS, confirmationToken: out.confirmationToken }),
    );
    expect(late.r.isError).toBe(true);
    expect(late.text).toContain("expired");
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
  });

  it("refuses hires that are not active, unknown hires and dates before the start", async () => {
    const h = await harness();
    const ended = await call(h, { ...ARGS, hireId: "hire_004" });
    expect(ended.r.isError).toBe(true);
    expect(ended.text).toContain("ENDED");
    const draft = await call(h, { ...ARGS, hireId: "hire_003" });
    expect(draft.r.isError).toBe(true);
    const unknown = await call(h, { ...ARGS, hireId: "hire_999999" });
    expect(unknown.r.isError).toBe(true);
    expect(unknown.text).toContain("search_hires");
    const early = await call(h, { ...ARGS, date: "2020-01-01" });
    expect(early.r.isError).toBe(true);
    expect(early.text).toContain("start date");
    const bad = await call(h, { ...ARGS, date: "2026-02-30" });
    expect(bad.r.isError).toBe(true);
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
  });

  it("says the account is not allowed, not that an argument is wrong, when it may not terminate", async () => {
    const h = await harness({ token: "limited" });
    const r = await call(h, ARGS);
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("your account is not allowed to terminate hire hire_001");
    expect(r.text).toContain("ask someone with hire management rights");
    expect(r.text).not.toContain("argument");
    expect(r.text).not.toContain("until the arguments are changed");
    expect(r.out).toBeUndefined();
  });

  it("reads the hire back after the connection drops post-send and reports it terminated", async () => {
    const h = await harness();
    const { out } = await call(h, ARGS);
    h.sandbox.faults.inject("drop-connection", { operationName: "TerminateHire", after: true });
    const r = await call(h, { ...ARGS, confirmationToken: out.confirmationToken });
    expect(r.r.isError).toBeFalsy();
    expect(r.out.status).toBe("terminated");
    expect(r.out.terminationDate).toBe("2026-12-31");
    expect(r.text).toContain("confirmed");
    // Never retried automatically.
    expect(h.sandbox.countRequests("TerminateHire")).toBe(1);
  });

  it("says the outcome is unknown when the platform applies it after the answer was lost", async () => {
    const { r, again, h } = await appliedAfterLostAnswer(harness, {
      tool: "terminate_hire",
      args: ARGS,
      mutation: "TerminateHire",
      check: "get_hire (hireId hire_001)",
      confirmed: true,
    });
    expect(r.text).toContain("Termination of hire hire_001");
    // The read now shows it: the second attempt is refused as already done.
    expect(again.text).toContain("already terminated");
    expect(await hireStatus(h)).toBe("TERMINATED");
  });

  it("refuses another attempt while an earlier one's outcome is unknown", async () => {
    const h = await harness();
    const { out } = await call(h, ARGS);
    h.sandbox.faults.inject("drop-connection", { operationName: "TerminateHire", later: true });
    const lost = await call(h, { ...ARGS, confirmationToken: out.confirmationToken });
    expect(lost.out.status).toBe("outcome-unknown");
    // The platform has not applied it yet; a fresh preview is still refused.
    const again = await call(h, ARGS);
    expect(again.r.isError).toBe(true);
    expect(again.text).toContain("outcome is not known yet");
    expect(again.text).toContain("get_hire (hireId hire_001)");
    expect(again.out).toBeUndefined();
    expect(h.sandbox.countRequests("TerminateHire")).toBe(1);
  });

  it("sends nothing when the job changed after the preview, and shows a fresh one", async () => {
    await changedBeforeTokenConfirmation(harness, RENAMED_JOB);
  });

  it("refuses a message with characters the person cannot see, naming them", async () => {
    const h = await harness();
    const r = await call(h, { ...ARGS, message: "Thanks\u202e for everything" });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("U+202E RIGHT-TO-LEFT OVERRIDE");
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
  });

  it("shows the message whole, line breaks included, as it is sent", async () => {
    const h = await harness();
    const message = `Thank you.\n${"Long notice. ".repeat(30).trim()}`;
    const r = await call(h, { ...ARGS, message });
    expect(r.text).toContain(`Message to the worker: ${JSON.stringify(message)}.`);
  });
});

describe("terminate_hire with elicitation", () => {
  it("shows the form again when the job changed while it was open", async () => {
    await changedWhileFormOpen(harness, RENAMED_JOB);
  });

  it("says a form answer that does not fit the form could not be read, and changes nothing", async () => {
    const e = formAnswering({ action: "accept", content: { confirm: "yes please" } });
    const h = await harness(e.options);
    const r = await call(h, ARGS);
    expect(r.r.isError).toBeFalsy();
    expect(r.out.status).toBe("declined");
    expect(r.text).toContain("the form's answer could not be read; nothing changed");
    expect(r.text).not.toContain("unexpected problem");
    expect(h.stderr.some((l) => /\] warning: a form's answer did not fit the form/.test(l))).toBe(
      true,
    );
    expect(h.stderr.some((l) => /\] error:/.test(l))).toBe(false);
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
  });

  it("asks the person and terminates on accept with confirm", async () => {
    const e = formAnswering({ action: "accept", content: { confirm: true } });
    const h = await harness(e.options);
    const r = await call(h, ARGS);
    expect(e.asked).toHaveLength(1);
    expect(e.asked[0]?.message.trim().split("\n").at(-1)).toBe("This cannot be undone.");
    expect(e.asked[0]?.message).toContain("Ana Costa");
    expect(r.out.status).toBe("terminated");
    expect(r.out.confirmationToken).toBeUndefined();
    expect(await hireStatus(h)).toBe("TERMINATED");
  });

  it("changes nothing when the person leaves the box unticked", async () => {
    const e = formAnswering({ action: "accept", content: { confirm: false } });
    const h = await harness(e.options);
    const r = await call(h, ARGS);
    expect(r.r.isError).toBeFalsy();
    expect(r.out.status).toBe("declined");
    expect(r.text).toContain("nothing was changed");
    expect(r.text).toContain("still ACTIVE");
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
  });
});

describe("terminate_hire with WORKFORCE_CONFIRM=elicitation", () => {
  it("refuses when the client cannot show a form, and sends nothing", async () => {
    const h = await harness({ config: { confirm: "elicitation" } });
    const r = await call(h, ARGS);
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("cannot show forms");
    expect(r.text).toContain("nothing was changed");
    expect(h.sandbox.countRequests("TerminateHire")).toBe(0);
  });

  it("still works through the form", async () => {
    const h = await harness({
      config: { confirm: "elicitation" },
      clientCapabilities: { elicitation: {} },
      onElicit: () => ({ action: "accept", content: { confirm: true } }),
    });
    const r = await call(h, ARGS);
    expect(r.out.status).toBe("terminated");
  });
});
