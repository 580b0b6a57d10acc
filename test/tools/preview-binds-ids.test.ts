// What the preview showed as an id is what is sent: a name read as an id at the preview is bound
// as that id, and an id always wins over a name or value that happens to equal it (CWE-706: use of
// an incorrectly resolved name). Nothing is sent where the preview and the platform now differ.
import { describe, expect, it } from "vitest";
import { DEFAULT_TOOLSETS } from "../../src/config/defaults.js";
import { hireDetailsOf } from "../../src/sandbox/domains/hire-details/seed.js";
import { callTool, useHarness } from "../helpers/tool-calls.js";

interface Out {
  status: string;
  confirmationToken?: string;
  changedSincePreview?: string[];
  bid?: { id: string };
}

const harness = useHarness();

describe("names are bound as the ids the preview showed", () => {
  it("invite_to_talent_pool: two companies swapping names after the preview send nothing", async () => {
    const h = await harness();
    const args = {
      company: "Nordlys Energi A/S",
      firstName: "Jane",
      lastName: "Doe",
      email: "jane.doe@example.com",
    };
    const preview = await callTool<Out>(h, "invite_to_talent_pool", args);
    expect(preview.out.status, preview.text).toBe("preview");
    h.sandbox.edit((data) => {
      const [a, b] = ["cmp_nordlys", "cmp_harbor"].map((id) =>
        data.companies.find((c) => c.id === id),
      );
      if (!a || !b) throw new Error("seed changed");
      [a.name, b.name] = [b.name, a.name];
    });
    const confirmed = await callTool<Out>(h, "invite_to_talent_pool", {
      ...args,
      confirmationToken: preview.out.confirmationToken,
    });
    expect(confirmed.out.status, confirmed.text).toBe("changed");
    expect(confirmed.out.changedSincePreview).toContain("company id");
    expect(h.sandbox.countRequests("CreateTrustedContact")).toBe(0);
    // The fresh preview names the company the name now reads as; confirmed, it is the one used.
    expect(confirmed.text).toContain("(cmp_harbor)");
    const fresh = await callTool<Out>(h, "invite_to_talent_pool", {
      ...args,
      confirmationToken: confirmed.out.confirmationToken,
    });
    expect(fresh.out.status, fresh.text).toBe("invited");
    expect(h.sandbox.countRequests("CreateTrustedContact")).toBe(1);
  });

  it("update_talent_contact: two fields swapping titles after the preview send nothing", async () => {
    const h = await harness({ config: { toolsets: [...DEFAULT_TOOLSETS, "records"] } });
    h.sandbox.edit((data) => {
      const details = hireDetailsOf(data);
      const tier = details.customFields.find(
        (f) => f.companyId === "cmp_nordlys" && f.title === "Talent tier",
      );
      const current = details.customFieldValues.find(
        (v) => v.fieldId === tier?.id && v.targetId === "tc_001",
      );
      if (!tier || !current) throw new Error("seed changed");
      // A second field like it, whose options read the same and where Ana has the same value.
      const twin = {
        ...tier,
        id: "cf_900",
        title: "Talent tier (old)",
        slug: "talent-tier-old",
        options: tier.options.map((o) => ({ ...o, id: `${o.id}_old`, fieldId: "cf_900" })),
      };
      details.customFields.push(twin);
      details.customFieldValues.push({
        ...current,
        id: "cfv_900",
        fieldId: "cf_900",
        optionId: `${current.optionId}_old`,
      });
    });
    const args = { contact: "tc_001", values: [{ field: "Talent tier", value: "Trial" }] };
    const preview = await callTool<Out>(h, "update_talent_contact", args);
    expect(preview.out.status, preview.text).toBe("preview");
    h.sandbox.edit((data) => {
      const fields = hireDetailsOf(data).customFields;
      const [a, b] = ["Talent tier", "Talent tier (old)"].map((t) =>
        fields.find((f) => f.companyId === "cmp_nordlys" && f.title === t),
      );
      if (!a || !b) throw new Error("seed changed");
      [a.title, b.title] = [b.title, a.title];
    });
    const confirmed = await callTool<Out>(h, "update_talent_contact", {
      ...args,
      confirmationToken: preview.out.confirmationToken,
    });
    expect(confirmed.out.status, confirmed.text).toBe("changed");
    expect(confirmed.out.changedSincePreview).toContain("field Talent tier");
    expect(h.sandbox.countRequests("UpdateTrustedContact")).toBe(0);
    // Confirmed afresh, the field the new preview shows (by its id) is the one set, once.
    expect(confirmed.text).toContain("(cf_900)");
    const fresh = await callTool<Out>(h, "update_talent_contact", {
      ...args,
      confirmationToken: confirmed.out.confirmationToken,
    });
    expect(fresh.out.status, fresh.text).toBe("updated");
    expect(h.sandbox.countRequests("UpdateTrustedContact")).toBe(1);
  });
});

describe("an id wins over a name or value equal to it", () => {
  it("manage_candidate: a job named with another job's id is not that job", async () => {
    const h = await harness();
    h.sandbox.edit((data) => {
      const other = data.jobs?.jobs.get("job_001");
      if (!other) throw new Error("seed changed");
      other.name = "job_002";
    });
    const r = await callTool<Out>(h, "manage_candidate", { person: "Elsa", job: "job_002" });
    expect(r.out).toMatchObject({ status: "preview", bid: { id: "bid_003" } });
    expect(h.sandbox.countRequests("AcceptBid")).toBe(0);
  });

  it("update_talent_contact: an option's id wins over another option's value, and the preview says so", async () => {
    const h = await harness({ config: { toolsets: [...DEFAULT_TOOLSETS, "records"] } });
    let approvedId = "";
    h.sandbox.edit((data) => {
      const tier = hireDetailsOf(data).customFields.find(
        (f) => f.companyId === "cmp_nordlys" && f.title === "Talent tier",
      );
      const approved = tier?.options.find((o) => o.value === "Approved");
      const trial = tier?.options.find((o) => o.value === "Trial");
      if (!approved || !trial) throw new Error("seed changed");
      approvedId = approved.id;
      // The "Trial" option's value is now the id of "Approved".
      trial.value = approved.id;
    });
    const r = await callTool<Out>(h, "update_talent_contact", {
      contact: "tc_001",
      values: [{ field: "Talent tier", value: approvedId }],
    });
    expect(r.out.status, r.text).toBe("preview");
    expect(r.text).toContain(`is read as the id of option "Approved" (${approvedId})`);
    expect(h.sandbox.countRequests("UpdateTrustedContact")).toBe(0);
  });
});
