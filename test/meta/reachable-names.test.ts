// Nothing points at what the assistant cannot reach (issue 31): in several configurations, every
// text the model reads (instructions, the tool list, find_tools, describe_schema, query_platform's
// refusals, errors, the prompts) names a tool only when this configuration reaches it, and names one not listed
// only beside how to reach it (find_tools, run_read_tool, run_write_tool).
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { toolForMutation } from "../../src/tools/platform/mutation-tools.js";
import { LISTED_FIRST } from "../../src/tools/reach.js";
import { tools } from "../../src/tools/registry.js";
import type { Harness } from "../helpers/mcp-harness.js";
import { textOf, useHarness } from "../helpers/tool-calls.js";

const names = tools.map((tool) => tool.name);
const HOW = ["find_tools", "run_read_tool", "run_write_tool"];
const MUTATIONS = [
  "updatePaymentRequest",
  "updateTrustedContact",
  "retryWebhookEvent",
  "terminateHire",
  "createJob",
];

/** Where each tool stands in a configuration, worked out here from the registry, not the server. */
function standings(argv: string[]) {
  const config = parseConfig(["--sandbox", ...argv], {});
  const reachable = tools.filter(
    (tool) =>
      (config.toolsets as string[]).includes(tool.toolset) &&
      (!config.readOnly || tool.annotations.readOnlyHint),
  );
  const listed = new Set(reachable.filter((t) => LISTED_FIRST.includes(t.name)).map((t) => t.name));
  const rest = reachable.filter((t) => !listed.has(t.name));
  if (rest.length > 0) listed.add("find_tools");
  if (rest.some((t) => t.annotations.readOnlyHint)) listed.add("run_read_tool");
  if (rest.some((t) => !t.annotations.readOnlyHint)) listed.add("run_write_tool");
  const reached = new Set(reachable.map((t) => t.name));
  return { config, listed, reached };
}

/**
 * What is wrong with how `text` names tools; a name in quotes is a value (an echo), not a mention,
 * and an answer of a tool called by its name may name that tool.
 */
function misnamed(text: string, where: ReturnType<typeof standings>, called?: string): string[] {
  const problems: string[] = [];
  for (const name of names) {
    if (!new RegExp(`(?<!")\\b${name}\\b`).test(text)) continue;
    if (where.listed.has(name) || name === called) continue;
    if (!where.reached.has(name))
      problems.push(`names ${name}, which this configuration does not reach`);
    else if (!HOW.some((how) => where.listed.has(how) && text.includes(how)))
      problems.push(`names ${name}, not listed, without saying how to reach it`);
  }
  return problems;
}

/** Every text the model can read in this configuration that these calls produce. */
async function texts(h: Harness, where: ReturnType<typeof standings>) {
  const found: [string, string, string?][] = [["instructions", h.client.getInstructions() ?? ""]];
  for (const tool of (await h.client.listTools()).tools) {
    found.push([
      `${tool.name}'s description`,
      `${tool.description}\n${JSON.stringify(tool.inputSchema)}`,
    ]);
  }
  const call = async (label: string, name: string, args: Record<string, unknown>) => {
    const r = await h.client.callTool({ name, arguments: args });
    found.push([label, textOf(r), name]);
  };
  const can = (tool: string) => where.reached.has(tool) || where.listed.has(tool);
  if (can("find_tools")) {
    await call("find_tools {}", "find_tools", {});
    await call("find_tools webhook", "find_tools", { query: "retry webhook delivery" });
  }
  if (can("describe_schema")) {
    for (const search of ["trusted contact", "payment request", "webhook", "job candidate"])
      await call(`describe_schema ${search}`, "describe_schema", { search });
    await call("describe_schema Hire", "describe_schema", { typeName: "Hire" });
  }
  if (can("query_platform")) {
    for (const field of MUTATIONS)
      await call(`query_platform ${field}`, "query_platform", {
        query: `mutation { ${field}(input: {}) { id } }`,
      });
  }
  // The prompts offered, and the message each gives (with the arguments a person would choose).
  const { prompts } = await h.client.listPrompts();
  for (const prompt of prompts) {
    found.push([
      `prompt ${prompt.name}'s description`,
      `${prompt.description}\n${JSON.stringify(prompt.arguments)}`,
    ]);
    const args: Record<string, string> =
      prompt.name === "onboard_hire" ? { hire: "Priya Raman" } : {};
    const got = await h.client.getPrompt({ name: prompt.name, arguments: args });
    const text = got.messages.map((m) => (m.content as { text: string }).text).join("\n");
    found.push([`prompt ${prompt.name}`, text]);
  }
  // Calling tools this configuration does not reach, directly and through the proxies.
  for (const name of ["update_payment_request", "manage_webhooks", "list_jobs"]) {
    await call(`${name} called directly`, name, {});
    for (const proxy of ["run_read_tool", "run_write_tool"])
      if (where.listed.has(proxy)) await call(`${name} through ${proxy}`, proxy, { name });
  }
  return found;
}

const harness = useHarness();

describe("texts the model reads name only tools it can reach", () => {
  it("the check itself fails on a tool that is off, or unlisted without how (a check that cannot fail is no check)", () => {
    const hires = standings(["--toolsets", "hires"]);
    expect(misnamed("to set a PO number, use update_payment_request", hires)).toHaveLength(1);
    expect(misnamed('no tool "update_payment_request" here', hires)).toEqual([]);
    const all = standings([]);
    expect(misnamed("use update_payment_request", all)).toHaveLength(1);
    expect(misnamed("use update_payment_request through run_write_tool", all)).toEqual([]);
    expect(toolForMutation("updatePaymentRequest")).toBe("update_payment_request");
  });

  it.each([
    [[] as string[]],
    [["--read-only"]],
    [["--toolsets", "hires"]],
    [["--toolsets", "hires,platform"]],
    [["--toolsets", "records,timesheets"]],
    [["--read-only", "--toolsets", "live,platform"]],
  ])("with %j", async (argv) => {
    const where = standings(argv);
    const h = await harness({
      readOnly: where.config.readOnly,
      config: { toolsets: where.config.toolsets },
    });
    const problems = (await texts(h, where)).flatMap(([label, text, called]) =>
      misnamed(text, where, called).map((problem) => `${label}: ${problem}`),
    );
    expect(problems).toEqual([]);
  });
});
