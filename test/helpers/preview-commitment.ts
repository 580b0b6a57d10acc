// The two promises every confirmed write keeps, as reusable scenarios through a real MCP client
// against the sandbox:
// - a preview is a commitment: a platform fact changed between the preview and the confirmation
//   (token path) or while the form is open (form path) → nothing is sent, the change is named, and
//   a fresh preview is shown;
// - unknown is unknown: the platform applies a write after its answer was lost → the answer says
//   the outcome is unknown and invites no resend, another attempt is refused, and the platform's
//   log holds exactly one mutation.
import { expect } from "vitest";
import type { SandboxData } from "../../src/sandbox/index.js";
import type { Harness, HarnessOptions } from "./mcp-harness.js";
import { callTool, type ElicitParams } from "./tool-calls.js";

type StartHarness = (options?: HarnessOptions) => Promise<Harness>;

interface Out {
  status: string;
  confirmationToken?: string;
  changedSincePreview?: string[];
}

export interface CommitmentCase {
  tool: string;
  args: Record<string, unknown>;
  /** The GraphQL operation that makes the change, as the sandbox records it. */
  mutation: string;
  /** Changes a fact the preview shows, as someone else on the platform would. */
  edit(data: SandboxData): void;
  /** The fact's label, as the answer names it. */
  label: string;
  /** Text the fresh preview shows after the edit (the new value). */
  newValue: string;
  /** Harness options (e.g. a limited token) besides the client's form capability. */
  options?: HarnessOptions;
}

/** Token path: preview, edit, confirm → nothing sent; the change named; a fresh token works. */
export async function changedBeforeTokenConfirmation(start: StartHarness, c: CommitmentCase) {
  const h = await start(c.options);
  const first = await callTool<Out>(h, c.tool, c.args);
  expect(first.out?.status, first.text).toBe("preview");
  h.sandbox.edit(c.edit);
  const second = await callTool<Out>(h, c.tool, {
    ...c.args,
    confirmationToken: first.out.confirmationToken,
  });
  expect(second.out?.status, second.text).toBe("changed");
  expect(second.out.changedSincePreview).toContain(c.label);
  expect(second.text).toMatch(/^(\[Sandbox\].*\n)?Nothing was sent: since the preview/);
  expect(second.text).toContain(c.label);
  expect(second.text).toContain(c.newValue);
  expect(h.sandbox.countRequests(c.mutation)).toBe(0);
  // The fresh preview's token confirms the change as it is now.
  expect(second.out.confirmationToken).toMatch(/^[0-9a-f-]{36}$/);
  expect(second.out.confirmationToken).not.toBe(first.out.confirmationToken);
  const third = await callTool<Out>(h, c.tool, {
    ...c.args,
    confirmationToken: second.out.confirmationToken,
  });
  expect(third.r.isError, third.text).toBeFalsy();
  expect(h.sandbox.countRequests(c.mutation)).toBe(1);
  return { first, second, third, h };
}

/** Form path: the fact changes while the form is open → the form is shown again, naming it. */
export async function changedWhileFormOpen(start: StartHarness, c: CommitmentCase) {
  const asked: ElicitParams[] = [];
  let h: Harness | undefined;
  h = await start({
    ...c.options,
    clientCapabilities: { elicitation: {} },
    onElicit: (params) => {
      asked.push(params);
      // Someone edits the platform while the first form is open; the person accepts both.
      if (asked.length === 1) h?.sandbox.edit(c.edit);
      return { action: "accept", content: { confirm: true } };
    },
  });
  const r = await callTool<Out>(h, c.tool, c.args);
  expect(asked).toHaveLength(2);
  const second = asked[1]?.message ?? "";
  expect(second).toMatch(/^Nothing was sent: while the form was open/);
  expect(second).toContain(c.label);
  expect(second).toContain(c.newValue);
  expect(r.r.isError, r.text).toBeFalsy();
  // Sent once, after the person accepted the form that showed the change.
  expect(h.sandbox.countRequests(c.mutation)).toBe(1);
  return { r, asked, h };
}

export interface LateWriteCase {
  tool: string;
  args: Record<string, unknown>;
  mutation: string;
  /** The read tool the answer must point to. */
  check: string;
  /** Whether the tool confirms (a preview token first) or writes at once. */
  confirmed: boolean;
  options?: HarnessOptions;
}

/**
 * The connection drops after the write is sent and the platform applies it only later: the answer
 * says the outcome is unknown, invites no resend, a second attempt is refused, one mutation in all.
 */
export async function appliedAfterLostAnswer(start: StartHarness, c: LateWriteCase) {
  const h = await start(c.options);
  const attempt = async () => {
    if (!c.confirmed) return callTool<Out>(h, c.tool, c.args);
    const preview = await callTool<Out>(h, c.tool, c.args);
    if (preview.out?.status !== "preview") return preview;
    return callTool<Out>(h, c.tool, {
      ...c.args,
      confirmationToken: preview.out.confirmationToken,
    });
  };
  h.sandbox.faults.inject("drop-connection", { operationName: c.mutation, later: true });
  const r = await attempt();
  expect(r.r.isError, r.text).toBe(true);
  expect(r.out?.status, r.text).toBe("outcome-unknown");
  expect(r.text).toContain("UNKNOWN");
  expect(r.text).toContain("The platform may still make it");
  expect(r.text).toContain(c.check);
  expect(r.text).not.toMatch(/try again|safe to|may be called again|call \w+ again/i);
  expect(h.sandbox.countRequests(c.mutation)).toBe(1);
  // Before the platform applies it, no read shows it: another attempt is held back.
  const held = await attempt();
  expect(held.r.isError, held.text).toBe(true);
  expect(held.text).toContain("outcome is not known yet");
  expect(h.sandbox.countRequests(c.mutation)).toBe(1);
  // The platform applies it now.
  expect(await h.sandbox.faults.releaseHeld()).toBe(1);
  // Another attempt is refused, whatever a read shows now: nothing more reaches the platform.
  const again = await attempt();
  expect(again.r.isError, again.text).toBe(true);
  expect(h.sandbox.countRequests(c.mutation)).toBe(1);
  return { r, again, h };
}
