// Hire owners, compliance rows and PO number; custom fields and their values; projects. Visibility
// as in the core: only the caller's companies, other companies' records are not authorised.
import type { AnyRecord, RequestContext, ResolverMap } from "../../context.js";
import { withArgs } from "../../context.js";
import { authorizationError } from "../../errors.js";
import {
  companyOf,
  lastPaymentRequestDate,
  listFilter,
  paginate,
  searchText,
  sortBy,
  termsContract,
} from "../../kit.js";
import { referencedIn } from "../../records.js";
import type {
  CompanyCustomFieldsArgs,
  HireCompliancesArgs,
  QueryCustomFieldsArgs,
  QueryProjectArgs,
  QueryProjectsArgs,
} from "../../resolver-types.generated.js";
import { jobById } from "../jobs/seed.js";
import { talentOf } from "../talent/seed.js";
import {
  type CustomFieldValueRecord,
  hireDetailsOf,
  type ProjectRecord,
  type UserRecord,
} from "./seed.js";

const details = (ctx: RequestContext) => hireDetailsOf(ctx.data);

function users(ctx: RequestContext, ids: readonly string[]): UserRecord[] {
  const all = details(ctx).users;
  return ids.map((id) => all.get(id)).filter((u): u is UserRecord => u !== undefined);
}

function customFieldsQuery(
  ctx: RequestContext,
  args: QueryCustomFieldsArgs,
  field: string,
  companyId?: string,
) {
  const accounts = listFilter(args.accounts);
  const appliesTo = listFilter(args.appliesTo);
  const approval = args.approval ?? null;
  const fields = details(ctx).customFields.filter((f) => {
    if (!ctx.identity.companyIds.has(f.companyId)) return false;
    if (companyId !== undefined && f.companyId !== companyId) return false;
    if (accounts && !accounts.has(f.companyId)) return false;
    if (appliesTo && !appliesTo.has(f.appliesTo)) return false;
    if (approval !== null && f.approval !== approval) return false;
    return true;
  });
  return paginate(sortBy(fields, []), args, field);
}

const projectOpen = (ctx: RequestContext, p: ProjectRecord) =>
  p.endDate === null || p.endDate > ctx.data.today;

function projectsQuery(ctx: RequestContext, args: QueryProjectsArgs, field: string) {
  const accounts = listFilter(args.accounts);
  const status = listFilter(args.status);
  const owners = listFilter(args.owners);
  const externalIds = listFilter(args.externalIdentifiers);
  const search = searchText(args.search);
  const projects = details(ctx).projects.filter((p) => {
    if (!ctx.identity.companyIds.has(p.companyId)) return false;
    if (accounts && !accounts.has(p.companyId)) return false;
    if (status && !status.has(projectOpen(ctx, p) ? "OPEN" : "ENDED")) return false;
    if (owners && !p.ownerIds.some((id) => owners.has(id))) return false;
    if (externalIds && !externalIds.has(p.externalIdentifier)) return false;
    if (search && !`${p.name}\n${p.description ?? ""}`.toLowerCase().includes(search)) return false;
    return true;
  });
  return paginate(sortBy(projects, []), args, field);
}

const valuesOn = (ctx: RequestContext, on: CustomFieldValueRecord["on"], id: string) =>
  details(ctx).customFieldValues.filter((v) => v.on === on && v.targetId === id);

const fieldOf = (ctx: RequestContext, v: CustomFieldValueRecord) =>
  referencedIn(details(ctx).customFields, v.fieldId);

const optionOf = (ctx: RequestContext, v: CustomFieldValueRecord) =>
  v.optionId === null ? null : (fieldOf(ctx, v).options.find((o) => o.id === v.optionId) ?? null);

