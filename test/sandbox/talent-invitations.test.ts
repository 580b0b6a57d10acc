// Inviting people into a talent pool in the sandbox: createTrustedContact, reinviteTrustedContact,
// their validation and permissions, and what the pool shows afterwards.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { talentOf } from "../../src/sandbox/domains/talent/seed.js";
import { type Sandbox, type SandboxData, startSandbox } from "../../src/sandbox/index.js";
import { type GqlResponse, gql, onlyError, TODAY } from "./helpers.js";

let sandbox: Sandbox;
/** The live data behind the sandbox (re-seeded on reset), to see which emails went out. */
let live: SandboxData;

beforeAll(async () => {
  sandbox = await startSandbox({
    today: TODAY,
    rateLimitPerMinute: 0,
    seedPatch: (data) => {
      live = data;
    },
  });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.reset();
});

interface Contact {
  id: string;
  status: string;
  invitedAt: string;
  createdAt: string;
  origin: string;
  originChannel: string;
  invitedByUser: { id: string } | null;
  company: { id: string };
  skills: { name: string }[];
  worker: {
    id: string;
    name: string;
    email: string | null;
    address: { country: { isoCode: string } | null } | null;
  };
}
const FIELDS = `id status invitedAt createdAt origin originChannel invitedByUser { id } company { id }
  skills { name } worker { id name email address { country { isoCode } } }`;

const JANE = {
  company: "cmp_nordlys",
  firstName: "Jane",
  lastName: "Doe",
  email: "jane.doe@example.com",
  country: "DK",
  links: [],
  attachments: [],
  skills: ["react", "skl_002"],
  message: "We would love to work with you.",
  origin: "INVITED",
  originChannel: "DIRECT_INVITE",
};

const create = (input: Record<string, unknown>, token: "full" | "limited" = "full") =>
  gql<{ createTrustedContact: Contact }>(
    sandbox,
    `mutation ($input: CreateTrustedContactInput!) { createTrustedContact(input: $input) { ${FIELDS} } }`,
    { variables: { input }, token },
  );

const reinvite = (id: string, token: "full" | "limited" = "full") =>
  gql<{ reinviteTrustedContact: Contact }>(
    sandbox,
    `mutation ($input: ReinviteTrustedContactInput!) { reinviteTrustedContact(input: $input) { ${FIELDS} } }`,
    { variables: { input: { id } }, token },
  );

function expectValidation(r: GqlResponse<unknown>, field: string, keys: string[]) {
  const e = onlyError(r);
  expect(e.message).toBe(`Validation failed for the field [${field}].`);
  expect(Object.keys(e.extensions.validation ?? {}).sort()).toEqual([...keys].sort());
  expect(r.data).toBeNull();
}

function expectUnauthorized(r: GqlResponse<unknown>) {
  const e = onlyError(r);
  expect(e.message).toBe("You are not authorized to perform this action.");
  expect(e.extensions.validation).toBeUndefined();
}

const emailsOf = (id: string) => talentOf(live).contacts.get(id)?.invitationEmails ?? [];

describe("createTrustedContact", () => {
  it("adds an INVITED contact to the pool, emails them, and search finds them", async () => {
    const r = await create(JANE);
    expect(r.errors).toBeUndefined();
    const c = r.data?.createTrustedContact as Contact;
    expect(c).toMatchObject({
      status: "INVITED",
      invitedAt: TODAY,
      createdAt: TODAY,
      origin: "INVITED",
      originChannel: "DIRECT_INVITE",
      invitedByUser: { id: "usr_001" },
      company: { id: "cmp_nordlys" },
      worker: {
        name: "Jane Doe",
        email: "jane.doe@example.com",
        address: { country: { isoCode: "DK" } },
      },
    });
    // Skills by name (any letter case) or by id.
    expect(c.skills.map((s) => s.name)).toEqual(["React", "TypeScript"]);
    expect(emailsOf(c.id)).toEqual([
      expect.objectContaining({
        to: "jane.doe@example.com",
        message: "We would love to work with you.",
        sentByUserId: "usr_001",
      }),
    ]);
    const found = await gql<{ trustedContacts: { data: { id: string; status: string }[] } }>(
      sandbox,
      `{ trustedContacts(search: "jane.doe@example.com", statuses: [INVITED]) { data { id status } } }`,
    );
    expect(found.data?.trustedContacts.data).toEqual([{ id: c.id, status: "INVITED" }]);
  });

  it("keeps the external identifier it was given, and finds the contact by it", async () => {
    const r = await create({ ...JANE, externalIdentifier: "wfmcp-invite-0123" });
    expect(r.errors).toBeUndefined();
    const id = r.data?.createTrustedContact.id as string;
    const found = await gql<{
      trustedContacts: { data: { id: string; externalIdentifier: string | null }[] };
    }>(
      sandbox,
      `{ trustedContacts(accounts: ["cmp_nordlys"], externalIdentifiers: ["wfmcp-invite-0123"]) { data { id externalIdentifier } } }`,
    );
    expect(found.data?.trustedContacts.data).toEqual([
      { id, externalIdentifier: "wfmcp-invite-0123" },
    ]);
    const other = await gql<{ trustedContacts: { data: unknown[] } }>(
      sandbox,
      `{ trustedContacts(externalIdentifiers: ["wfmcp-invite-other"]) { data { id } } }`,
    );
    expect(other.data?.trustedContacts.data).toEqual([]);
  });

  it("sends no email when notifyWorker is false", async () => {
    const r = await create({ ...JANE, notifyWorker: false });
    expect(r.errors).toBeUndefined();
    expect(emailsOf(r.data?.createTrustedContact.id as string)).toEqual([]);
  });

  it("reuses the worker when the person is already in another company's pool", async () => {
    // Mikkel Andersen is in Nordlys' and Castell's pools, not Harbor's.
    const r = await create({
      ...JANE,
      company: "cmp_harbor",
      firstName: "Mikkel",
      lastName: "Andersen",
      email: "MIKKEL.ANDERSEN@example.com",
    });
    expect(r.errors).toBeUndefined();
    const nordlys = await gql<{ trustedContacts: { data: Contact[] } }>(
      sandbox,
      `{ trustedContacts(accounts: ["cmp_nordlys"], search: "mikkel.andersen") { data { ${FIELDS} } } }`,
    );
    expect(r.data?.createTrustedContact.worker.id).toBe(
      nordlys.data?.trustedContacts.data[0]?.worker.id,
    );
  });

  it("names every bad field at once", async () => {
    expectValidation(
      await create({
        ...JANE,
        firstName: " ",
        lastName: "",
        email: "not-an-email",
        country: "XX",
        skills: ["React", "Underwater Basket Weaving"],
        links: ["nope"],
        attachments: ["file_1"],
      }),
      "createTrustedContact",
      [
        "input.firstName",
        "input.lastName",
        "input.email",
        "input.country",
        "input.skills.1",
        "input.links.0",
        "input.attachments.0",
      ],
    );
    expectValidation(await create({ ...JANE, company: "cmp_nowhere" }), "createTrustedContact", [
      "input.company",
    ]);
    expect([...talentOf(live).contacts.values()].some((c) => c.createdAt === TODAY)).toBe(false);
  });

  it("refuses an email already in that company's pool, in any letter case", async () => {
    expect((await create(JANE)).errors).toBeUndefined();
    const again = await create({ ...JANE, email: "Jane.Doe@Example.com" });
    expectValidation(again, "createTrustedContact", ["input.email"]);
    // Another company's pool is another pool.
    expect((await create({ ...JANE, company: "cmp_castell" })).errors).toBeUndefined();
  });

  it("does not let the limited account invite, nor anyone invite into a company it does not see", async () => {
    expectUnauthorized(await create(JANE, "limited"));
    expectUnauthorized(await create({ ...JANE, company: "cmp_harbor" }, "limited"));
    expect([...talentOf(live).contacts.values()].some((c) => c.createdAt === TODAY)).toBe(false);
  });
});

