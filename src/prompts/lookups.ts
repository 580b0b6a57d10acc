// What the prompts' arguments name, read through the person's own credential: the companies they
// may act for, and their hires by worker name. A completion offers only these, and a value that
// matches none of them is an argument error that says so. The operations load with the first
// lookup, not at start.
import { foldName, oneLine, quoted } from "../client/platform-text.js";
import { PromptArgumentError, type PromptContext } from "./define-prompt.js";

/** How many names a completion offers (the protocol's own limit is 100). */
const OFFERED = 20;
/** How many hires one lookup reads. */
const LOOKUP_PAGE = 100;

/** Those whose name is `typed`, else those whose name starts with it, else contains it. */
function byName<T>(items: readonly T[], typed: string, name: (t: T) => string): T[] {
  const needle = foldName(typed);
  for (const fits of [
    (n: string) => n === needle,
    (n: string) => n.startsWith(needle),
    (n: string) => n.includes(needle),
  ]) {
    const found = items.filter((item) => fits(foldName(name(item))));
    if (found.length > 0) return found;
  }
  return [];
}

interface Company {
  id: string;
  name: string;
}

async function companiesOf(ctx: PromptContext): Promise<Company[]> {
  const { listAccountsQuery } = await import("../client/operations/accounts.js");
  const { data } = await ctx.client.run(listAccountsQuery, {}, { signal: ctx.signal });
  return data.accounts.filter((a) => a.__typename === "Company");
}

export const companyLabel = (c: Company) => `${quoted(c.name)} (${oneLine(c.id)})`;

/** The names of the person's companies that fit what was typed. */
export async function completeCompany(typed: string, ctx: PromptContext): Promise<string[]> {
  const companies = await companiesOf(ctx);
  const named = typed.trim() === "" ? companies : byName(companies, typed, (c) => c.name);
  const ids = companies.filter((c) => c.id.startsWith(typed.trim()) && !named.includes(c));
  return [...named.map((c) => c.name), ...ids.map((c) => c.id)].slice(0, OFFERED);
}

/** The company an argument names by id or name, among the person's own; else an error naming it. */
export async function companyNamed(
  value: string | undefined,
  ctx: PromptContext,
  argument = "company",
): Promise<Company | undefined> {
  if (value === undefined || value.trim() === "") return undefined;
  const companies = await companiesOf(ctx);
  const byId = companies.find((c) => c.id === value.trim());
  if (byId) return byId;
  const found = byName(companies, value, (c) => c.name);
  if (found.length === 1) return found[0];
  const yours = companies.map(companyLabel).join(", ") || "none";
  throw new PromptArgumentError(
    argument,
    found.length > 1
      ? `several of your companies match ${quoted(value)}: ${found.map(companyLabel).join(", ")}. Give the one you mean.`
      : `no company you can see is named ${quoted(value)} or has that id. Your companies: ${yours}.`,
  );
}

/** Hires that have not ended: what onboarding is about. */
const NOT_ENDED = ["DRAFT", "OFFERED", "READY", "ACTIVE"] as const;

type Hire = Awaited<ReturnType<typeof hiresMatching>>[number];

async function hiresMatching(typed: string, ctx: PromptContext) {
  const { searchHiresQuery } = await import("../client/operations/core.js");
  const { data } = await ctx.client.run(
    searchHiresQuery,
    {
      ...(typed.trim() ? { search: typed.trim() } : {}),
      activeStatus: [...NOT_ENDED],
      orderBy: [{ field: "START_DATE", order: "DESC" }],
      first: LOOKUP_PAGE,
    },
    { signal: ctx.signal },
  );
  return data.hires.data;
}

const hireLabel = (h: Hire) =>
  `${oneLine(h.id)} (${quoted(h.worker.name)} at ${quoted(h.company.name)}, #${oneLine(h.number)}, ${oneLine(h.status)})`;

/** Workers' names of the person's hires that have not ended, fitting what was typed. */
export async function completeHire(typed: string, ctx: PromptContext): Promise<string[]> {
  const hires = await hiresMatching(typed, ctx);
  const named = typed.trim() === "" ? hires : byName(hires, typed, (h) => h.worker.name);
  return [...new Set(named.map((h) => h.worker.name))].slice(0, OFFERED);
}

/** The one hire, not ended, a worker's name (or email, or the hire's number) names; else an error. */
export async function hireNamed(
  value: string,
  ctx: PromptContext,
  argument = "hire",
): Promise<Hire> {
  const hires = await hiresMatching(value, ctx);
  const exact = hires.filter(
    (h) => h.number === value.trim() || foldName(h.worker.email ?? "") === foldName(value),
  );
  const found = exact.length > 0 ? exact : byName(hires, value, (h) => h.worker.name);
  if (found.length === 1) return found[0] as Hire;
  throw new PromptArgumentError(
    argument,
    found.length > 1
      ? `several hires that have not ended match ${quoted(value)}: ${found.slice(0, 8).map(hireLabel).join(", ")}. Give the hire's number (after #) for the one you mean.`
      : `no hire you can see that has not ended (draft, offered, ready or active) matches ${quoted(value)} by worker name, email or hire number.`,
  );
}
