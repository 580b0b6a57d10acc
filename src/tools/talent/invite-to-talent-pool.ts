import * as z from "zod";
import { listAccountsQuery } from "../../client/operations/accounts.js";
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
  reinviteTrustedContactMutation,
  trustedContactQuery,
} from "../../client/operations/talent-invitations.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import {
  askForConfirmation,
  confirmationTokenArg,
  confirmedWriteAnnotations,
  previewResult,
  previewTokenOutput,
  redeemConfirmation,
  sendOnce,
} from "../confirmation.js";
import {
  defineTool,
  NotAllowedError,
  shown,
  type ToolContext,
  ToolInputError,
} from "../define-tool.js";
import { requestOptions } from "../format.js";
import { refusedAsNotAllowed } from "../not-allowed.js";

const TOOL = "invite_to_talent_pool";
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const RIGHTS = "talent pool management";
const MAX_NAME = 255;
const MAX_MESSAGE = 2000;

const contactOutput = z.object({
  id: z.string(),
  status: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  invitedAt: z.string(),
  company: z.object({ id: z.string(), name: z.string() }),
  skills: z.array(z.string()),
});
type ContactOut = z.infer<typeof contactOutput>;

const previewOutput = z.object({
  to: z.object({ name: z.string(), email: z.string() }),
  company: z.object({ id: z.string(), name: z.string() }),
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
  description: [
    "Invite a freelancer by email into a company's talent pool, or re-invite a contact who has not answered (contactId).",
    'Use when: "invite jane@example.com". Do not use for: finding contacts (search_talent_pool).',
    "An email cannot be unsent: the first call only previews (confirmationToken); once the person agrees, repeat it with the token.",
    'Example: {"company":"cmp_nordlys","firstName":"Jane","lastName":"Doe","email":"jane@example.com"}',
  ].join("\n"),
  inputSchema: {
    // Lengths are checked in the handler: limits in the schema cost every turn's context.
    company: z.string().min(1).optional().describe("Company id (from list_accounts)."),
    firstName: z.string().trim().min(1).optional().describe("First name."),
    lastName: z.string().trim().min(1).optional().describe("Last name."),
    email: z.string().trim().min(1).optional().describe("Gets the invitation."),
    skills: z.array(z.string().trim().min(1)).optional().describe("Skill names, e.g. React."),
    country: z.string().trim().optional().describe("ISO code, e.g. DK."),
    message: z.string().optional().describe("Personal note in the email."),
    contactId: z.string().min(1).optional().describe("Re-invite this contact instead."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum([
      "preview",
      "invited",
      "reinvited",
      "declined",
      "not-invited",
      "outcome-unknown",
    ]),
    mode: z.enum(["invite", "reinvite"]),
    preview: previewOutput.optional(),
    contact: contactOutput.optional(),
    ...previewTokenOutput,
    note: z.string().optional(),
  },
  // Nothing is deleted, but the email it sends cannot be unsent: the project marks what
  // cannot be undone as destructive, so clients ask before it.
  annotations: confirmedWriteAnnotations,
  async handler(args, ctx) {
    const { confirmationToken, ...call } = args;
    const mode: "invite" | "reinvite" = args.contactId !== undefined ? "reinvite" : "invite";
    checkArguments(args);
    if (confirmationToken !== undefined) {
      await redeemConfirmation(ctx, TOOL, confirmationToken, call);
    }
    const prepared =
      mode === "invite"
        ? await prepareInvite(ctx, args as InviteArgs)
        : await prepareReinvite(ctx, args.contactId as string);
    const { preview } = prepared;
    if (confirmationToken !== undefined) return send(ctx, prepared);

    const answer = await askForConfirmation(ctx, {
      tool: TOOL,
      args: call,
      lines: previewLines(mode, preview),
      consequence: `This emails ${quoted(preview.to.email)} an invitation; an email cannot be unsent.`,
      question: mode === "invite" ? "Send this invitation?" : "Send the invitation again?",
    });
    if (answer.kind === "confirmed") return send(ctx, prepared);
    if (answer.kind === "declined") {
      return {
        structured: { status: "declined" as const, mode, preview },
        text: `${answer.text} No email was sent.`,
      };
    }
    return previewResult(answer, { mode, preview });
  },
});

interface InviteArgs {
  company: string;
  firstName: string;
  lastName: string;
  email: string;
  skills?: string[];
  country?: string;
  message?: string;
}

type Prepared =
  | { mode: "invite"; preview: Preview; input: InviteArgs & { skills: string[] } }
  | { mode: "reinvite"; preview: Preview; contactId: string; invitedAt: string };

const INVITE_FIELDS = ["company", "firstName", "lastName", "email"] as const;

/** The two modes, each complete, before anything is read. */
function checkArguments(args: Partial<InviteArgs> & { contactId?: string }): void {
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
    return;
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
    if ((args[key] as string).length > MAX_NAME) {
      throw new ToolInputError(`${key} is longer than ${MAX_NAME} characters`, key);
    }
  }
  if ((args.message?.length ?? 0) > MAX_MESSAGE) {
    throw new ToolInputError(`message is longer than ${MAX_MESSAGE} characters`, "message");
  }
  if ((args.skills?.length ?? 0) > MAX_SKILL_LOOKUPS) {
    throw new ToolInputError(`at most ${MAX_SKILL_LOOKUPS} skills at once`, "skills");
  }
  if (!EMAIL.test(args.email as string)) {
    throw new ToolInputError(
      `${quoted(shown(args.email as string))} is not an email address`,
      "email",
    );
  }
  if (args.country !== undefined && !/^[A-Za-z]{2}$/.test(args.country)) {
    throw new ToolInputError(
      `${quoted(shown(args.country))} is not a two-letter ISO country code`,
      "country",
      'Use codes such as "DK", "SE", "DE", "US" or "GB".',
    );
  }
}

