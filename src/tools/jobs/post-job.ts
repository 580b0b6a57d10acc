import * as z from "zod";
import {
  createJobMutation,
  jobForPostingQuery,
  type PostedJob,
  postJobContextQuery,
  type UpdateJobVariables,
  updateJobMutation,
} from "../../client/operations/jobs.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import {
  askForConfirmation,
  confirmationTokenArg,
  confirmedWriteAnnotations,
  previewResult,
  previewTokenOutput,
  redeemConfirmation,
  type SendOutcome,
  sendOnce,
} from "../confirmation.js";
import { defineTool, NotAllowedError, type ToolContext, ToolInputError } from "../define-tool.js";
import { requestOptions } from "../format.js";
import { refusedAsNotAllowed } from "../not-allowed.js";
import { CLOSED_JOB_STATUSES, failureReason } from "./job-writes.js";

const TOOL = "post_job";
const PUBLISH_CONSEQUENCE = "Publishing cannot be undone: the job becomes visible to freelancers.";
const DESCRIPTION_MAX = 5000;
// Limits checked without JSON Schema keywords: the tool list stays small, and errors still say them.
const within = (min: number, max: number) => (text: string) =>
  text.length >= min && text.length <= max;

const STATUSES = [
  "draft",
  "published",
  "preview",
  "declined",
  "not-created",
  "partial",
  "not-changed",
  "outcome-unknown",
] as const;
type Status = (typeof STATUSES)[number];

const jobOutput = z.object({
  id: z.string(),
  number: z.number(),
  name: z.string(),
  status: z.string().nullable(),
  company: z.object({ id: z.string(), name: z.string() }),
  skills: z.array(z.string()),
  hasDescription: z.boolean(),
  publishedAt: z.string().nullable(),
});
type JobOut = z.infer<typeof jobOutput>;

const previewOutput = z.object({
  jobId: z.string().nullable(),
  company: z.object({ id: z.string(), name: z.string() }),
  name: z.string(),
  skills: z.array(z.string()),
  description: z.string(),
});
type Preview = z.infer<typeof previewOutput>;

interface Args {
  company?: string;
  name?: string;
  skills?: string[];
  description?: string;
  publish?: boolean;
  jobId?: string;
}

interface Output {
  status: Status;
  job?: JobOut;
  preview?: Preview;
  confirmationToken?: string;
  expiresAt?: string;
  note?: string;
}
type Result = { structured: Output; text: string; isError?: boolean };

