// The prompts as a client sees them, in both protocol versions: listed, got with arguments, their
// arguments completed through the person's own credential, and a value that matches nothing
// refused with an error that names it (never a silent, empty prompt).
import { ProtocolError } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import type { Clock } from "../../src/tools/define-tool.js";
import type { Harness, HarnessOptions } from "../helpers/mcp-harness.js";
import { useHarness } from "../helpers/tool-calls.js";

const PROTOCOLS = ["2025-11-25", "2026-07-28"] as const;
const PROMPTS = ["weekly_timesheets", "month_end_invoices", "contracts_ending", "onboard_hire"];
// The sandbox's pinned today, and the server's clock on the same day.
const clock: Clock = { now: () => Date.parse("2026-11-22T12:00:00Z"), sleep: async () => {} };

const harness = useHarness();
const start = (protocol: (typeof PROTOCOLS)[number], options: HarnessOptions = {}) =>
  harness({ clock, protocol, ...options });

async function promptText(h: Harness, name: string, args: Record<string, string> = {}) {
  const result = await h.client.getPrompt({ name, arguments: args });
  expect(result.messages).toHaveLength(1);
  const message = result.messages[0] as (typeof result.messages)[number];
  expect(message.role).toBe("user");
  return (message.content as { text: string }).text;
}

