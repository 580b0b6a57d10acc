// Ids in a filter, checked against what the viewer can see before the filter runs: a wrong id (or a
// name where an id belongs) must be an argument error that says so, never a silent empty list.
import type { ListAccountsQuery } from "../client/operation-types.generated.js";
import { listAccountsQuery } from "../client/operations/accounts.js";
import { searchHiresQuery } from "../client/operations/index.js";
import {
  type InvitedContact,
  poolContactsBySearchQuery,
} from "../client/operations/talent-invitations.js";
import { foldName, oneLine, quoted } from "../client/platform-text.js";
import { type FormAnswer, type ToolContext, ToolInputError } from "./define-tool.js";
import { requestOptions } from "./format.js";
import { checkHires } from "./timesheets/timesheet-reads.js";

/** The filter's values as ids, and a line for each name read as an id. */
export interface Resolved {
  ids: string[] | undefined;
  notes: string[];
}

interface Candidate {
  id: string;
  label: string;
  name: string;
}

/** How many candidates an error lists at most. */
const SHOWN = 8;

/** The items whose name is `value` (folded), else those whose name contains it. */
export function namesFitting<T>(items: readonly T[], value: string, name: (t: T) => string): T[] {
  const needle = foldName(value);
  const exact = items.filter((t) => foldName(name(t)) === needle);
  return exact.length > 0 ? exact : items.filter((t) => foldName(name(t)).includes(needle));
}

/**
 * `value` read as a name among `candidates`: the one whose name it is (or the only one whose name
 * contains it), or an argument error listing the several that fit, or none.
 */
function byName(
  value: string,
  candidates: Candidate[],
  argument: string,
  what: string,
): Candidate | undefined {
  const fits = namesFitting(candidates, value, (c) => c.name);
  const unique = [...new Map(fits.map((c) => [c.id, c])).values()];
  if (unique.length === 1) return unique[0];
  if (unique.length > 1) {
    throw new ToolInputError(
      `${quoted(value)} is not ${what} id, and several match it as a name: ${list(unique)}`,
      argument,
      "Give the id of the one you mean.",
    );
  }
  return undefined;
}

function list(candidates: Candidate[]): string {
  const shown = candidates.slice(0, SHOWN).map((c) => c.label);
  const more = candidates.length > SHOWN ? ` and ${candidates.length - SHOWN} more` : "";
  return `${shown.join(", ")}${more}`;
}

const resolvedNote = (argument: string, value: string, c: Candidate) =>
  `${argument}: read ${quoted(value)} as ${c.label}.`;

// One read of the caller's accounts per tool call, however many arguments and checks need it.
const accountsRead = new WeakMap<ToolContext, Promise<Account[]>>();

type Account = ListAccountsQuery["accounts"][number];

/** The accounts the caller may act for, read once per tool call. */
export function accountsOf(ctx: ToolContext): Promise<Account[]> {
  let read = accountsRead.get(ctx);
  if (!read) {
    read = ctx.client
      .run(listAccountsQuery, {}, requestOptions(ctx))
      .then(({ data }) => data.accounts);
    accountsRead.set(ctx, read);
  }
  return read;
}

/**
 * The caller's company with id `company` (from the accounts read once per call), or an argument
 * error saying it is not one of theirs, with `hint` as what to do.
 */
export async function ownCompany(ctx: ToolContext, company: string, hint: string) {
  const account = (await accountsOf(ctx)).find(
    (a) => a.__typename === "Company" && a.id === company,
  );
  if (!account) {
    throw new ToolInputError(`${oneLine(company)} is not one of your companies`, "company", hint);
  }
  return account;
}

/** Company ids in `argument`, checked against the accounts the viewer may act for; names resolved. */
export async function resolveAccounts(
  ctx: ToolContext,
  values: string[] | undefined,
  argument = "accounts",
): Promise<Resolved> {
  if (!values?.length) return { ids: values, notes: [] };
  const accounts = await accountsOf(ctx);
  const known = new Set(accounts.map((a) => a.id));
  // The filters take company ids: a name is looked for among the companies only.
  const companies: Candidate[] = accounts
    .filter((a) => a.__typename === "Company")
    .map((a) => ({ id: a.id, name: a.name, label: `${quoted(a.name)} (${oneLine(a.id)})` }));
  const ids: string[] = [];
  const notes: string[] = [];
  for (const value of values) {
    if (known.has(value)) {
      ids.push(value);
      continue;
    }
    const match = byName(value, companies, argument, "a company");
    if (!match) {
      throw new ToolInputError(
        `${quoted(value)} is neither the id nor the name of a company you can see`,
        argument,
        `Your companies: ${list(companies) || "none"}.`,
      );
    }
    ids.push(match.id);
    notes.push(resolvedNote(argument, value, match));
  }
  return { ids, notes };
}

type HireRow = Awaited<ReturnType<typeof searchHires>>[number];

/** How many hires one lookup reads. */
const LOOKUP_PAGE = 100;

async function searchHires(
  ctx: ToolContext,
  vars: { search?: string; workers?: string[] },
  first = LOOKUP_PAGE,
) {
  const { data } = await ctx.client.run(searchHiresQuery, { ...vars, first }, requestOptions(ctx));
  return data.hires.data;
}

const hireLabel = (h: HireRow) =>
  `${oneLine(h.id)} (${quoted(h.worker.name)} at ${quoted(h.company.name)})`;

