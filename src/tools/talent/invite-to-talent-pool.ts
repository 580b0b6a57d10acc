// The tool: its surface and which act a call is. Each act is a module of ./invitation/: inviting
// someone new (invite.ts), re-inviting one contact (reinvite.ts) or several (reinvite-many.ts).
import * as z from "zod";
import type { InvitedContact } from "../../client/operations/talent-invitations.js";
import { oneLine } from "../../client/platform-text.js";
import {
  confirmationTokenArg,
  confirmedWrite,
  confirmedWriteAnnotations,
  type Proposal,
  previewTokenOutput,
  whole,
} from "../confirmation.js";
import { defineTool, type ToolContext } from "../define-tool.js";
import { contactByName, withCompanyId, withNotes } from "../known-ids.js";
import { sentTextSchema } from "../sent-text.js";
import { invitedContactOutput } from "../shapes/talent-contact.js";
import { type Call, checkArguments } from "./invitation/arguments.js";
import { type InvitePlan, proposeInvite, sendInvite } from "./invitation/invite.js";
import { proposeReinvite, type ReinvitePlan, sendReinvite } from "./invitation/reinvite.js";
import { checkMany, reinviteMany } from "./invitation/reinvite-many.js";
import { previewOutput, readContact, sentAnswer, TOOL } from "./invitation/shared.js";

export { invitationExternalId } from "./invitation/invite.js";

// The platform's own limit: a longer message is refused here, never cut in the preview.
const MAX_MESSAGE = 2000;

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
      "not-sent",
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
    propose: (): Promise<Proposal<Plan>> =>
      checked.mode === "invite"
        ? proposeInvite(ctx, checked.target, checked.args)
        : proposeReinvite(ctx, checked.contactId, known),
    fields: ({ preview }) => ({ mode, preview }),
    declined: () => ({ text: "No email was sent." }),
    apply: ({ preview: plan }) => send(ctx, plan),
  });
}

/** What will be sent, as read from the platform now; its preview is what the person sees. */
type Plan = InvitePlan | ReinvitePlan;

/** The confirmed invitation or re-invitation sent, and the answer. */
async function send(ctx: ToolContext, plan: Plan) {
  const sent = plan.mode === "invite" ? await sendInvite(ctx, plan) : await sendReinvite(ctx, plan);
  return sentAnswer(plan.mode, plan.preview, sent);
}
