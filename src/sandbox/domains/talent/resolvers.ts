// Skills and the talent pool, scoped like the core: a caller sees the contacts of its companies only.

import * as z from "zod";
import type { AnyRecord, RequestContext, ResolverMap } from "../../context.js";
import { IDENTITIES, withArgs } from "../../context.js";
import { authorizationError, ValidationCollector } from "../../errors.js";
import {
  type Comparable,
  columnOf,
  companyOf,
  dateRange,
  inRange,
  listFilter,
  orderOf,
  paginate,
  searchText,
  sortBy,
  workerName,
} from "../../kit.js";
import { referenced } from "../../records.js";
import type {
  CreateTrustedContactInput,
  CustomFieldTypeValueInput,
  MutationCreateTrustedContactArgs,
  MutationReinviteTrustedContactArgs,
  MutationUpdateTrustedContactArgs,
  QuerySkillsArgs,
  QueryTrustedContactArgs,
  QueryTrustedContactsArgs,
  ReinviteTrustedContactInput,
  TrustedContactViewerCanReInviteArgs,
  UpdateTrustedContactInput,
} from "../../resolver-types.generated.js";
import type { HireStatus } from "../../seed/index.js";
import { newCustomFieldValueId, pickCustomFieldEntry } from "../hire-details/custom-field-input.js";
import { type CustomFieldRecord, hireDetailsOf } from "../hire-details/seed.js";
import { COUNTRY_NAMES, type TrustedContactRecord, talentOf } from "./seed.js";

// "Hired" is a hire the worker accepted: ready to start or active now, or ended or terminated since.
// A draft or an offer is not a hire yet, and a cancelled one never became one.
const HIRED_NOW: ReadonlySet<HireStatus> = new Set(["READY", "ACTIVE"]);
const HIRED_EVER: ReadonlySet<HireStatus> = new Set(["READY", "ACTIVE", "ENDED", "TERMINATED"]);

function hasHire(
  ctx: RequestContext,
  workerId: string,
  companyIds: ReadonlySet<string>,
  statuses: ReadonlySet<HireStatus>,
): boolean {
  for (const h of ctx.data.hires.values()) {
    if (h.workerId === workerId && companyIds.has(h.companyId) && statuses.has(h.status)) {
      return true;
    }
  }
  return false;
}

/** The companies a hire filter asks about: the given ones the caller sees, else the contact's. */
function filterCompanies(
  ctx: RequestContext,
  filter: { accounts?: string[] | null },
  contact: TrustedContactRecord,
): ReadonlySet<string> {
  const given = filter.accounts ?? [];
  if (given.length === 0) return new Set([contact.companyId]);
  return new Set(given.filter((id) => ctx.identity.companyIds.has(id)));
}

const workerOfContact = (ctx: RequestContext, c: TrustedContactRecord) =>
  referenced(ctx.data.workers, c.workerId);

const CONTACT_COLUMNS: Record<
  string,
  (ctx: RequestContext, c: TrustedContactRecord) => Comparable
> = {
  WORKER_NAME: (ctx, c) => workerName(workerOfContact(ctx, c)),
  WORKER_COUNTRY: (ctx, c) => talentOf(ctx.data).addresses.get(c.workerId)?.country ?? null,
  WORKER_DATE_ADDED: (_ctx, c) => c.createdAt,
  WORKER_STATUS_UPDATED: (_ctx, c) => c.statusUpdatedAt,
};

