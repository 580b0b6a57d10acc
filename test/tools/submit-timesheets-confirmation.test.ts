// submit_timesheets moves money, so it is confirmed like every other irreversible change: the
// preview is a commitment (a rate or a payment request that changed since is named, nothing is
// sent), forms ask the person, a lost answer is "unknown" and never resent, and every payload sent
// fits the platform's published JSON Schema.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { SandboxData } from "../../src/sandbox/index.js";
import type { Harness } from "../helpers/mcp-harness.js";
import {
  appliedAfterLostAnswer,
  changedBeforeTokenConfirmation,
  changedWhileFormOpen,
} from "../helpers/preview-commitment.js";
import { referencePath } from "../helpers/reference.js";
import { callTool, formAnswering, useHarness } from "../helpers/tool-calls.js";

interface Out {
  status: string;
  confirmationToken?: string;
  changedSincePreview?: string[];
  accepted?: number;
  unknown?: number;
  note?: string;
}

const day = (n: number) => `2026-11-${String(n).padStart(2, "0")}`;
const ana = (n: number, extra: Record<string, unknown> = {}) => ({
  hireId: "hire_001",
  reportedDate: day(n),
  hours: 7.5,
  externalId: `ana-${day(n)}`,
  ...extra,
});
const ARGS = { registrations: [ana(16), ana(17)] };

const harness = useHarness();
const call = (h: Harness, args: Record<string, unknown>) =>
  callTool<Out>(h, "submit_timesheets", args);

const NEW_RATE = {
  tool: "submit_timesheets",
  args: ARGS,
  mutation: "SubmitTimesheets",
  label: "hire_001 rate",
  newValue: '"DKK 800.00 hourly"',
  edit: (data: SandboxData) => {
    const contract = data.contracts.get("ctr_002");
    if (!contract) throw new Error("seed changed");
    contract.rate = 800;
  },
};

describe("submit_timesheets: the preview is a commitment", () => {
  it("sends nothing when the rate changed after the preview, and shows a fresh one", async () => {
    const { second, h } = await changedBeforeTokenConfirmation(harness, NEW_RATE);
    expect(second.out.changedSincePreview).toContain("total DKK");
    expect(second.text).toContain("- 2026-11-16: 7.5 h, DKK 6,000.00");
    expect(h.sandbox.timesheets.size).toBe(2);
  });

  it("shows the form again when the rate changed while it was open", async () => {
    const { asked } = await changedWhileFormOpen(harness, NEW_RATE);
    expect(asked[0]?.message).toContain("- 2026-11-16: 7.5 h, DKK 5,437.50");
    expect(asked[1]?.message).toContain("- 2026-11-16: 7.5 h, DKK 6,000.00");
  });

  it("sends nothing when a payment request appeared for a previewed day the person included", async () => {
    await changedBeforeTokenConfirmation(harness, {
      tool: "submit_timesheets",
      args: { ...ARGS, includeDaysAlreadyLogged: true },
      mutation: "SubmitTimesheets",
      label: "hire_001 days already logged",
      newValue: `${day(17)}: PR-`,
      edit: (data) => {
        data.timesheets.set("elsewhere", {
          hireId: "hire_001",
          reportedDate: day(17),
          hours: 8,
          externalId: "elsewhere",
          isPayable: true,
        });
      },
    });
  });
});

