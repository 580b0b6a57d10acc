// The talent pool in the sandbox: skills, trusted contacts, their filters and who may see them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { createSeed } from "../../src/sandbox/seed/index.js";
import { gql, onlyError, TODAY } from "./helpers.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ today: TODAY, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

interface Contact {
  id: string;
  status: string;
  invitedAt: string;
  company: { id: string };
  skills: { id: string; name: string }[];
  worker: {
    id: string;
    name: string;
    address: { city: string | null; country: { isoCode: string; name: string | null } } | null;
  };
}
interface ContactPage {
  paginatorInfo: { total: number; count: number; lastPage: number };
  data: Contact[];
}

const CONTACT_FIELDS = `id status invitedAt company { id } skills { id name }
  worker { id name address { city country { isoCode name } } }`;

async function contacts(args: string, token: "full" | "limited" = "full"): Promise<ContactPage> {
  const r = await gql<{ trustedContacts: ContactPage }>(
    sandbox,
    `{ trustedContacts(${args || "first: 100"}) { paginatorInfo { total count lastPage } data { ${CONTACT_FIELDS} } } }`,
    { token },
  );
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data?.trustedContacts as ContactPage;
}

async function skillId(name: string): Promise<string> {
  const r = await gql<{ skills: { data: { id: string; name: string }[] } }>(
    sandbox,
    "query ($q: String) { skills(search: $q, first: 25) { data { id name } } }",
    { variables: { q: name } },
  );
  const skill = r.data?.skills.data.find((s) => s.name === name);
  if (!skill) throw new Error(`no skill ${name}`);
  return skill.id;
}

const names = (p: ContactPage) => p.data.map((c) => c.worker.name);

describe("skills", () => {
  it("searches skill names in any letter case, sorted by name", async () => {
    const r = await gql<{ skills: { data: { name: string }[] } }>(
      sandbox,
      '{ skills(search: "REACT", first: 10) { data { name } } }',
    );
    expect(r.data?.skills.data.map((s) => s.name)).toEqual(["React", "React Native"]);
  });

  it("pages through every skill", async () => {
    const r = await gql<{ skills: { paginatorInfo: { total: number; lastPage: number } } }>(
      sandbox,
      "{ skills(first: 10, page: 2) { paginatorInfo { total lastPage } } }",
    );
    expect(r.data?.skills.paginatorInfo.total).toBeGreaterThanOrEqual(20);
    expect(r.data?.skills.paginatorInfo.lastPage).toBeGreaterThanOrEqual(2);
  });
});

