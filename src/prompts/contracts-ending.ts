import { quoted } from "../client/platform-text.js";
import { definePrompt, PromptArgumentError } from "./define-prompt.js";
import { daysAhead, fitting } from "./periods.js";
import { companyArgument, companyScope, json, steps } from "./shared.js";
import { API_CANNOT_EXTEND } from "./wording.js";

const DAYS = ["14", "30", "60", "90"];
const MAX_DAYS = 366;

export const contractsEndingPrompt = definePrompt({
  name: "contracts_ending",
  title: "Contracts ending soon",
  description:
    "Active hires whose contracts end within the next days, with their terms and any unsigned change, so the person can decide what to do before each ends.",
  needs: ["search_hires"],
  arguments: [
    companyArgument,
    {
      name: "days",
      description: `How many days ahead, 1 to ${MAX_DAYS}; default 30.`,
      complete: async (typed) => fitting(DAYS, typed),
    },
  ],
  async render(args, ctx) {
    const scope = await companyScope(args.company, ctx);
    const days = args.days === undefined ? 30 : Number(args.days.trim());
    if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS) {
      throw new PromptArgumentError(
        "days",
        `${quoted(args.days)} is not a whole number of days from 1 to ${MAX_DAYS}.`,
      );
    }
    const window = daysAhead(ctx.today, days);
    const range = { from: window.from, to: window.to };
    return [
      `Contracts ending soon for ${scope.words}: hires ending ${window.from} to ${window.to} (${window.label}).`,
      steps(
        `Call search_hires ${json({ activeStatus: ["ACTIVE"], endDateRange: range, ...scope.accounts, orderBy: [{ field: "END_DATE", order: "ASC" }], first: 100 })}.`,
        ctx.reaches("get_hire") &&
          `For each, when the person wants the details: get_hire ${json({ hireId: "<its id>" })} shows the terms in force, any unsigned change, the owners and the total paid.`,
        ctx.reaches("get_contract") &&
          `The contract's payment terms and document: get_contract ${json({ hireId: "<its id>" })}.`,
        API_CANNOT_EXTEND,
      ),
      "Summarise per hire, soonest first: the worker, the company, the end date, the rate, and whether a new contract is waiting to be signed.",
      "Only read and report; change nothing.",
    ].join("\n");
  },
});
