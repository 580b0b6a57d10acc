// What inviting someone new and re-inviting share: the tool's name, the preview the person sees,
// and the answer once the email is sent.
import * as z from "zod";
import {
  type InvitedContact,
  trustedContactQuery,
} from "../../../client/operations/talent-invitations.js";
import { oneLine, quoted } from "../../../client/platform-text.js";
import { type WriteOutcome, whole } from "../../confirmation.js";
import { NotAllowedError, type ToolContext } from "../../define-tool.js";
import { requestOptions } from "../../format.js";
import { refusedAsNotAllowed } from "../../not-allowed.js";
import { sentTextShown } from "../../sent-text.js";
import { idAndName } from "../../shapes/named.js";
import { type InvitedContactOut, toInvitedContact } from "../../shapes/talent-contact.js";

export const TOOL = "invite_to_talent_pool";
/** The rights a person lacks when the platform refuses an invitation. */
const RIGHTS = "talent pool management";

type Mode = "invite" | "reinvite";

export const previewOutput = z.object({
  to: z.object({ name: z.string(), email: z.string() }),
  company: idAndName,
  skills: z.array(z.string()),
  country: z.string().nullable(),
  message: z.string().nullable(),
  /** Re-invitation: the contact and when they were invited last. */
  contactId: z.string().nullable(),
  invitedAt: z.string().nullable(),
});
export type Preview = z.infer<typeof previewOutput>;

/** The contact as the platform has it now, or null when it is not visible to this person. */
export async function readContact(ctx: ToolContext, id: string): Promise<InvitedContact | null> {
  const { data } = await ctx.client.run(trustedContactQuery, { id }, requestOptions(ctx));
  return data.trustedContact;
}

/** What could not be done, as a refusal for lack of rights says it. */
const actionOf = (mode: Mode, companyName: string) =>
  mode === "invite"
    ? `invite people into the talent pool of ${quoted(companyName)}`
    : `re-invite contacts in the talent pool of ${quoted(companyName)}`;

/** The refusal of a person without the rights to invite into or re-invite in a company's pool. */
export const notAllowedTo = (mode: Mode, companyName: string) =>
  new NotAllowedError(actionOf(mode, companyName), RIGHTS);

/** `send`, with the platform's refusal for lack of rights said as notAllowedTo says it. */
export const allowedOr = <T>(mode: Mode, companyName: string, send: () => Promise<T>) =>
  refusedAsNotAllowed(send, actionOf(mode, companyName), RIGHTS);

export const consequenceOf = (p: Preview) =>
  `This emails ${whole(p.to.email)} an invitation; an email cannot be unsent.`;

// The server's sentences first; names, emails and the message quoted whole on their lines. The
// consequence comes last (the confirmation module adds it).
export function previewLines(mode: Mode, p: Preview): string[] {
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

/** One invitation or re-invitation as sent: the platform's answer, a read-back, or unknown. */
export type Sent = WriteOutcome<InvitedContact, InvitedContact | null | undefined>;

/** The answer once one invitation or re-invitation was sent. */
export function sentAnswer(mode: Mode, preview: Preview, sent: Sent) {
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

function doneText(mode: Mode, c: InvitedContactOut): string {
  const who = `${whole(c.name)} (${whole(c.email ?? "")})`;
  const head =
    mode === "invite"
      ? `Invited ${who} into the talent pool of ${whole(c.company.name)}: contact ${oneLine(c.id)}, status ${oneLine(c.status)}.`
      : `Re-sent the invitation to ${who} in the talent pool of ${whole(c.company.name)}: contact ${oneLine(c.id)}, status ${oneLine(c.status)}, invited ${oneLine(c.invitedAt)}.`;
  return `${head} The email has gone out and cannot be unsent; they show as INVITED in search_talent_pool until they answer.`;
}
