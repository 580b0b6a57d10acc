// Every change that cannot be undone, moves money or emails someone goes through the confirmation
// module: a tool that is not read-only and whose description or annotations say so must take a
// confirmationToken, and each of its acts must, without one, send no mutation to the platform and
// answer with a preview (token path), a refusal (forms only, no form client) or nothing sent after a
// declined form (on 2025-11-25 and on 2026-07-28, the acts taking the declining answers in turn;
// test/unit/confirmation.test.ts tests each answer at confirmedWrite); on a client that renders MCP
// Apps, a card whose Confirm sends it once. Its acts are those below, or else the `example` of its
// definition.
import type { ElicitResult } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { DEFAULT_TOOLSETS } from "../../src/config/defaults.js";
import { tools } from "../../src/tools/registry.js";
import { APPS_CAPABILITIES } from "../helpers/apps.js";
import type { Harness, HarnessOptions } from "../helpers/mcp-harness.js";
import { callTool, DECLINING_ANSWERS, useHarness } from "../helpers/tool-calls.js";

/** What a description says when its change cannot be taken back, moves money or tells someone. */
const IRREVERSIBLE =
  /cannot be undone|irreversible|money|payment request|e-?mails?\b|invitation|is told|is notified|gets your message/i;

/** Acts of such tools with sandbox arguments that would make the change; else its `example`. */
const ACTS: Record<string, Record<string, unknown>[]> = {
  terminate_hire: [{ hireId: "hire_001", reason: "OTHER", date: "2026-12-31" }],
  cancel_hire: [{ hireId: "hire_003", message: "The project is postponed." }],
  review_hire_approval: [
    { approvalId: "apr_001", decision: "APPROVED" },
    { approvalId: "apr_001", decision: "REJECTED", reason: "Over budget." },
  ],
  invite_to_talent_pool: [
    {
      company: "cmp_nordlys",
      firstName: "Jane",
      lastName: "Doe",
      email: "jane.doe@example.com",
      skills: ["React"],
    },
    { contactId: "tc_005" },
    { contactIds: ["tc_005"] },
  ],
  post_job: [
    {
      company: "cmp_nordlys",
      name: "Go Developer",
      skills: ["Go"],
      description: "Build the metering ingest in Go.",
      publish: true,
    },
  ],
  manage_candidate: [
    { candidateId: "jc_005", status: "NON_ELIGIBLE", reason: "BUDGET" },
    { bidId: "bid_003" },
    { person: "Elsa Bergström", status: "NON_ELIGIBLE" },
    { person: "Elsa Bergström", job: "React Frontend Developer" },
  ],
  manage_webhooks: [
    { action: "create", company: "cmp_nordlys", events: ["CONTRACT_ACCEPTED"] },
    { action: "delete", company: "cmp_nordlys", webhookId: "whk_001" },
  ],
  update_payment_request: [{ paymentRequestId: "pr_0016", purchaseOrderNumber: "PO-4500012345" }],
  update_talent_contact: [
    { contact: "tc_001", values: [{ field: "Talent tier", value: "Trial" }] },
  ],
  submit_timesheets: [
    {
      registrations: [
        { hireId: "hire_001", reportedDate: "2026-11-20", hours: 7.5, externalId: "meta-1" },
      ],
    },
  ],
};

/** What a tool of an opt-in toolset needs to be listed and to act. */
const SETTINGS: Record<string, HarnessOptions["config"]> = {
  manage_webhooks: {
    toolsets: [...DEFAULT_TOOLSETS, "live"],
    publicUrl: "http://127.0.0.1:39871",
  },
  update_payment_request: { toolsets: [...DEFAULT_TOOLSETS, "records"] },
  update_talent_contact: { toolsets: [...DEFAULT_TOOLSETS, "records"] },
};

const mutations = (h: Harness) =>
  h.sandbox.requests.filter((r) => r.operationType === "mutation").map((r) => r.operationName);

const harness = useHarness();

const answered = (answer: ElicitResult) =>
  answer.action === "accept" ? "with the box unticked" : answer.action;