describe("submit_timesheets: honest outcomes", () => {
  it("says the outcome is unknown when the platform registers the rows after the answer was lost", async () => {
    const { r, again, h } = await appliedAfterLostAnswer(harness, {
      tool: "submit_timesheets",
      args: ARGS,
      mutation: "SubmitTimesheets",
      check: "list_payment_requests (hires hire_001, period 2026-11-16 – 2026-11-17, includeHours)",
      confirmed: true,
    });
    expect(r.out).toMatchObject({ unknown: 2, accepted: 0 });
    expect(r.text).not.toContain("sent again");
    expect(again.text).toContain("outcome is not known yet");
    // Registered once, as previewed.
    expect(h.sandbox.timesheets.size).toBe(2);
  });

  it("reads the rows back after the connection drops post-send and reports them accepted", async () => {
    const h = await harness();
    const first = await call(h, ARGS);
    h.sandbox.faults.inject("drop-connection", { operationName: "SubmitTimesheets", after: true });
    const r = await call(h, { ...ARGS, confirmationToken: first.out.confirmationToken });
    expect(r.r.isError, r.text).toBeFalsy();
    expect(r.out).toMatchObject({ status: "submitted", accepted: 2 });
    expect(r.text).toContain("reading the payment requests back shows those rows registered");
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(1);
  });

  it("refuses another attempt at the same rows while the first one's outcome is unknown", async () => {
    const h = await harness();
    const first = await call(h, ARGS);
    h.sandbox.faults.inject("drop-connection", { operationName: "SubmitTimesheets", later: true });
    const lost = await call(h, { ...ARGS, confirmationToken: first.out.confirmationToken });
    expect(lost.out.status).toBe("outcome-unknown");
    // The same rows in another order are the same change.
    const again = await call(h, { registrations: [ana(17), ana(16)] });
    expect(again.r.isError).toBe(true);
    expect(again.text).toContain("outcome is not known yet");
    expect(again.text).toContain("list_payment_requests (hires hire_001");
    // The same days under other externalIds or other hours wait too: the first rows may still be
    // registered, and both paid.
    for (const rows of [
      [ana(16, { externalId: "other-16" }), ana(17, { externalId: "other-17" })],
      [ana(17, { hours: 6 })],
    ]) {
      const sameDays = await call(h, { registrations: rows });
      expect(sameDays.r.isError, sameDays.text).toBe(true);
      expect(sameDays.text).toContain("outcome is not known yet");
      expect(sameDays.text).toContain("hours of hire hire_001 on 2026-11-");
    }
    // Other days are another change.
    const other = await call(h, { registrations: [ana(18)] });
    expect(other.out.status).toBe("preview");
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(1);
  });
});

describe("submit_timesheets with forms", () => {
  it("asks the person with WORKFORCE_CONFIRM=elicitation, and submits on accept", async () => {
    const e = formAnswering({ action: "accept", content: { confirm: true } });
    const h = await harness({ ...e.options, config: { confirm: "elicitation" } });
    const r = await call(h, ARGS);
    expect(e.asked).toHaveLength(1);
    const message = e.asked[0]?.message ?? "";
    expect(message).toContain('worker "Ana Costa"');
    expect(message).toContain("- 2026-11-17: 7.5 h, DKK 5,437.50");
    expect(message).toContain("Total payable: DKK 10,875.00 for 15 h.");
    expect(message.trim().split("\n").at(-1)).toMatch(/^Money moves: /);
    expect(r.out).toMatchObject({ status: "submitted", accepted: 2 });
    expect(r.out.confirmationToken).toBeUndefined();
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(1);
  });

  it("sends nothing when the person leaves the box unticked", async () => {
    const e = formAnswering({ action: "accept", content: { confirm: false } });
    const h = await harness(e.options);
    const r = await call(h, ARGS);
    expect(r.out.status).toBe("declined");
    expect(r.text).toContain("nothing was changed");
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
  });

  it("refuses with WORKFORCE_CONFIRM=elicitation when the client cannot show a form", async () => {
    const h = await harness({ config: { confirm: "elicitation" } });
    const r = await call(h, ARGS);
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("cannot show forms");
    expect(h.sandbox.countRequests("SubmitTimesheets")).toBe(0);
  });
});

describe("submit_timesheets payloads", () => {
  it("sends only documents that fit the published timesheet-registration JSON Schema", async () => {
    const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
      addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const published = JSON.parse(
      readFileSync(referencePath("timesheet-registration.schema.json"), "utf8"),
    );
    const validate = ajv.compile(published);
    const h = await harness({ config: { timesheetChunkSize: 2 } });
    const sent: string[] = [];
    const original = h.platform.run.bind(h.platform);
    h.platform.run = (async (op: { name: string }, vars: never, opts: never) => {
      if (op.name === "SubmitTimesheets") {
        sent.push((vars as { input: { data: string } }).input.data);
      }
      return original(op as never, vars, opts);
    }) as typeof h.platform.run;
    const registrations = [
      ana(16),
      ana(17, { reference: "PO-1", isPayable: false }),
      ana(18, { meta: '{"costCenter": "CC-12", "tags": ["a"]}' }),
      ana(19, { hireId: "hire_002", hours: 0, externalId: "harbor-19" }),
      ana(20, { meta: { nested: { level: 2 } } }),
    ];
    const first = await call(h, { registrations });
    const r = await call(h, { registrations, confirmationToken: first.out.confirmationToken });
    expect(r.out.accepted, r.text).toBe(5);
    expect(sent).toHaveLength(3);
    for (const data of sent) {
      const document = JSON.parse(data);
      expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    }
    // The rows as previewed: meta given as JSON text goes as the object it holds.
    expect(JSON.parse(sent[1] as string)[0].meta).toEqual({ costCenter: "CC-12", tags: ["a"] });
  });
});
