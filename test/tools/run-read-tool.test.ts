// run_read_tool through a real MCP client against the sandbox: it answers as the read tool itself
// would, says how to reach that tool in its errors, and never runs a change.
import { describe, expect, it } from "vitest";
import { callTool, useHarness } from "../helpers/tool-calls.js";

const harness = useHarness();

describe("run_read_tool", () => {
  it("answers exactly as the read tool called directly", async () => {
    const h = await harness();
    const direct = await callTool(h, "list_jobs", { jobId: "job_002" });
    const proxied = await callTool(h, "run_read_tool", {
      name: "list_jobs",
      arguments: JSON.stringify({ jobId: "job_002" }),
    });
    expect(proxied.r.structuredContent).toEqual(direct.r.structuredContent);
  });

  it("takes the arguments as an object too", async () => {
    const h = await harness();
    const { r } = await callTool(h, "run_read_tool", {
      name: "list_jobs",
      arguments: { jobId: "job_002" },
    });
    expect(r.isError).toBeFalsy();
  });

  it("runs no change (a read-only proxy never writes)", async () => {
    const h = await harness();
    const { r, text } = await callTool(h, "run_read_tool", {
      name: "update_payment_request",
      arguments: { paymentRequestId: "pr_0016", purchaseOrderNumber: "PO-1" },
    });
    expect(r.isError).toBe(true);
    expect(text).toMatch(/update_payment_request .*changes something/);
    expect(text).toContain("run_write_tool");
  });

  it("passes on the tool's own argument errors, saying how to reach the tool", async () => {
    const h = await harness();
    const { r, text } = await callTool(h, "run_read_tool", {
      name: "list_jobs",
      arguments: { jobId: 5 },
    });
    expect(r.isError).toBe(true);
    expect(text).toContain(
      "(Not in your tool list, so call list_jobs through run_read_tool; find_tools shows the arguments.)",
    );
  });

  it("refuses a tool whoever runs the server turned off, without naming it as this server's", async () => {
    const h = await harness({ config: { toolsets: ["hires", "jobs"] } });
    const { r, text } = await callTool(h, "run_read_tool", { name: "list_invoices" });
    expect(r.isError).toBe(true);
    expect(text).toContain("turned off");
  });
});
