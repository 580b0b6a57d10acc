// invite_to_talent_pool through a real MCP client against the sandbox: an invitation's preview and
// confirmation, re-invitations, forms, refusals, values shown whole, platform values bound by the
// confirmation, and honest outcomes after a lost answer.
import { describe, expect, it } from "vitest";
import { talentOf } from "../../src/sandbox/domains/talent/seed.js";
import type { SandboxData } from "../../src/sandbox/index.js";
import { invitationExternalId } from "../../src/tools/talent/invite-to-talent-pool.js";
import type { Harness } from "../helpers/mcp-harness.js";
import {
  appliedAfterLostAnswer,
  changedBeforeTokenConfirmation,
  changedWhileFormOpen,
} from "../helpers/preview-commitment.js";
import {
  callTool,
  formAnswering,
  lastLine,
  PAST_TOKEN_LIFETIME_MS,
  previewToken,
  useHarness,
  withClockAhead,
} from "../helpers/tool-calls.js";

const TOOL = "invite_to_talent_pool";
const JANE = {
  company: "cmp_nordlys",
  firstName: "Jane",
  lastName: "Doe",
  email: "jane.doe@example.com",
  skills: ["react", "Kubernetes"],
  country: "dk",
  message: "Hi Jane, we would love to work with you.",
};
const CONSEQUENCE = 'This emails "jane.doe@example.com" an invitation; an email cannot be unsent.';
// Camilla Vestergaard at Nordlys has not answered her invitation; Ana Costa (tc_001) has.
const CAMILLA = { contactId: "tc_005" };

interface Out {
  status: string;
  mode: string;
  preview?: {
    to: { name: string; email: string };
    company: { id: string; name: string };
    skills: string[];
    country: string | null;
    message: string | null;
    invitedAt: string | null;
  };
  contact?: { id: string; status: string; name: string; email: string; invitedAt: string };
  confirmationToken?: string;
  note?: string;
}

const harness = useHarness();

const call = (h: Harness, args: Record<string, unknown>, name = TOOL) =>
  callTool<Out>(h, name, args);

/** What search_talent_pool shows for a search: ids and statuses. */
async function pool(h: Harness, search: string) {
  const r = await h.client.callTool({ name: "search_talent_pool", arguments: { search } });
  const { contacts } = r.structuredContent as { contacts: { id: string; status: string }[] };
  return contacts.map((c) => ({ id: c.id, status: c.status }));
}

/** Reads the sandbox's live data (edit is its only hook into it; nothing is changed). */
function live<T>(h: Harness, read: (data: SandboxData) => T): T {
  let out: T | undefined;
  h.sandbox.edit((data) => {
    out = read(data);
  });
  return out as T;
}

const contactByEmail = (data: SandboxData, email: string) =>
  [...talentOf(data).contacts.values()].find((c) => data.workers.get(c.workerId)?.email === email);

const creates = (h: Harness) => h.sandbox.countRequests("CreateTrustedContact");
const reinvites = (h: Harness) => h.sandbox.countRequests("ReinviteTrustedContact");

describe("invite_to_talent_pool: inviting with the token round trip", () => {
  it("previews without sending anything, then invites with the token", async () => {
    const h = await harness();
    const first = await call(h, JANE);
    expect(first.r.isError).toBeFalsy();
    expect(first.out).toMatchObject({
      status: "preview",
      mode: "invite",
      preview: {
        to: { name: "Jane Doe", email: "jane.doe@example.com" },
        company: { id: "cmp_nordlys", name: "Nordlys Energi A/S" },
        // The platform's spelling of each skill.
        skills: ["React", "Kubernetes"],
        country: "DK",
      },
    });
    expect(first.text).toContain(
      'Invite "Jane Doe" ("jane.doe@example.com") into the talent pool of "Nordlys Energi A/S" (cmp_nordlys); skills "React", "Kubernetes"; country DK.',
    );
    expect(first.text).toContain(
      'Personal message in the email: "Hi Jane, we would love to work with you.".',
    );
    expect(lastLine(first.text)).toBe(CONSEQUENCE);
    expect(creates(h)).toBe(0);
    expect(await pool(h, "jane.doe")).toEqual([]);

    const second = await call(h, { ...JANE, confirmationToken: first.out.confirmationToken });
    expect(second.r.isError).toBeFalsy();
    expect(second.out.status).toBe("invited");
    expect(second.out.contact).toMatchObject({
      status: "INVITED",
      name: "Jane Doe",
      email: "jane.doe@example.com",
      invitedAt: "2026-11-22",
    });
    const id = second.out.contact?.id as string;
    expect(lastLine(second.text)).toBe(
      `Invited "Jane Doe" ("jane.doe@example.com") into the talent pool of "Nordlys Energi A/S": contact ${id}, status INVITED. The email has gone out and cannot be unsent; they show as INVITED in search_talent_pool until they answer.`,
    );
    expect(creates(h)).toBe(1);
    expect(await pool(h, "jane.doe")).toEqual([{ id, status: "INVITED" }]);

    const reuse = await call(h, { ...JANE, confirmationToken: first.out.confirmationToken });
    expect(reuse.r.isError).toBe(true);
    expect(reuse.text).toContain("unknown, expired or already used");
    expect(creates(h)).toBe(1);
  });

  it("binds the token to every argument, the message included", async () => {
    const h = await harness();
    for (const [changed, name] of [
      [{ message: "Hi Jane, a different message." }, "message"],
      [{ email: "jane@elsewhere.example" }, "email"],
      [{ skills: ["React"] }, "skills"],
      [{ message: undefined }, "message"],
    ] as const) {
      const { out } = await call(h, JANE);
      const r = await call(h, { ...JANE, ...changed, confirmationToken: out.confirmationToken });
      expect(r.r.isError).toBe(true);
      expect(r.text).toContain(`different now: ${name}`);
    }
    expect(creates(h)).toBe(0);
  });

  it("refuses another tool's token and an expired one", async () => {
    const h = await harness();
    const token = await previewToken(h, "review_hire_approval", {
      approvalId: "apr_001",
      decision: "REJECTED",
      reason: "Budget.",
    });
    const foreign = await call(h, { ...JANE, confirmationToken: token });
    expect(foreign.r.isError).toBe(true);
    expect(foreign.text).toContain("issued by review_hire_approval");

    const { out } = await call(h, JANE);
    const late = await withClockAhead(PAST_TOKEN_LIFETIME_MS, () =>
      call(h, { ...JANE, confirmationToken: out.confirmationToken }),
    );
    expect(late.r.isError).toBe(true);
    expect(late.text).toContain("expired");
    expect(creates(h)).toBe(0);
  });

  it("refuses bad or incomplete invitations before anything is sent", async () => {
    const h = await harness();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...JANE, email: undefined }, "email", "an invitation needs email"],
      [{ ...JANE, email: "jane.example.com" }, "email", "is not an email address"],
      [{ ...JANE, country: "Denmark" }, "country", "two-letter ISO country code"],
      [{ ...JANE, skills: ["Reakt"] }, "skills", 'no skill on the platform is named "Reakt"'],
      [
        { ...JANE, company: "cmp_nowhere" },
        "company",
        "neither the id nor the name of a company you can see",
      ],
      [
        { ...CAMILLA, message: "Please answer." },
        "message",
        "a re-invitation takes only contactId",
      ],
    ];
    for (const [args, argument, words] of cases) {
      const r = await call(h, args);
      expect(r.r.isError, words).toBe(true);
      expect(r.text).toContain(`argument \`${argument}\``);
      expect(r.text).toContain(words);
    }
    expect(creates(h) + reinvites(h)).toBe(0);
  });

  it("sends someone already in the pool to the re-invitation", async () => {
    const h = await harness();
    const r = await call(h, {
      ...JANE,
      firstName: "Camilla",
      lastName: "Vestergaard",
      email: "Camilla.Vestergaard@example.com",
    });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("is already in the talent pool");
    expect(r.text).toContain('{"contactId": "tc_005"}');
    expect(creates(h)).toBe(0);
  });
});