export const postJobTool = defineTool({
  name: TOOL,
  title: "Post job",
  toolset: "jobs",
  instruction:
    "post_job creates a draft job at once, and publishes one only after the person confirms a preview (publishing cannot be undone).",
  description: [
    "Create a draft job (only your company sees it), or publish one: freelancers see it; this cannot be undone.",
    "Use when: asked to create, post or publish a job. Do not use for: finding jobs (list_jobs).",
    "Drafts are made at once; publish previews first (confirmationToken).",
    "Returns: the job's id and status.",
    'Examples: {"company":"cmp_nordlys","name":"Go Developer","skills":["Go"]}; {"jobId":"job_005","publish":true}',
  ].join("\n"),
  inputSchema: {
    company: z.string().min(1).optional().describe("Company id (list_accounts)."),
    name: z
      .string()
      .trim()
      .refine(within(1, 255), "1 to 255 characters")
      .optional()
      .describe("Job title."),
    skills: z
      .array(z.string().trim().refine(within(1, 100), "1 to 100 characters"))
      .refine((list) => list.length >= 1 && list.length <= 30, "1 to 30 skills")
      .optional()
      .describe("Skill names."),
    description: z
      .string()
      .trim()
      .refine(within(1, DESCRIPTION_MAX), `1 to ${DESCRIPTION_MAX} characters`)
      .optional()
      .describe("The work, as freelancers read it."),
    publish: z.boolean().optional().describe("Publish; needs a description."),
    jobId: z.string().min(1).optional().describe("Draft to change or publish."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum(STATUSES),
    job: jobOutput.optional(),
    preview: previewOutput.optional(),
    ...previewTokenOutput,
    note: z.string().optional(),
  },
  annotations: confirmedWriteAnnotations,
  async handler(args, ctx): Promise<Result> {
    const { confirmationToken, ...call } = args;
    if (confirmationToken !== undefined && !args.publish) {
      throw new ToolInputError(
        "only publishing is confirmed; a draft needs no confirmationToken",
        "confirmationToken",
        "Leave confirmationToken out.",
      );
    }
    if (args.publish && confirmationToken !== undefined) {
      // The token first: it is used up even when the job has changed since.
      await redeemConfirmation(ctx, TOOL, confirmationToken, call);
    }
    if (args.jobId !== undefined) return existingDraft(ctx, call, args.jobId, confirmationToken);

    const missing = (["company", "name", "skills"] as const).filter((k) => args[k] === undefined);
    if (missing.length > 0) {
      throw new ToolInputError(
        `a new job needs ${missing.join(", ")}`,
        missing.join(", "),
        "Give company, name and skills; or jobId to change an existing draft.",
      );
    }
    const fresh = args as Args & { company: string; name: string; skills: string[] };
    if (args.publish && !args.description) throw descriptionNeeded();
    const context = await readContext(ctx, fresh.company, fresh.name);
    if (!args.publish) return createJob(ctx, fresh, context, false);

    const preview: Preview = {
      jobId: null,
      company: { id: fresh.company, name: context.companyName },
      name: fresh.name,
      skills: fresh.skills,
      description: fresh.description as string,
    };
    if (confirmationToken !== undefined) return createJob(ctx, fresh, context, true, preview);
    const answer = await askForConfirmation(ctx, {
      tool: TOOL,
      args: call,
      lines: previewLines(preview),
      consequence: PUBLISH_CONSEQUENCE,
      question: "Publish this job?",
    });
    if (answer.kind === "confirmed") return createJob(ctx, fresh, context, true, preview);
    if (answer.kind === "declined") {
      return {
        structured: { status: "declined", preview },
        text: `${answer.text} No job was created.`,
      };
    }
    return previewResult(answer, { preview });
  },
});

const descriptionNeeded = () =>
  new ToolInputError(
    "a job is published with a description",
    "description",
    "Add a description of the work, as freelancers will read it.",
  );

interface Context {
  companyName: string;
  /** Jobs with this name before the call: after an ambiguous failure, a new one is ours. */
  before: Set<string>;
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

async function readContext(ctx: ToolContext, company: string, name: string): Promise<Context> {
  const { data } = await ctx.client.run(
    postJobContextQuery,
    { company, name },
    requestOptions(ctx),
  );
  const account = data.accounts.find((a) => a.__typename === "Company" && a.id === company);
  if (!account) {
    throw new ToolInputError(
      `${oneLine(company)} is not one of your companies`,
      "company",
      "list_accounts shows the companies you can post jobs for.",
    );
  }
  const before = data.jobs.data.filter((j) => sameName(j.name, name)).map((j) => j.id);
  return { companyName: account.name, before: new Set(before) };
}

async function readJob(ctx: ToolContext, id: string): Promise<PostedJob | null> {
  const { data } = await ctx.client.run(jobForPostingQuery, { id }, requestOptions(ctx));
  return data.job;
}

/** The job this call created, if reading the company's newest jobs back shows one. */
async function findCreated(ctx: ToolContext, args: { company: string; name: string }, c: Context) {
  const { data } = await ctx.client.run(
    postJobContextQuery,
    { company: args.company, name: args.name },
    requestOptions(ctx),
  );
  const created = data.jobs.data.find((j) => sameName(j.name, args.name) && !c.before.has(j.id));
  return created ? readJob(ctx, created.id) : null;
}

function toJob(j: PostedJob): JobOut {
  return {
    id: j.id,
    number: j.number,
    name: j.name,
    status: j.status,
    company: { id: j.company.id, name: j.company.name },
    skills: j.skills.map((s) => s.name),
    hasDescription: Boolean(j.description?.trim()),
    publishedAt: j.publishedAt,
  };
}

const jobText = (j: JobOut) =>
  `${oneLine(j.id)} #${j.number} ${quoted(j.name)} at ${quoted(j.company.name)} (${oneLine(j.company.id)})`;

async function createJob(
  ctx: ToolContext,
  args: Args & { company: string; name: string; skills: string[] },
  context: Context,
  publishing: boolean,
  preview?: Preview,
): Promise<Result> {
  const withPreview = preview ? { preview } : {};
  const sent = await sendOnce(
    refusedAsNotAllowed(
      () =>
        ctx.client.run(
          createJobMutation,
          { input: { company: args.company, name: args.name, skills: args.skills } },
          requestOptions(ctx),
        ),
      `post jobs for company ${oneLine(args.company)}`,
      "job management",
    ),
    () => findCreated(ctx, args, context),
  );
  if (sent.kind === "unknown") {
    return {
      isError: true,
      structured: { status: "outcome-unknown", ...withPreview },
      text: `It is not known whether the job ${quoted(args.name)} was created: the connection failed after the request was sent, and the company's jobs could not be read back. Do not call post_job again yet; look for it with list_jobs (search ${quoted(args.name)}) in a minute.`,
    };
  }
  if (sent.kind === "read-back" && !sent.state) {
    return {
      isError: true,
      structured: { status: "not-created", ...withPreview },
      text: `The job ${quoted(args.name)} was NOT created: the request failed, and the company's newest jobs show no new job with this name. Nothing changed${publishing ? " and nothing was published" : ""}; post_job may be called again.`,
    };
  }
  const created = sent.kind === "sent" ? sent.data.data.createJob : (sent.state as PostedJob);
  const dropped =
    sent.kind === "read-back"
      ? "The connection dropped after the request was sent; reading the company's jobs back found the new draft."
      : undefined;
  const changes: UpdateJobVariables["input"] = { id: created.id };
  if (args.description) changes.description = args.description;
  if (publishing) changes.published = true;
  if (!args.description && !publishing) {
    const job = toJob(created);
    return draftResult(job, dropped);
  }
  return finish(ctx, created, changes, { created: true, dropped, preview });
}

function draftResult(job: JobOut, note?: string): Result {
  return {
    structured: { status: "draft", job, ...(note ? { note } : {}) },
    text: [
      `Draft job ${jobText(job)} is saved${job.hasDescription ? " with its description" : " without a description"}; skills ${job.skills.map((s) => quoted(s)).join(", ") || "none"}.`,
      note,
      `It is not published: freelancers do not see it. To publish it once the person agrees, call post_job with jobId ${oneLine(job.id)} and publish true${job.hasDescription ? "" : " (with a description)"}.`,
    ]
      .filter(Boolean)
      .join("\n"),
  };
}

/** The updateJob that sets the details and, when asked, publishes: sent once, read back if lost. */
async function finish(
  ctx: ToolContext,
  job: PostedJob,
  changes: UpdateJobVariables["input"],
  how: { created: boolean; dropped?: string; preview?: Preview },
): Promise<Result> {
  const publishing = changes.published === true;
  const withPreview = how.preview ? { preview: how.preview } : {};
  const what = publishing ? "publishing it" : "saving its details";
  const draftLeft = (reason: string, current: PostedJob | null): Result => ({
    isError: true,
    structured: {
      status: how.created ? "partial" : "not-changed",
      job: toJob(current ?? job),
      ...withPreview,
      note: reason,
    },
    text: [
      how.created
        ? `Draft job ${jobText(toJob(job))} was created, but ${what} failed: ${reason}.`
        : `Job ${jobText(toJob(job))} was NOT changed: ${what} failed: ${reason}.`,
      how.dropped,
      `The draft exists and is not published. Do not create it again: to try again, call post_job with jobId ${oneLine(job.id)}${changes.description !== undefined ? ", the description" : ""}${publishing ? " and publish true" : ""}.`,
    ]
      .filter(Boolean)
      .join("\n"),
  });

  let sent: SendOutcome<{ data: { updateJob: PostedJob } }, PostedJob | null>;
  try {
    sent = await sendOnce(
      refusedAsNotAllowed(
        () => ctx.client.run(updateJobMutation, { input: changes }, requestOptions(ctx)),
        `${publishing ? "publish" : "change"} job ${oneLine(job.id)}`,
        "job management",
      ),
      () => readJob(ctx, job.id),
    );
  } catch (error) {
    return draftLeft(failureReason(error), null);
  }
  if (sent.kind === "unknown") {
    return {
      isError: true,
      structured: { status: "outcome-unknown", job: toJob(job), ...withPreview },
      text: [
        how.created ? `Draft job ${jobText(toJob(job))} was created.` : undefined,
        how.dropped,
        `Whether ${publishing ? "it was published" : "its details were saved"} is not known: the connection failed after the request was sent, and the job could not be read back. Do not send it again yet; check it with list_jobs (jobId ${oneLine(job.id)}) in a minute.`,
      ]
        .filter(Boolean)
        .join("\n"),
    };
  }
  let updated: PostedJob;
  let note = how.dropped;
  if (sent.kind === "read-back") {
    const state = sent.state;
    const applied =
      state !== null &&
      (publishing
        ? state.publishedAt !== null
        : changes.description === undefined || state.description === changes.description);
    if (!applied) {
      return draftLeft(
        `the request failed, and reading the job back shows it ${state ? `still ${oneLine(state.status)}` : "not visible"}`,
        state,
      );
    }
    updated = state as PostedJob;
    note = [
      note,
      "The connection dropped after the request was sent; reading the job back confirmed it.",
    ]
      .filter(Boolean)
      .join(" ");
  } else {
    updated = sent.data.data.updateJob;
  }
  const out = toJob(updated);
  if (!publishing) return draftResult(out, note);
  return {
    structured: { status: "published", job: out, ...withPreview, ...(note ? { note } : {}) },
    text: [
      `Job ${jobText(out)} is published (status ${oneLine(out.status)}).`,
      note,
      "Publishing cannot be undone: freelancers can now see the job.",
    ]
      .filter(Boolean)
      .join("\n"),
  };
}

async function existingDraft(
  ctx: ToolContext,
  args: Args,
  jobId: string,
  confirmationToken: string | undefined,
): Promise<Result> {
  const job = await readJob(ctx, jobId);
  if (!job) {
    throw new ToolInputError(
      `there is no job ${oneLine(jobId)} visible to you`,
      "jobId",
      "Find the job's id with list_jobs.",
    );
  }
  if (args.company !== undefined && args.company !== job.company.id) {
    throw new ToolInputError(
      `job ${oneLine(jobId)} belongs to ${oneLine(job.company.id)}, not ${oneLine(args.company)}`,
      "company",
      "Leave company out with jobId.",
    );
  }
  if (job.status !== "DRAFT") {
    throw new ToolInputError(
      `job ${oneLine(jobId)} is ${oneLine(job.status)}, not a draft`,
      "jobId",
      CLOSED_JOB_STATUSES.has(job.status ?? "")
        ? "A closed job cannot be changed. Nothing was changed."
        : "It is already published, which cannot be undone; post_job only changes and publishes drafts. Nothing was changed.",
    );
  }
  if (!job.viewerCanEdit)
    throw new NotAllowedError(`change job ${oneLine(jobId)}`, "job management");

  const changes: UpdateJobVariables["input"] = { id: job.id };
  if (args.name !== undefined) changes.name = args.name;
  if (args.skills !== undefined) changes.skills = args.skills;
  if (args.description !== undefined) changes.description = args.description;
  if (!args.publish) {
    if (Object.keys(changes).length === 1) {
      throw new ToolInputError(
        "nothing to change: give name, skills or description, or publish true",
        "jobId",
        "Nothing was changed.",
      );
    }
    return finish(ctx, job, changes, { created: false });
  }
  const description = args.description ?? job.description ?? "";
  if (description.trim() === "") throw descriptionNeeded();
  changes.published = true;
  const preview: Preview = {
    jobId: job.id,
    company: { id: job.company.id, name: job.company.name },
    name: args.name ?? job.name,
    skills: args.skills ?? job.skills.map((s) => s.name),
    description,
  };
  if (confirmationToken !== undefined)
    return finish(ctx, job, changes, { created: false, preview });
  const answer = await askForConfirmation(ctx, {
    tool: TOOL,
    args: { ...args },
    lines: previewLines(preview),
    consequence: PUBLISH_CONSEQUENCE,
    question: "Publish this job?",
  });
  if (answer.kind === "confirmed") return finish(ctx, job, changes, { created: false, preview });
  if (answer.kind === "declined") {
    return {
      structured: { status: "declined", job: toJob(job), preview },
      text: `${answer.text} Job ${oneLine(job.id)} is still a draft.`,
    };
  }
  return previewResult(answer, { job: toJob(job), preview });
}

// The server's sentences, each platform value quoted on its line; the consequence comes last
// (added by the confirmation module), so no name or description can pose as the server's words.
function previewLines(p: Preview): string[] {
  const where = `at company ${quoted(p.company.name)} (${oneLine(p.company.id)})`;
  return [
    p.jobId
      ? `Publish the draft job ${oneLine(p.jobId)} ${quoted(p.name)} ${where}.`
      : `Create the job ${quoted(p.name)} ${where} and publish it.`,
    `Skills: ${p.skills.map((s) => quoted(s)).join(", ")}.`,
    `Description: ${quoted(p.description, DESCRIPTION_MAX)}.`,
  ];
}
