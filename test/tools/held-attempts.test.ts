// An attempt at a change is recorded before it is sent, where every server acting for the person
// finds it: after a lost answer, neither a restarted local server nor a second confirmation racing
// the first can send the same change again. Each case ends with exactly one mutation on the platform.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { createFileStore } from "../../src/state/file-store.js";
import { callTool, useHarness } from "../helpers/tool-calls.js";

const TOOL = "terminate_hire";
const ARGS = { hireId: "hire_001", reason: "PROJECT_COMPLETED_EARLY", date: "2026-12-31" };

interface Out {
  status: string;
  confirmationToken?: string;
}

const harness = useHarness();
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The local state file of a sign-in folder of its own. */
function localStateFile(): string {
  const folder = mkdtempSync(join(tmpdir(), "workforce-held-"));
  folders.push(folder);
  return join(folder, "local-state.json");
}

describe("an attempt with an unknown outcome is held (CWE-841: a change applied twice)", () => {
  it("holds across a restart of a local server: the state file keeps the attempt, not the process", async () => {
    const sandbox = await startSandbox({ today: "2026-11-22", rateLimitPerMinute: 0 });
    try {
      const file = localStateFile();
      const first = await harness({ sandbox, confirmations: createFileStore(file) });
      const preview = await callTool<Out>(first, TOOL, ARGS);
      sandbox.faults.inject("drop-connection", { operationName: TOOL_OPERATION, later: true });
      const lost = await callTool<Out>(first, TOOL, {
        ...ARGS,
        confirmationToken: preview.out.confirmationToken,
      });
      expect(lost.out.status, lost.text).toBe("outcome-unknown");
      await first.close();
      // The file holds digests and times only, never the hire or the person's name.
      const kept = readFileSync(file, "utf8");
      expect(kept).not.toContain("hire_001");
      expect(kept).toContain('\\"state\\":\\"unknown\\"');

      // A new server process: nothing in memory, the same state file, the same platform and person.
      const second = await harness({ sandbox, confirmations: createFileStore(file) });
      const again = await callTool<Out>(second, TOOL, ARGS);
      expect(again.r.isError).toBe(true);
      expect(again.text).toContain("outcome is not known yet");
      expect(again.text).toContain("get_hire (hireId hire_001)");
      expect(sandbox.countRequests(TOOL_OPERATION)).toBe(1);
      // The platform makes the first attempt after all: still exactly one termination.
      expect(await sandbox.faults.releaseHeld()).toBe(1);
      expect(sandbox.countRequests(TOOL_OPERATION)).toBe(1);
    } finally {
      await sandbox.close();
    }
  });

  it("refuses a second confirmation of the same change while the first is being sent, naming it", async () => {
    const h = await harness();
    const a = await callTool<Out>(h, TOOL, ARGS);
    const b = await callTool<Out>(h, TOOL, ARGS);
    // The first is on its way while the second is confirmed.
    h.sandbox.faults.inject("slow", { operationName: TOOL_OPERATION, delayMs: 300 });
    const [first, second] = await Promise.all([
      callTool<Out>(h, TOOL, { ...ARGS, confirmationToken: a.out.confirmationToken }),
      callTool<Out>(h, TOOL, { ...ARGS, confirmationToken: b.out.confirmationToken }),
    ]);
    const answers = [first, second];
    const done = answers.filter((r) => r.out?.status === "terminated");
    const refused = answers.filter((r) => r.r.isError);
    expect(done).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.text).toContain("an earlier terminate_hire for hire hire_001 was sent at");
    expect(refused[0]?.text).toContain("has had no answer yet");
    expect(h.sandbox.countRequests(TOOL_OPERATION)).toBe(1);
  });

  it("holds for one person in every session: the identity is the platform user, not the process", async () => {
    const sandbox = await startSandbox({ today: "2026-11-22", rateLimitPerMinute: 0 });
    try {
      // Two servers of one person (no identity given: each reads `viewer`), one shared state.
      const file = localStateFile();
      const one = await harness({ sandbox, confirmations: createFileStore(file) });
      const other = await harness({ sandbox, confirmations: createFileStore(file) });
      const preview = await callTool<Out>(one, TOOL, ARGS);
      // A token issued by one server is the person's: the other accepts it, once.
      const confirmed = await callTool<Out>(other, TOOL, {
        ...ARGS,
        confirmationToken: preview.out.confirmationToken,
      });
      expect(confirmed.out.status, confirmed.text).toBe("terminated");
      // Another person (the limited token's user) has other keys: the token is unknown to them.
      const stranger = await harness({
        sandbox,
        token: "limited",
        confirmations: createFileStore(file),
      });
      const theirs = await callTool<Out>(stranger, TOOL, {
        ...ARGS,
        hireId: "hire_002",
        confirmationToken: preview.out.confirmationToken,
      });
      expect(theirs.r.isError).toBe(true);
      expect(sandbox.countRequests(TOOL_OPERATION)).toBe(1);
    } finally {
      await sandbox.close();
    }
  });
});

const TOOL_OPERATION = "TerminateHire";
