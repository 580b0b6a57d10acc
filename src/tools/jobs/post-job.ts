import * as z from "zod";
import type { UpdateJobInput } from "../../client/operation-types.generated.js";
import {
  createJobMutation,
  jobForPostingQuery,
  type PostedJob,
  postJobContextQuery,
  updateJobMutation,
} from "../../client/operations/jobs.js";
import { oneLine } from "../../client/platform-text.js";
import {
  confirmationTokenArg,
  confirmedWrite,
  confirmedWriteAnnotations,
  type Fact,
  type Proposal,
  previewTokenOutput,
  sendWrite,
  whole,
} from "../confirmation.js";
import {
  defineTool,
  type FormAnswer,
  NotAllowedError,
  type ToolContext,
  ToolInputError,
} from "../define-tool.js";
import { requestOptions } from "../format.js";
import { ownCompany, withCompanyId, withNotes } from "../known-ids.js";
import { refusedAsNotAllowed } from "../not-allowed.js";
import { hiddenCharacters, holdsHidden, sentTextSchema, sentTextShown } from "../sent-text.js";
import { type PostedJobOut, postedJobOutput, toPostedJobOutput } from "../shapes/job.js";
import { idAndName, toIdAndName } from "../shapes/named.js";
import { CLOSED_JOB_STATUSES, failureReason } from "./job-writes.js";

const TOOL = "post_job";
const PUBLISH_CONSEQUENCE = "Publishing cannot be undone: the job becomes visible to freelancers.";
const DESCRIPTION_MAX = 5000;

const STATUSES = [
  "draft",
  "published",
  "preview",
  "changed",
  "declined",
  "partial",
  "not-changed",
  "outcome-unknown",
] as const;
type Status = (typeof STATUSES)[number];

