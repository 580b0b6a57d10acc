import { createHash } from "node:crypto";
import * as z from "zod";
import { isPlatformError } from "../../client/errors.js";
import {
  MAX_SKILL_LOOKUPS,
  type SkillRef,
  skillAlias,
  skillLookupQuery,
  skillVariable,
} from "../../client/operations/talent.js";
import {
  canReInviteQuery,
  createTrustedContactMutation,
  type InvitedContact,
  poolContactsByEmailQuery,
  poolContactsByExternalIdQuery,
  reinviteTrustedContactMutation,
  trustedContactQuery,
} from "../../client/operations/talent-invitations.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import { SharedStateUnavailableError } from "../../state/store.js";
import {
  confirmationTokenArg,
  confirmedWrite,
  confirmedWriteAnnotations,
  OutcomeStillUnknownError,
  type Proposal,
  previewTokenOutput,
  refuseWhileUnknown,
  sendWrite,
  whole,
} from "../confirmation.js";
import {
  defineTool,
  NotAllowedError,
  shown,
  type ToolContext,
  ToolInputError,
} from "../define-tool.js";
import { requestOptions } from "../format.js";
import { accountsOf, contactByName, withCompanyId, withNotes } from "../known-ids.js";
import { refusedAsNotAllowed } from "../not-allowed.js";
import { callOf } from "../reach.js";
import {
  hiddenCharacters,
  holdsHidden,
  REMOVE_HIDDEN,
  sentTextSchema,
  sentTextShown,
} from "../sent-text.js";
import { idAndName, toIdAndName } from "../shapes/named.js";
import {
  type InvitedContactOut,
  invitedContactOutput,
  toInvitedContact,
} from "../shapes/talent-contact.js";

const TOOL = "invite_to_talent_pool";
const EMAIL = z.email();
const DAY_MS = 86_400_000;
const RIGHTS = "talent pool management";
// The platform's own limits: a longer value is refused here, never cut in the preview.
const MAX_NAME = 255;
const MAX_MESSAGE = 2000;

const previewOutput = z.object({
  to: z.object({ name: z.string(), email: z.string() }),
  company: idAndName,
  skills: z.array(z.string()),
  country: z.string().nullable(),
  message: z.string().nullable(),
  /** Re-invitation: the contact and when they were invited last. */
  contactId: z.string().nullable(),
  invitedAt: z.string().nullable(),
});
type Preview = z.infer<typeof previewOutput>;