function trustedContactsQuery(ctx: RequestContext, args: QueryTrustedContactsArgs, field: string) {
  const v = new ValidationCollector();
  const created = dateRange(args.createdAtDateRange, "createdAtDateRange", v);
  v.throwIfAny(field);
  const talent = talentOf(ctx.data);
  const accounts = listFilter(args.accounts);
  const workers = listFilter(args.workers);
  const skills = args.skills ?? [];
  const wantedCountries = listFilter(args.countries?.map((c) => c.trim().toUpperCase()));
  const statuses = listFilter(args.statuses);
  const externalIds = listFilter(args.externalIdentifiers);
  const { origin, hireStatus, hireHistory } = args;
  const search = searchText(args.search);

  const contacts = [...talent.contacts.values()].filter((c) => {
    if (!ctx.identity.companyIds.has(c.companyId)) return false;
    if (accounts && !accounts.has(c.companyId)) return false;
    if (workers && !workers.has(c.workerId)) return false;
    // A contact must have every skill asked for.
    if (!skills.every((id) => c.skillIds.includes(id))) return false;
    if (wantedCountries) {
      const country = talent.addresses.get(c.workerId)?.country;
      if (!country || !wantedCountries.has(country)) return false;
    }
    if (statuses && !statuses.has(c.status)) return false;
    if (externalIds && !externalIds.has(c.externalIdentifier)) return false;
    if (origin && c.origin !== origin) return false;
    if (created && !inRange(c.createdAt, created)) return false;
    if (hireStatus?.status) {
      const now = hasHire(ctx, c.workerId, filterCompanies(ctx, hireStatus, c), HIRED_NOW);
      if (now !== (hireStatus.status === "CURRENTLY_HIRED")) return false;
    }
    if (hireHistory?.status) {
      const ever = hasHire(ctx, c.workerId, filterCompanies(ctx, hireHistory, c), HIRED_EVER);
      if (ever !== (hireHistory.status === "PREVIOUSLY_HIRED")) return false;
    }
    if (search) {
      const w = workerOfContact(ctx, c);
      const haystack = [workerName(w), w.email ?? "", w.jobTitle ?? "", c.externalIdentifier ?? ""]
        .join("\n")
        .toLowerCase();
      if (!haystack.includes(search)) return false;
    }
    return true;
  });
  const given = orderOf(args.orderBy, (c) => c.field);
  const clauses = (given.length > 0 ? given : [{ by: "WORKER_NAME", desc: false }]).map(
    ({ by, desc }) => {
      const column = columnOf(CONTACT_COLUMNS, by);
      return { key: (t: TrustedContactRecord) => column(ctx, t), desc };
    },
  );
  return paginate(sortBy(contacts, clauses), args, field);
}

function skillsQuery(ctx: RequestContext, args: QuerySkillsArgs, field: string) {
  const search = searchText(args.search);
  const types = listFilter(args.skillableType);
  const skills = [...talentOf(ctx.data).skills.values()].filter((s) => {
    if (search && !s.name.toLowerCase().includes(search)) return false;
    if (types && !s.types.some((t) => types.has(t))) return false;
    return true;
  });
  return paginate(sortBy(skills, [{ key: (s) => s.name, desc: false }]), args, field);
}

// ---------- mutations: inviting people into a company's pool ----------

const EMAIL = z.email();
const MAX_TEXT = 255;
const MAX_MESSAGE = 5000;

/** The platform's DateTime for "now" on the sandbox's pinned day. */
const nowOn = (today: string) => `${today}T${new Date().toISOString().slice(11, 19)}.000000Z`;

const text = (value: string | null | undefined) => (value ?? "").trim();

/** Only a company's team may invite, and only into a company it sees. */
function requireTalentManager(ctx: RequestContext, companyId: string): void {
  if (!ctx.identity.companyIds.has(companyId) || !ctx.identity.managesTalent) {
    throw authorizationError();
  }
}

/** A skill by id or by name (any letter case): the input's skills are strings, not ids. */
function findSkill(ctx: RequestContext, value: string) {
  const skills = talentOf(ctx.data).skills;
  const byId = skills.get(value);
  if (byId) return byId;
  const wanted = value.trim().toLowerCase();
  return [...skills.values()].find((s) => s.name.toLowerCase() === wanted);
}

