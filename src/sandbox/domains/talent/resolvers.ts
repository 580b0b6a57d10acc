// Skills and the talent pool, scoped like the core: a caller sees the contacts of its companies only.

import type { AnyRecord, Args, RequestContext, ResolverMap } from "../../context.js";
import { IDENTITIES } from "../../context.js";
import { ValidationCollector } from "../../errors.js";
import {
  type Comparable,
  companyOf,
  dateRange,
  inRange,
  listFilter,
  paginate,
  sortBy,
  workerName,
} from "../../kit.js";
import type { HireStatus, WorkerRecord } from "../../seed.js";
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
  ctx.data.workers.get(c.workerId) as WorkerRecord;

const CONTACT_COLUMNS: Record<
  string,
  (ctx: RequestContext, c: TrustedContactRecord) => Comparable
> = {
  WORKER_NAME: (ctx, c) => workerName(workerOfContact(ctx, c)),
  WORKER_COUNTRY: (ctx, c) => talentOf(ctx.data).addresses.get(c.workerId)?.country ?? null,
  WORKER_DATE_ADDED: (_ctx, c) => c.createdAt,
  WORKER_STATUS_UPDATED: (_ctx, c) => c.statusUpdatedAt,
};

function trustedContactsQuery(ctx: RequestContext, args: Args, field: string) {
  const v = new ValidationCollector();
  const created = dateRange(args, "createdAtDateRange", v);
  v.throwIfAny(field);
  const talent = talentOf(ctx.data);
  const accounts = listFilter(args, "accounts");
  const workers = listFilter(args, "workers");
  const skills = (args.skills as string[] | null | undefined) ?? [];
  const countries = listFilter(args, "countries");
  const wantedCountries = countries
    ? new Set([...countries].map((c) => String(c).trim().toUpperCase()))
    : null;
  const statuses = listFilter(args, "statuses");
  const externalIds = listFilter(args, "externalIdentifiers");
  const origin = args.origin as string | null | undefined;
  const hireStatus = args.hireStatus as { status?: string | null; accounts?: string[] } | null;
  const hireHistory = args.hireHistory as { status?: string | null; accounts?: string[] } | null;
  const search = typeof args.search === "string" ? args.search.trim().toLowerCase() : "";

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
  const given = (args.orderBy as Array<{ field: string; order: string }> | null) ?? [];
  const clauses = (given.length > 0 ? given : [{ field: "WORKER_NAME", order: "ASC" }]).map((c) => {
    const column = CONTACT_COLUMNS[c.field] as (typeof CONTACT_COLUMNS)[string];
    return { key: (t: TrustedContactRecord) => column(ctx, t), desc: c.order === "DESC" };
  });
  return paginate(sortBy(contacts, clauses), args, field);
}

function skillsQuery(ctx: RequestContext, args: Args, field: string) {
  const search = typeof args.search === "string" ? args.search.trim().toLowerCase() : "";
  const types = listFilter(args, "skillableType");
  const skills = [...talentOf(ctx.data).skills.values()].filter((s) => {
    if (search && !s.name.toLowerCase().includes(search)) return false;
    if (types && !s.types.some((t) => types.has(t))) return false;
    return true;
  });
  return paginate(sortBy(skills, [{ key: (s) => s.name, desc: false }]), args, field);
}

export const talentResolvers: ResolverMap = {
  Query: {
    skills: (_p, args, ctx, info) => skillsQuery(ctx, args, info.fieldName),
    trustedContacts: (_p, args, ctx, info) => trustedContactsQuery(ctx, args, info.fieldName),
  },
  TrustedContact: {
    worker: (c: AnyRecord, _a, ctx) => workerOfContact(ctx, c),
    company: (c: AnyRecord, _a, ctx) => companyOf(ctx, c.companyId),
    invitedByUser: (c: AnyRecord) =>
      Object.values(IDENTITIES).find((i) => i.user.id === c.invitedByUserId)?.user ?? null,
    skills: (c: AnyRecord, _a, ctx) =>
      (c as TrustedContactRecord).skillIds.map((id) => talentOf(ctx.data).skills.get(id)),
  },
  Worker: {
    address: (w: AnyRecord, _a, ctx) => talentOf(ctx.data).addresses.get(w.id) ?? null,
  },
  Address: {
    country: (a: AnyRecord) => ({ isoCode: a.country, name: COUNTRY_NAMES[a.country] ?? null }),
  },
};