async function refusal(h: Harness, name: string, args: Record<string, string>) {
  const error = await h.client.getPrompt({ name, arguments: args }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  expect((error as ProtocolError).code).toBe(-32602);
  return (error as ProtocolError).message;
}

const complete = async (h: Harness, prompt: string, argument: string, value: string) =>
  (
    await h.client.complete({
      ref: { type: "ref/prompt", name: prompt },
      argument: { name: argument, value },
    })
  ).completion.values;

describe.each(PROTOCOLS)("prompts on MCP %s", (protocol) => {
  it("lists the four workflows with their arguments, and declares the capability", async () => {
    const h = await start(protocol);
    expect(h.client.getServerCapabilities()?.prompts).toBeDefined();
    const { prompts } = await h.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(PROMPTS);
    expect(prompts.every((p) => p.title && p.description)).toBe(true);
    const args = Object.fromEntries(
      prompts.map((p) => [p.name, p.arguments?.map((a) => `${a.name}${a.required ? "!" : ""}`)]),
    );
    expect(args).toEqual({
      weekly_timesheets: ["company", "week"],
      month_end_invoices: ["company", "month"],
      contracts_ending: ["company", "days"],
      onboard_hire: ["hire!"],
    });
  });

  it("weekly_timesheets: the company by name and the week lead to the reads and the previewed write", async () => {
    const h = await start(protocol);
    const text = await promptText(h, "weekly_timesheets", { company: "nordlys", week: "2026-W46" });
    expect(text).toContain(
      '"Nordlys Energi A/S" (cmp_nordlys), week 2026-W46 (Monday 2026-11-09 to Sunday 2026-11-15)',
    );
    expect(text).toContain(
      'search_hires {"activeStatus":["ACTIVE"],"missingHoursBetween":{"from":"2026-11-09","to":"2026-11-15"},"accounts":["cmp_nordlys"]}',
    );
    expect(text).toContain(
      'list_payment_requests {"period":{"from":"2026-11-09","to":"2026-11-15"},"accounts":["cmp_nordlys"],"includeHours":true}',
    );
    // submit_timesheets is reached through discovery: the text says how.
    expect(text).toContain("submit_timesheets through run_write_tool");
    // By default, last week (today, Sunday 2026-11-22, is in 2026-W47); a day stands for its week.
    expect(await promptText(h, "weekly_timesheets")).toContain("week 2026-W46 (Monday 2026-11-09");
    expect(await promptText(h, "weekly_timesheets", { week: "2026-11-04" })).toContain(
      "week 2026-W45",
    );
  });

  it("month_end_invoices, contracts_ending and onboard_hire read their arguments through the platform", async () => {
    const h = await start(protocol);
    const invoices = await promptText(h, "month_end_invoices", {
      company: "cmp_castell",
      month: "2026-10",
    });
    expect(invoices).toContain(
      '"Castell Retail GmbH" (cmp_castell), 2026-10 (2026-10-01 to 2026-10-31)',
    );
    expect(invoices).toContain(
      'list_invoices {"accounts":["cmp_castell"],"status":["UNPAID","OVERDUE"]}',
    );
    expect(invoices).toContain("cannot approve or reject payment requests");
    const ending = await promptText(h, "contracts_ending", { days: "60" });
    expect(ending).toContain("every company you can see: hires ending 2026-11-22 to 2027-01-21");
    expect(ending).toContain('"endDateRange":{"from":"2026-11-22","to":"2027-01-21"}');
    expect(ending).toContain("cannot change a contract's rate or dates");
    const onboard = await promptText(h, "onboard_hire", { hire: "priya raman" });
    expect(onboard).toMatch(/^\[Sandbox\]/);
    expect(onboard).toContain(
      'Onboard "Priya Raman": hire hire_003 (DRAFT) at "Nordlys Energi A/S" (cmp_nordlys)',
    );
    expect(onboard).toContain('get_hire {"hireId":"hire_003"}');
    expect(onboard).toContain("review_hire_approval through run_write_tool");
  });

  it("completes companies, hires by name, weeks, months and days", async () => {
    const h = await start(protocol);
    expect(await complete(h, "weekly_timesheets", "company", "")).toEqual([
      "Nordlys Energi A/S",
      "Harbor & Pine Inc.",
      "Castell Retail GmbH",
    ]);
    expect(await complete(h, "month_end_invoices", "company", "cast")).toEqual([
      "Castell Retail GmbH",
    ]);
    expect(await complete(h, "contracts_ending", "company", "cmp_h")).toEqual(["cmp_harbor"]);
    expect(await complete(h, "weekly_timesheets", "week", "")).toEqual([
      "2026-W47",
      "2026-W46",
      "2026-W45",
      "2026-W44",
      "2026-W43",
      "2026-W42",
    ]);
    expect(await complete(h, "weekly_timesheets", "week", "2026-W4")).toHaveLength(6);
    expect(await complete(h, "month_end_invoices", "month", "2026-1")).toEqual([
      "2026-11",
      "2026-10",
    ]);
    expect(await complete(h, "contracts_ending", "days", "")).toEqual(["14", "30", "60", "90"]);
    expect(await complete(h, "onboard_hire", "hire", "pri")).toEqual(["Priya Raman"]);
    const everyone = await complete(h, "onboard_hire", "hire", "");
    expect(everyone.length).toBeGreaterThan(5);
    // Only hires that have not ended: Liam's ends later, but a cancelled or ended hire is never offered.
    const ended = await h.platform.run(
      (await import("../../src/client/operations/core.js")).searchHiresQuery,
      { activeStatus: ["ENDED", "CANCELLED", "TERMINATED"], first: 100 },
    );
    const endedOnly = ended.data.hires.data
      .map((hire) => hire.worker.name)
      .filter((name) => !everyone.includes(name));
    expect(endedOnly.length).toBeGreaterThan(0);
  });

  it("refuses a value that matches nothing, naming it (never a silent empty prompt)", async () => {
    const h = await start(protocol);
    expect(await refusal(h, "weekly_timesheets", { company: "Acme" })).toMatch(
      /argument `company`: no company you can see is named "Acme".*Your companies: "Nordlys Energi A\/S" \(cmp_nordlys\)/,
    );
    expect(await refusal(h, "onboard_hire", { hire: "Nobody Atall" })).toMatch(
      /argument `hire`: no hire you can see that has not ended .* matches "Nobody Atall"/,
    );
    expect(await refusal(h, "onboard_hire", {})).toMatch(/onboard_hire needs `hire`/);
    expect(await refusal(h, "weekly_timesheets", { week: "week 47" })).toMatch(
      /"week 47" is not a week/,
    );
    expect(await refusal(h, "month_end_invoices", { month: "2026-13" })).toMatch(/is not a month/);
    expect(await refusal(h, "contracts_ending", { days: "soon" })).toMatch(
      /"soon" is not a whole number/,
    );
    expect(await refusal(h, "contracts_ending", { weeks: "2" })).toMatch(/has no argument `weeks`/);
    expect(await refusal(h, "no_such_prompt", {})).toMatch(/There is no prompt "no_such_prompt"/);
  });

  it("completes and resolves only what the person's own credential reads", async () => {
    const h = await start(protocol, { token: "limited" });
    expect(await complete(h, "weekly_timesheets", "company", "")).toEqual(["Nordlys Energi A/S"]);
    expect(await complete(h, "weekly_timesheets", "company", "harbor")).toEqual([]);
    expect(await refusal(h, "month_end_invoices", { company: "cmp_harbor" })).toMatch(
      /no company you can see is named "cmp_harbor"/,
    );
    const names = await complete(h, "onboard_hire", "hire", "");
    expect(names.length).toBeGreaterThan(0);
    // Liam O'Connor's hire is at Harbor & Pine, which the limited credential cannot read.
    expect(names).not.toContain("Liam O'Connor");
  });
});

describe("prompts name only what the configuration reaches", () => {
  it("--read-only: no prompt points at a change", async () => {
    const h = await harness({ clock, readOnly: true });
    const { prompts } = await h.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(PROMPTS);
    const weekly = await promptText(h, "weekly_timesheets");
    expect(weekly).not.toMatch(/submit_timesheets|run_write_tool/);
    expect(weekly).toContain("This server cannot register hours");
    const onboard = await promptText(h, "onboard_hire", { hire: "Priya Raman" });
    expect(onboard).not.toMatch(/review_hire_approval|update_talent_contact|run_write_tool/);
    expect(onboard).toContain("Only read and report; change nothing.");
  });

  it("--toolsets invoices: only the invoice review, without the payment requests it cannot reach", async () => {
    const h = await harness({ clock, config: { toolsets: ["invoices"] } });
    const { prompts } = await h.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["month_end_invoices"]);
    expect(await promptText(h, "month_end_invoices")).not.toContain("list_payment_requests");
    expect(await refusal(h, "onboard_hire", { hire: "Priya Raman" })).toMatch(
      /no prompt "onboard_hire" here. This server offers: month_end_invoices/,
    );
  });
});