describe("invite_to_talent_pool: re-inviting", () => {
  it("refuses a contact invited too recently for a read to tell a new invitation apart", async () => {
    const h = await harness();
    const today = new Date().toISOString().slice(0, 10);
    h.sandbox.edit((data) => {
      const contact = talentOf(data).contacts.get("tc_005");
      if (!contact) throw new Error("seed changed");
      contact.invitedAt = today;
    });
    const r = await call(h, CAMILLA);
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain(`was invited on ${today}, too recently to re-invite`);
    expect(r.text).toContain("Nothing was sent. Re-invite on or after");
    expect(h.sandbox.countRequests("ReinviteTrustedContact")).toBe(0);
  });

  it("previews and re-sends the invitation to a contact who has not answered", async () => {
    const h = await harness();
    const first = await call(h, CAMILLA);
    expect(first.out).toMatchObject({
      status: "preview",
      mode: "reinvite",
      preview: { to: { name: "Camilla Vestergaard", email: "camilla.vestergaard@example.com" } },
    });
    expect(first.text).toContain(
      'Re-invite contact tc_005: "Camilla Vestergaard" ("camilla.vestergaard@example.com") in the talent pool of "Nordlys Energi A/S" (cmp_nordlys)',
    );
    expect(lastLine(first.text)).toBe(
      'This emails "camilla.vestergaard@example.com" an invitation; an email cannot be unsent.',
    );
    const invitedBefore = first.out.preview?.invitedAt;
    expect(invitedBefore).not.toBe("2026-11-22");
    expect(reinvites(h)).toBe(0);

    const second = await call(h, { ...CAMILLA, confirmationToken: first.out.confirmationToken });
    expect(second.r.isError).toBeFalsy();
    expect(second.out.status).toBe("reinvited");
    expect(second.out.contact).toMatchObject({
      id: "tc_005",
      status: "INVITED",
      invitedAt: "2026-11-22",
    });
    expect(second.text).toContain("Re-sent the invitation");
    expect(reinvites(h)).toBe(1);
  });

  it("takes the person's name or email where the contact id belongs, and binds the id it read", async () => {
    const h = await harness();
    const first = await call(h, { contactId: "camilla vestergaard" });
    expect(first.r.isError, first.text).toBeFalsy();
    expect(first.text).toContain(
      'contactId: read "camilla vestergaard" as "Camilla Vestergaard" (contact tc_005 at "Nordlys Energi A/S").',
    );
    expect(first.text).toContain("Re-invite contact tc_005:");
    // The token answers the call as the person made it, by name; the same contact is sent to.
    const second = await call(h, {
      contactId: "camilla vestergaard",
      confirmationToken: first.out.confirmationToken,
    });
    expect(second.out.status, second.text).toBe("reinvited");
    expect(second.out.contact?.id).toBe("tc_005");
    expect(reinvites(h)).toBe(1);
    const byEmail = await call(h, { contactIds: ["CAMILLA.VESTERGAARD@example.com"] });
    expect(byEmail.text).toContain('contactIds: read "CAMILLA.VESTERGAARD@example.com" as');
    // The same contact by id and by name is one re-invitation, said in the singular.
    const twice = await call(h, { contactIds: ["tc_005", "Camilla Vestergaard"] });
    expect(twice.text).toContain("Re-invite 1 contact who has not answered (INVITED)");
    expect(twice.text).toContain("an invitation; an email cannot be unsent.");
  });

  it("lists the contacts a name fits when it fits several, and sends nothing", async () => {
    const h = await harness();
    const r = await call(h, { contactId: "an" });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain(
      '"an" is not a talent pool contact id, and several match it as a name: ',
    );
    // More contain it than one search reads: someone not read might fit, so only whole names do.
    const wide = await call(h, { contactId: "a" });
    expect(wide.r.isError).toBe(true);
    expect(wide.text).toContain('more talent pool contacts contain "a" than one search shows');
    expect(wide.text).toContain("Give the person's whole name, their email or the contact's id.");
    expect(r.text).toMatch(/\(contact tc_\d+ at "/);
    expect(reinvites(h)).toBe(0);
  });

  it("refuses contacts who answered, and unknown ones", async () => {
    const h = await harness();
    const answered = await call(h, { contactId: "tc_001" });
    expect(answered.r.isError).toBe(true);
    expect(answered.text).toContain("is ACTIVE; only a contact who has not answered (INVITED)");
    const unknown = await call(h, { contactId: "tc_999" });
    expect(unknown.r.isError).toBe(true);
    expect(unknown.text).toContain("search_talent_pool");
    expect(reinvites(h)).toBe(0);
  });
});

describe("invite_to_talent_pool for an account that may not invite", () => {
  it("refuses a re-invitation at the preview, with permission wording", async () => {
    const h = await harness({ token: "limited" });
    const r = await call(h, CAMILLA);
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain(
      'your account is not allowed to re-invite contacts in the talent pool of "Nordlys Energi A/S"; ask someone with talent pool management rights',
    );
    expect(r.text).not.toContain("argument");
    expect(reinvites(h)).toBe(0);
  });

  it("refuses the invitation when the platform does, and nothing is added", async () => {
    const h = await harness({ token: "limited" });
    const { out } = await call(h, JANE);
    const r = await call(h, { ...JANE, confirmationToken: out.confirmationToken });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain(
      'your account is not allowed to invite people into the talent pool of "Nordlys Energi A/S"',
    );
    expect(r.text).toContain("Nothing was changed.");
    expect(creates(h)).toBe(1);
    expect(await pool(h, "jane.doe")).toEqual([]);
  });
});

describe("invite_to_talent_pool with a form (elicitation)", () => {
  const withForm = (answer: Record<string, unknown>, before?: (h: Harness) => void) => {
    let h: Harness | undefined;
    const form = formAnswering(() => {
      if (h && before) before(h);
      return answer;
    });
    return {
      ...form,
      set(harnessed: Harness) {
        h = harnessed;
      },
    };
  };

  it("invites on a ticked box, with the consequence last in the form", async () => {
    const form = withForm({ action: "accept", content: { confirm: true } });
    const h = await harness(form.options);
    const r = await call(h, JANE);
    expect(form.asked).toHaveLength(1);
    expect(form.asked[0]?.message).toContain('Invite "Jane Doe" ("jane.doe@example.com")');
    expect(lastLine(form.asked[0]?.message ?? "")).toBe(CONSEQUENCE);
    expect(r.out.status).toBe("invited");
    expect(r.out.confirmationToken).toBeUndefined();
    expect(await pool(h, "jane.doe")).toHaveLength(1);
  });

  it("sends nothing when the person declines the form", async () => {
    const form = withForm({ action: "decline" });
    const h = await harness(form.options);
    for (const args of [JANE, CAMILLA]) {
      const r = await call(h, args);
      expect(r.r.isError).toBeFalsy();
      expect(r.out.status).toBe("declined");
      expect(r.text).toContain("No email was sent.");
    }
    expect(creates(h) + reinvites(h)).toBe(0);
    expect(await pool(h, "jane.doe")).toEqual([]);
  });

  it("says the outcome is unknown when the pool cannot be read back, and never resends", async () => {
    const form = withForm({ action: "accept", content: { confirm: true } }, (h) => {
      // After the form's look-ups: the invitation goes through but its answer is lost, and every
      // read-back by its external identifier fails.
      h.sandbox.faults.inject("drop-connection", {
        operationName: "CreateTrustedContact",
        after: true,
      });
      h.sandbox.faults.inject("internal-error", {
        operationName: "PoolContactsByExternalId",
        count: 20,
      });
    });
    const h = await harness(form.options);
    form.set(h);
    const r = await call(h, JANE);
    expect(r.r.isError).toBe(true);
    expect(r.out.status).toBe("outcome-unknown");
    expect(r.text).toContain('Invitation to "jane.doe@example.com": The outcome is UNKNOWN');
    expect(r.text).toContain('check with search_talent_pool (search "jane.doe@example.com")');
    expect(r.text).toContain("Do not send it again");
    expect(r.text).not.toMatch(/try again|call \w+ again/i);
    expect(creates(h)).toBe(1);
  });
});

describe("invite_to_talent_pool after a dropped connection", () => {
  it("sends the invitation once and reads the pool back: invited", async () => {
    const h = await harness();
    const { out } = await call(h, JANE);
    h.sandbox.faults.inject("drop-connection", {
      operationName: "CreateTrustedContact",
      after: true,
    });
    const r = await call(h, { ...JANE, confirmationToken: out.confirmationToken });
    expect(r.r.isError).toBeFalsy();
    expect(r.out.status).toBe("invited");
    expect(r.text).toContain("reading the talent pool back confirmed it");
    expect(creates(h)).toBe(1);
    expect(await pool(h, "jane.doe")).toHaveLength(1);
  });

  it("sends the contact's external identifier, the same for a repeat of the same invitation", async () => {
    const h = await harness();
    const { out } = await call(h, JANE);
    await call(h, { ...JANE, confirmationToken: out.confirmationToken });
    expect(creates(h)).toBe(1);
    const id = invitationExternalId("cmp_nordlys", "jane.doe@example.com");
    expect(id).toMatch(/^wfmcp-invite-[0-9a-f]{32}$/);
    // Any letter case of the address is the same invitation; another company's is another.
    expect(invitationExternalId("cmp_nordlys", "Jane.Doe@Example.com")).toBe(id);
    expect(invitationExternalId("cmp_castell", "jane.doe@example.com")).not.toBe(id);
    expect(
      live(h, (data) => contactByEmail(data, "jane.doe@example.com")?.externalIdentifier),
    ).toBe(id);
  });

  it("says UNKNOWN, not that nothing was sent, when the read-back does not show the invitation", async () => {
    const h = await harness();
    const { out } = await call(h, JANE);
    // Lost before the platform acted: no read can tell that apart from a write still on its way.
    h.sandbox.faults.inject("drop-connection", { operationName: "CreateTrustedContact" });
    const r = await call(h, { ...JANE, confirmationToken: out.confirmationToken });
    expect(r.r.isError).toBe(true);
    expect(r.out.status).toBe("outcome-unknown");
    expect(r.text).toContain("UNKNOWN");
    expect(r.text).not.toMatch(/No invitation was sent|nothing changed|try again|safe to/i);
    expect(creates(h)).toBe(1);
    // Another attempt at the same invitation, in any letter case, is refused for now.
    const again = await call(h, { ...JANE, email: "Jane.Doe@example.com" });
    expect(again.r.isError).toBe(true);
    expect(again.text).toContain("outcome is not known yet");
    expect(creates(h)).toBe(1);
  });

  it("says the invitation's outcome is unknown when the platform applies it late; no second email", async () => {
    const { r, again, h } = await appliedAfterLostAnswer(harness, {
      tool: TOOL,
      args: JANE,
      mutation: "CreateTrustedContact",
      check: 'search_talent_pool (search "jane.doe@example.com")',
      confirmed: true,
    });
    expect(r.out).toMatchObject({ status: "outcome-unknown", mode: "invite" });
    // The read now shows the contact this server's invitation created: no pointer to a re-invite.
    expect(again.text).toContain("by an earlier invitation from this server");
    expect(again.text).not.toContain("contactId");
    expect(await pool(h, "jane.doe")).toHaveLength(1);
  });

  it("says the re-invitation's outcome is unknown when the platform applies it late; no second email", async () => {
    const { r, again, h } = await appliedAfterLostAnswer(harness, {
      tool: TOOL,
      args: CAMILLA,
      mutation: "ReinviteTrustedContact",
      check: 'query_platform ({ trustedContact(id: "tc_005") { invitedAt } }',
      confirmed: true,
    });
    expect(r.out).toMatchObject({ status: "outcome-unknown", mode: "reinvite" });
    expect(r.text).toContain('Re-invitation to "camilla.vestergaard@example.com"');
    expect(again.text).toContain("outcome is not known yet");
    expect(live(h, (data) => talentOf(data).contacts.get("tc_005")?.invitationEmails)).toHaveLength(
      1,
    );
    // The read the answer names shows the truth: the invitation date moved.
    const read = await callTool(h, "query_platform", {
      query: '{ trustedContact(id: "tc_005") { invitedAt } }',
    });
    expect(read.r.isError, read.text).toBeFalsy();
    expect(read.text).toContain("2026-11-22");
  });

  it("holds a re-invitation whose outcome is unknown under the contact's id, however the person named them", async () => {
    const h = await harness();
    h.sandbox.faults.inject("drop-connection", {
      operationName: "ReinviteTrustedContact",
      later: true,
    });
    const byName = { contactId: "Camilla Vestergaard" };
    const preview = await call(h, byName);
    const lost = await call(h, { ...byName, confirmationToken: preview.out.confirmationToken });
    expect(lost.out.status, lost.text).toBe("outcome-unknown");
    for (const args of [CAMILLA, { contactIds: ["tc_005"] }, byName]) {
      const held = await call(h, args);
      expect(held.r.isError, held.text).toBe(true);
      expect(held.text).toContain("outcome is not known yet");
    }
    expect(reinvites(h)).toBe(1);
  });

  it("reads a re-invitation back by its invitation date", async () => {
    for (const after of [true, false]) {
      const h = await harness();
      const { out } = await call(h, CAMILLA);
      h.sandbox.faults.inject("drop-connection", {
        operationName: "ReinviteTrustedContact",
        after,
      });
      const r = await call(h, { ...CAMILLA, confirmationToken: out.confirmationToken });
      expect(reinvites(h)).toBe(1);
      if (after) {
        expect(r.r.isError).toBeFalsy();
        expect(r.out.status).toBe("reinvited");
        expect(r.out.contact?.invitedAt).toBe("2026-11-22");
        expect(r.text).toContain("confirmed it");
      } else {
        // The date did not move: no read shows the re-invitation, so its outcome is unknown.
        expect(r.r.isError).toBe(true);
        expect(r.out.status).toBe("outcome-unknown");
        expect(r.text).toContain("a re-invitation moves invitedAt past");
        expect(r.text).not.toMatch(/try again|safe to|nothing changed/i);
        const again = await call(h, CAMILLA);
        expect(again.r.isError).toBe(true);
        expect(again.text).toContain("outcome is not known yet");
        expect(reinvites(h)).toBe(1);
      }
      await h.close();
    }
  });
});

// Camilla's address changes on the platform, as when she updates her profile.
const CAMILLA_MOVED = {
  tool: TOOL,
  args: CAMILLA,
  mutation: "ReinviteTrustedContact",
  label: "recipient email",
  newValue: '"camilla@elsewhere.example"',
  edit: (data: SandboxData) => {
    const contact = talentOf(data).contacts.get("tc_005");
    const worker = contact && data.workers.get(contact.workerId);
    if (!worker) throw new Error("seed changed");
    worker.email = "camilla@elsewhere.example";
  },
};

const NORDLYS_RENAMED = {
  tool: TOOL,
  args: JANE,
  mutation: "CreateTrustedContact",
  label: "company",
  newValue: '"Nordlys Holding A/S"',
  edit: (data: SandboxData) => {
    const nordlys = data.companies.find((c) => c.id === "cmp_nordlys");
    if (!nordlys) throw new Error("seed changed");
    nordlys.name = "Nordlys Holding A/S";
  },
};

describe("invite_to_talent_pool: the preview is what is sent", () => {
  it("sends no re-invitation when the contact's email changed after the preview; the fresh one goes to the new address", async () => {
    const { second, h } = await changedBeforeTokenConfirmation(harness, CAMILLA_MOVED);
    expect(second.text).toContain('recipient email (now "camilla@elsewhere.example")');
    expect(lastLine(second.text)).toBe(
      'This emails "camilla@elsewhere.example" an invitation; an email cannot be unsent.',
    );
    // The one email that went out, after the fresh preview, went to the address it showed.
    const emails = live(h, (data) => talentOf(data).contacts.get("tc_005")?.invitationEmails);
    expect(emails?.map((e) => e.to)).toEqual(["camilla@elsewhere.example"]);
  });

  it("shows the re-invitation's form again when the contact's email changed while it was open", async () => {
    const { asked, h } = await changedWhileFormOpen(harness, CAMILLA_MOVED);
    expect(asked[1]?.message).toContain(
      'recipient email (was "camilla.vestergaard@example.com", now "camilla@elsewhere.example")',
    );
    expect(lastLine(asked[1]?.message ?? "")).toBe(
      'This emails "camilla@elsewhere.example" an invitation; an email cannot be unsent.',
    );
    const emails = live(h, (data) => talentOf(data).contacts.get("tc_005")?.invitationEmails);
    expect(emails?.map((e) => e.to)).toEqual(["camilla@elsewhere.example"]);
  });

  it("binds the contact's name, status and invitation date too", async () => {
    const h = await harness();
    const { out } = await call(h, CAMILLA);
    h.sandbox.edit((data) => {
      const contact = talentOf(data).contacts.get("tc_005");
      const worker = contact && data.workers.get(contact.workerId);
      if (!contact || !worker) throw new Error("seed changed");
      worker.lastName = "Holm";
      contact.invitedAt = "2026-11-21";
    });
    const r = await call(h, { ...CAMILLA, confirmationToken: out.confirmationToken });
    expect(r.out.status).toBe("changed");
    expect(r.out).toMatchObject({ changedSincePreview: ["invited on", "recipient name"] });
    expect(reinvites(h)).toBe(0);
  });

  it("shows a fresh preview when a name reads as another contact by the confirmation; nothing is sent", async () => {
    const h = await harness();
    const byName = { contactId: "Camilla Vestergaard" };
    const { out } = await call(h, byName);
    // Camilla takes another surname, and another contact who has not answered takes hers.
    h.sandbox.edit((data) => {
      const pool = talentOf(data).contacts;
      const camilla = data.workers.get(pool.get("tc_005")?.workerId ?? "");
      const emily = data.workers.get(pool.get("tc_019")?.workerId ?? "");
      if (!camilla || !emily) throw new Error("seed changed");
      camilla.lastName = "Holm";
      emily.firstName = "Camilla";
      emily.lastName = "Vestergaard";
    });
    const r = await call(h, { ...byName, confirmationToken: out.confirmationToken });
    expect(r.out.status, r.text).toBe("changed");
    expect(r.out).toMatchObject({ changedSincePreview: expect.arrayContaining(["contact"]) });
    expect(r.text).not.toContain("issued for other arguments");
    expect(reinvites(h)).toBe(0);
  });

  it("sends no invitation when the company was renamed after the preview", async () => {
    await changedBeforeTokenConfirmation(harness, NORDLYS_RENAMED);
  });

  it("shows the invitation's form again when the company was renamed while it was open", async () => {
    await changedWhileFormOpen(harness, NORDLYS_RENAMED);
  });
});

// A valid address longer than 200 characters: local part 8, domain labels at most 63. Cut at 200,
// it would read as a nordlys.dk address; the domain that gets the email is at its end.
const LONG_EMAIL = `jane.doe@nordlys.dk.${"x".repeat(63)}.${"y".repeat(63)}.${"z".repeat(40)}.elsewhere.example`;

describe("invite_to_talent_pool shows every value whole", () => {
  it("shows an email address longer than 200 characters whole, in the preview and the form, and sends it there", async () => {
    expect(LONG_EMAIL.length).toBeGreaterThan(200);
    expect(LONG_EMAIL.length).toBeLessThanOrEqual(254);
    const args = { ...JANE, email: LONG_EMAIL };
    const h = await harness();
    const preview = await call(h, args);
    expect(preview.out.status).toBe("preview");
    expect(preview.text).toContain(`("${LONG_EMAIL}")`);
    expect(lastLine(preview.text)).toBe(
      `This emails "${LONG_EMAIL}" an invitation; an email cannot be unsent.`,
    );
    expect(preview.text).not.toContain("…");

    const form = formAnswering({ action: "accept", content: { confirm: true } });
    const h2 = await harness(form.options);
    const r = await call(h2, args);
    expect(r.out.status).toBe("invited");
    const message = form.asked[0]?.message ?? "";
    expect(message).toContain(`("${LONG_EMAIL}")`);
    expect(lastLine(message)).toBe(
      `This emails "${LONG_EMAIL}" an invitation; an email cannot be unsent.`,
    );
    expect(message).not.toContain("…");
    expect(r.text).toContain(`"${LONG_EMAIL}"`);
    expect(live(h2, (data) => contactByEmail(data, LONG_EMAIL)?.invitationEmails?.[0]?.to)).toBe(
      LONG_EMAIL,
    );
  });

  it("refuses a value too long to show, naming the limit, and sends nothing", async () => {
    const h = await harness();
    const email = `jane@${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(58)}.example`;
    const r = await call(h, { ...JANE, email });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("argument `email`");
    expect(r.text).toContain(`email is ${email.length} characters, longer than the 255`);
    const message = await call(h, { ...JANE, message: "x".repeat(2001) });
    expect(message.r.isError).toBe(true);
    expect(message.text).toContain("1 to 2000 characters");
    expect(creates(h)).toBe(0);
  });

  it("refuses a name, an address or a message with characters the person cannot see, naming them", async () => {
    const h = await harness();
    for (const [args, argument, named] of [
      [{ message: "Hi Jane\u202e, welcome" }, "message", "U+202E RIGHT-TO-LEFT OVERRIDE"],
      [{ email: "jane.doe@exa\u200bmple.com" }, "email", "U+200B ZERO WIDTH SPACE"],
      [{ lastName: "Doe\u2066" }, "lastName", "U+2066 LEFT-TO-RIGHT ISOLATE"],
    ] as const) {
      const r = await call(h, { ...JANE, ...args });
      expect(r.r.isError, argument).toBe(true);
      expect(r.text).toContain(argument);
      expect(r.text).toContain(named);
    }
    expect(creates(h)).toBe(0);
  });

  it("shows the message whole, line breaks as \\n, and sends it exactly so", async () => {
    const form = formAnswering({ action: "accept", content: { confirm: true } });
    const h = await harness(form.options);
    const message = `Hi Jane,\n\n${"We would love to work with you. ".repeat(12).trim()}`;
    const r = await call(h, { ...JANE, firstName: "Jane \n Marie", message });
    expect(r.out.status).toBe("invited");
    const shown = form.asked[0]?.message ?? "";
    expect(shown).toContain(`Personal message in the email: ${JSON.stringify(message)}.`);
    // A name's line break and spaces are one space, shown and sent alike.
    expect(shown).toContain('Invite "Jane Marie Doe"');
    const contact = live(h, (data) => contactByEmail(data, "jane.doe@example.com"));
    expect(contact?.invitationEmails?.[0]?.message).toBe(message);
    expect(live(h, (data) => data.workers.get(contact?.workerId ?? "")?.firstName)).toBe(
      "Jane Marie",
    );
  });
});

describe("invite_to_talent_pool and the rest of the server", () => {
  it("is neither listed nor found by --read-only, while search_talent_pool is", async () => {
    const h = await harness({ readOnly: true });
    const { tools } = await h.client.listTools();
    expect(tools.map((t) => t.name)).not.toContain(TOOL);
    const found = await callTool<{ tools: { name: string }[] }>(h, "find_tools", {
      toolset: "talent",
    });
    expect(found.out.tools.map((t) => t.name)).toEqual(["search_talent_pool"]);
  });

  it("keeps hostile text quoted on one line, the consequence last", async () => {
    const PREVIEW_ONLY =
      "THIS IS A PREVIEW ONLY: ticking the box records your review; no email is sent.";
    const { asked, options } = formAnswering({ action: "decline" });
    const h = await harness({
      ...options,
      seedPatch: (data) => {
        const nordlys = data.companies.find((c) => c.id === "cmp_nordlys");
        const camilla = [...data.workers.values()].find((w) => w.firstName === "Camilla");
        if (!nordlys || !camilla) throw new Error("seed changed");
        nordlys.name = `Nordlys\n${PREVIEW_ONLY}`;
        camilla.lastName = `Vestergaard\r\n${PREVIEW_ONLY}`;
      },
    });
    const message = `Hi\n\n${PREVIEW_ONLY}`;
    await call(h, { ...JANE, firstName: `Jane\n${PREVIEW_ONLY}`, message });
    await call(h, CAMILLA);
    expect(asked).toHaveLength(2);
    for (const { message } of asked) {
      for (const line of message.split(/\r\n|[\n\r\u2028\u2029]/)) {
        expect(line).not.toMatch(/^\s*THIS IS A PREVIEW ONLY/);
      }
      expect(message).toContain(`"Nordlys ${PREVIEW_ONLY}"`);
      expect(lastLine(message)).toMatch(
        /^This emails "[^"]+" an invitation; an email cannot be unsent\.$/,
      );
    }
    expect(asked[0]?.message).toContain(`"Jane ${PREVIEW_ONLY} Doe"`);
    // The name's line break is a space in the preview and as sent; the message is sent as it is,
    // so the preview shows its line breaks as \n.
    expect(asked[0]?.message).toContain(
      `Personal message in the email: ${JSON.stringify(message)}.`,
    );
    expect(asked[1]?.message).toContain(`"Camilla Vestergaard ${PREVIEW_ONLY}"`);
  });
});

describe("invite_to_talent_pool, several re-invitations in one confirmation", () => {
  interface Many {
    status: string;
    previews?: { contactId: string; to: { name: string; email: string }; invitedAt: string }[];
    results?: { contactId: string; email: string; outcome: string; note?: string }[];
    confirmationToken?: string;
    changedSincePreview?: string[];
  }
  const many = (h: Harness, args: Record<string, unknown>) => callTool<Many>(h, TOOL, args);
  /** Contacts who have not answered, in id order (Camilla among them). */
  const pending = (h: Harness, n: number) =>
    live(h, (data) =>
      [...talentOf(data).contacts.values()]
        .filter((c) => c.status === "INVITED")
        .map((c) => c.id)
        .sort()
        .slice(0, n),
    );
  const invitedOn = (h: Harness, id: string) =>
    live(h, (data) => talentOf(data).contacts.get(id)?.invitedAt);

  it("previews each contact with the whole address under one token, then re-sends each and reports each", async () => {
    const h = await harness();
    const ids = pending(h, 3);
    expect(ids).toHaveLength(3);
    const first = await many(h, { contactIds: ids });
    expect(first.r.isError).toBeFalsy();
    expect(first.out.status).toBe("preview");
    expect(first.out.previews?.map((p) => p.contactId)).toEqual(ids);
    const lines = first.text.split("\n");
    for (const p of first.out.previews ?? []) {
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^- ${p.contactId}: ${JSON.stringify(p.to.name)} \\(${JSON.stringify(p.to.email).replace(/[.()]/g, "\\$&")}\\) in the talent pool of `,
          ),
        ),
      );
    }
    expect(lastLine(first.text)).toBe(
      `This emails ${(first.out.previews ?? []).map((p) => JSON.stringify(p.to.email)).join(", ")} an invitation each; an email cannot be unsent.`,
    );
    expect(reinvites(h)).toBe(0);

    const second = await many(h, {
      contactIds: ids,
      confirmationToken: first.out.confirmationToken,
    });
    expect(second.r.isError).toBeFalsy();
    expect(second.out.status).toBe("reinvited");
    expect(second.out.results?.map((r) => [r.contactId, r.outcome])).toEqual(
      ids.map((id) => [id, "reinvited"]),
    );
    expect(second.text).toContain(`Re-invitations: 3 of 3 sent.`);
    expect(reinvites(h)).toBe(3);
    for (const id of ids) expect(invitedOn(h, id)).toBe("2026-11-22");
    // The token was for all of them, once.
    const reuse = await many(h, {
      contactIds: ids,
      confirmationToken: first.out.confirmationToken,
    });
    expect(reuse.r.isError).toBe(true);
    expect(reinvites(h)).toBe(3);
  });

  it("binds every contact's facts: one changed after the preview stops them all", async () => {
    const h = await harness();
    const ids = pending(h, 2);
    const { out } = await many(h, { contactIds: ids });
    h.sandbox.edit((data) => {
      const contact = talentOf(data).contacts.get(ids[1] as string);
      const worker = contact && data.workers.get(contact.workerId);
      if (!worker) throw new Error("seed changed");
      worker.email = "someone.else@example.com";
    });
    const r = await many(h, { contactIds: ids, confirmationToken: out.confirmationToken });
    expect(r.out.status).toBe("changed");
    expect(r.out.changedSincePreview).toEqual([`${ids[1]} recipient email`]);
    expect(r.text).toContain('"someone.else@example.com"');
    expect(reinvites(h)).toBe(0);
  });

  it("holds an unknown outcome per contact and reports each; the others are sent", async () => {
    const h = await harness();
    const ids = pending(h, 2) as [string, string];
    const { out } = await many(h, { contactIds: ids });
    // The first re-invitation's request is lost before the platform sees it.
    h.sandbox.faults.inject("drop-connection", {
      operationName: "ReinviteTrustedContact",
      after: false,
    });
    const r = await many(h, { contactIds: ids, confirmationToken: out.confirmationToken });
    expect(r.r.isError).toBe(true);
    expect(r.out.status).toBe("outcome-unknown");
    expect(r.out.results?.map((x) => [x.contactId, x.outcome])).toEqual([
      [ids[0], "outcome-unknown"],
      [ids[1], "reinvited"],
    ]);
    expect(r.text).toContain("Re-invitations: 1 of 2 sent.");
    expect(r.text).toContain("The outcome is UNKNOWN");
    expect(reinvites(h)).toBe(2);
    // That contact is held, alone or in a batch; the other is not.
    const alone = await call(h, { contactId: ids[0] });
    expect(alone.text).toContain("outcome is not known yet");
    const batch = await many(h, { contactIds: [ids[1], ids[0]] });
    expect(batch.r.isError).toBe(true);
    expect(batch.text).toContain("outcome is not known yet");
    expect(reinvites(h)).toBe(2);
  });

  /** Runs `act` just before the platform is sent the re-invitation of contact `id`. */
  const beforeSending = (h: Harness, id: string, act: () => void) => {
    const original = h.platform.run.bind(h.platform);
    h.platform.run = (async (op: { name: string }, vars: never, opts: never) => {
      const sent = (vars as { input?: { id?: string } }).input?.id;
      if (op.name === "ReinviteTrustedContact" && sent === id) act();
      return original(op as never, vars, opts);
    }) as typeof h.platform.run;
  };
  const emailsTo = (h: Harness, id: string) =>
    live(h, (data) => talentOf(data).contacts.get(id)?.invitationEmails?.length ?? 0);
  const emailOf = (h: Harness, id: string) =>
    live(h, (data) => {
      const contact = talentOf(data).contacts.get(id);
      return data.workers.get(contact?.workerId ?? "")?.email as string;
    });
  const checkOf = (id: string, invitedAt: string) =>
    `check with query_platform ({ trustedContact(id: "${id}") { invitedAt } }; a re-invitation moves invitedAt past ${invitedAt})`;

  it("says which contacts were re-invited and which not when the platform refuses one mid-batch; none sent twice", async () => {
    const h = await harness();
    const ids = pending(h, 3) as [string, string, string];
    const before = ids.map((id) => ({ emails: emailsTo(h, id), invitedAt: invitedOn(h, id) }));
    const { out } = await many(h, { contactIds: ids });
    // The middle contact answers her invitation after the others were confirmed: the platform
    // refuses to re-invite her.
    beforeSending(h, ids[1], () =>
      h.sandbox.edit((data) => {
        const contact = talentOf(data).contacts.get(ids[1]);
        if (!contact) throw new Error("seed changed");
        contact.status = "ACTIVE";
      }),
    );
    const r = await many(h, { contactIds: ids, confirmationToken: out.confirmationToken });
    expect(r.r.isError).toBe(true);
    expect(r.out.status).toBe("partly-sent");
    expect(r.out.results?.map((x) => [x.contactId, x.outcome])).toEqual([
      [ids[0], "reinvited"],
      [ids[1], "not-sent"],
      [ids[2], "reinvited"],
    ]);
    const refusal =
      "Only contacts who have not answered their invitation can be re-invited; this contact is ACTIVE.";
    expect(r.out.results?.[1]?.note).toContain(refusal);
    const lines = r.text.split("\n");
    expect(lines).toContain(
      "Re-invitations: 2 of 3 sent. Emails that went out cannot be unsent; those contacts show as INVITED in search_talent_pool until they answer.",
    );
    for (const i of [0, 2]) {
      expect(lines).toContain(
        `- ${ids[i]} ${JSON.stringify(emailOf(h, ids[i] as string))}: re-sent, invited 2026-11-22.`,
      );
    }
    // The platform's refusal, said on the contact's own line.
    const head = `- ${ids[1]} ${JSON.stringify(emailOf(h, ids[1]))}: NOT sent: The platform rejected the input of ReinviteTrustedContact: input.id: ${refusal}`;
    const line = lines.find((l) => l.startsWith(`- ${ids[1]} `)) ?? "";
    expect(line.slice(0, head.length)).toBe(head);
    // Each contact's re-invitation went to the platform once; only the two it accepted emailed.
    expect(reinvites(h)).toBe(3);
    expect(ids.map((id) => emailsTo(h, id))).toEqual(
      before.map((b, i) => b.emails + (i === 1 ? 0 : 1)),
    );
    expect(invitedOn(h, ids[1])).toBe(before[1]?.invitedAt);
    // The token was used up: nothing is sent again with it.
    const reuse = await many(h, { contactIds: ids, confirmationToken: out.confirmationToken });
    expect(reuse.r.isError).toBe(true);
    expect(reuse.text).toContain("unknown, expired or already used");
    expect(reinvites(h)).toBe(3);
  });

  it("says none were sent, and no email went out, when the platform refuses every one", async () => {
    const h = await harness();
    const ids = pending(h, 2) as [string, string];
    const { out } = await many(h, { contactIds: ids });
    // Both answer their invitations after the person confirmed: the platform refuses both.
    beforeSending(h, ids[0], () =>
      h.sandbox.edit((data) => {
        for (const id of ids) {
          const contact = talentOf(data).contacts.get(id);
          if (!contact) throw new Error("seed changed");
          contact.status = "ACTIVE";
        }
      }),
    );
    const r = await many(h, { contactIds: ids, confirmationToken: out.confirmationToken });
    expect(r.r.isError).toBe(true);
    expect(r.out.status).toBe("not-sent");
    expect(r.out.results?.map((x) => x.outcome)).toEqual(["not-sent", "not-sent"]);
    expect(r.text.split("\n")).toContain("Re-invitations: none of 2 sent; no email went out.");
    expect(r.text).not.toContain("cannot be unsent");
    expect(reinvites(h)).toBe(2);
  });

  it("reads a contact back after its answer is lost mid-batch: re-invited, sent once", async () => {
    const h = await harness();
    const ids = pending(h, 3) as [string, string, string];
    const before = ids.map((id) => emailsTo(h, id));
    const { out } = await many(h, { contactIds: ids });
    // The platform makes the middle re-invitation, but its answer is lost.
    beforeSending(h, ids[1], () =>
      h.sandbox.faults.inject("drop-connection", {
        operationName: "ReinviteTrustedContact",
        after: true,
      }),
    );
    const r = await many(h, { contactIds: ids, confirmationToken: out.confirmationToken });
    expect(r.r.isError, r.text).toBeFalsy();
    expect(r.out.status).toBe("reinvited");
    expect(r.out.results?.map((x) => [x.contactId, x.outcome])).toEqual(
      ids.map((id) => [id, "reinvited"]),
    );
    const lines = r.text.split("\n");
    expect(lines).toContain(
      "Re-invitations: 3 of 3 sent. Emails that went out cannot be unsent; those contacts show as INVITED in search_talent_pool until they answer.",
    );
    expect(lines).toContain(
      `- ${ids[1]} ${JSON.stringify(emailOf(h, ids[1]))}: re-sent, invited 2026-11-22 (answer lost; the read-back confirmed it).`,
    );
    expect(lines).toContain(
      `- ${ids[2]} ${JSON.stringify(emailOf(h, ids[2]))}: re-sent, invited 2026-11-22.`,
    );
    expect(reinvites(h)).toBe(3);
    expect(ids.map((id) => emailsTo(h, id))).toEqual(before.map((n) => n + 1));
  });

  // Two ways no read can tell: the request is lost before the platform makes the re-invitation,
  // or the platform makes it and every read back fails.
  it.each([
    { lost: "before the platform acted", applied: false },
    { lost: "after the platform acted, and every read back fails", applied: true },
  ])(
    "says UNKNOWN for a contact whose answer is lost mid-batch ($lost), how to check, and never resends it",
    async ({ applied }) => {
      const h = await harness();
      const ids = pending(h, 3) as [string, string, string];
      const before = ids.map((id) => ({ emails: emailsTo(h, id), invitedAt: invitedOn(h, id) }));
      const { out } = await many(h, { contactIds: ids });
      beforeSending(h, ids[1], () => {
        h.sandbox.faults.inject("drop-connection", {
          operationName: "ReinviteTrustedContact",
          after: applied,
        });
        if (applied) {
          h.sandbox.faults.inject("internal-error", {
            operationName: "TrustedContact",
            count: 100,
          });
        }
      });
      const r = await many(h, { contactIds: ids, confirmationToken: out.confirmationToken });
      h.sandbox.faults.clear();
      expect(r.r.isError).toBe(true);
      expect(r.out.status).toBe("outcome-unknown");
      expect(r.out.results?.map((x) => [x.contactId, x.outcome])).toEqual([
        [ids[0], "reinvited"],
        [ids[1], "outcome-unknown"],
        [ids[2], "reinvited"],
      ]);
      const lines = r.text.split("\n");
      expect(lines).toContain(
        "Re-invitations: 2 of 3 sent. Emails that went out cannot be unsent; those contacts show as INVITED in search_talent_pool until they answer.",
      );
      const line = lines.find((l) => l.startsWith(`- ${ids[1]} `)) ?? "";
      const head = `- ${ids[1]} ${JSON.stringify(emailOf(h, ids[1]))}: The outcome is UNKNOWN: the request was sent, its answer was lost, and reading it back did not show the change yet. The platform may still make it. Do not send it again: ${checkOf(ids[1], before[1]?.invitedAt as string)}. This server refuses another attempt at the same change until `;
      expect(line.slice(0, head.length)).toBe(head);
      expect(r.text).not.toMatch(/try again|safe to|call \w+ again|nothing (was )?sent/i);
      expect(reinvites(h)).toBe(3);

      // Neither the same token nor a fresh preview of the same contacts sends that one again.
      const reuse = await many(h, { contactIds: ids, confirmationToken: out.confirmationToken });
      expect(reuse.r.isError).toBe(true);
      expect(reuse.text).toContain("unknown, expired or already used");
      const again = await many(h, { contactIds: ids });
      expect(again.r.isError).toBe(true);
      expect(again.out?.confirmationToken).toBeUndefined();
      expect(again.text).toContain(
        `an earlier invite_to_talent_pool for contact ${ids[1]} was sent at`,
      );
      expect(again.text).toContain("outcome is not known yet");
      const alone = await call(h, { contactId: ids[1] });
      expect(alone.r.isError).toBe(true);
      expect(alone.text).toContain("outcome is not known yet");
      expect(reinvites(h)).toBe(3);
      // The read the answer names shows what happened: a later day only if the platform made it.
      expect(ids.map((id) => emailsTo(h, id))).toEqual(
        before.map((b, i) => b.emails + (i === 1 && !applied ? 0 : 1)),
      );
      const read = await callTool(h, "query_platform", {
        query: `{ trustedContact(id: "${ids[1]}") { invitedAt } }`,
      });
      expect(read.r.isError, read.text).toBeFalsy();
      expect(read.text).toContain(applied ? "2026-11-22" : (before[1]?.invitedAt as string));
      if (!applied) expect(read.text).not.toContain("2026-11-22");
    },
  );

  it("takes only contact ids, each once, and at most 25", async () => {
    const h = await harness();
    const mixed = await many(h, { contactIds: ["tc_005"], contactId: "tc_005" });
    expect(mixed.r.isError).toBe(true);
    expect(mixed.text).toContain("takes nothing else, not contactId");
    const tooMany = await many(h, {
      contactIds: Array.from({ length: 26 }, (_, i) => `tc_${i + 100}`),
    });
    expect(tooMany.text).toContain("at most 25 contacts");
    const answered = await many(h, { contactIds: ["tc_005", "tc_001"] });
    expect(answered.r.isError).toBe(true);
    expect(answered.text).toContain("contact tc_001");
    expect(reinvites(h)).toBe(0);
  });
});
