// Pieces the prompts share: their company argument, numbered steps, and JSON arguments as the
// assistant sends them.
import type { PromptArgument, PromptContext } from "./define-prompt.js";
import { companyLabel, companyNamed, completeCompany } from "./lookups.js";

export const companyArgument: PromptArgument = {
  name: "company",
  description: "One of your companies, by name or id; leave out for every company you can see.",
  complete: completeCompany,
};

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
