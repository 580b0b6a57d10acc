// Pieces the prompts share: their company and period arguments, numbered steps, and JSON arguments
// as the assistant sends them.
import type { PromptArgument, PromptContext } from "./define-prompt.js";
import { companyLabel, companyNamed, completeCompany } from "./lookups.js";
import { fitting } from "./periods.js";

export const companyArgument: PromptArgument = {
  name: "company",
  description: "One of your companies, by name or id; leave out for every company you can see.",
  complete: completeCompany,
};

/** An argument naming a period (a week, a month): what was typed completes to the recent ones. */
export function periodArgument(
  name: string,
  description: string,
  recent: (today: string) => string[],
): PromptArgument {
  return { name, description, complete: async (typed, ctx) => fitting(recent(ctx.today), typed) };
}

/** The company the arguments name, as the tools' `accounts` filter and as words. */
export async function companyScope(value: string | undefined, ctx: PromptContext) {
  const company = await companyNamed(value, ctx);
  return {
    accounts: company ? { accounts: [company.id] } : {},
    words: company ? companyLabel(company) : "every company you can see",
  };
}

/** The steps that apply, numbered. */
export function steps(...lines: (string | false | undefined)[]): string {
  return lines
    .filter((line): line is string => typeof line === "string")
    .map((line, i) => `${i + 1}. ${line}`)
    .join("\n");
}

export const json = (value: unknown) => JSON.stringify(value);