export const inviteToTalentPoolTool = defineTool({
  name: TOOL,
  title: "Invite to talent pool",
  toolset: "talent",
  instruction:
    "invite_to_talent_pool emails a freelancer an invitation into a company's talent pool, or re-sends one to a contact who has not answered; it needs the person's confirmation.",
  readme: {
    does: "Invites a freelancer by email, or re-invites one or several who have not answered, by contact id, name or email (after one confirmation)",
    changes: "yes, an email cannot be unsent",
  },
  description: [
    "Invite a freelancer by email into a company's talent pool, or re-invite a contact who has not answered (contactId).",
    'Use when: "invite jane@example.com". Do not use for: finding contacts (search_talent_pool).',
    "Emails cannot be unsent: the first call only previews; once the person agrees, repeat it with confirmationToken.",
    'Example: {"company":"214","firstName":"Jane","lastName":"Doe","email":"jane@example.com"}',
  ].join("\n"),
  inputSchema: {
    // Lengths are checked in the handler: limits in the schema cost every turn's context.
    company: z.string().min(1).optional().describe("Company id or name."),
    firstName: z.string().trim().min(1).optional().describe("First name."),
    lastName: z.string().trim().min(1).optional().describe("Last name."),
    email: z.string().trim().min(1).optional().describe("Gets the invitation."),
    skills: z.array(z.string().trim().min(1)).optional().describe("Skill names, e.g. React."),
    country: z.string().trim().optional().describe("ISO code, e.g. DK."),
    message: sentTextSchema(1, MAX_MESSAGE).optional().describe("Personal note in the email."),
    contactId: z
      .string()
      .min(1)
      .optional()
      .describe("Re-invite this contact (id, name or email) instead."),
    contactIds: z.array(z.string()).optional().describe("Or several at once."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum([
      "preview",
      "changed",
      "invited",
      "reinvited",
      "declined",
      "outcome-unknown",
      "partly-sent",
    ]),
    mode: z.enum(["invite", "reinvite"]),
    preview: previewOutput.optional(),
    /** contactIds: each contact as previewed, and what happened to each once confirmed. */
    previews: z.array(previewOutput).optional(),
    results: z
      .array(
        z.object({
          contactId: z.string(),
          email: z.string(),
          outcome: z.enum(["reinvited", "outcome-unknown", "not-sent"]),
          note: z.string().optional(),
        }),
      )
      .optional(),
    contact: invitedContactOutput.optional(),
    ...previewTokenOutput,
    note: z.string().optional(),
  },
  // Nothing is deleted, but the email it sends cannot be unsent: the project marks what
  // cannot be undone as destructive, so clients ask before it.
  // An invitation adds a contact, or sends one again; nothing that exists is changed.
  annotations: { ...confirmedWriteAnnotations, destructiveHint: false },
  async handler(args, ctx) {
    const { confirmationToken, ...given } = args;
    // Names where ids belong are read as those ids first: the token binds the arguments as given
    // and each contact's id as a previewed fact, and a lost answer's hold is kept under the
    // contact's id however the person named it.
    const { call, notes, known } = await withIds(ctx, given);
    const result = await handle(ctx, call, known, confirmationToken, given);
    return withNotes(result, notes);
  },
});

type Call = Partial<InviteArgs> & { contactId?: string; contactIds?: string[] };

/**
 * The call with a company's name read as its id, and a contact's name or email as its id (the
 * contacts read on the way are kept, so each is read once a call), and a line for each.
 */
async function withIds(ctx: ToolContext, given: Call) {
  const named = await withCompanyId(ctx, given);
  const call: Call = { ...named.args };
  const notes = [...named.notes];
  const known = new Map<string, InvitedContact>();
  const contactOf = async (value: string, field: string) => {
    const contact = await readContact(ctx, value);
    if (contact) {
      known.set(contact.id, contact);
      return value;
    }
    const named = await contactByName(ctx, value, field);
    if (!named) return value; // said as "no contact visible to you" where it is checked
    known.set(named.contact.id, named.contact);
    notes.push(named.note);
    return named.contact.id;
  };
  if (call.contactId !== undefined) call.contactId = await contactOf(call.contactId, "contactId");
  if (call.contactIds !== undefined) {
    call.contactIds = await Promise.all(
      call.contactIds.map((value) => contactOf(value.trim(), "contactIds")),
    );
  }
  return { call, notes, known };
}

async function handle(
  ctx: ToolContext,
  args: Call,
  known: Map<string, InvitedContact>,
  confirmationToken: string | undefined,
  /** The arguments as the person gave them: the token binds these, and each contact's id as a fact. */
  call: Call,
) {
  if (args.contactIds !== undefined) {
    return reinviteMany(ctx, checkMany(args), call, confirmationToken, known);
  }
  const checked = checkArguments(args);
  const mode = checked.mode;
  return confirmedWrite(ctx, {
    tool: TOOL,
    args: call,
    token: confirmationToken,
    target: checked.target,
    check:
      checked.mode === "invite"
        ? `search_talent_pool (search ${whole(checked.args.email)})`
        : `search_talent_pool (the contact ${oneLine(checked.contactId)})`,
    propose: () =>
      checked.mode === "invite"
        ? proposeInvite(ctx, checked)
        : proposeReinvite(ctx, checked.contactId, known),
    fields: ({ preview }) => ({ mode, preview }),
    declined: () => ({ text: "No email was sent." }),
    apply: ({ preview: plan }) => send(ctx, plan),
  });
}

interface InviteArgs {
  company: string;
  firstName: string;
  lastName: string;
  email: string;
  skills?: string[];
  country?: string;
  message?: string;
}

/** The arguments checked, names as they are shown and sent, and what the change is to. */
type Checked =
  | { mode: "invite"; target: string; args: InviteArgs }
  | { mode: "reinvite"; target: string; contactId: string };

/** What will be sent, as read from the platform now; its preview is what the person sees. */
type Plan =
  | {
      mode: "invite";
      target: string;
      preview: Preview;
      input: InviteArgs & { skills: string[] };
      externalIdentifier: string;
    }
  | { mode: "reinvite"; target: string; preview: Preview; contactId: string; invitedAt: string };

const INVITE_FIELDS = ["company", "firstName", "lastName", "email"] as const;

/** The two modes, each complete, before anything is read. */
function checkArguments(args: Call): Checked {
  if (args.contactId !== undefined) {
    const extra = [...INVITE_FIELDS, "skills", "country", "message"].filter(
      (k) => args[k as keyof typeof args] !== undefined,
    );
    if (extra.length > 0) {
      throw new ToolInputError(
        `a re-invitation takes only contactId, not ${extra.join(", ")}`,
        extra[0],
        "The platform re-sends its own invitation email, with no message or other changes. Leave contactId out to invite someone new.",
      );
    }
    return { mode: "reinvite", target: `contact ${args.contactId}`, contactId: args.contactId };
  }
  const missing = INVITE_FIELDS.filter((k) => args[k] === undefined);
  if (missing.length > 0) {
    throw new ToolInputError(
      `an invitation needs ${missing.join(", ")}`,
      missing[0],
      "Give company, firstName, lastName and email; or contactId to re-invite a contact.",
    );
  }
  for (const key of ["firstName", "lastName", "email"] as const) {
    const value = args[key] as string;
    if (value.length > MAX_NAME) {
      throw new ToolInputError(
        `${key} is ${value.length} characters, longer than the ${MAX_NAME} the platform takes`,
        key,
        "A value is never cut: the person must see exactly where the invitation goes.",
      );
    }
    // What is sent is what the preview shows: nothing hidden in a name or an address.
    const hidden = hiddenCharacters(value);
    if (hidden.length > 0) {
      throw new ToolInputError(`${key} ${holdsHidden(hidden)}`, key, REMOVE_HIDDEN);
    }
  }
  if ((args.skills?.length ?? 0) > MAX_SKILL_LOOKUPS) {
    throw new ToolInputError(`at most ${MAX_SKILL_LOOKUPS} skills at once`, "skills");
  }
  const email = args.email as string;
  if (!EMAIL.safeParse(email).success) {
    throw new ToolInputError(`${quoted(shown(email))} is not an email address`, "email");
  }
  if (args.country !== undefined && !/^[A-Za-z]{2}$/.test(args.country)) {
    throw new ToolInputError(
      `${quoted(shown(args.country))} is not a two-letter ISO country code`,
      "country",
      'Use codes such as "DK", "SE", "DE", "US" or "GB".',
    );
  }
  const company = args.company as string;
  return {
    mode: "invite",
    // The same address in any letter case is the same invitation.
    target: `${email.toLowerCase()} in company ${company}`,
    args: {
      ...(args as InviteArgs),
      // Line breaks and runs of spaces in a name become one space, in the preview and as sent.
      firstName: oneName(args.firstName as string),
      lastName: oneName(args.lastName as string),
    },
  };
}

const oneName = (name: string) => name.replace(/\s+/g, " ").trim();

/**
 * The contact's external identifier for an invitation of `email` into `company`: the same for a
 * repeat of that invitation on any replica, so a lost answer's read-back finds the contact.
 */
export function invitationExternalId(company: string, email: string): string {
  const digest = createHash("sha256").update(`${company}\n${email.toLowerCase()}`).digest("hex");
  return `wfmcp-invite-${digest.slice(0, 32)}`;
}

async function proposeInvite(
  ctx: ToolContext,
  checked: Extract<Checked, { mode: "invite" }>,
): Promise<Proposal<Plan>> {
  const { args } = checked;
  const company = (await accountsOf(ctx)).find(
    (a) => a.__typename === "Company" && a.id === args.company,
  );
  if (!company) {
    throw new ToolInputError(
      `${oneLine(args.company)} is not a company your account works for`,
      "company",
      "Find the company's id with list_accounts.",
    );
  }
  const skills = await canonicalSkills(ctx, args.skills ?? []);
  const externalIdentifier = invitationExternalId(company.id, args.email);
  const existing = await findByEmail(ctx, company.id, args.email);
  if (existing) {
    const ours = existing.externalIdentifier === externalIdentifier;
    throw new ToolInputError(
      `${whole(args.email)} is already in the talent pool of ${whole(company.name)}: contact ${oneLine(existing.id)}, ${oneLine(existing.status)}, invited ${oneLine(existing.invitedAt)}${ours ? " by an earlier invitation from this server" : ""}`,
      "email",
      // The invitation this server sent went out then: do not point to a second email.
      !ours && existing.status === "INVITED"
        ? `They have not answered yet; to send the invitation again, call ${callOf(ctx, TOOL)} with {"contactId": "${oneLine(existing.id)}"}.`
        : "Nothing was sent.",
    );
  }
  const country = args.country?.toUpperCase();
  const preview: Preview = {
    to: { name: `${args.firstName} ${args.lastName}`, email: args.email },
    company: toIdAndName(company),
    skills,
    country: country ?? null,
    message: args.message ?? null,
    contactId: null,
    invitedAt: null,
  };
  return {
    preview: {
      mode: "invite",
      target: checked.target,
      preview,
      input: { ...args, skills, ...(country ? { country } : {}) },
      externalIdentifier,
    },
    lines: previewLines("invite", preview),
    consequence: consequenceOf(preview),
    question: "Send this invitation?",
    // The name and address are arguments, bound by the token already. The company as the preview
    // showed it, id included: a name that now reads as another company is a change.
    facts: { company: company.name, "company id": company.id, skills },
  };
}

async function proposeReinvite(
  ctx: ToolContext,
  contactId: string,
  known: Map<string, InvitedContact>,
): Promise<Proposal<Plan>> {
  const { contact, preview } = await reinvitable(ctx, contactId, "contactId", known);
  return {
    preview: {
      mode: "reinvite",
      target: `contact ${contactId}`,
      preview,
      contactId,
      invitedAt: contact.invitedAt,
    },
    lines: previewLines("reinvite", preview),
    consequence: consequenceOf(preview),
    question: "Send the invitation again?",
    // The platform emails whatever address the contact has when it re-invites: bind it.
    facts: reinviteFacts(preview, contact.status),
  };
}

const reinviteFacts = (p: Preview, status: string) => ({
  // A name read as another contact by the time of the confirmation is a change, not a new call.
  contact: p.contactId,
  "recipient name": p.to.name,
  "recipient email": p.to.email,
  company: p.company.name,
  "company id": p.company.id,
  status,
  "invited on": p.invitedAt,
  skills: p.skills,
});

/** A contact that can be re-invited now, read from the platform, with what its preview shows. */
async function reinvitable(
  ctx: ToolContext,
  contactId: string,
  field: string,
  known?: Map<string, InvitedContact>,
) {
  const contact = known?.get(contactId) ?? (await readContact(ctx, contactId));
  if (!contact) {
    throw new ToolInputError(
      `there is no talent pool contact ${oneLine(contactId)} visible to you`,
      field,
      "Give the contact's id, or the person's name or email; search_talent_pool finds contacts.",
    );
  }
  if (contact.status !== "INVITED") {
    throw new ToolInputError(
      `contact ${oneLine(contactId)} (${quoted(contact.worker.name)}) is ${oneLine(contact.status)}; only a contact who has not answered (INVITED) can be re-invited`,
      field,
      "Nothing was sent.",
    );
  }
  if (!contact.worker.email) {
    throw new ToolInputError(`contact ${oneLine(contactId)} has no email address to invite`, field);
  }
  // The platform records the day of the last invitation, not the time: a re-invitation within two
  // days of it (time zones) could never be told apart from it by a read, so a lost answer would
  // stay unknown for good and a second email could follow unnoticed.
  const earliest = new Date(ctx.clock.now() - 2 * DAY_MS).toISOString().slice(0, 10);
  if (contact.invitedAt > earliest) {
    const from = new Date(Date.parse(contact.invitedAt) + 2 * DAY_MS).toISOString().slice(0, 10);
    throw new ToolInputError(
      `contact ${oneLine(contactId)} was invited on ${oneLine(contact.invitedAt)}, too recently to re-invite: no read could tell a new invitation from that one`,
      field,
      `Nothing was sent. Re-invite on or after ${from} if they have still not answered.`,
    );
  }
  const { data } = await ctx.client.run(
    canReInviteQuery,
    { id: contactId, account: contact.company.id },
    requestOptions(ctx),
  );
  if (data.trustedContact?.viewerCanReInvite !== true) {
    throw new NotAllowedError(
      `re-invite contacts in the talent pool of ${quoted(contact.company.name)}`,
      RIGHTS,
    );
  }
  const preview: Preview = {
    to: { name: contact.worker.name, email: contact.worker.email },
    company: contact.company,
    skills: contact.skills.map((s) => s.name),
    country: null,
    message: null,
    contactId,
    invitedAt: contact.invitedAt,
  };
  return { contact, preview };
}

const consequenceOf = (p: Preview) =>
  `This emails ${whole(p.to.email)} an invitation; an email cannot be unsent.`;

/** The platform's own spelling of each skill; a name that matches none is refused up front. */
async function canonicalSkills(ctx: ToolContext, names: string[]): Promise<string[]> {
  const asked = [...new Map(names.map((n) => [n.toLowerCase(), n])).values()];
  if (asked.length === 0) return [];
  const variables = Object.fromEntries(asked.map((name, i) => [skillVariable(i), name]));
  const { data } = await ctx.client.run(
    skillLookupQuery(asked.length),
    variables,
    requestOptions(ctx),
  );
  const out: string[] = [];
  const unknown: string[] = [];
  asked.forEach((name, i) => {
    const found: SkillRef[] = data[skillAlias(i)]?.data ?? [];
    const exact = found.find((s) => s.name.toLowerCase() === name.toLowerCase());
    if (exact) out.push(exact.name);
    else {
      const similar = found.slice(0, 5).map((s) => quoted(s.name));
      unknown.push(
        `${quoted(name)}${similar.length > 0 ? ` (similar: ${similar.join(", ")})` : ""}`,
      );
    }
  });
  if (unknown.length > 0) {
    throw new ToolInputError(
      `no skill on the platform is named ${unknown.join("; ")}`,
      "skills",
      "Use exact skill names, or leave the skill out. Nothing was sent.",
    );
  }
  return out;
}

async function findByEmail(
  ctx: ToolContext,
  company: string,
  email: string,
): Promise<InvitedContact | undefined> {
  const { data } = await ctx.client.run(
    poolContactsByEmailQuery,
    { company, email },
    requestOptions(ctx),
  );
  const wanted = email.toLowerCase();
  return data.trustedContacts.data.find(
    (c) => c.company.id === company && c.worker.email?.toLowerCase() === wanted,
  );
}

async function findByExternalId(
  ctx: ToolContext,
  company: string,
  externalIdentifier: string,
): Promise<InvitedContact | undefined> {
  const { data } = await ctx.client.run(
    poolContactsByExternalIdQuery,
    { company, externalIdentifier },
    requestOptions(ctx),
  );
  return data.trustedContacts.data.find(
    (c) => c.company.id === company && c.externalIdentifier === externalIdentifier,
  );
}

async function readContact(ctx: ToolContext, id: string): Promise<InvitedContact | null> {
  const { data } = await ctx.client.run(trustedContactQuery, { id }, requestOptions(ctx));
  return data.trustedContact;
}

async function send(ctx: ToolContext, plan: Plan) {
  const { mode, preview } = plan;
  const action =
    mode === "invite"
      ? `invite people into the talent pool of ${quoted(preview.company.name)}`
      : `re-invite contacts in the talent pool of ${quoted(preview.company.name)}`;
  const sent =
    plan.mode === "invite"
      ? await sendWrite(ctx, {
          tool: TOOL,
          target: plan.target,
          check: `search_talent_pool (search ${whole(preview.to.email)})`,
          send: refusedAsNotAllowed(
            async () =>
              (
                await ctx.client.run(
                  createTrustedContactMutation,
                  {
                    input: {
                      company: plan.input.company,
                      firstName: plan.input.firstName,
                      lastName: plan.input.lastName,
                      email: plan.input.email,
                      ...(plan.input.country ? { country: plan.input.country } : {}),
                      links: [],
                      attachments: [],
                      // The platform's spelling, as previewed.
                      skills: plan.input.skills,
                      ...(plan.input.message ? { message: plan.input.message } : {}),
                      notifyWorker: true,
                      // Finds the contact again after a lost answer.
                      externalIdentifier: plan.externalIdentifier,
                      // An invitation sent by the company itself, as the platform's UI sends it.
                      origin: "INVITED",
                      originChannel: "DIRECT_INVITE",
                    },
                  },
                  requestOptions(ctx),
                )
              ).data.createTrustedContact,
            action,
            RIGHTS,
          ),
          readBack: () => findByExternalId(ctx, preview.company.id, plan.externalIdentifier),
          applied: (found) => found !== undefined,
        })
      : await sendWrite(ctx, {
          tool: TOOL,
          target: plan.target,
          check: `query_platform ({ trustedContact(id: "${oneLine(plan.contactId)}") { invitedAt } }; a re-invitation moves invitedAt past ${oneLine(plan.invitedAt)})`,
          send: refusedAsNotAllowed(
            async () =>
              (
                await ctx.client.run(
                  reinviteTrustedContactMutation,
                  { input: { id: plan.contactId } },
                  requestOptions(ctx),
                )
              ).data.reinviteTrustedContact,
            action,
            RIGHTS,
          ),
          readBack: () => readContact(ctx, plan.contactId),
          // invitedAt is a date: only a later day shows the re-invitation.
          applied: (found) => found !== null && found.invitedAt > plan.invitedAt,
        });

  const done = mode === "invite" ? ("invited" as const) : ("reinvited" as const);
  if (sent.kind === "sent") {
    const contact = toInvitedContact(sent.data);
    return { structured: { status: done, mode, preview, contact }, text: doneText(mode, contact) };
  }
  if (sent.kind === "unknown") {
    const what = mode === "invite" ? "Invitation" : "Re-invitation";
    return {
      isError: true,
      structured: { status: "outcome-unknown" as const, mode, preview, note: sent.text },
      text: `${what} to ${whole(preview.to.email)}: ${sent.text}`,
    };
  }
  const contact = toInvitedContact(sent.state as InvitedContact);
  return {
    structured: {
      status: done,
      mode,
      preview,
      contact,
      note: "The answer was lost after sending; reading the talent pool back confirmed it.",
    },
    text: `${doneText(mode, contact)} (The answer was lost after the request was sent; it was not sent again, and reading the talent pool back confirmed it.)`,
  };
}

function doneText(mode: "invite" | "reinvite", c: InvitedContactOut): string {
  const who = `${whole(c.name)} (${whole(c.email ?? "")})`;
  const head =
    mode === "invite"
      ? `Invited ${who} into the talent pool of ${whole(c.company.name)}: contact ${oneLine(c.id)}, status ${oneLine(c.status)}.`
      : `Re-sent the invitation to ${who} in the talent pool of ${whole(c.company.name)}: contact ${oneLine(c.id)}, status ${oneLine(c.status)}, invited ${oneLine(c.invitedAt)}.`;
  return `${head} The email has gone out and cannot be unsent; they show as INVITED in search_talent_pool until they answer.`;
}

// The server's sentences first; names, emails and the message quoted whole on their lines. The
// consequence comes last (the confirmation module adds it).
function previewLines(mode: "invite" | "reinvite", p: Preview): string[] {
  const to = `${whole(p.to.name)} (${whole(p.to.email)})`;
  const pool = `the talent pool of ${whole(p.company.name)} (${oneLine(p.company.id)})`;
  const skills =
    p.skills.length > 0 ? `skills ${p.skills.map((s) => whole(s)).join(", ")}` : "no skills";
  if (mode === "reinvite") {
    return [
      `Re-invite contact ${oneLine(p.contactId)}: ${to} in ${pool}; invited ${oneLine(p.invitedAt)} and has not answered (INVITED); ${skills}.`,
      "The platform sends its invitation email again; a re-invitation carries no personal message.",
    ];
  }
  return [
    `Invite ${to} into ${pool}; ${skills}${p.country ? `; country ${oneLine(p.country)}` : ""}.`,
    p.message !== null
      ? `Personal message in the email: ${sentTextShown(p.message)}.`
      : "No personal message: the platform's standard invitation is sent.",
  ];
}

/** The most contacts re-invited in one confirmation: each is a line of the preview. */
const MAX_REINVITES = 25;

/** contactIds: only ids, each once, and no more than one preview can show. */
function checkMany(args: Call) {
  const extra = [...INVITE_FIELDS, "skills", "country", "message", "contactId"].filter(
    (k) => args[k as keyof typeof args] !== undefined,
  );
  if (extra.length > 0) {
    throw new ToolInputError(
      `contactIds re-invites contacts and takes nothing else, not ${extra.join(", ")}`,
      extra[0],
      "The platform re-sends its own invitation email. Put every contact in contactIds.",
    );
  }
  const ids = [...new Set((args.contactIds ?? []).map((id) => id.trim()))];
  if (ids.length === 0 || ids.includes("")) {
    throw new ToolInputError("contactIds needs contact ids, none empty", "contactIds");
  }
  if (ids.length > MAX_REINVITES) {
    throw new ToolInputError(
      `at most ${MAX_REINVITES} contacts in one confirmation, not ${ids.length}`,
      "contactIds",
      "Re-invite them in several calls.",
    );
  }
  return ids;
}

/**
 * Several re-invitations under one confirmation: one preview lists every contact with the whole
 * address; the token binds every one of them. Each is then sent on its own, as the single
 * re-invitation is (its own hold when its outcome is unknown), and each outcome is reported.
 */
async function reinviteMany(
  ctx: ToolContext,
  ids: string[],
  call: Record<string, unknown>,
  token: string | undefined,
  known: Map<string, InvitedContact>,
) {
  const mode = "reinvite" as const;
  return confirmedWrite(ctx, {
    tool: TOOL,
    args: call,
    token,
    target: `contacts ${ids.join(", ")}`,
    check: `search_talent_pool (statuses ["INVITED"])`,
    propose: async () => {
      // Each contact is checked side by side; the first refusal in the person's order is said.
      const settled = await Promise.allSettled(
        ids.map(async (id) => {
          // A contact whose last re-invitation is unknown is held back, as alone it would be.
          await refuseWhileUnknown(ctx, {
            tool: TOOL,
            target: `contact ${id}`,
            check: checkOf(id),
          });
          const { contact, preview } = await reinvitable(ctx, id, "contactIds", known);
          return { preview, status: contact.status };
        }),
      );
      const refused = settled.find((r) => r.status === "rejected");
      if (refused) throw refused.reason;
      const read = settled.map(
        (r) => (r as PromiseFulfilledResult<{ preview: Preview; status: string }>).value,
      );
      const previews = read.map((r) => r.preview);
      return {
        preview: { previews },
        lines: [
          ids.length === 1
            ? "Re-invite 1 contact who has not answered (INVITED); the platform sends its invitation email again, with no personal message:"
            : `Re-invite ${ids.length} contacts who have not answered (INVITED); the platform sends each its invitation email again, with no personal message:`,
          ...previews.map(
            (p) =>
              `- ${oneLine(p.contactId)}: ${whole(p.to.name)} (${whole(p.to.email)}) in the talent pool of ${whole(p.company.name)} (${oneLine(p.company.id)}); invited ${oneLine(p.invitedAt)}.`,
          ),
        ],
        consequence: `This emails ${previews.map((p) => whole(p.to.email)).join(", ")} an invitation${previews.length === 1 ? "" : " each"}; an email cannot be unsent.`,
        question: `Send these ${ids.length} invitations again?`,
        // Every contact's facts, each under its id: one changed fact stops them all.
        facts: Object.fromEntries(
          read.flatMap((r) =>
            Object.entries(reinviteFacts(r.preview, r.status)).map(([k, v]) => [
              `${r.preview.contactId} ${k}`,
              v,
            ]),
          ),
        ),
      };
    },
    fields: ({ previews }) => ({ mode, previews }),
    declined: () => ({ text: "No email was sent." }),
    apply: ({ preview }) => reinviteEach(ctx, preview.previews),
  });
}

/** Each confirmed re-invitation sent on its own, and each outcome said. */
async function reinviteEach(ctx: ToolContext, previews: Preview[]) {
  const mode = "reinvite" as const;
  const results = [];
  const lines: string[] = [];
  for (const p of previews) {
    const id = p.contactId as string;
    const email = p.to.email;
    try {
      const sent = await sendWrite(ctx, {
        tool: TOOL,
        target: `contact ${id}`,
        check: checkOf(id),
        send: refusedAsNotAllowed(
          async () =>
            (
              await ctx.client.run(
                reinviteTrustedContactMutation,
                { input: { id } },
                requestOptions(ctx),
              )
            ).data.reinviteTrustedContact,
          `re-invite contacts in the talent pool of ${quoted(p.company.name)}`,
          RIGHTS,
        ),
        readBack: () => readContact(ctx, id),
        applied: (found) => found !== null && found.invitedAt > (p.invitedAt as string),
      });
      if (sent.kind === "unknown") {
        results.push({
          contactId: id,
          email,
          outcome: "outcome-unknown" as const,
          note: sent.text,
        });
        lines.push(`- ${oneLine(id)} ${whole(email)}: ${sent.text}`);
      } else {
        const c = toInvitedContact(
          sent.kind === "sent" ? sent.data : (sent.state as InvitedContact),
        );
        const late = sent.kind === "read-back" ? " (answer lost; the read-back confirmed it)" : "";
        results.push({ contactId: id, email, outcome: "reinvited" as const });
        lines.push(
          `- ${oneLine(id)} ${whole(email)}: re-sent, invited ${oneLine(c.invitedAt)}${late}.`,
        );
      }
    } catch (error) {
      // A definite refusal for one contact: the others were confirmed on their own facts. Anything
      // else (the server's own failure) is not known to have left the email unsent.
      if (!isDefiniteRefusal(error)) throw error;
      const note = error instanceof Error ? error.message : String(error);
      results.push({ contactId: id, email, outcome: "not-sent" as const, note });
      lines.push(`- ${oneLine(id)} ${whole(email)}: NOT sent: ${oneLine(note)}`);
    }
  }
  const sentCount = results.filter((r) => r.outcome === "reinvited").length;
  const unknown = results.some((r) => r.outcome === "outcome-unknown");
  const status =
    sentCount === results.length
      ? ("reinvited" as const)
      : unknown
        ? ("outcome-unknown" as const)
        : ("partly-sent" as const);
  return {
    ...(status === "reinvited" ? {} : { isError: true }),
    structured: { status, mode, previews, results },
    text: [
      `Re-invitations: ${sentCount} of ${results.length} sent. Emails that went out cannot be unsent; those contacts show as INVITED in search_talent_pool until they answer.`,
      ...lines,
    ].join("\n"),
  };
}

const checkOf = (id: string) =>
  `query_platform ({ trustedContact(id: "${oneLine(id)}") { invitedAt } })`;

/**
 * Errors after which this contact's email is known not to have gone out: the platform refused it
 * (sendWrite turns a lost answer into "unknown" itself), or it was held or refused before sending.
 */
function isDefiniteRefusal(error: unknown): boolean {
  return (
    isPlatformError(error) ||
    error instanceof NotAllowedError ||
    error instanceof OutcomeStillUnknownError ||
    error instanceof SharedStateUnavailableError
  );
}
