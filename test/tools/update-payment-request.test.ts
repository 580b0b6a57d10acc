// update_payment_request (the opt-in records toolset) through a real MCP client against the
// sandbox: listed only when named, preview and confirmation, the change visible in a later read,
// the token bound to the arguments, refusals, and honest outcomes after a lost answer.
import { describe, expect, it } from "vitest";
import { DEFAULT_TOOLSETS } from "../../src/config/defaults.js";
import { parseConfig } from "../../src/config.js";
import { paymentsState } from "../../src/sandbox/domains/payments/store.js";
import type { SandboxData } from "../../src/sandbox/index.js";
import type { Harness, HarnessOptions } from "../helpers/mcp-harness.js";
import {
  appliedAfterLostAnswer,
  changedBeforeTokenConfirmation,
} from "../helpers/preview-commitment.js";
import { callTool, useHarness } from "../helpers/tool-calls.js";

const TOOL = "update_payment_request";
const RECORDS: HarnessOptions = { config: { toolsets: [...DEFAULT_TOOLSETS, "records"] } };
// Ana Costa's request for 9–15 November, awaiting approval.
const ANA_REQUEST = "pr_0016";
const ARGS = { paymentRequestId: ANA_REQUEST, purchaseOrderNumber: "PO-4500012345" };

interface Out {
  status: string;
  paymentRequestId: string;
  preview?: {
    number: string;
    status: string;
    worker: string;
    hire: string | null;
    changes: { field: string; from: string | null; to: string }[];
  };
  confirmationToken?: string;
  purchaseOrderNumber?: string | null;
  comments?: string | null;
  note?: string;
}

const harness = useHarness();
const start = (options: HarnessOptions = {}) =>
  harness({ ...RECORDS, ...options, config: { ...RECORDS.config, ...options.config } });

const call = (h: Harness, args: Record<string, unknown>) => callTool<Out>(h, TOOL, args);

/** The request as a later read through query_platform shows it. */
async function readBack(h: Harness, id = ANA_REQUEST) {
  const r = await callTool<{ data: { paymentRequest: Record<string, string | null> } }>(
    h,
    "query_platform",
    { query: `{ paymentRequest(id: "${id}") { purchaseOrderNumber comments } }` },
  );
  return r.out.data.paymentRequest;
}

/** A seeded request matching `pick`, found in the sandbox's data. */
function requestWhere(h: Harness, pick: (r: ReturnType<typeof seeded>[number]) => boolean) {
  let id = "";
  h.sandbox.edit((data) => {
    id = seeded(data).find(pick)?.id ?? "";
  });
  if (!id) throw new Error("seed changed");
  return id;
}
const seeded = (data: SandboxData) => paymentsState(data).seeded;

