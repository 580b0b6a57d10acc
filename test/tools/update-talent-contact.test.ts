// update_talent_contact (the opt-in records toolset) through a real MCP client against the sandbox:
// the contact by id, name or email; fields by name or id, values checked against their type and
// options; preview and confirmation, the change visible in a later read, the token bound to the
// arguments, refusals, and honest outcomes after a lost answer.
import { describe, expect, it } from "vitest";
import { DEFAULT_TOOLSETS } from "../../src/config/defaults.js";
import { hireDetailsOf } from "../../src/sandbox/domains/hire-details/seed.js";
import { talentOf } from "../../src/sandbox/domains/talent/seed.js";
import type { Harness, HarnessOptions } from "../helpers/mcp-harness.js";
import {
  appliedAfterLostAnswer,
  changedBeforeTokenConfirmation,
} from "../helpers/preview-commitment.js";
import { callTool, formAnswering, useHarness } from "../helpers/tool-calls.js";

const TOOL = "update_talent_contact";
const RECORDS: HarnessOptions = { config: { toolsets: [...DEFAULT_TOOLSETS, "records"] } };
// Ana Costa (tc_001) in the pool of Nordlys: talent tier "Preferred", no notice period yet.
const ARGS = {
  contact: "Ana Costa",
  values: [
    { field: "Talent tier", value: "trial" },
    { field: "notice-period", value: "One month" },
  ],
};

interface Out {
  status: string;
  contactId?: string;
  preview?: {
    contactId: string;
    name: string;
    company: { id: string; name: string };
    changes: { fieldId: string; title: string; from: string | null; to: string | null }[];
  };
  values?: { fieldId: string; title: string; value: string | null }[];
  confirmationToken?: string;
  note?: string;
}

const harness = useHarness();
const start = (options: HarnessOptions = {}) =>
  harness({ ...RECORDS, ...options, config: { ...RECORDS.config, ...options.config } });
const call = (h: Harness, args: Record<string, unknown>) => callTool<Out>(h, TOOL, args);

/** The contact's custom fields as a later read through query_platform shows them. */
async function valuesOf(h: Harness, id = "tc_001") {
  const r = await callTool<{
    data: {
      trustedContact: {
        customFieldValues: { customField: { title: string }; displayValue: string | null }[];
      };
    };
  }>(h, "query_platform", {
    query: `{ trustedContact(id: "${id}") { customFieldValues { customField { title } displayValue } } }`,
  });
  return Object.fromEntries(
    r.out.data.trustedContact.customFieldValues.map((v) => [v.customField.title, v.displayValue]),
  );
}

async function confirmed(h: Harness, args: Record<string, unknown>) {
  const first = await call(h, args);
  expect(first.out?.status, first.text).toBe("preview");
  return call(h, { ...args, confirmationToken: first.out.confirmationToken });
}

