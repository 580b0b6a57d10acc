// run_write_tool through a real MCP client against the sandbox: it runs a change that is not listed
// exactly as the tool itself would (preview, confirmation token or form bound to that tool, its
// errors), says how to call it again through the proxy, and runs nothing that only reads.
import { describe, expect, it } from "vitest";
import type { Harness } from "../helpers/mcp-harness.js";
import { callTool, formAnswering, useHarness } from "../helpers/tool-calls.js";

const harness = useHarness();
const ARGS = { paymentRequestId: "pr_0016", purchaseOrderNumber: "PO-4500012345" };

interface Out {
  status: string;
  confirmationToken?: string;
  purchaseOrderNumber?: string | null;
}

const run = (h: Harness, name: string, args: unknown) =>
  callTool<Out>(h, "run_write_tool", { name, arguments: args });

/** The PO number a later read through query_platform shows. */
async function poNumber(h: Harness): Promise<string | null> {
  const r = await callTool<{ data: { paymentRequest: { purchaseOrderNumber: string | null } } }>(
    h,
    "query_platform",
    { query: '{ paymentRequest(id: "pr_0016") { purchaseOrderNumber } }' },
  );
  return r.out.data.paymentRequest.purchaseOrderNumber;
}

describe("run_write_tool", () => {
  it("previews, says to confirm through run_write_tool, and changes only with the token", async () => {
    const h = await harness();
    const preview = await run(h, "update_payment_request", ARGS);
    expect(preview.out.status).toBe("preview");
    expect(preview.text).toContain(
      'call run_write_tool {"name": "update_payment_request", "arguments": {…}} again with exactly the same arguments and confirmationToken',
    );
    expect(await poNumber(h)).not.toBe("PO-4500012345");
    const token = preview.out.confirmationToken;
    const done = await run(
      h,
      "update_payment_request",
      JSON.stringify({ ...ARGS, confirmationToken: token }),
    );
    expect(done.r.isError).toBeFalsy();
    expect(await poNumber(h)).toBe("PO-4500012345");
  });

  it("binds the token to the tool it runs: another tool refuses it (a preview is a commitment)", async () => {
    const h = await harness();
    const preview = await run(h, "update_payment_request", ARGS);
    const other = await run(h, "update_talent_contact", {
      contact: "tc_001",
      values: [{ field: "Notice period", value: "One month" }],
      confirmationToken: preview.out.confirmationToken,
    });
    expect(other.r.isError).toBe(true);
    expect(other.text).toContain("issued by update_payment_request");
  });

  it("asks in the tool's own form when the client shows forms, and changes once the person confirms", async () => {
    const form = formAnswering({ action: "accept", content: { confirm: true } });
    const h = await harness(form.options);
    const done = await run(h, "update_payment_request", ARGS);
    expect(form.asked).toHaveLength(1);
    expect(done.r.isError).toBeFalsy();
    expect(await poNumber(h)).toBe("PO-4500012345");
  });

  it("runs no tool that only reads, and sends nothing", async () => {
    const h = await harness();
    const { r, text } = await run(h, "list_jobs", {});
    expect(r.isError).toBe(true);
    expect(text).toMatch(/list_jobs .*only reads; call it through run_read_tool/);
  });

  it("is neither listed nor reachable with --read-only", async () => {
    const h = await harness({ readOnly: true });
    const names = (await h.client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain("run_write_tool");
    const { r, text } = await run(h, "update_payment_request", ARGS);
    expect(r.isError).toBe(true);
    expect(text).toContain("turned off by whoever runs this server");
    expect(await poNumber(h)).not.toBe("PO-4500012345");
  });

  it("refuses arguments that are not a JSON object", async () => {
    const h = await harness();
    const { r, text } = await run(h, "update_payment_request", "{not json");
    expect(r.isError).toBe(true);
    expect(text).toContain("arguments is not JSON");
  });
});