describe("trustedContacts", () => {
  it("holds 30 to 40 contacts over the three companies, sorted by worker name", async () => {
    const all = await contacts("first: 100");
    expect(all.paginatorInfo.total).toBeGreaterThanOrEqual(30);
    expect(all.paginatorInfo.total).toBeLessThanOrEqual(40);
    const companies = new Set(all.data.map((c) => c.company.id));
    expect(companies).toEqual(new Set(["cmp_nordlys", "cmp_harbor", "cmp_castell"]));
    const sorted = [...names(all)].sort((a, b) => a.localeCompare(b, "en"));
    expect(names(all)).toEqual(sorted);
    expect(new Set(all.data.map((c) => c.status))).toEqual(
      new Set(["INVITED", "ACTIVE", "DECLINED", "APPLIED", "BLOCKED"]),
    );
    for (const c of all.data) expect(c.invitedAt <= TODAY).toBe(true);
  });

  it("links hired workers to their existing worker records", async () => {
    const ana = (await contacts('search: "Ana Costa", first: 10')).data;
    expect(ana).toHaveLength(1);
    expect(ana[0]).toMatchObject({
      company: { id: "cmp_nordlys" },
      worker: { id: "wrk_001", address: { country: { isoCode: "DK", name: "Denmark" } } },
    });
  });

  it("filters by skill ids (every one given), country and status", async () => {
    const react = await skillId("React");
    const typescript = await skillId("TypeScript");
    const reactDk = await contacts(`skills: ["${react}"], countries: ["dk"], first: 100`);
    expect(names(reactDk)).toEqual(
      expect.arrayContaining(["Ana Costa", "Mikkel Andersen", "Camilla Vestergaard"]),
    );
    expect(names(reactDk)).not.toContain("Elsa Bergström"); // React, but in Sweden
    expect(names(reactDk)).not.toContain("Nikolaj Brandt"); // React Native is another skill
    for (const c of reactDk.data) {
      expect(c.skills.map((s) => s.id)).toContain(react);
      expect(c.worker.address?.country.isoCode).toBe("DK");
    }
    const both = await contacts(`skills: ["${react}", "${typescript}"], first: 100`);
    for (const c of both.data) {
      expect(c.skills.map((s) => s.name)).toEqual(expect.arrayContaining(["React", "TypeScript"]));
    }
    expect(names(both)).not.toContain("Camilla Vestergaard"); // React without TypeScript
    const invited = await contacts("statuses: [INVITED], first: 100");
    expect(invited.data.length).toBeGreaterThan(0);
    expect(invited.data.every((c) => c.status === "INVITED")).toBe(true);
  });

  it("filters by current hires and by hire history at the contact's company", async () => {
    const now = names(await contacts("hireStatus: { status: CURRENTLY_HIRED }, first: 100"));
    expect(now).toContain("Ana Costa"); // hire_001 is active
    expect(now).not.toContain("Jonas Petersen"); // his hire ended
    expect(now).not.toContain("Mikkel Andersen");
    const notNow = names(await contacts("hireStatus: { status: NOT_CURRENTLY_HIRED }, first: 100"));
    expect(notNow).toContain("Jonas Petersen");
    expect(notNow).not.toContain("Ana Costa");
    const before = names(await contacts("hireHistory: { status: PREVIOUSLY_HIRED }, first: 100"));
    expect(before).toEqual(expect.arrayContaining(["Ana Costa", "Jonas Petersen"]));
    const never = names(
      await contacts("hireHistory: { status: NOT_PREVIOUSLY_HIRED }, first: 100"),
    );
    // Priya's only hire is a draft: not hired yet.
    expect(never).toEqual(expect.arrayContaining(["Mikkel Andersen", "Priya Raman"]));
    expect(never).not.toContain("Ana Costa");
  });

  it("asks about the given accounts when the hire filter names them", async () => {
    // Ana works for Nordlys, not Harbor: with accounts [cmp_harbor] she is not currently hired.
    const r = names(
      await contacts(
        'search: "Ana Costa", hireStatus: { status: NOT_CURRENTLY_HIRED, accounts: ["cmp_harbor"] }',
      ),
    );
    expect(r).toEqual(["Ana Costa"]);
  });

  it("keeps one contact per company for a worker in two pools", async () => {
    const mikkel = await contacts('search: "Mikkel", first: 10');
    expect(mikkel.data.map((c) => c.company.id).sort()).toEqual(["cmp_castell", "cmp_nordlys"]);
    expect(new Set(mikkel.data.map((c) => c.worker.id)).size).toBe(1);
  });

  it("pages and refuses a page size above 100", async () => {
    const p = await contacts("first: 5, page: 2");
    expect(p.paginatorInfo.count).toBe(5);
    const r = await gql(sandbox, "{ trustedContacts(first: 101) { paginatorInfo { total } } }");
    expect(onlyError(r).extensions.validation).toHaveProperty("first");
  });

  it("shows the limited token only Nordlys' pool, even when asked for another company", async () => {
    const limited = await contacts("first: 100", "limited");
    expect(limited.paginatorInfo.total).toBeGreaterThan(10);
    expect(limited.data.every((c) => c.company.id === "cmp_nordlys")).toBe(true);
    const harbor = await contacts('accounts: ["cmp_harbor"], first: 100', "limited");
    expect(harbor.paginatorInfo.total).toBe(0);
  });

  it("seeds the same pool every time, dated relative to today", () => {
    const a = createSeed(TODAY);
    expect(a.talent).toEqual(createSeed(TODAY).talent);
    const later = createSeed("2027-03-10");
    const first = [...(later.talent?.contacts.values() ?? [])][0];
    const same = [...(a.talent?.contacts.values() ?? [])][0];
    expect(first?.invitedAt).not.toBe(same?.invitedAt);
    expect(first?.workerId).toBe(same?.workerId);
  });
});