/** Hire ids in `argument`, each looked up; a worker's id or a name is told apart and resolved. */
export async function resolveHires(
  ctx: ToolContext,
  values: string[] | undefined,
  argument = "hires",
): Promise<Resolved> {
  if (!values?.length) return { ids: values, notes: [] };
  const checks = await checkHires(ctx, [...new Set(values)]);
  const ids: string[] = [];
  const notes: string[] = [];
  for (const value of values) {
    // Found, or not checkable (hidden from this account): the platform has the last word.
    if (checks.get(value)?.kind !== "missing") {
      ids.push(value);
      continue;
    }
    const ofWorker = await searchHires(ctx, { workers: [value] });
    if (ofWorker.length > 0) {
      const candidates = ofWorker.map((h) => ({ id: h.id, name: h.id, label: hireLabel(h) }));
      throw new ToolInputError(
        `${quoted(value)} is a worker's id, not a hire's; that worker's hires: ${list(candidates)}`,
        argument,
        "Give the hire ids.",
      );
    }
    const named = await searchHires(ctx, { search: value });
    const candidates = named
      .filter((h) => foldName(h.worker.name).includes(foldName(value)))
      .map((h) => ({ id: h.id, name: h.worker.name, label: hireLabel(h) }));
    // One worker with several hires is ambiguous too: which engagement is meant?
    const match = candidates.length === 1 ? candidates[0] : undefined;
    if (candidates.length > 1) {
      throw new ToolInputError(
        `${quoted(value)} is not a hire id, and several hires match it as a name: ${list(candidates)}`,
        argument,
        "Give the id of the one you mean.",
      );
    }
    if (!match) {
      throw new ToolInputError(
        `no hire you can see has the id ${quoted(value)}`,
        argument,
        "search_hires finds hire ids by worker name, job or company.",
      );
    }
    ids.push(match.id);
    notes.push(resolvedNote(argument, value, match));
  }
  return { ids, notes };
}

/** Worker ids in `argument`, checked against the workers on hires the viewer can see. */
export async function resolveWorkers(
  ctx: ToolContext,
  values: string[] | undefined,
  argument = "workers",
): Promise<Resolved> {
  if (!values?.length) return { ids: values, notes: [] };
  const page = await searchHires(ctx, { workers: values });
  const seen = new Set(page.map((h) => h.worker.id));
  // A full page may hold one busy worker's hires only: the others are looked up on their own.
  const pageFull = page.length >= LOOKUP_PAGE;
  const ids: string[] = [];
  const notes: string[] = [];
  for (const value of values) {
    if (
      seen.has(value) ||
      (pageFull && (await searchHires(ctx, { workers: [value] }, 1)).length > 0)
    ) {
      ids.push(value);
      continue;
    }
    const named = await searchHires(ctx, { search: value });
    const workers = new Map<string, Candidate>();
    for (const h of named) {
      workers.set(h.worker.id, {
        id: h.worker.id,
        name: h.worker.name,
        label: `${quoted(h.worker.name)} (${oneLine(h.worker.id)})`,
      });
    }
    const match = byName(value, [...workers.values()], argument, "a worker");
    if (!match) {
      throw new ToolInputError(
        `no worker on a hire you can see has the id or name ${quoted(value)}`,
        argument,
        "search_hires with `search` finds workers by name.",
      );
    }
    ids.push(match.id);
    notes.push(resolvedNote(argument, value, match));
  }
  return { ids, notes };
}

/**
 * A talent pool contact given by the person's name or email where its id belongs: the one whose
 * email it is, else whose name it is (or the only name containing it), in `company` when given.
 * Several that fit are an argument error listing their ids; none is `undefined`, for the caller
 * to say what it looked for.
 */
export async function contactByName(
  ctx: ToolContext,
  value: string,
  argument: string,
  company?: string,
): Promise<{ contact: InvitedContact; note: string } | undefined> {
  const { data } = await ctx.client.run(
    poolContactsBySearchQuery,
    { search: value.trim(), ...(company ? { accounts: [company] } : {}) },
    requestOptions(ctx),
  );
  const contacts = data.trustedContacts.data.filter((c) => !company || c.company.id === company);
  // Past one page, a name that only contains the words may fit someone not read: whole ones only.
  const partialOk = !data.trustedContacts.paginatorInfo.hasMorePages;
  const label = (c: InvitedContact) =>
    `${quoted(c.worker.name)} (contact ${oneLine(c.id)} at ${quoted(c.company.name)})`;
  const byEmail = contacts.filter((c) => foldName(c.worker.email ?? "") === foldName(value));
  const candidates = (byEmail.length > 0 ? byEmail : contacts).map((c) => ({
    id: c.id,
    name: byEmail.length > 0 ? value : c.worker.name,
    label: label(c),
  }));
  const exact = candidates.filter((c) => foldName(c.name) === foldName(value));
  if (!partialOk && exact.length === 0 && candidates.length > 0) {
    throw new ToolInputError(
      `more talent pool contacts contain ${quoted(value)} than one search shows`,
      argument,
      "Give the person's whole name, their email or the contact's id.",
    );
  }
  const match = byName(value, candidates, argument, "a talent pool contact");
  const contact = match && contacts.find((c) => c.id === match.id);
  return contact && match ? { contact, note: resolvedNote(argument, value, match) } : undefined;
}

/** The arguments with `company`, when it is a company's name, read as its id; a line if it was. */
export async function withCompanyId<T extends { company?: string }>(
  ctx: ToolContext,
  args: T,
): Promise<{ args: T; notes: string[] }> {
  if (args.company === undefined) return { args, notes: [] };
  const resolved = await resolveAccounts(ctx, [args.company], "company");
  return { args: { ...args, company: resolved.ids?.[0] ?? args.company }, notes: resolved.notes };
}

/** The answer, after the lines that say which names were read as ids. */
export function withNotes<T extends { text: string } | FormAnswer>(
  result: T,
  notes: readonly string[],
): T {
  // A form shows the preview as the person decides on it; the notes come with the answer after it.
  if ("form" in result || notes.length === 0) return result;
  return { ...result, text: [...notes, result.text].join("\n") };
}