function createTrustedContact(
  ctx: RequestContext,
  input: CreateTrustedContactInput,
  field: string,
) {
  const v = new ValidationCollector();
  const talent = talentOf(ctx.data);
  const company = ctx.data.companies.find((c) => c.id === input.company);
  if (!company) v.add("input.company", "The selected input.company is invalid.");
  else requireTalentManager(ctx, company.id);
  for (const key of ["firstName", "lastName", "email"] as const) {
    const value = text(input[key]);
    if (value === "") v.add(`input.${key}`, `The input.${key} field is required.`);
    else if (value.length > MAX_TEXT) {
      v.add(`input.${key}`, `The input.${key} may not be greater than ${MAX_TEXT} characters.`);
    }
  }
  const email = text(input.email);
  if (email !== "" && !EMAIL.safeParse(email).success) {
    v.add("input.email", "The input.email must be a valid email address.");
  } else if (company && email !== "") {
    const taken = [...talent.contacts.values()].some(
      (c) =>
        c.companyId === company.id &&
        ctx.data.workers.get(c.workerId)?.email?.toLowerCase() === email.toLowerCase(),
    );
    if (taken) v.add("input.email", "The input.email is already in this company's talent pool.");
  }
  const country =
    input.country === null || input.country === undefined
      ? null
      : text(input.country).toUpperCase();
  if (country !== null && !(country in COUNTRY_NAMES)) {
    v.add("input.country", "The selected input.country is invalid.");
  }
  const skillIds: string[] = [];
  input.skills.forEach((value, i) => {
    const skill = findSkill(ctx, value);
    if (!skill) v.add(`input.skills.${i}`, `The selected input.skills.${i} is invalid.`);
    else if (!skillIds.includes(skill.id)) skillIds.push(skill.id);
  });
  input.links.forEach((link, i) => {
    if (!/^https?:\/\/\S+$/.test(link)) {
      v.add(`input.links.${i}`, `The input.links.${i} must be a valid URL.`);
    }
  });
  // The sandbox has no uploads, so no attachment id exists.
  input.attachments.forEach((_id, i) => {
    v.add(`input.attachments.${i}`, `The selected input.attachments.${i} is invalid.`);
  });
  const message = typeof input.message === "string" ? input.message : null;
  if (message !== null && message.length > MAX_MESSAGE) {
    v.add("input.message", `The input.message may not be greater than ${MAX_MESSAGE} characters.`);
  }
  const owner = v.passed(field, company);

  const data = ctx.data;
  const lower = email.toLowerCase();
  // The same person in another company's pool is the same worker.
  let worker = [...data.workers.values()].find((w) => w.email?.toLowerCase() === lower);
  if (!worker) {
    data.counters.worker += 1;
    worker = {
      __typename: "Worker",
      id: `wrk_${String(data.counters.worker).padStart(3, "0")}`,
      firstName: text(input.firstName),
      lastName: text(input.lastName),
      email,
      phone: null,
      jobTitle: null,
      avatar: null,
    };
    data.workers.set(worker.id, worker);
  }
  if (country !== null && !talent.addresses.has(worker.id)) {
    talent.addresses.set(worker.id, { city: null, country });
  }
  talent.counters.contact += 1;
  const id = `tc_${String(talent.counters.contact).padStart(3, "0")}`;
  const contact: TrustedContactRecord = {
    id,
    workerId: worker.id,
    companyId: owner.id,
    status: "INVITED",
    skillIds,
    invitedAt: data.today,
    statusUpdatedAt: data.today,
    createdAt: data.today,
    invitedByUserId: ctx.identity.user.id,
    origin: input.origin === "ADDED" ? "ADDED" : "INVITED",
    originChannel: input.originChannel,
    externalIdentifier: text(input.externalIdentifier) || null,
    // notifyWorker defaults to true: the person is emailed unless told otherwise.
    invitationEmails:
      input.notifyWorker === false
        ? []
        : [{ sentAt: nowOn(data.today), to: email, message, sentByUserId: ctx.identity.user.id }],
  };
  talent.contacts.set(id, contact);
  return contact;
}

