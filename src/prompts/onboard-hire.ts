import { oneLine, quoted } from "../client/platform-text.js";
import { definePrompt } from "./define-prompt.js";
import { completeHire, hireNamed } from "./lookups.js";
import { json, steps } from "./shared.js";

export const onboardHirePrompt = definePrompt({
  name: "onboard_hire",
  title: "Onboard a new hire",
  description:
    "A checklist for one hire that has not ended: contract signed or not, compliance gaps, owners and custom fields, and what a person still has to do.",
  needs: ["get_hire"],
  arguments: [
    {
      name: "hire",
      description:
        "The worker's name (or email, or the hire's number) of a hire that has not ended.",
      required: true,
      complete: completeHire,
    },
  ],
  async render(args, ctx) {
    const hire = await hireNamed(args.hire ?? "", ctx);
    const contract = hire.activeContract ?? hire.draftContract ?? hire.latestContract;
    const job = contract?.jobName ? `, job ${quoted(contract.jobName)}` : "";
    const writes = {
      approval: ctx.reaches("review_hire_approval"),
      fields: ctx.reaches("update_talent_contact"),
    };
    return [
      `Onboard ${quoted(hire.worker.name)}: hire ${oneLine(hire.id)} (${oneLine(hire.status)}) at ${quoted(hire.company.name)} (${oneLine(hire.company.id)}), starting ${oneLine(hire.startDate)}${job}.`,
      steps(
        `Call get_hire ${json({ hireId: hire.id })}: the terms, whether the contract is signed (a draft contract is not signed yet), the owners, compliance gaps and custom fields.`,
        ctx.reaches("get_contract") &&
          `Call get_contract ${json({ hireId: hire.id })} for the payment terms, the contract document and its attachments (for a hire without an active contract, give get_contract the contract id get_hire shows).`,
        writes.approval &&
          "If the hire waits for approval, review_hire_approval lists what awaits you; approving or rejecting happens only after the person confirms the preview.",
        writes.fields &&
          `Custom fields on the worker's talent-pool record: update_talent_contact ${json({ contact: "<the worker's email or name>", values: [{ field: "<field>", value: "<value>" }] })} sets them after the person confirms the preview.`,
      ),
      "Then give the person a checklist: what is done, what is missing (an unsigned contract, compliance gaps, empty custom fields, no owner) and who has to act, in the platform's web app where nothing here does it.",
      writes.approval || writes.fields
        ? "Change nothing without the person's clear confirmation of the preview."
        : "Only read and report; change nothing.",
    ].join("\n");
  },
});