export const hireDetailsResolvers: ResolverMap = {
  Query: {
    customFields: withArgs<QueryCustomFieldsArgs>((_p, args, ctx, info) =>
      customFieldsQuery(ctx, args, info.fieldName),
    ),
    projects: withArgs<QueryProjectsArgs>((_p, args, ctx, info) =>
      projectsQuery(ctx, args, info.fieldName),
    ),
    project: withArgs<QueryProjectArgs>((_p, { id }, ctx) => {
      const project = details(ctx).projects.find((p) => p.id === id);
      if (!project) return null;
      if (!ctx.identity.companyIds.has(project.companyId)) throw authorizationError();
      return project;
    }),
  },
  Company: {
    customFields: withArgs<CompanyCustomFieldsArgs>((c: AnyRecord, args, ctx, info) =>
      customFieldsQuery(ctx, { first: args.first, page: args.page }, info.fieldName, c.id),
    ),
  },
  Hire: {
    owners: (h: AnyRecord, _a, ctx) => users(ctx, details(ctx).owners.get(h.id) ?? []),
    compliances: withArgs<HireCompliancesArgs>((h: AnyRecord, args, ctx) => {
      const names = listFilter(args.names);
      const rows = details(ctx).compliances.get(h.id) ?? [];
      return names ? rows.filter((r) => names.has(r.name)) : rows;
    }),
    purchaseOrderNumber: (h: AnyRecord, _a, ctx) => termsContract(ctx, h).purchaseOrderNumber,
    // The same date the core orders hires by (LAST_PAYMENT_REQUEST_DATE).
    lastPaymentRequestDate: (h: AnyRecord, _a, ctx) => lastPaymentRequestDate(ctx, h),
  },
  CustomField: {
    user: (f: AnyRecord, _a, ctx) => users(ctx, [f.userId])[0] ?? null,
    account: (f: AnyRecord, _a, ctx) => companyOf(ctx, f.companyId),
    customFieldOptions: (f: AnyRecord) => f.options,
    settings: (f: AnyRecord) => ({ validation: f.validation }),
    customFieldValues: (f: AnyRecord, _a, ctx) =>
      details(ctx).customFieldValues.filter((v) => v.fieldId === f.id),
    isUsedInFieldValues: (f: AnyRecord, _a, ctx) =>
      details(ctx).customFieldValues.some((v) => v.fieldId === f.id),
  },
  // Values on a job or a talent-pool record: those of the viewer's companies only, as the
  // record itself is.
  Job: {
    customFieldValues: (j: AnyRecord, _a, ctx) => valuesOn(ctx, "Job", j.id),
  },
  TrustedContact: {
    customFieldValues: (t: AnyRecord, _a, ctx) => valuesOn(ctx, "TrustedContact", t.id),
  },
  CustomFieldOption: {
    customField: (o: AnyRecord, _a, ctx) =>
      details(ctx).customFields.find((f) => f.id === o.fieldId),
  },
  CustomFieldValue: {
    account: (v: AnyRecord, _a, ctx) => companyOf(ctx, fieldOf(ctx, v).companyId),
    user: (v: AnyRecord, _a, ctx) => users(ctx, [v.userId])[0],
    // The union needs the member's name; the records are plain objects.
    appliesTo: (v: CustomFieldValueRecord, _a, ctx) => {
      const { on, targetId } = v;
      const target =
        on === "Contract"
          ? ctx.data.contracts.get(targetId)
          : on === "Job"
            ? jobById(ctx.data, targetId)
            : talentOf(ctx.data).contacts.get(targetId);
      return { ...target, __typename: on };
    },
    customField: (v: AnyRecord, _a, ctx) => fieldOf(ctx, v),
    customFieldOption: (v: AnyRecord, _a, ctx) => optionOf(ctx, v),
    displayValue: (v: AnyRecord, _a, ctx) => optionOf(ctx, v)?.value ?? v.content,
  },
  Project: {
    creator: (p: AnyRecord, _a, ctx) => users(ctx, [p.creatorId])[0],
    company: (p: AnyRecord, _a, ctx) => companyOf(ctx, p.companyId),
    owners: (p: AnyRecord, _a, ctx) => users(ctx, p.ownerIds),
  },
};
