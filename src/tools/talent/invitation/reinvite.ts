// Re-inviting a contact who has not answered: the contact read and checked as re-invitable now,
// and the platform's own invitation email sent again, told apart by a later invitation day.
import {
  canReInviteQuery,
  type InvitedContact,
  reinviteTrustedContactMutation,
} from "../../../client/operations/talent-invitations.js";
import { oneLine, quoted } from "../../../client/platform-text.js";
import { type Proposal, sendWrite } from "../../confirmation.js";
import { type ToolContext, ToolInputError } from "../../define-tool.js";
import { requestOptions } from "../../format.js";
import {
  allowedOr,
  consequenceOf,
  notAllowedTo,
  type Preview,
  previewLines,
  readContact,
  type Sent,
  TOOL,
} from "./shared.js";

const DAY_MS = 86_400_000;

/** A re-invitation as previewed: the contact, and the day of the invitation it follows. */
export interface ReinvitePlan {
  mode: "reinvite";
  target: string;
  preview: Preview;
  contactId: string;
  invitedAt: string;
}

export async function proposeReinvite(
  ctx: ToolContext,
  contactId: string,
  known: Map<string, InvitedContact>,
): Promise<Proposal<ReinvitePlan>> {
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

/** What a re-invitation's token binds about the contact as the preview showed it. */
export const reinviteFacts = (p: Preview, status: string) => ({
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
export async function reinvitable(
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
  refuseIfTooRecent(ctx, contactId, contact.invitedAt, field);
  const { data } = await ctx.client.run(
    canReInviteQuery,
    { id: contactId, account: contact.company.id },
    requestOptions(ctx),
  );
  if (data.trustedContact?.viewerCanReInvite !== true) {
    throw notAllowedTo("reinvite", contact.company.name);
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

// The platform records the day of the last invitation, not the time: a re-invitation within two
// days of it (time zones) could never be told apart from it by a read, so a lost answer would
// stay unknown for good and a second email could follow unnoticed.
function refuseIfTooRecent(ctx: ToolContext, contactId: string, invitedAt: string, field: string) {
  const earliest = new Date(ctx.clock.now() - 2 * DAY_MS).toISOString().slice(0, 10);
  if (invitedAt > earliest) {
    const from = new Date(Date.parse(invitedAt) + 2 * DAY_MS).toISOString().slice(0, 10);
    throw new ToolInputError(
      `contact ${oneLine(contactId)} was invited on ${oneLine(invitedAt)}, too recently to re-invite: no read could tell a new invitation from that one`,
      field,
      `Nothing was sent. Re-invite on or after ${from} if they have still not answered.`,
    );
  }
}

/** The confirmed re-invitation of one contact, sent as sendReinvitation says. */
export const sendReinvite = (ctx: ToolContext, plan: ReinvitePlan) =>
  sendReinvitation(
    ctx,
    plan.preview,
    `query_platform ({ trustedContact(id: "${oneLine(plan.contactId)}") { invitedAt } }; a re-invitation moves invitedAt past ${oneLine(plan.invitedAt)})`,
  );

/**
 * One previewed re-invitation sent once; after a lost answer, the contact read back, where an
 * invitation day later than the previewed one shows it sent. `check` is how a person looks.
 */
export function sendReinvitation(ctx: ToolContext, p: Preview, check: string): Promise<Sent> {
  const id = p.contactId as string;
  return sendWrite(ctx, {
    tool: TOOL,
    target: `contact ${id}`,
    check,
    send: allowedOr(
      "reinvite",
      p.company.name,
      async () =>
        (
          await ctx.client.run(
            reinviteTrustedContactMutation,
            { input: { id } },
            requestOptions(ctx),
          )
        ).data.reinviteTrustedContact,
    ),
    readBack: () => readContact(ctx, id),
    // invitedAt is a date: only a later day shows the re-invitation.
    applied: (found) => found !== null && found.invitedAt > (p.invitedAt as string),
  });
}
