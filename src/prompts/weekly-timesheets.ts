import { definePrompt } from "./define-prompt.js";
import { recentWeeks, weekOf } from "./periods.js";
import { companyArgument, companyScope, json, periodArgument, steps } from "./shared.js";

export const weeklyTimesheetsPrompt = definePrompt({
  name: "weekly_timesheets",
  title: "Weekly timesheet run",
  description:
    "Who logged no hours in a week, what was logged (hours per day, money per currency), and registering the missing hours after the person confirms.",
  needs: ["list_payment_requests"],
  arguments: [
    companyArgument,
    periodArgument(
      "week",
      "ISO week such as 2026-W47, or a day in it (YYYY-MM-DD); default last week.",
      recentWeeks,
    ),
  ],
  async render(args, ctx) {
    const scope = await companyScope(args.company, ctx);
    const week = weekOf(args.week, ctx.today, "week");
    const period = { from: week.from, to: week.to };
    const canSubmit = ctx.reaches("submit_timesheets");
    return [
      `Weekly timesheet run for ${scope.words}, week ${week.label} (Monday ${week.from} to Sunday ${week.to}).`,
      steps(
        ctx.reaches("search_hires") &&
          `Who logged no hours: call search_hires ${json({ activeStatus: ["ACTIVE"], missingHoursBetween: period, ...scope.accounts })}.`,
        `What was logged: call list_payment_requests ${json({ period, ...scope.accounts, includeHours: true })} and show each hire's hours per day, and the money per currency (never add different currencies together).`,
        canSubmit
          ? "Ask the person for the hours of the hires that logged none. With their hours, call submit_timesheets with one row per hire and day: its first answer is a preview of hours and money that flags days already logged. Show it, and register only after the person clearly confirms."
          : "This server cannot register hours (whoever runs it turned that off): a person registers them in the platform's web app. Say so if asked.",
      ),
      canSubmit
        ? "Never invent hours: only what the person gives you."
        : "Only read and report; change nothing.",
    ].join("\n");
  },
});