const previewOutput = z.object({
  jobId: z.string().nullable(),
  company: idAndName,
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
type NewJob = Args & { company: string; name: string; skills: string[] };

interface Output {
  status: Status;
  job?: PostedJobOut;
  preview?: Preview;
  confirmationToken?: string;
  expiresAt?: string;
  changedSincePreview?: string[];
  note?: string;
}
type Result = { structured: Output; text: string; isError?: boolean };

export const postJobTool = defineTool({
  name: TOOL,
  title: "Post job",
  toolset: "jobs",
  instruction:
    "post_job creates a draft job at once, and publishes one only after the person confirms a preview (publishing cannot be undone).",
  readme: {
    does: "Creates a draft job; publishes it after confirmation",
    changes: "yes; publishing cannot be undone",
  },
  description: [
    "Create a draft job (only your company sees it) or publish one (freelancers see it; irreversible).",
    "Use when: creating or publishing a job. Do not use for: finding jobs (list_jobs).",
    "Publishing previews first.",
    "Returns: the job's id, status.",
    'Examples: {"company":"214","name":"Go Developer","skills":["Go"]}; {"jobId":"3111","publish":true}',
  ].join("\n"),
  inputSchema: {
    company: z.string().min(1).optional().describe("Company id or name."),
    name: sentTextSchema(1, 255).optional().describe("Job title."),
    skills: z
      .array(sentTextSchema(1, 100))
      .refine((list) => list.length >= 1 && list.length <= 30, "1 to 30 skills")
      .optional()
      .describe("Skill names."),
    description: sentTextSchema(1, DESCRIPTION_MAX).optional().describe("What freelancers read."),
    publish: z.boolean().optional().describe("Needs a description."),
    jobId: z.string().min(1).optional().describe("Draft to change or publish."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum(STATUSES),
    job: postedJobOutput.optional(),
    preview: previewOutput.optional(),
    ...previewTokenOutput,
    note: z.string().optional(),
  },
  annotations: confirmedWriteAnnotations,
  async handler(given, ctx): Promise<Result | FormAnswer> {
    // A company's name is read as its id first, so the token binds the id.
    const { args, notes } = await withCompanyId(ctx, given);
    return withNotes(await post(ctx, args), notes);
  },
});

async function post(
  ctx: ToolContext,
  args: Args & { confirmationToken?: string },
): Promise<Result | FormAnswer> {
  const { confirmationToken, ...call } = args;
  if (confirmationToken !== undefined && !args.publish) {
    throw new ToolInputError(
      "only publishing is confirmed; a draft needs no confirmationToken",
      "confirmationToken",
      "Leave confirmationToken out.",
    );
  }
  if (args.jobId !== undefined) {
    return args.publish
      ? publishDraft(ctx, args, args.jobId, call, confirmationToken)
      : editDraft(ctx, args, args.jobId);
  }
  const missing = (["company", "name", "skills"] as const).filter((k) => args[k] === undefined);
  if (missing.length > 0) {
    throw new ToolInputError(
      `a new job needs ${missing.join(", ")}`,
      missing.join(", "),
      "Give company, name and skills; or jobId to change an existing draft.",
    );
  }
  const fresh = args as NewJob;
  if (!args.publish) {
    const context = await readContext(ctx, fresh.company, fresh.name);
    return createJob(ctx, fresh, context);
  }
  if (!args.description) throw descriptionNeeded();
  return createAndPublish(ctx, fresh, call, confirmationToken);
}

const descriptionNeeded = () =>
  new ToolInputError(
    "a job is published with a description",
    "description",
    "Add a description of the work, as freelancers will read it.",
  );

/** What creating a job is to: another attempt with the same company and name is the same change. */
// Job names are matched without regard to case (sameName), so the hold is too.
const newJobTarget = (args: { company: string; name: string }) =>
  `new job ${whole(args.name.trim().toLowerCase())} at ${oneLine(args.company)}`;
const jobTarget = (id: string) => `job ${id}`;
const newJobCheck = (args: { company: string; name: string }) =>
  `list_jobs (search ${whole(args.name)}, accounts [${oneLine(args.company)}])`;
const jobCheck = (id: string) => `list_jobs (jobId ${oneLine(id)})`;

interface Context {
  companyName: string;
  /** Jobs with this name before the call: after a lost answer, a new one is ours. */
  before: Set<string>;
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

async function readContext(ctx: ToolContext, company: string, name: string): Promise<Context> {
  const { data } = await ctx.client.run(
    postJobContextQuery,
    { company, name },
    requestOptions(ctx),
  );
  // The accounts withCompanyId read for this call: not read again.
  const account = await ownCompany(
    ctx,
    company,
    "list_accounts shows the companies you can post jobs for.",
  );
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

const jobText = (j: PostedJobOut) =>
  `${oneLine(j.id)} #${j.number} ${whole(j.name)} at ${whole(j.company.name)} (${oneLine(j.company.id)})`;

// ---- creating ----------------------------------------------------------------------------------

async function createAndPublish(
  ctx: ToolContext,
  args: NewJob,
  call: Record<string, unknown>,
  token: string | undefined,
): Promise<Result | FormAnswer> {
  // The context of the last read (at confirmation): which jobs of this name were there before.
  let context: Context | undefined;
  return confirmedWrite(ctx, {
    tool: TOOL,
    args: call,
    token,
    target: newJobTarget(args),
    check: newJobCheck(args),
    async propose() {
      context = await readContext(ctx, args.company, args.name);
      const preview: Preview = {
        jobId: null,
        company: { id: args.company, name: context.companyName },
        name: args.name,
        skills: args.skills,
        description: args.description as string,
      };
      return proposal(preview);
    },
    fields: (preview) => ({ preview }),
    declined: () => ({ text: "No job was created." }),
    apply: ({ preview }) => createJob(ctx, args, context as Context, preview),
  });
}

/**
 * Creates the job, then sets its description or publishes it with the previewed content. createJob
 * takes no external identifier: after a lost answer, a new job of this name is looked for.
 */
async function createJob(
  ctx: ToolContext,
  args: NewJob,
  context: Context,
  preview?: Preview,
): Promise<Result> {
  const target = newJobTarget(args);
  const sent = await sendWrite(ctx, {
    tool: TOOL,
    target,
    check: newJobCheck(args),
    send: refusedAsNotAllowed(
      () =>
        ctx.client.run(
          createJobMutation,
          { input: { company: args.company, name: args.name, skills: args.skills } },
          requestOptions(ctx),
        ),
      `post jobs for company ${oneLine(args.company)}`,
      "job management",
    ),
    readBack: () => findCreated(ctx, args, context),
    applied: (job) => job !== null,
  });
  if (sent.kind === "unknown") {
    return {
      isError: true,
      structured: { status: "outcome-unknown", ...(preview ? { preview } : {}), note: sent.text },
      text: [
        `Creating the job ${sentTextShown(args.name)} at ${whole(context.companyName)} (${oneLine(args.company)}): ${sent.text}`,
        preview ? "The publishing request was not sent." : undefined,
      ]
        .filter(Boolean)
        .join("\n"),
    };
  }
  const created = sent.kind === "sent" ? sent.data.data.createJob : (sent.state as PostedJob);
  const dropped =
    sent.kind === "read-back"
      ? "The connection dropped after the request was sent; reading the company's jobs back found the new draft."
      : undefined;
  // The job exists now: a later call may name it by id or repeat this one, so an update whose
  // outcome is unknown holds both.
  const targets = [jobTarget(created.id), target];
  if (preview) {
    return finish(ctx, created, publishing(created.id, preview), {
      created: true,
      dropped,
      preview,
      targets,
    });
  }
  if (!args.description) return draftResult(toPostedJobOutput(created), dropped);
  const changes = { id: created.id, description: args.description };
  return finish(ctx, created, changes, { created: true, dropped, targets });
}

/** The publishing updateJob: it carries the previewed content, so exactly that is published. */
const publishing = (id: string, p: Preview): UpdateJobInput => ({
  id,
  name: p.name,
  skills: p.skills,
  description: p.description,
  published: true,
});

function draftResult(job: PostedJobOut, note?: string): Result {
  return {
    structured: { status: "draft", job, ...(note ? { note } : {}) },
    text: [
      `Draft job ${jobText(job)} is saved${job.hasDescription ? " with its description" : " without a description"}; skills ${job.skills.map((s) => whole(s)).join(", ") || "none"}.`,
      note,
      `It is not published: freelancers do not see it. To publish it once the person agrees, call post_job with jobId ${oneLine(job.id)} and publish true${job.hasDescription ? "" : " (with a description)"}.`,
    ]
      .filter(Boolean)
      .join("\n"),
  };
}

/** Whether a job read back shows every change of the update made. */
function shows(state: PostedJob | null, changes: UpdateJobInput): boolean {
  if (!state) return false;
  if (changes.published) return state.publishedAt !== null;
  if (changes.name !== undefined && state.name !== changes.name) return false;
  if (changes.description !== undefined && state.description !== changes.description) return false;
  if (changes.skills) {
    const now = new Set(state.skills.map((s) => s.name.toLowerCase()));
    if (!changes.skills.every((s) => now.has(s.toLowerCase()))) return false;
  }
  return true;
}

/** The updateJob that sets the details and, when asked, publishes: sent once, read back if lost. */
async function finish(
  ctx: ToolContext,
  job: PostedJob,
  changes: UpdateJobInput,
  how: { created: boolean; dropped?: string; preview?: Preview; targets: readonly string[] },
): Promise<Result> {
  const publish = changes.published === true;
  const withPreview = how.preview ? { preview: how.preview } : {};
  const what = publish ? "publishing it" : "saving its details";
  let sent: Awaited<ReturnType<typeof sendUpdate>>;
  try {
    sent = await sendUpdate(ctx, job.id, changes, how.targets);
  } catch (error) {
    // A definite refusal from the platform: the update was not made.
    const reason = failureReason(error);
    return {
      isError: true,
      structured: {
        status: how.created ? "partial" : "not-changed",
        job: toPostedJobOutput(job),
        ...withPreview,
        note: reason,
      },
      text: [
        how.created
          ? `Draft job ${jobText(toPostedJobOutput(job))} was created, but ${what} failed: ${reason}.`
          : `Job ${jobText(toPostedJobOutput(job))} was NOT changed: ${what} failed: ${reason}.`,
        how.dropped,
        `The draft exists and is not published. Do not create it again: to try again, call post_job with jobId ${oneLine(job.id)}${changes.description !== undefined ? ", the description" : ""}${publish ? " and publish true" : ""}.`,
      ]
        .filter(Boolean)
        .join("\n"),
    };
  }
  if (sent.kind === "unknown") {
    return {
      isError: true,
      structured: {
        status: "outcome-unknown",
        job: toPostedJobOutput(job),
        ...withPreview,
        note: sent.text,
      },
      text: [
        how.created ? `Draft job ${jobText(toPostedJobOutput(job))} was created.` : undefined,
        how.dropped,
        `${publish ? "Publishing it" : `Saving the details of job ${oneLine(job.id)}`}: ${sent.text}`,
      ]
        .filter(Boolean)
        .join("\n"),
    };
  }
  const updated = sent.kind === "sent" ? sent.data.data.updateJob : (sent.state as PostedJob);
  const note =
    [
      how.dropped,
      sent.kind === "read-back"
        ? "The connection dropped after the request was sent; reading the job back confirmed it."
        : undefined,
    ]
      .filter(Boolean)
      .join(" ") || undefined;
  const out = toPostedJobOutput(updated);
  if (!publish) return draftResult(out, note);
  return {
    structured: { status: "published", job: out, ...withPreview, ...(note ? { note } : {}) },
    text: [
      `Job ${jobText(out)} is published (status ${oneLine(out.status)}), with the description and skills shown in the preview.`,
      note,
      "Publishing cannot be undone: freelancers can now see the job.",
    ]
      .filter(Boolean)
      .join("\n"),
  };
}

function sendUpdate(
  ctx: ToolContext,
  id: string,
  changes: UpdateJobInput,
  targets: readonly string[],
) {
  return sendWrite(ctx, {
    tool: TOOL,
    target: targets[0] as string,
    alsoHolds: targets.slice(1),
    check: jobCheck(id),
    send: refusedAsNotAllowed(
      () => ctx.client.run(updateJobMutation, { input: changes }, requestOptions(ctx)),
      `${changes.published ? "publish" : "change"} job ${oneLine(id)}`,
      "job management",
    ),
    readBack: () => readJob(ctx, id),
    applied: (state) => shows(state, changes),
  });
}

// ---- existing drafts ---------------------------------------------------------------------------

/** The draft as it is now; refuses a job that is not a draft this account may change. */
async function readDraft(ctx: ToolContext, args: Args, jobId: string): Promise<PostedJob> {
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
  return job;
}

async function editDraft(ctx: ToolContext, args: Args, jobId: string): Promise<Result> {
  const job = await readDraft(ctx, args, jobId);
  const changes: UpdateJobInput = { id: job.id };
  if (args.name !== undefined) changes.name = args.name;
  if (args.skills !== undefined) changes.skills = args.skills;
  if (args.description !== undefined) changes.description = args.description;
  if (Object.keys(changes).length === 1) {
    throw new ToolInputError(
      "nothing to change: give name, skills or description, or publish true",
      "jobId",
      "Nothing was changed.",
    );
  }
  return finish(ctx, job, changes, { created: false, targets: [jobTarget(job.id)] });
}

async function publishDraft(
  ctx: ToolContext,
  args: Args,
  jobId: string,
  call: Record<string, unknown>,
  token: string | undefined,
): Promise<Result | FormAnswer> {
  // The draft as read last (at confirmation), for the answer.
  let draft: PostedJob | undefined;
  return confirmedWrite(ctx, {
    tool: TOOL,
    args: call,
    token,
    target: jobTarget(jobId),
    check: jobCheck(jobId),
    async propose() {
      const job = await readDraft(ctx, args, jobId);
      draft = job;
      const description = args.description ?? job.description ?? "";
      if (description.trim() === "") throw descriptionNeeded();
      // What the draft holds is published as it is: it must be what the preview shows.
      if (args.description === undefined) refuseHidden(jobId, "description", description);
      if (args.name === undefined) refuseHidden(jobId, "name", job.name);
      if (args.skills === undefined) {
        for (const skill of job.skills) refuseHidden(jobId, "skills", skill.name);
      }
      return proposal({
        jobId: job.id,
        company: toIdAndName(job.company),
        name: args.name ?? job.name,
        skills: args.skills ?? job.skills.map((s) => s.name),
        description,
      });
    },
    fields: (preview) => ({ job: toPostedJobOutput(draft as PostedJob), preview }),
    declined: () => ({ text: `Job ${oneLine(jobId)} is still a draft.` }),
    apply: ({ preview }) =>
      finish(ctx, draft as PostedJob, publishing(preview.jobId as string, preview), {
        created: false,
        preview,
        targets: [jobTarget(jobId)],
      }),
  });
}

/**
 * A draft's title, skills and description are published as the platform holds them: if one holds
 * characters a reader cannot see, the preview would not show what freelancers get, so publishing
 * it is refused.
 */
function refuseHidden(
  jobId: string,
  field: "name" | "skills" | "description",
  value: string,
): void {
  const hidden = hiddenCharacters(value);
  if (hidden.length === 0) return;
  const what = field === "name" ? "title" : field === "skills" ? "skill" : field;
  throw new ToolInputError(
    `the ${what} ${field === "skills" ? "" : `of draft ${oneLine(jobId)} `}${holdsHidden(hidden)}`,
    field,
    `Nothing was changed. Give the ${field} to publish (without them) as the ${field} argument.`,
  );
}

// ---- the preview -------------------------------------------------------------------------------

function proposal(p: Preview): Proposal<Preview> {
  const facts: Record<string, Fact> = {
    company: p.company.name,
    "company id": p.company.id,
    "job title": p.name,
    skills: p.skills,
    description: p.description,
  };
  return {
    preview: p,
    lines: previewLines(p),
    consequence: PUBLISH_CONSEQUENCE,
    question: "Publish this job?",
    facts,
  };
}

// The server's sentences, each value quoted whole on its line; the consequence comes last (added
// by the confirmation module), so no name or description can pose as the server's words. The
// title, skills and description are shown exactly as they are sent (the draft's own included),
// line breaks as \n and look-alike quotation marks escaped.
function previewLines(p: Preview): string[] {
  const text = (value: string) => sentTextShown(value);
  const name = text(p.name);
  const where = `at company ${whole(p.company.name)} (${oneLine(p.company.id)})`;
  return [
    p.jobId
      ? `Publish the draft job ${oneLine(p.jobId)} ${name} ${where}.`
      : `Create the job ${name} ${where} and publish it.`,
    `Skills: ${p.skills.map((s) => text(s)).join(", ")}.`,
    `Description: ${text(p.description)}.`,
  ];
}
