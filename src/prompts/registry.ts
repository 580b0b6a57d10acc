// Every prompt, in the order prompts/list shows them (src/tools/registry.ts is the tools' list).
import { contractsEndingPrompt } from "./contracts-ending.js";
import type { PromptDefinition } from "./define-prompt.js";
import { monthEndInvoicesPrompt } from "./month-end-invoices.js";
import { onboardHirePrompt } from "./onboard-hire.js";
import { weeklyTimesheetsPrompt } from "./weekly-timesheets.js";

export const prompts: readonly PromptDefinition[] = [
  weeklyTimesheetsPrompt,
  monthEndInvoicesPrompt,
  contractsEndingPrompt,
  onboardHirePrompt,
];