async function prepareInvite(ctx: ToolContext, args: InviteArgs): Promise<Prepared> {
  const options = requestOptions(ctx);
  const { data } = await ctx.client.run(listAccountsQuery, {}, options);
  const company = data.accounts.find((a) => a.__typename === "Company" && a.id === args.company);
  if (!company) {
    throw new ToolInputError(
      `${oneLine(args.company)} is not a company your account works for`,
      "company",
      "Find the company's id with list_accounts.",
    );
  }
  const skills = await canonicalSkills(ctx, args.skills ?? []);
  const existing = await findByEmail(ctx, company.id, args.email);
  if (existing) {
    throw new ToolInputError(
      `${quoted(args.email)} is already in the talent pool of ${quoted(company.name)}: contact ${oneLine(existing.id)}, ${oneLine(existing.status)}`,
      "email",
      existing.status === "INVITED"
        ? `They have not answered yet; to send the invitation again, call ${TOOL} with {"contactId": "${oneLine(existing.id)}"}.`
        : "Nothing was sent.",
    );
  }
  const country = args.country?.toUpperCase();
  return {
    mode: "invite",
    input: { ...args, skills, ...(country ? { country } : {}) },
    preview: {
      to: { name: `${args.firstName} ${args.lastName}`, email: args.email },
      company: { id: company.id, name: company.name },
      skills,
      country: country ?? null,
      message: args.message ?? null,
      contactId: null,
      invitedAt: null,
    },
  };
}

