import * as z from "zod";
import { MAX_SKILL_LOOKUPS } from "../../../client/operations/talent.js";
import { quoted } from "../../../client/platform-text.js";
import { shown, ToolInputError } from "../../define-tool.js";
import { hiddenCharacters, holdsHidden, REMOVE_HIDDEN } from "../../sent-text.js";

const EMAIL = z.email();
// The platform's own limit: a longer value is refused here, never cut in the preview.
const MAX_NAME = 255;

/** A new contact's invitation, as checked: names as they are shown and sent. */
export interface InviteArgs {
  company: string;
  firstName: string;
  lastName: string;
  email: string;
  skills?: string[];
  country?: string;
  message?: string;
}

/** The tool's arguments, before they are checked. */
export type Call = Partial<InviteArgs> & { contactId?: string; contactIds?: string[] };

/** The arguments checked, names as they are shown and sent, and what the change is to. */
export type Checked =
  | { mode: "invite"; target: string; args: InviteArgs }
  | { mode: "reinvite"; target: string; contactId: string };

/** The fields only an invitation of someone new takes. */
export const INVITE_ONLY = [
  "company",
  "firstName",
  "lastName",
  "email",
  "skills",
  "country",
  "message",
];

const INVITE_FIELDS = ["company", "firstName", "lastName", "email"] as const;

/** The fields of `args` among `fields` that were given. */
export const givenOf = (args: Call, fields: readonly string[]) =>
  fields.filter((k) => args[k as keyof Call] !== undefined);

/** The two modes, each complete, before anything is read. */
export function checkArguments(args: Call): Checked {
  if (args.contactId !== undefined) {
    const extra = givenOf(args, INVITE_ONLY);
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
  checkInvitation(args as InviteArgs);
  const email = args.email as string;
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

/** An invitation's values, each as the platform takes it and the preview can show it whole. */
function checkInvitation(args: InviteArgs): void {
  for (const key of ["firstName", "lastName", "email"] as const) {
    const value = args[key];
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
  if (!EMAIL.safeParse(args.email).success) {
    throw new ToolInputError(`${quoted(shown(args.email))} is not an email address`, "email");
  }
  if (args.country !== undefined && !/^[A-Za-z]{2}$/.test(args.country)) {
    throw new ToolInputError(
      `${quoted(shown(args.country))} is not a two-letter ISO country code`,
      "country",
      'Use codes such as "DK", "SE", "DE", "US" or "GB".',
    );
  }
}

const oneName = (name: string) => name.replace(/\s+/g, " ").trim();
