// Moving a candidate to a manual step: reversible, so sent without a preview.
import type { JobCandidateHiringStep } from "../../../client/operation-types.generated.js";
import {
  type CandidateForUpdate,
  updateJobCandidateStepMutation,
} from "../../../client/operations/jobs.js";
import { oneLine } from "../../../client/platform-text.js";
import { type ToolContext, ToolInputError } from "../../define-tool.js";
import { requestOptions } from "../../format.js";
import { toCandidateOutput } from "../../shapes/candidacy.js";
import { candidateText, changeCandidate, type Result } from "./candidate-record.js";

export async function moveStep(
  ctx: ToolContext,
  c: CandidateForUpdate,
  step: JobCandidateHiringStep,
): Promise<Result> {
  const before = toCandidateOutput(c);
  if (c.hire) {
    throw new ToolInputError(
      `candidate ${oneLine(c.id)} has hire ${oneLine(c.hire.id)} for this job; their step stays ${oneLine(c.step)}`,
      "step",
      "Nothing was changed.",
    );
  }
  if (c.step === step) {
    return {
      structured: { status: "unchanged", action: "step", candidate: before },
      text: `Candidate ${candidateText(before)} is already at step ${step}. Nothing was changed.`,
    };
  }
  return changeCandidate(ctx, before, {
    action: "step",
    send: () =>
      ctx.client.run(
        updateJobCandidateStepMutation,
        { input: { jobCandidate: c.id, step } },
        requestOptions(ctx),
      ),
    refused: `move the candidates of job ${oneLine(c.job.id)}`,
    pick: (data) => data.updateJobCandidateStep,
    applied: (x) => x.step === step,
    doing: `Moving candidate ${oneLine(c.id)} to step ${step}`,
    done: (after) =>
      `Candidate ${candidateText(after)} moved from step ${oneLine(c.step)} to ${oneLine(after.step)}.`,
    undo: "This can be undone: move them again with manage_candidate.",
  });
}
