// Every tool's annotations match what it does (MCP 2025-11-25, Tool annotations: readOnlyHint,
// destructiveHint, idempotentHint, openWorldHint), derived rather than listed by hand: the GraphQL
// operations a tool can send are those its module and the src/tools modules it imports import by
// name from src/client/operations, each declared there as a query, or a mutation that "adds" or
// "changes" what exists. From them:
// - readOnlyHint: true exactly when the tool can send no mutation;
// - destructiveHint: true exactly when one of its mutations changes, ends or removes what exists;
// - idempotentHint: true for a read; false when a mutation adds (a second call adds again);
// - openWorldHint: true for every tool that answers from the platform, false for find_tools, which
//   reads only this server's catalog;
// - run_read_tool and run_write_tool: what the tools each runs can do, joined.
// Calls check the reads against the platform stand-in: no mutation is sent, and a tool that says it
// stays in this server sends nothing.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TOOLSETS } from "../../src/config/defaults.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import { createWebhookEventStore } from "../../src/state/webhook-events.js";
import { tools } from "../../src/tools/registry.js";
import type { AnyOperation } from "../helpers/all-operations.js";
import { callTool, useHarness } from "../helpers/tool-calls.js";
import { fileOf, operationsOf } from "../helpers/tool-operations.js";

type Hints = (typeof tools)[number]["annotations"];

const PROXIES = ["run_read_tool", "run_write_tool"];

/** The hints a tool's operations call for; undefined where either value is right. */
function expectedHints(
  tool: { name: string; toolset: string },
  operations: readonly AnyOperation[],
): { [K in keyof Hints]: boolean | undefined } {
  const mutations = operations.filter((o) => o.type === "mutation");
  const readOnly = mutations.length === 0;
  return {
    readOnlyHint: readOnly,
    destructiveHint: mutations.some((m) => m.effect === "changes"),
    idempotentHint: readOnly
      ? true
      : mutations.some((m) => m.effect === "adds")
        ? false
        : undefined,
    openWorldHint: tool.toolset !== "discovery",
  };
}

/** A mismatch between a tool's hints and what its operations call for, in words; [] when none. */
function mismatches(hints: Hints, expected: { [K in keyof Hints]: boolean | undefined }): string[] {
  return (Object.keys(expected) as (keyof Hints)[])
    .filter((key) => expected[key] !== undefined && hints[key] !== expected[key])
    .map((key) => `${key} is ${hints[key]}, its operations say ${expected[key]}`);
}

const direct = tools.filter((t) => !PROXIES.includes(t.name));
const operationsByTool = new Map(direct.map((t) => [t.name, [...operationsOf(fileOf(t))]]));

describe("every tool's annotations match the operations it can send", () => {
  it("finds each tool's file and, for every tool that changes something, its mutations", () => {
    for (const tool of direct) expect(existsSync(fileOf(tool)), fileOf(tool)).toBe(true);
    const writes = direct.filter((t) => !t.annotations.readOnlyHint);
    expect(writes.length).toBeGreaterThan(0);
    for (const tool of writes) {
      const sent = operationsByTool.get(tool.name) ?? [];
      expect(sent.filter((o) => o.type === "mutation").length, tool.name).toBeGreaterThan(0);
    }
  });

  it("fails a tool whose hints say otherwise (a check that cannot fail is no check)", () => {
    const terminate = operationsByTool.get("terminate_hire") ?? [];
    const tool = { name: "terminate_hire", toolset: "hires" };
    const asRead = {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    };
    expect(mismatches(asRead, expectedHints(tool, terminate))).toContain(
      "readOnlyHint is true, its operations say false",
    );
    const addsOnly = operationsByTool.get("create_draft_hire") ?? [];
    const destructive = {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    };
    expect(mismatches(destructive, expectedHints(tool, addsOnly))).toEqual([
      "destructiveHint is true, its operations say false",
      "idempotentHint is true, its operations say false",
    ]);
  });

  it.each(direct.map((t) => [t.name, t] as const))("%s", (name, tool) => {
    const sent = operationsByTool.get(name) ?? [];
    expect(mismatches(tool.annotations, expectedHints(tool, sent))).toEqual([]);
  });

  it("run_read_tool and run_write_tool claim what the tools they run can do, joined", () => {
    for (const [proxy, readOnly] of [
      ["run_read_tool", true],
      ["run_write_tool", false],
    ] as const) {
      const runs = direct.filter(
        (t) => t.toolset !== "discovery" && t.annotations.readOnlyHint === readOnly,
      );
      const hints = tools.find((t) => t.name === proxy)?.annotations;
      expect(hints, proxy).toEqual({
        readOnlyHint: readOnly,
        destructiveHint: runs.some((t) => t.annotations.destructiveHint),
        idempotentHint: runs.every((t) => t.annotations.idempotentHint),
        openWorldHint: runs.some((t) => t.annotations.openWorldHint),
      });
    }
  });
});

/** A call of each read that needs other arguments than its `example`, against the sandbox. */
const READ_CALLS: Record<string, Record<string, unknown>> = {
  search_hires: {},
  get_hire: { hireId: "hire_001" },
  list_accounts: {},
  get_contract: { hireId: "hire_001" },
  list_invoices: {},
  list_payment_requests: {},
  list_hire_approvals: {},
  search_talent_pool: {},
  list_jobs: { jobId: "job_002" },
  describe_schema: { search: "webhook" },
  query_platform: { query: "{ viewer { name } }" },
  list_changes: {},
  list_webhooks: { company: "cmp_nordlys" },
  find_tools: { query: "webhook" },
  run_read_tool: { name: "list_jobs", arguments: {} },
};

const harness = useHarness();

describe("the reads, called", () => {
  const reads = tools.filter((t) => t.annotations.readOnlyHint).map((t) => t.name);

  it.each(reads)("%s sends no mutation, and nothing when it stays in this server", async (name) => {
    // An empty store of received webhook events: list_changes answers from it.
    const events = createWebhookEventStore(createMemoryStore(), {
      maxEvents: 10,
      maxAgeMs: 60_000,
      maxBytes: 1 << 16,
      maxCompanyBytes: 1 << 16,
      now: () => 0,
    });
    const h = await harness({ config: { toolsets: [...TOOLSETS] }, events });
    const tool = tools.find((t) => t.name === name);
    const r = await callTool(h, name, READ_CALLS[name] ?? tool?.example ?? {});
    expect(r.r.isError, r.text).toBeFalsy();
    expect(h.sandbox.requests.filter((q) => q.operationType === "mutation")).toEqual([]);
    if (!tool?.annotations.openWorldHint) expect(h.sandbox.requests).toEqual([]);
  });
});