async function prepareReinvite(ctx: ToolContext, contactId: string): Promise<Prepared> {
  const contact = await readContact(ctx, contactId);
  if (!contact) {
    throw new ToolInputError(
      `there is no talent pool contact ${oneLine(contactId)} visible to you`,
      "contactId",
      "Find the contact's id with search_talent_pool.",
    );
  }
  if (contact.status !== "INVITED") {
    throw new ToolInputError(
      `contact ${oneLine(contactId)} (${quoted(contact.worker.name)}) is ${oneLine(contact.status)}; only a contact who has not answered (INVITED) can be re-invited`,
      "contactId",
      "Nothing was sent.",
    );
  }
  if (!contact.worker.email) {
    throw new ToolInputError(
      `contact ${oneLine(contactId)} has no email address to invite`,
      "contactId",
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
  return {
    mode: "reinvite",
    contactId,
    invitedAt: contact.invitedAt,
    preview: {
      to: { name: contact.worker.name, email: contact.worker.email },
      company: contact.company,
      skills: contact.skills.map((s) => s.name),
      country: null,
      message: null,
      contactId,
      invitedAt: contact.invitedAt,
    },
  };
}

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

async function readContact(ctx: ToolContext, id: string): Promise<InvitedContact | null> {
  const { data } = await ctx.client.run(trustedContactQuery, { id }, requestOptions(ctx));
  return data.trustedContact;
}

async function send(ctx: ToolContext, prepared: Prepared) {
  const { mode, preview } = prepared;
  const action =
    mode === "invite"
      ? `invite people into the talent pool of ${quoted(preview.company.name)}`
      : `re-invite contacts in the talent pool of ${quoted(preview.company.name)}`;
  const write =
    prepared.mode === "invite"
      ? () =>
          sendOnce(
            async () =>
              (
                await ctx.client.run(
                  createTrustedContactMutation,
                  {
                    input: {
                      company: prepared.input.company,
                      firstName: prepared.input.firstName,
                      lastName: prepared.input.lastName,
                      email: prepared.input.email,
                      ...(prepared.input.country ? { country: prepared.input.country } : {}),
                      links: [],
                      attachments: [],
                      skills: prepared.input.skills,
                      ...(prepared.input.message ? { message: prepared.input.message } : {}),
                      notifyWorker: true,
                      // An invitation sent by the company itself, as the platform's UI sends it.
                      origin: "INVITED",
                      originChannel: "DIRECT_INVITE",
                    },
                  },
                  requestOptions(ctx),
                )
              ).data.createTrustedContact,
            // Never resent: the pool is read back by email instead.
            async () => (await findByEmail(ctx, preview.company.id, preview.to.email)) ?? null,
          )
      : () =>
          sendOnce(
            async () =>
              (
                await ctx.client.run(
                  reinviteTrustedContactMutation,
                  { input: { id: prepared.contactId } },
                  requestOptions(ctx),
                )
              ).data.reinviteTrustedContact,
            () => readContact(ctx, prepared.contactId),
          );
  const sent = await refusedAsNotAllowed(write, action, RIGHTS)();

  const done = mode === "invite" ? ("invited" as const) : ("reinvited" as const);
  if (sent.kind === "sent") {
    const contact = toOutput(sent.data);
    return { structured: { status: done, mode, preview, contact }, text: doneText(mode, contact) };
  }
  if (sent.kind === "unknown") {
    return {
      isError: true,
      structured: {
        status: "outcome-unknown" as const,
        mode,
        preview,
        note: "The connection failed after the request was sent, and reading the pool back failed too.",
      },
      text: `The invitation to ${quoted(preview.to.email)} may or may not have been sent: the connection failed after the request, and the talent pool could not be read back. Do not send it again; check with search_talent_pool (search ${quoted(preview.to.email)}) in a minute.`,
    };
  }
  const found = sent.state;
  // A re-invitation shows as a new invitation date; an invitation as a contact that was not there.
  const tookEffect =
    found !== null && (prepared.mode === "invite" ? true : found.invitedAt !== prepared.invitedAt);
  if (found && tookEffect) {
    const contact = toOutput(found);
    return {
      structured: {
        status: done,
        mode,
        preview,
        contact,
        note: "Confirmed by reading the talent pool back.",
      },
      text: `${doneText(mode, contact)} (The connection dropped after the request was sent; reading the talent pool back confirmed it.)`,
    };
  }
  const state = found
    ? `contact ${oneLine(found.id)} is still ${oneLine(found.status)}, invited ${oneLine(found.invitedAt)}`
    : "there is no contact with that email in the pool";
  return {
    isError: true,
    structured: {
      status: "not-invited" as const,
      mode,
      preview,
      ...(found ? { contact: toOutput(found) } : {}),
      note: `The request failed; reading the pool back shows ${state}.`,
    },
    text: `No invitation was sent to ${quoted(preview.to.email)}: the request failed, and reading the talent pool back shows ${state}. To try again, call ${TOOL} without a token for a fresh preview.`,
  };
}

function doneText(mode: "invite" | "reinvite", c: ContactOut): string {
  const who = `${quoted(c.name)} (${quoted(c.email ?? "")})`;
  const head =
    mode === "invite"
      ? `Invited ${who} into the talent pool of ${quoted(c.company.name)}: contact ${oneLine(c.id)}, status ${oneLine(c.status)}.`
      : `Re-sent the invitation to ${who} in the talent pool of ${quoted(c.company.name)}: contact ${oneLine(c.id)}, status ${oneLine(c.status)}, invited ${oneLine(c.invitedAt)}.`;
  return `${head} The email has gone out and cannot be unsent; they show as INVITED in search_talent_pool until they answer.`;
}

// The server's sentences first; names, emails and the message quoted on their lines. The
// consequence comes last (the confirmation module adds it).
function previewLines(mode: "invite" | "reinvite", p: Preview): string[] {
  const to = `${quoted(p.to.name)} (${quoted(p.to.email)})`;
  const pool = `the talent pool of ${quoted(p.company.name)} (${oneLine(p.company.id)})`;
  const skills =
    p.skills.length > 0 ? `skills ${p.skills.map((s) => quoted(s)).join(", ")}` : "no skills";
  if (mode === "reinvite") {
    return [
      `Re-invite contact ${oneLine(p.contactId)}: ${to} in ${pool}; invited ${oneLine(p.invitedAt)} and has not answered (INVITED); ${skills}.`,
      "The platform sends its invitation email again; a re-invitation carries no personal message.",
    ];
  }
  return [
    `Invite ${to} into ${pool}; ${skills}${p.country ? `; country ${oneLine(p.country)}` : ""}.`,
    p.message !== null
      ? `Personal message in the email: ${quoted(p.message, 2000)}.`
      : "No personal message: the platform's standard invitation is sent.",
  ];
}

function toOutput(c: InvitedContact): ContactOut {
  return {
    id: c.id,
    status: c.status,
    name: c.worker.name,
    email: c.worker.email,
    invitedAt: c.invitedAt,
    company: c.company,
    skills: c.skills.map((s) => s.name),
  };
}
