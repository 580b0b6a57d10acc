import { definePrompt } from "./define-prompt.js";
import { monthOf, recentMonths } from "./periods.js";
import { companyArgument, companyScope, json, periodArgument, steps } from "./shared.js";
import { API_CANNOT_APPROVE } from "./wording.js";

export const monthEndInvoicesPrompt = definePrompt({
  name: "month_end_invoices",
  title: "Month-end invoice review",
  description:
    "A month's invoices and credit notes, what is still open or overdue, totals per currency, and the month's payment requests by status.",
  needs: ["list_invoices"],
  arguments: [
    companyArgument,
    periodArgument(
      "month",
      "YYYY-MM; default last month in the first ten days of a month, else this month.",
      recentMonths,
    ),
  ],
  async render(args, ctx) {
    const scope = await companyScope(args.company, ctx);
    const month = monthOf(args.month, ctx.today, "month");
    const period = { from: month.from, to: month.to };
    const newest = [{ column: "DATE", order: "DESC" }];
    return [
      `Month-end invoice review for ${scope.words}, ${month.label} (${month.from} to ${month.to}).`,
      steps(
        `The month's invoices: call list_invoices ${json({ ...scope.accounts, orderBy: newest, first: 100 })} and keep those dated ${month.from} to ${month.to} (ask for the next page while the last one shown is still in the month).`,
        `What is still owed, whatever the month: call list_invoices ${json({ ...scope.accounts, status: ["UNPAID", "OVERDUE"] })}.`,
        `When an invoice looks wrong, open it with list_invoices ${json({ number: "<its number>" })}: each row's worker, hours, rate and amount, and its PDF.`,
        ctx.reaches("list_payment_requests") &&
          `The month's payment requests: list_payment_requests ${json({ period, ...scope.accounts, first: 0 })} gives the totals per currency and status; ${json({ period, ...scope.accounts, statuses: ["UNAPPROVED"] })} lists those still awaiting approval. ${API_CANNOT_APPROVE}`,
      ),
      "Summarise per currency (never add different currencies together): invoiced and credited in the month, open, overdue; then anything unusual (a credit note, an amount far from the other months, an overdue invoice).",
      "Only read and report; change nothing.",
    ].join("\n");
  },
});