describe("update_payment_request is reached through discovery", () => {
  it("is not listed at first but found by default, and not at all without the records toolset", async () => {
    const plain = await harness();
    const names = (await plain.client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain(TOOL);
    const found = await callTool<{ tools: { name: string }[] }>(plain, "find_tools", {
      toolset: "records",
    });
    expect(found.out.tools.map((t) => t.name)).toContain(TOOL);
    const { toolsets } = parseConfig(["--toolsets", "hires,timesheets"], {});
    const without = await harness({ config: { toolsets } });
    const r = await callTool(without, TOOL, ARGS);
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("turned off by whoever runs this server");
  });
});

describe("update_payment_request", () => {
  it("previews the current and new values whole, then updates with the token", async () => {
    const h = await start();
    const before = await readBack(h);
    const args = { ...ARGS, comments: "Approved by Maja; PO from the\nframework agreement." };
    const first = await call(h, args);
    expect(first.r.isError, first.text).toBeFalsy();
    expect(first.out.status).toBe("preview");
    expect(first.out.preview).toMatchObject({
      number: "PR-20016",
      status: "UNAPPROVED",
      worker: "Ana Costa",
      hire: "H-10001",
      changes: [
        { field: "purchaseOrderNumber", from: before.purchaseOrderNumber, to: "PO-4500012345" },
        { field: "comments", from: null, to: args.comments },
      ],
    });
    expect(first.text).toContain('"Ana Costa" at "Nordlys Energi A/S", hire H-10001 (hire_001)');
    expect(first.text).toContain("2026-11-09 – 2026-11-15");
    expect(first.text).toContain(`→ "PO-4500012345"`);
    // Text with a line break is shown whole, escaped on one line.
    expect(first.text).toContain(`Comments: none → ${JSON.stringify(args.comments)}.`);
    expect(first.text.trim().split("\n").at(-1)).toContain("overwritten");
    expect(h.sandbox.countRequests("UpdatePaymentRequest")).toBe(0);

    const second = await call(h, { ...args, confirmationToken: first.out.confirmationToken });
    expect(second.r.isError, second.text).toBeFalsy();
    expect(second.out).toMatchObject({
      status: "updated",
      purchaseOrderNumber: "PO-4500012345",
      comments: args.comments,
    });
    expect(second.text).toContain("Payment request PR-20016 updated");
    expect(h.sandbox.countRequests("UpdatePaymentRequest")).toBe(1);
    expect(await readBack(h)).toEqual({
      purchaseOrderNumber: "PO-4500012345",
      comments: args.comments,
    });

    // Single use; and now there is nothing left to change.
    const reuse = await call(h, { ...args, confirmationToken: first.out.confirmationToken });
    expect(reuse.r.isError).toBe(true);
    const same = await call(h, args);
    expect(same.r.isError).toBe(true);
    expect(same.text).toContain("nothing would change");
    expect(h.sandbox.countRequests("UpdatePaymentRequest")).toBe(1);
  });

  it("binds the token to the arguments", async () => {
    const h = await start();
    for (const [changed, name] of [
      [{ purchaseOrderNumber: "PO-9999" }, "purchaseOrderNumber"],
      [{ comments: "Also this." }, "comments"],
      [{ paymentRequestId: "pr_0024" }, "paymentRequestId"],
    ] as const) {
      const { out } = await call(h, ARGS);
      const r = await call(h, { ...ARGS, ...changed, confirmationToken: out.confirmationToken });
      expect(r.r.isError).toBe(true);
      expect(r.text).toContain(`different now: ${name}`);
    }
    expect(h.sandbox.countRequests("UpdatePaymentRequest")).toBe(0);
  });

  it("refuses when nothing would change, nothing is given, or the request is closed, paid or unknown", async () => {
    const h = await start();
    const current = "PO-DK-1001";
    h.sandbox.edit((data) => {
      const r = seeded(data).find((x) => x.id === ANA_REQUEST);
      if (r) r.purchaseOrderNumber = current;
    });
    const same = await call(h, { paymentRequestId: ANA_REQUEST, purchaseOrderNumber: current });
    expect(same.r.isError).toBe(true);
    expect(same.text).toContain(`nothing would change: payment request PR-20016 already has`);
    expect(same.text).toContain(JSON.stringify(current));

    const none = await call(h, { paymentRequestId: ANA_REQUEST });
    expect(none.r.isError).toBe(true);
    expect(none.text).toContain("give purchaseOrderNumber, comments or both");

    const cancelled = requestWhere(h, (r) => r.status === "CANCELLED");
    const closed = await call(h, { ...ARGS, paymentRequestId: cancelled });
    expect(closed.r.isError).toBe(true);
    expect(closed.text).toContain("is cancelled (CANCELLED)");

    const paid = requestWhere(h, (r) => r.status === "APPROVED" && r.paidAt !== null);
    const paidOne = await call(h, { ...ARGS, paymentRequestId: paid });
    expect(paidOne.r.isError).toBe(true);
    expect(paidOne.text).toContain("the platform does not change a paid payment request");

    const unknown = await call(h, { ...ARGS, paymentRequestId: "pr_9999" });
    expect(unknown.r.isError).toBe(true);
    expect(unknown.text).toContain("no payment request pr_9999");
    expect(unknown.text).toContain("list_payment_requests");
    expect(h.sandbox.countRequests("UpdatePaymentRequest")).toBe(0);
  });

  it("says the account is not allowed when the platform refuses it the change", async () => {
    const h = await start({ token: "limited" });
    const { out } = await call(h, ARGS);
    expect(out.status).toBe("preview");
    const r = await call(h, { ...ARGS, confirmationToken: out.confirmationToken });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("your account is not allowed to update payment request PR-20016");
  });

  it("sends nothing when the purchase-order number changed after the preview", async () => {
    await changedBeforeTokenConfirmation(start, {
      tool: TOOL,
      args: ARGS,
      mutation: "UpdatePaymentRequest",
      label: "current purchase-order number",
      newValue: '"PO-SET-ELSEWHERE"',
      edit: (data) => {
        const r = seeded(data).find((x) => x.id === ANA_REQUEST);
        if (!r) throw new Error("seed changed");
        r.purchaseOrderNumber = "PO-SET-ELSEWHERE";
      },
    });
  });

  it("reads the request back after the connection drops post-send and reports it updated", async () => {
    const h = await start();
    const { out } = await call(h, ARGS);
    h.sandbox.faults.inject("drop-connection", {
      operationName: "UpdatePaymentRequest",
      after: true,
    });
    const r = await call(h, { ...ARGS, confirmationToken: out.confirmationToken });
    expect(r.r.isError, r.text).toBeFalsy();
    expect(r.out.status).toBe("updated");
    expect(r.out.purchaseOrderNumber).toBe("PO-4500012345");
    expect(r.text).toContain("it was not sent again");
    expect(h.sandbox.countRequests("UpdatePaymentRequest")).toBe(1);
  });

  it("says the outcome is unknown when the platform applies it after the answer was lost", async () => {
    const { r, again, h } = await appliedAfterLostAnswer(start, {
      tool: TOOL,
      args: ARGS,
      mutation: "UpdatePaymentRequest",
      check: `query_platform ({ paymentRequest(id: "${ANA_REQUEST}") { purchaseOrderNumber comments } })`,
      confirmed: true,
    });
    expect(r.text).toContain("Update of payment request PR-20016");
    expect(again.r.isError).toBe(true);
    expect((await readBack(h)).purchaseOrderNumber).toBe("PO-4500012345");
  });
});
