import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, parseConfig } from "../../src/config.js";
import { type AnyTool, defineTool, type ToolDefinition } from "../../src/tools/define-tool.js";
import { selectTools } from "../../src/tools/registry.js";

function fakeTool(
  name: string,
  toolset: ToolDefinition<z.ZodRawShape, z.ZodRawShape>["toolset"],
  readOnly: boolean,
): AnyTool {
  return defineTool({
    name,
    title: name,
    description: name,
    instruction: name,
    readme: { does: name },
    inputSchema: {},
    outputSchema: { ok: z.boolean() },
    annotations: {
      readOnlyHint: readOnly,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    toolset,
    handler: async () => ({ structured: { ok: true }, text: "ok" }),
  });
}

const all = [
  fakeTool("find_things", "hires", true),
  fakeTool("read_money", "invoices", true),
  fakeTool("log_hours", "timesheets", false),
  fakeTool("follow_changes", "live", true),
];
const names = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
  selectTools(parseConfig(argv, env), all).map((t) => t.name);

describe("choosing the exposed tools", () => {
  it("reaches every toolset's tools by default, live too (issue 31)", () => {
    expect(names([])).toEqual(["find_things", "read_money", "log_hours", "follow_changes"]);
    expect(names(["--toolsets", "default"])).toHaveLength(4);
    expect(names([], { WORKFORCE_TOOLSETS: "live" })).toEqual(["follow_changes"]);
  });

  it("--toolsets and WORKFORCE_TOOLSETS keep only the named toolsets, in any letter case", () => {
    expect(names(["--toolsets", "Invoices, timesheets"])).toEqual(["read_money", "log_hours"]);
    expect(names([], { WORKFORCE_TOOLSETS: "hires" })).toEqual(["find_things"]);
    expect(names(["--toolsets", "all"])).toHaveLength(4);
  });

  it("--read-only and WORKFORCE_READ_ONLY drop every tool that changes something", () => {
    const reads = ["find_things", "read_money", "follow_changes"];
    expect(names(["--read-only"])).toEqual(reads);
    expect(names([], { WORKFORCE_READ_ONLY: "true" })).toEqual(reads);
    expect(names(["--read-only", "--toolsets", "timesheets"])).toEqual([]);
  });

  it("rejects an unknown toolset and lists the valid ones", () => {
    expect(() => parseConfig(["--toolsets", "payroll"], {})).toThrow(ConfigError);
    expect(() => parseConfig(["--toolsets", "payroll"], {})).toThrow(/hires, contracts/);
  });

  it("WORKFORCE_SANDBOX_RATE_LIMIT sets the sandbox's own limit; --rate-limit wins", () => {
    expect(parseConfig([], { WORKFORCE_SANDBOX_RATE_LIMIT: "0" }).sandboxRateLimitPerMinute).toBe(
      0,
    );
    expect(
      parseConfig(["--rate-limit", "5"], { WORKFORCE_SANDBOX_RATE_LIMIT: "0" })
        .sandboxRateLimitPerMinute,
    ).toBe(5);
  });
});