describe("reinviteTrustedContact and viewerCanReInvite", () => {
  // tc_005 is Camilla Vestergaard at Nordlys, INVITED; tc_001 is Ana Costa, ACTIVE.
  it("re-sends the invitation to a contact who has not answered", async () => {
    const before = talentOf(live).contacts.get("tc_005");
    expect(before?.status).toBe("INVITED");
    expect(before?.invitedAt).not.toBe(TODAY);
    const r = await reinvite("tc_005");
    expect(r.errors).toBeUndefined();
    expect(r.data?.reinviteTrustedContact).toMatchObject({ status: "INVITED", invitedAt: TODAY });
    expect(emailsOf("tc_005")).toEqual([
      expect.objectContaining({ to: "camilla.vestergaard@example.com", sentByUserId: "usr_001" }),
    ]);
  });

  it("moves invitedAt, a date, to the day of the re-invitation: a second one that day leaves it", async () => {
    const first = await reinvite("tc_005");
    expect(first.data?.reinviteTrustedContact.invitedAt).toBe(TODAY);
    const second = await reinvite("tc_005");
    expect(second.data?.reinviteTrustedContact.invitedAt).toBe(TODAY);
    // Two emails went out; only the first shows in what the platform exposes.
    expect(emailsOf("tc_005")).toHaveLength(2);
  });

  it("refuses contacts who answered, unknown ids and the limited account", async () => {
    expectValidation(await reinvite("tc_001"), "reinviteTrustedContact", ["input.id"]);
    expectValidation(await reinvite("tc_999"), "reinviteTrustedContact", ["input.id"]);
    expectUnauthorized(await reinvite("tc_005", "limited"));
    expect(emailsOf("tc_005")).toEqual([]);
  });

  it("says who may re-invite whom", async () => {
    const q = `{ a: trustedContact(id: "tc_005") { viewerCanReInvite(account: "cmp_nordlys") }
      b: trustedContact(id: "tc_001") { viewerCanReInvite(account: "cmp_nordlys") } }`;
    const full = await gql<Record<string, { viewerCanReInvite: boolean }>>(sandbox, q);
    expect(full.data).toEqual({ a: { viewerCanReInvite: true }, b: { viewerCanReInvite: false } });
    const limited = await gql<Record<string, { viewerCanReInvite: boolean }>>(sandbox, q, {
      token: "limited",
    });
    expect(limited.data).toEqual({
      a: { viewerCanReInvite: false },
      b: { viewerCanReInvite: false },
    });
  });

  it("trustedContact(id) hides other companies' contacts", async () => {
    const harbor = [...talentOf(live).contacts.values()].find((c) => c.companyId === "cmp_harbor");
    const r = await gql(sandbox, `{ trustedContact(id: "${harbor?.id}") { id } }`, {
      token: "limited",
    });
    expectUnauthorized(r);
    const none = await gql<{ trustedContact: null }>(
      sandbox,
      `{ trustedContact(id: "tc_999") { id } }`,
    );
    expect(none.data?.trustedContact).toBeNull();
  });
});