describe("update_talent_contact", () => {
  it("finds the contact by name, previews current → new per field, then sets them", async () => {
    const h = await start();
    expect(await valuesOf(h)).toEqual({ "Talent tier": "Preferred" });
    const first = await call(h, ARGS);
    expect(first.r.isError, first.text).toBeFalsy();
    expect(first.out).toMatchObject({
      status: "preview",
      contactId: "tc_001",
      preview: {
        name: "Ana Costa",
        company: { id: "cmp_nordlys", name: "Nordlys Energi A/S" },
        changes: [
          { title: "Talent tier", from: "Preferred", to: "Trial" },
          { title: "Notice period", from: null, to: "One month" },
        ],
      },
    });
    expect(first.text).toContain(
      'Update talent-pool contact tc_001: "Ana Costa" ("ana.costa@example.com") in the talent pool of "Nordlys Energi A/S"',
    );
    expect(first.text).toContain('"Talent tier" (cf_012): "Preferred" → "Trial".');
    expect(first.text).toContain('"Notice period" (cf_017): none → "One month".');
    expect(h.sandbox.countRequests("UpdateTrustedContact")).toBe(0);

    const second = await call(h, { ...ARGS, confirmationToken: first.out.confirmationToken });
    expect(second.r.isError, second.text).toBeFalsy();
    expect(second.out.status).toBe("updated");
    expect(second.out.values).toEqual([
      { fieldId: "cf_012", title: "Talent tier", value: "Trial" },
      { fieldId: "cf_017", title: "Notice period", value: "One month" },
    ]);
    expect(h.sandbox.countRequests("UpdateTrustedContact")).toBe(1);
    expect(await valuesOf(h)).toEqual({ "Talent tier": "Trial", "Notice period": "One month" });

    // Now there is nothing left to change.
    const again = await call(h, ARGS);
    expect(again.r.isError).toBe(true);
    expect(again.text).toContain("nothing would change");
    expect(h.sandbox.countRequests("UpdateTrustedContact")).toBe(1);
  });

  it("finds the contact by email or id, takes fields by id, and clears a value with an empty string", async () => {
    const h = await start();
    const byEmail = await confirmed(h, {
      contact: "ANA.COSTA@example.com",
      values: [{ field: "cf_017", value: "Two weeks" }],
    });
    expect(byEmail.out.status, byEmail.text).toBe("updated");
    const cleared = await confirmed(h, {
      contact: "tc_001",
      values: [
        { field: "Talent tier", value: "" },
        { field: "Notice period", value: "" },
      ],
    });
    expect(cleared.out.status, cleared.text).toBe("updated");
    expect(cleared.text).toContain('"Talent tier" cleared');
    expect(await valuesOf(h)).toEqual({});
  });

  it("binds the token to the arguments", async () => {
    const h = await start();
    for (const changed of [
      { values: [{ field: "Talent tier", value: "Approved" }] },
      { contact: "tc_001" },
    ]) {
      const { out } = await call(h, ARGS);
      const r = await call(h, { ...ARGS, ...changed, confirmationToken: out.confirmationToken });
      expect(r.r.isError).toBe(true);
      expect(r.text).toContain("the confirmation token was issued for other arguments");
    }
    expect(h.sandbox.countRequests("UpdateTrustedContact")).toBe(0);
  });

  it("lists the contacts a name matches when it is ambiguous, and says how to find an unknown one", async () => {
    const h = await start();
    // Ana is in a second company's pool too.
    h.sandbox.edit((data) => {
      const talent = talentOf(data);
      const ana = talent.contacts.get("tc_001");
      if (!ana) throw new Error("seed changed");
      talent.contacts.set("tc_900", { ...ana, id: "tc_900", companyId: "cmp_harbor" });
    });
    const several = await call(h, ARGS);
    expect(several.r.isError).toBe(true);
    expect(several.text).toContain('"Ana Costa" matches 2 talent-pool contacts');
    expect(several.text).toContain('tc_001 "Ana Costa"');
    expect(several.text).toContain('tc_900 "Ana Costa"');
    expect(several.text).toContain("Give the contact's id");

    const unknownId = await call(h, { ...ARGS, contact: "tc_999" });
    expect(unknownId.r.isError).toBe(true);
    expect(unknownId.text).toContain(
      'no talent-pool contact visible to you has the id, full name or email "tc_999"',
    );
    expect(unknownId.text).toContain("search_talent_pool");

    const partial = await call(h, { ...ARGS, contact: "Costa" });
    expect(partial.r.isError).toBe(true);
    expect(partial.text).toContain("Contacts whose name or email contains it: tc_001");
    expect(h.sandbox.countRequests("UpdateTrustedContact")).toBe(0);
  });

  it("refuses unknown fields naming the available ones, values outside the options, and repeats", async () => {
    const h = await start();
    const field = await call(h, { contact: "tc_001", values: [{ field: "Tier", value: "Trial" }] });
    expect(field.r.isError).toBe(true);
    expect(field.text).toContain(
      'the talent pool of "Nordlys Energi A/S" has no custom field "Tier"',
    );
    expect(field.text).toContain(
      'Its talent-pool fields: "Talent tier" (cf_012, SINGLE_SELECT: "Preferred", "Approved", "Trial"); "Notice period" (cf_017, FREE_TEXT)',
    );
    const option = await call(h, {
      contact: "tc_001",
      values: [{ field: "Talent tier", value: "Gold" }],
    });
    expect(option.r.isError).toBe(true);
    expect(option.text).toContain('"Gold" is not an option of "Talent tier"');
    expect(option.text).toContain('Its options: "Preferred", "Approved", "Trial"');
    const twice = await call(h, {
      contact: "tc_001",
      values: [
        { field: "Talent tier", value: "Trial" },
        { field: "talent-tier", value: "Approved" },
      ],
    });
    expect(twice.r.isError).toBe(true);
    expect(twice.text).toContain("given more than once");
    const same = await call(h, {
      contact: "tc_001",
      values: [{ field: "Talent tier", value: "preferred" }],
    });
    expect(same.r.isError).toBe(true);
    expect(same.text).toContain("nothing would change");
    const hidden = await call(h, {
      contact: "tc_001",
      values: [{ field: "Notice period", value: "One\u202e month" }],
    });
    expect(hidden.r.isError).toBe(true);
    expect(hidden.text).toContain("U+202E");
    expect(h.sandbox.countRequests("UpdateTrustedContact")).toBe(0);
  });

  it("says the account is not allowed when it may not manage the talent pool", async () => {
    const h = await start({ token: "limited" });
    const { out, text } = await call(h, ARGS);
    expect(out.status, text).toBe("preview");
    const r = await call(h, { ...ARGS, confirmationToken: out.confirmationToken });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("your account is not allowed to update contacts in the talent pool");
  });

  it("sends nothing when a value changed on the platform after the preview", async () => {
    await changedBeforeTokenConfirmation(start, {
      tool: TOOL,
      args: ARGS,
      mutation: "UpdateTrustedContact",
      label: "current Talent tier",
      newValue: '"Approved"',
      edit: (data) => {
        const details = hireDetailsOf(data);
        const value = details.customFieldValues.find(
          (v) => v.on === "TrustedContact" && v.targetId === "tc_001" && v.fieldId === "cf_012",
        );
        const approved = details.customFields
          .find((f) => f.id === "cf_012")
          ?.options.find((o) => o.value === "Approved");
        if (!value || !approved) throw new Error("seed changed");
        value.optionId = approved.id;
      },
    });
  });

  // A declined form changes nothing: test/meta/confirmed-writes.test.ts.
  it("asks in a form when the client shows one: a ticked one changes the contact", async () => {
    const { options, asked } = formAnswering({ action: "accept", content: { confirm: true } });
    const h = await start(options);
    const r = await call(h, ARGS);
    expect(r.out.status, r.text).toBe("updated");
    expect(asked[0]?.message).toContain('"Talent tier" (cf_012): "Preferred" → "Trial".');
    expect(await valuesOf(h)).toEqual({ "Talent tier": "Trial", "Notice period": "One month" });
  });

  it("reads the contact back after the connection drops post-send and reports it updated", async () => {
    const h = await start();
    const { out } = await call(h, ARGS);
    h.sandbox.faults.inject("drop-connection", {
      operationName: "UpdateTrustedContact",
      after: true,
    });
    const r = await call(h, { ...ARGS, confirmationToken: out.confirmationToken });
    expect(r.r.isError, r.text).toBeFalsy();
    expect(r.out.status).toBe("updated");
    expect(r.text).toContain("it was not sent again");
    expect(h.sandbox.countRequests("UpdateTrustedContact")).toBe(1);
  });

  it("says the outcome is unknown when the platform applies it after the answer was lost", async () => {
    const { r, h } = await appliedAfterLostAnswer(start, {
      tool: TOOL,
      args: ARGS,
      mutation: "UpdateTrustedContact",
      check: `query_platform ({ trustedContact(id: "tc_001") { customFieldValues { customField { title } displayValue } } })`,
      confirmed: true,
    });
    expect(r.text).toContain("Update of talent-pool contact tc_001");
    expect(await valuesOf(h)).toEqual({ "Talent tier": "Trial", "Notice period": "One month" });
  });
});

describe("update_talent_contact: a lost answer's hold, however the contact is named", () => {
  it("holds a retry by id or by email after an update by name whose outcome is unknown", async () => {
    const h = await start();
    const preview = await call(h, ARGS);
    h.sandbox.faults.inject("drop-connection", {
      operationName: "UpdateTrustedContact",
      later: true,
    });
    const lost = await call(h, { ...ARGS, confirmationToken: preview.out.confirmationToken });
    expect(lost.out.status, lost.text).toBe("outcome-unknown");
    for (const contact of ["tc_001", "ana.costa@example.com", "Ana Costa"]) {
      const held = await call(h, { ...ARGS, contact });
      expect(held.r.isError, held.text).toBe(true);
      expect(held.text).toContain("outcome is not known yet");
    }
    expect(h.sandbox.countRequests("UpdateTrustedContact")).toBe(1);
  });
});
