// Re-inviting several contacts under one confirmation: one preview lists every contact with the
// whole address and the token binds every one; each is then sent on its own, as the single
// re-invitation is (its own hold when its outcome is unknown), and each outcome is reported.
import { isPlatformError } from "../../../client/errors.js";
import type { InvitedContact } from "../../../client/operations/talent-invitations.js";
import { oneLine } from "../../../client/platform-text.js";
import { SharedStateUnavailableError } from "../../../state/store.js";
import {
  confirmedWrite,
  OutcomeStillUnknownError,
  type Proposal,
  refuseWhileUnknown,
  whole,
} from "../../confirmation.js";
import { NotAllowedError, type ToolContext, ToolInputError } from "../../define-tool.js";
import { toInvitedContact } from "../../shapes/talent-contact.js";
import { type Call, givenOf, INVITE_ONLY } from "./arguments.js";
import { reinvitable, reinviteFacts, sendReinvitation } from "./reinvite.js";
import { type Preview, TOOL } from "./shared.js";

/** The most contacts re-invited in one confirmation: each is a line of the preview. */
const MAX_REINVITES = 25;

/** contactIds: only ids, each once, and no more than one preview can show. */
export function checkMany(args: Call) {
  const extra = givenOf(args, [...INVITE_ONLY, "contactId"]);
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

/** Several re-invitations under one confirmation, each sent on its own once confirmed. */
export async function reinviteMany(
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
    propose: () => proposeMany(ctx, ids, known),
    fields: ({ previews }) => ({ mode, previews }),
    declined: () => ({ text: "No email was sent." }),
    apply: ({ preview }) => reinviteEach(ctx, preview.previews),
  });
}

/** Every contact read and checked side by side; the first refusal in the person's order is said. */
async function proposeMany(
  ctx: ToolContext,
  ids: string[],
  known: Map<string, InvitedContact>,
): Promise<Proposal<{ previews: Preview[] }>> {
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
}

/** Each confirmed re-invitation sent on its own, and each outcome said. */
async function reinviteEach(ctx: ToolContext, previews: Preview[]) {
  const mode = "reinvite" as const;
  const results = [];
  const lines: string[] = [];
  for (const p of previews) {
    const { result, line } = await reinviteOne(ctx, p);
    results.push(result);
    lines.push(line);
  }
  const sentCount = results.filter((r) => r.outcome === "reinvited").length;
  const unknown = results.some((r) => r.outcome === "outcome-unknown");
  const status =
    sentCount === results.length
      ? ("reinvited" as const)
      : unknown
        ? ("outcome-unknown" as const)
        : sentCount === 0
          ? ("not-sent" as const)
          : ("partly-sent" as const);
  const head =
    status === "not-sent"
      ? `Re-invitations: none of ${results.length} sent; no email went out.`
      : `Re-invitations: ${sentCount} of ${results.length} sent. Emails that went out cannot be unsent; those contacts show as INVITED in search_talent_pool until they answer.`;
  return {
    ...(status === "reinvited" ? {} : { isError: true }),
    structured: { status, mode, previews, results },
    text: [head, ...lines].join("\n"),
  };
}

type Outcome = "reinvited" | "outcome-unknown" | "not-sent";

/** One contact of several re-invited: its outcome, and its line of the answer. */
async function reinviteOne(ctx: ToolContext, p: Preview) {
  const contactId = p.contactId as string;
  const email = p.to.email;
  const said = (outcome: Outcome, line: string, note?: string) => ({
    result: { contactId, email, outcome, ...(note === undefined ? {} : { note }) },
    line: `- ${oneLine(contactId)} ${whole(email)}: ${line}`,
  });
  try {
    const sent = await sendReinvitation(ctx, p, checkOf(contactId, p.invitedAt));
    if (sent.kind === "unknown") return said("outcome-unknown", sent.text, sent.text);
    const c = toInvitedContact(sent.kind === "sent" ? sent.data : (sent.state as InvitedContact));
    const late = sent.kind === "read-back" ? " (answer lost; the read-back confirmed it)" : "";
    return said("reinvited", `re-sent, invited ${oneLine(c.invitedAt)}${late}.`);
  } catch (error) {
    // A definite refusal for one contact: the others were confirmed on their own facts. Anything
    // else (the server's own failure) is not known to have left the email unsent.
    if (!isDefiniteRefusal(error)) throw error;
    const note = error instanceof Error ? error.message : String(error);
    return said("not-sent", `NOT sent: ${oneLine(note)}`, note);
  }
}

/** The read that shows a contact's re-invitation; given the previewed day, what in it shows one. */
const checkOf = (id: string, invitedAt?: string | null) =>
  `query_platform ({ trustedContact(id: "${oneLine(id)}") { invitedAt } }${invitedAt ? `; a re-invitation moves invitedAt past ${oneLine(invitedAt)}` : ""})`;

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
