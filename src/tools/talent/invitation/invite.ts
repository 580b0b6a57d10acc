// Inviting someone new: the company and skills read as the platform has them, the address not yet
// in the pool, and the contact created with an identifier that finds it again after a lost answer.
import { createHash } from "node:crypto";
import {
  type SkillRef,
  skillAlias,
  skillLookupQuery,
  skillVariable,
} from "../../../client/operations/talent.js";
import {
  createTrustedContactMutation,
  type InvitedContact,
  poolContactsByEmailQuery,
  poolContactsByExternalIdQuery,
} from "../../../client/operations/talent-invitations.js";
import { oneLine, quoted } from "../../../client/platform-text.js";
import { type Proposal, sendWrite, whole } from "../../confirmation.js";
import { type ToolContext, ToolInputError } from "../../define-tool.js";
import { requestOptions } from "../../format.js";
import { accountsOf } from "../../known-ids.js";
import { callOf } from "../../reach.js";
import { toIdAndName } from "../../shapes/named.js";
import type { InviteArgs } from "./arguments.js";
import { allowedOr, consequenceOf, type Preview, previewLines, type Sent, TOOL } from "./shared.js";

/** An invitation as previewed: what is sent, and the identifier that finds the contact again. */
export interface InvitePlan {
  mode: "invite";
  target: string;
  preview: Preview;
  input: InviteArgs & { skills: string[] };
  externalIdentifier: string;
}

/**
 * The contact's external identifier for an invitation of `email` into `company`: the same for a
 * repeat of that invitation on any replica, so a lost answer's read-back finds the contact.
 */
export function invitationExternalId(company: string, email: string): string {
  const digest = createHash("sha256").update(`${company}\n${email.toLowerCase()}`).digest("hex");
  return `wfmcp-invite-${digest.slice(0, 32)}`;
}

export async function proposeInvite(
  ctx: ToolContext,
  target: string,
  args: InviteArgs,
): Promise<Proposal<InvitePlan>> {
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
  await refuseIfInPool(ctx, company, args.email, externalIdentifier);
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
      target,
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

/** Refused when `email` is in the company's pool already, and what to do instead said. */
async function refuseIfInPool(
  ctx: ToolContext,
  company: { id: string; name: string },
  email: string,
  externalIdentifier: string,
): Promise<void> {
  const existing = await findByEmail(ctx, company.id, email);
  if (!existing) return;
  const ours = existing.externalIdentifier === externalIdentifier;
  throw new ToolInputError(
    `${whole(email)} is already in the talent pool of ${whole(company.name)}: contact ${oneLine(existing.id)}, ${oneLine(existing.status)}, invited ${oneLine(existing.invitedAt)}${ours ? " by an earlier invitation from this server" : ""}`,
    "email",
    // The invitation this server sent went out then: do not point to a second email.
    !ours && existing.status === "INVITED"
      ? `They have not answered yet; to send the invitation again, call ${callOf(ctx, TOOL)} with {"contactId": "${oneLine(existing.id)}"}.`
      : "Nothing was sent.",
  );
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

/** The confirmed invitation sent once; after a lost answer, the contact found by its identifier. */
export function sendInvite(ctx: ToolContext, plan: InvitePlan): Promise<Sent> {
  const { input, preview } = plan;
  return sendWrite(ctx, {
    tool: TOOL,
    target: plan.target,
    check: `search_talent_pool (search ${whole(preview.to.email)})`,
    send: allowedOr(
      "invite",
      preview.company.name,
      async () =>
        (
          await ctx.client.run(
            createTrustedContactMutation,
            {
              input: {
                company: input.company,
                firstName: input.firstName,
                lastName: input.lastName,
                email: input.email,
                ...(input.country ? { country: input.country } : {}),
                links: [],
                attachments: [],
                // The platform's spelling, as previewed.
                skills: input.skills,
                ...(input.message ? { message: input.message } : {}),
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
    ),
    readBack: () => findByExternalId(ctx, preview.company.id, plan.externalIdentifier),
    applied: (found) => found !== undefined,
  });
}