function reinviteTrustedContact(
  ctx: RequestContext,
  input: ReinviteTrustedContactInput,
  field: string,
) {
  const v = new ValidationCollector();
  const contact = talentOf(ctx.data).contacts.get(input.id);
  if (!contact) v.add("input.id", "The selected input.id is invalid.");
  else {
    requireTalentManager(ctx, contact.companyId);
    if (contact.status !== "INVITED") {
      v.add(
        "input.id",
        `Only contacts who have not answered their invitation can be re-invited; this contact is ${contact.status}.`,
      );
    }
  }
  const worker = contact ? ctx.data.workers.get(contact.workerId) : undefined;
  if (contact && !worker?.email) v.add("input.id", "The trusted contact has no email address.");
  const c = v.passed(field, contact);
  const to = v.passed(field, worker?.email);
  c.invitedAt = ctx.data.today;
  c.invitationEmails = [
    ...(c.invitationEmails ?? []),
    {
      sentAt: nowOn(ctx.data.today),
      to,
      message: null,
      sentByUserId: ctx.identity.user.id,
    },
  ];
  return c;
}

// ---------- updateTrustedContact: skills, external id and custom field values ----------

/**
 * The values given, checked against the company's talent-pool fields; each names its field by id or
 * slug. A null (or empty) value deletes the field's value; fields not given keep theirs.
 */
function checkContactValues(
  ctx: RequestContext,
  contact: TrustedContactRecord,
  raw: readonly CustomFieldTypeValueInput[] | null | undefined,
  v: ValidationCollector,
): Array<{ field: CustomFieldRecord; optionId: string | null; content: string | null }> {
  if (!raw) return [];
  const fields = hireDetailsOf(ctx.data).customFields.filter(
    (f) => f.companyId === contact.companyId && f.appliesTo === "TRUSTED_CONTACT",
  );
  const out: Array<{ field: CustomFieldRecord; optionId: string | null; content: string | null }> =
    [];
  const seen = new Set<string>();
  raw.forEach((entry, i) => {
    const at = `input.customFieldValues.${i}`;
    const picked = pickCustomFieldEntry(fields, entry, at, v, seen);
    if (!picked) return;
    const { field } = picked;
    if (picked.member === "singleSelect") {
      const { value } = picked.value;
      if (value === null || value === undefined) {
        out.push({ field, optionId: null, content: null });
      } else if (!field.options.some((o) => o.id === value)) {
        v.add(`${at}.singleSelect.value`, `The selected option for ${field.title} is invalid.`);
      } else out.push({ field, optionId: value, content: null });
    } else {
      // Free text: no talent-pool field is multi-select, so the type check let no other through.
      const given = picked.member === "freeText" ? picked.value.value : undefined;
      const content = typeof given === "string" ? given.trim() : "";
      if (content.length > MAX_TEXT) {
        v.add(
          `${at}.freeText.value`,
          `The value for ${field.title} may not be greater than ${MAX_TEXT} characters.`,
        );
      } else out.push({ field, optionId: null, content: content === "" ? null : content });
    }
  });
  return out;
}

function updateTrustedContact(
  ctx: RequestContext,
  input: UpdateTrustedContactInput,
  field: string,
) {
  const v = new ValidationCollector();
  const contact = talentOf(ctx.data).contacts.get(input.id);
  if (!contact) v.add("input.id", "The selected input.id is invalid.");
  const c = v.passed(field, contact);
  requireTalentManager(ctx, c.companyId);
  const skillIds: string[] = [];
  (input.skills ?? []).forEach((value, i) => {
    const skill = findSkill(ctx, value);
    if (!skill) v.add(`input.skills.${i}`, `The selected input.skills.${i} is invalid.`);
    else if (!skillIds.includes(skill.id)) skillIds.push(skill.id);
  });
  (input.links ?? []).forEach((link, i) => {
    if (!/^https?:\/\/\S+$/.test(link)) {
      v.add(`input.links.${i}`, `The input.links.${i} must be a valid URL.`);
    }
  });
  (input.attachments ?? []).forEach((_id, i) => {
    v.add(`input.attachments.${i}`, `The selected input.attachments.${i} is invalid.`);
  });
  const values = checkContactValues(ctx, c, input.customFieldValues, v);
  const details = hireDetailsOf(ctx.data);
  const kept = (fieldId: string) =>
    details.customFieldValues.some(
      (x) => x.on === "TrustedContact" && x.targetId === c.id && x.fieldId === fieldId,
    );
  for (const f of details.customFields) {
    if (f.companyId !== c.companyId || f.appliesTo !== "TRUSTED_CONTACT") continue;
    if (!f.validation.includes("REQUIRED")) continue;
    const given = values.find((x) => x.field.id === f.id);
    if (given ? given.optionId === null && given.content === null : !kept(f.id)) {
      v.add("input.customFieldValues", `The ${f.title} field is required.`);
    }
  }
  v.throwIfAny(field);
  if (Array.isArray(input.skills)) c.skillIds = skillIds;
  if (input.externalIdentifier !== undefined) {
    c.externalIdentifier = text(input.externalIdentifier) || null;
  }
  for (const value of values) setContactValue(ctx, c, value);
  return c;
}