describe("changes that cannot be undone, move money or email someone", () => {
  // run_write_tool confirms nothing itself: the tool it runs asks, bound to its own name.
  const writes = tools.filter((t) => !t.annotations.readOnlyHint && t.toolset !== "discovery");

  const needing = writes.filter(
    (t) => t.annotations.destructiveHint || IRREVERSIBLE.test(t.description),
  );

  it("are the confirmed tools, each with its acts listed here or an example", () => {
    expect(Object.keys(ACTS).filter((name) => !needing.some((t) => t.name === name))).toEqual([]);
    for (const tool of needing) {
      expect(Object.keys(tool.inputSchema), tool.name).toContain("confirmationToken");
      expect(ACTS[tool.name] ?? tool.example, `${tool.name}: its acts or example`).toBeDefined();
    }
  });

  let turn = 0;
  for (const { name: tool, example } of needing) {
    const acts = ACTS[tool] ?? (example ? [example] : []);
    const config = SETTINGS[tool] ?? {};
    for (const args of acts) {
      const act = `${tool} ${JSON.stringify(args).slice(0, 80)}`;
      const declining = DECLINING_ANSWERS[turn++ % DECLINING_ANSWERS.length] as ElicitResult;
      const declining2026 = DECLINING_ANSWERS[turn % DECLINING_ANSWERS.length] as ElicitResult;

      it(`${act}: a preview, and no mutation, without a token`, async () => {
        const h = await harness({ config });
        const r = await callTool<{ status?: string }>(h, tool, args);
        expect(r.out?.status, r.text).toBe("preview");
        expect(mutations(h)).toEqual([]);
      });

      it(`${act}: nothing sent when the form is answered ${answered(declining)}`, async () => {
        const h = await harness({
          config,
          clientCapabilities: { elicitation: {} },
          onElicit: () => declining,
        });
        const r = await callTool<{ status?: string }>(h, tool, args);
        expect(r.out?.status, r.text).toBe("declined");
        expect(r.text).toMatch(/^Not confirmed \(.+\): nothing was changed\./m);
        expect(mutations(h)).toEqual([]);
      });

      it(`${act}: nothing sent when the form is answered ${answered(declining2026)} on MCP 2026-07-28`, async () => {
        const h = await harness({
          config,
          protocol: "2026-07-28",
          clientCapabilities: { elicitation: { form: {} } },
          onElicit: () => declining2026,
        });
        const r = await callTool<{ status?: string }>(h, tool, args);
        expect(r.out?.status, r.text).toBe("declined");
        expect(r.text).toMatch(/^Not confirmed \(.+\): nothing was changed\./m);
        expect(mutations(h)).toEqual([]);
      });

      it(`${act}: on a client that renders MCP Apps, a card and no token; its Confirm sends it once`, async () => {
        const h = await harness({ config, clientCapabilities: APPS_CAPABILITIES });
        // A tool not listed at first is found, as an assistant would: its card's link is listed then.
        await h.client.callTool({ name: "find_tools", arguments: { query: tool } });
        const r = await h.client.callTool({ name: tool, arguments: args });
        const out = r.structuredContent as { status?: string; confirmationToken?: string };
        const card = r._meta?.["workforce/confirmation"] as { state: string } | undefined;
        expect(out.status, JSON.stringify(r.content)).toBe("preview");
        expect(out.confirmationToken).toBeUndefined();
        expect(typeof card?.state).toBe("string");
        expect(mutations(h)).toEqual([]);
        const confirmation = { confirmation: card?.state };
        const done = await h.client.callTool({ name: "confirm_change", arguments: confirmation });
        expect(done.isError, JSON.stringify(done.content)).toBeFalsy();
        const sent = mutations(h);
        expect(sent.length).toBeGreaterThan(0);
        // Brought again, the same confirmation sends nothing (refused, or the change already made).
        await h.client.callTool({ name: "confirm_change", arguments: confirmation });
        expect(mutations(h)).toEqual(sent);
      });

      it(`${act}: refused with forms only and a client that cannot show them`, async () => {
        const h = await harness({ config: { ...config, confirm: "elicitation" } });
        const r = await callTool(h, tool, args);
        expect(r.r.isError, r.text).toBe(true);
        expect(r.text).toContain("cannot show forms");
        expect(mutations(h)).toEqual([]);
      });
    }
  }
});
