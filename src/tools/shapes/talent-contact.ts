// A talent-pool contact (the platform's TrustedContact) as the tools show it: the output schemas
// and the mappings from the platform's answer, for the selections in
// src/client/operations/talent.ts (SearchTalentPool) and talent-invitations.ts (the contact an
// invitation creates or renews).
import * as z from "zod";
import type { TalentContact } from "../../client/operations/talent.js";
import type { InvitedContact } from "../../client/operations/talent-invitations.js";
import {
  idAndName,
  idAndStatus,
  toIdAndName,
  toIdAndStatus,
  toWorkerWithEmail,
  workerWithEmail,
} from "./named.js";

type HireStatus = "CURRENTLY_HIRED" | "PREVIOUSLY_HIRED" | "NEVER_HIRED";

// A hire the worker accepted counts as hired: ready to start or active now; ended or terminated
// since. Drafts and offers are not hires yet, and a cancelled hire never became one.
const HIRED_NOW = new Set(["READY", "ACTIVE"]);
const HIRED_BEFORE = new Set(["ENDED", "TERMINATED"]);

/** As search_talent_pool lists one: who, where, their skills, and whether the company hired them. */
export const talentContactOutput = z.object({
  id: z.string(),
  status: z.string(),
  /** The day the invitation was sent (TrustedContact.invitedAt), and whole days since. */
  invitedAt: z.string(),
  daysSinceInvited: z.number(),
  worker: workerWithEmail.extend({ jobTitle: z.string().nullable() }),
  country: z.string().nullable(),
  city: z.string().nullable(),
  skills: z.array(z.string()),
  company: idAndName,
  /** By the contact's company. */
  hireStatus: z.enum(["CURRENTLY_HIRED", "PREVIOUSLY_HIRED", "NEVER_HIRED"]),
  hires: z.array(idAndStatus),
});
export type TalentContactOut = z.infer<typeof talentContactOutput>;

export function toTalentContact(c: TalentContact, today: string): TalentContactOut {
  const hires = c.worker.hires.data
    .filter((h) => h.company.id === c.company.id)
    .map((h) => toIdAndStatus(h));
  const hireStatus: HireStatus = hires.some((h) => HIRED_NOW.has(h.status))
    ? "CURRENTLY_HIRED"
    : hires.some((h) => HIRED_BEFORE.has(h.status))
      ? "PREVIOUSLY_HIRED"
      : "NEVER_HIRED";
  return {
    id: c.id,
    status: c.status,
    invitedAt: c.invitedAt,
    // Both are whole days (the platform's Date), so the difference is whole too.
    daysSinceInvited: Math.round((Date.parse(today) - Date.parse(c.invitedAt)) / 86_400_000),
    worker: { ...toWorkerWithEmail(c.worker), jobTitle: c.worker.jobTitle },
    country: c.worker.address?.country?.isoCode ?? null,
    city: c.worker.address?.city ?? null,
    skills: c.skills.map((s) => s.name),
    company: toIdAndName(c.company),
    hireStatus,
    hires,
  };
}

/** As invite_to_talent_pool shows the contact it invited or invited again. */
export const invitedContactOutput = z.object({
  id: z.string(),
  status: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  invitedAt: z.string(),
  company: idAndName,
  skills: z.array(z.string()),
});
export type InvitedContactOut = z.infer<typeof invitedContactOutput>;

export function toInvitedContact(c: InvitedContact): InvitedContactOut {
  return {
    id: c.id,
    status: c.status,
    name: c.worker.name,
    email: c.worker.email,
    invitedAt: c.invitedAt,
    company: toIdAndName(c.company),
    skills: c.skills.map((s) => s.name),
  };
}