/** Replaces the contact's value of one field, or deletes it (no option, no content). */
function setContactValue(
  ctx: RequestContext,
  contact: TrustedContactRecord,
  value: { field: CustomFieldRecord; optionId: string | null; content: string | null },
): void {
  const details = hireDetailsOf(ctx.data);
  const existing = details.customFieldValues.find(
    (x) => x.on === "TrustedContact" && x.targetId === contact.id && x.fieldId === value.field.id,
  );
  if (value.optionId === null && value.content === null) {
    if (existing) details.customFieldValues.splice(details.customFieldValues.indexOf(existing), 1);
    return;
  }
  if (existing) {
    existing.optionId = value.optionId;
    existing.content = value.content;
    existing.userId = ctx.identity.user.id;
    return;
  }
  details.customFieldValues.push({
    id: newCustomFieldValueId(ctx.data),
    fieldId: value.field.id,
    on: "TrustedContact",
    targetId: contact.id,
    userId: ctx.identity.user.id,
    optionId: value.optionId,
    content: value.content,
  });
}

export const talentResolvers: ResolverMap = {
  Mutation: {
    updateTrustedContact: withArgs<MutationUpdateTrustedContactArgs>((_p, { input }, ctx, info) =>
      updateTrustedContact(ctx, input, info.fieldName),
    ),
    createTrustedContact: withArgs<MutationCreateTrustedContactArgs>((_p, { input }, ctx, info) =>
      createTrustedContact(ctx, input, info.fieldName),
    ),
    reinviteTrustedContact: withArgs<MutationReinviteTrustedContactArgs>(
      (_p, { input }, ctx, info) => reinviteTrustedContact(ctx, input, info.fieldName),
    ),
  },
  Query: {
    trustedContact: withArgs<QueryTrustedContactArgs>((_p, { id }, ctx) => {
      const contact = talentOf(ctx.data).contacts.get(id);
      if (!contact) return null;
      if (!ctx.identity.companyIds.has(contact.companyId)) throw authorizationError();
      return contact;
    }),
    skills: withArgs<QuerySkillsArgs>((_p, args, ctx, info) =>
      skillsQuery(ctx, args, info.fieldName),
    ),
    trustedContacts: withArgs<QueryTrustedContactsArgs>((_p, args, ctx, info) =>
      trustedContactsQuery(ctx, args, info.fieldName),
    ),
  },
  TrustedContact: {
    worker: (c: AnyRecord, _a, ctx) => workerOfContact(ctx, c),
    company: (c: AnyRecord, _a, ctx) => companyOf(ctx, c.companyId),
    invitedByUser: (c: AnyRecord) =>
      Object.values(IDENTITIES).find((i) => i.user.id === c.invitedByUserId)?.user ?? null,
    skills: (c: TrustedContactRecord, _a, ctx) =>
      c.skillIds.map((id) => talentOf(ctx.data).skills.get(id)),
    viewerCanReInvite: withArgs<TrustedContactViewerCanReInviteArgs>(
      (c: AnyRecord, { account }, ctx) =>
        ctx.identity.managesTalent &&
        ctx.identity.companyIds.has(c.companyId) &&
        account === c.companyId &&
        c.status === "INVITED",
    ),
  },
  Worker: {
    address: (w: AnyRecord, _a, ctx) => talentOf(ctx.data).addresses.get(w.id) ?? null,
  },
  Address: {
    country: (a: AnyRecord) => ({ isoCode: a.country, name: COUNTRY_NAMES[a.country] ?? null }),
  },
};
