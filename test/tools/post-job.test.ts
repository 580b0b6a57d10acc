// post_job through a real MCP client against the sandbox: drafts at once, publishing only after a
// confirmed preview, refused tokens, forms, faults with read-backs, permissions and injection.
import { describe, expect, it } from "vitest";
import type { SandboxData } from "../../src/sandbox/index.js";
import type { Harness } from "../helpers/mcp-harness.js";
import {
  appliedAfterLostAnswer,
  changedBeforeTokenConfirmation,
  changedWhileFormOpen,
} from "../helpers/preview-commitment.js";
import {
  callTool,
  formAnswering,
  PAST_TOKEN_LIFETIME_MS,
  textOf,
  useHarness,
  withClockAhead,
} from "../helpers/tool-calls.js";

interface Out {
  status: string;
  job?: { id: string; status: string | null; name: string; hasDescription: boolean };
  preview?: { jobId: string | null; company: { id: string; name: string }; description: string };
  confirmationToken?: string;
  changedSincePreview?: string[];
  note?: string;
}

const CONSEQUENCE = "Publishing cannot be undone: the job becomes visible to freelancers.";
const DRAFT = { company: "cmp_nordlys", name: "Rust Developer", skills: ["Rust", "PostgreSQL"] };
const PUBLISH = {
  company: "cmp_nordlys",
  name: "Go Developer",
  skills: ["Go"],
  description: "Build the metering ingest in Go.",
  publish: true,
};

const harness = useHarness();

// Someone edits the seeded draft job_005 on the platform, as a draft edit through post_job would.
const NEW_TEXT = "Service the turbines, and train the local crew.";
const DESCRIPTION_EDITED = {
  tool: "post_job",
  args: { jobId: "job_005", publish: true },
  mutation: "UpdateJob",
  label: "description",
  newValue: JSON.stringify(NEW_TEXT),
  edit: (data: SandboxData) => {
    const job = data.jobs?.jobs.get("job_005");
    if (!job) throw new Error("seed changed");
    job.description = NEW_TEXT;
  },
};
const SKILL_RENAMED = {
  ...DESCRIPTION_EDITED,
  label: "skills",
  newValue: '"Turbine Servicing"',
  edit: (data: SandboxData) => {
    const id = data.jobs?.jobs.get("job_005")?.skillIds[0];
    const skill = id ? data.talent?.skills.get(id) : undefined;
    if (!skill) throw new Error("seed changed");
    skill.name = "Turbine Servicing";
  },
};
// The company a new job is created and published for is renamed.
const COMPANY_RENAMED = {
  tool: "post_job",
  args: PUBLISH,
  mutation: "CreateJob",
  label: "company",
  newValue: '"Nordlys Vind A/S"',
  edit: (data: SandboxData) => {
    const nordlys = data.companies.find((c) => c.id === "cmp_nordlys");
    if (!nordlys) throw new Error("seed changed");
    nordlys.name = "Nordlys Vind A/S";
  },
};

/** What list_jobs shows of one job, as text. */
const jobDetail = async (h: Harness, jobId: string) =>
  textOf(await h.client.callTool({ name: "list_jobs", arguments: { jobId } }));

const call = (h: Harness, args: Record<string, unknown>, name = "post_job") =>
  callTool<Out>(h, name, args);

/** The company's jobs with this name, as list_jobs shows them. */
async function jobsNamed(h: Harness, name: string, company = "cmp_nordlys") {
  const r = await h.client.callTool({
    name: "list_jobs",
    arguments: { search: name, accounts: [company] },
  });
  const jobs = (r.structuredContent as { jobs: { id: string; name: string; status: string }[] })
    .jobs;
  return jobs.filter((j) => j.name === name);
}

const writes = (h: Harness) =>
  h.sandbox.countRequests("CreateJob") + h.sandbox.countRequests("UpdateJob");

describe("post_job drafts", () => {
  it("creates a draft at once, with no token, and says it is not published", async () => {
    const h = await harness();
    const r = await call(h, DRAFT);
    expect(r.r.isError).toBeFalsy();
    expect(r.out.status).toBe("draft");
    expect(r.out.confirmationToken).toBeUndefined();
    expect(r.text).toContain('Draft job job_013 #1013 "Rust Developer" at "Nordlys Energi A/S"');
    expect(r.text).toContain("not published");
    expect(h.sandbox.countRequests("CreateJob")).toBe(1);
    // Without a description there is nothing more to send.
    expect(h.sandbox.countRequests("UpdateJob")).toBe(0);
    expect(await jobsNamed(h, "Rust Developer")).toEqual([
      expect.objectContaining({ id: "job_013", status: "DRAFT" }),
    ]);
  });

  it("takes the company's name, and says it read it as the id", async () => {
    const h = await harness();
    const r = await call(h, { ...DRAFT, company: "nordlys energi" });
    expect(r.r.isError, r.text).toBeFalsy();
    expect(r.text).toContain(
      'company: read "nordlys energi" as "Nordlys Energi A/S" (cmp_nordlys).',
    );
    expect(r.text).toContain('Draft job job_013 #1013 "Rust Developer" at "Nordlys Energi A/S"');
    expect(h.sandbox.countRequests("CreateJob")).toBe(1);
  });

  it("sets a draft's description with a second request, still unpublished", async () => {
    const h = await harness();
    const r = await call(h, { ...DRAFT, description: "Port the meter parser to Rust." });
    expect(r.out).toMatchObject({
      status: "draft",
      job: { status: "DRAFT", hasDescription: true },
    });
    expect(h.sandbox.countRequests("CreateJob")).toBe(1);
    expect(h.sandbox.countRequests("UpdateJob")).toBe(1);
    const detail = await h.client.callTool({ name: "list_jobs", arguments: { jobId: "job_013" } });
    expect(textOf(detail)).toContain('Description: "Port the meter parser to Rust."');
    expect(textOf(detail)).toContain("not published");
  });

  it("refuses missing fields and a token for a draft, sending nothing", async () => {
    const h = await harness();
    const missing = await call(h, { company: "cmp_nordlys", name: "X" });
    expect(missing.r.isError).toBe(true);
    expect(missing.text).toContain("argument `skills`");
    const token = await call(h, { ...DRAFT, confirmationToken: "abc" });
    expect(token.r.isError).toBe(true);
    expect(token.text).toContain("needs no confirmationToken");
    const long = await call(h, { ...DRAFT, name: "x".repeat(300) });
    expect(long.r.isError).toBe(true);
    expect(writes(h)).toBe(0);
  });

  it("reads the company's newest jobs back when the connection drops after CreateJob", async () => {
    const h = await harness();
    h.sandbox.faults.inject("drop-connection", { operationName: "CreateJob", after: true });
    const r = await call(h, DRAFT);
    expect(r.r.isError).toBeFalsy();
    expect(r.out).toMatchObject({ status: "draft", job: { id: "job_013" } });
    expect(r.text).toContain("connection dropped after the request was sent");
    expect(r.text).toContain("found the new draft");
    // Sent once, never again: exactly one job.
    expect(h.sandbox.countRequests("CreateJob")).toBe(1);
    expect(await jobsNamed(h, "Rust Developer")).toHaveLength(1);
  });

  it("says the outcome is unknown when no read shows the job, never that it was not created", async () => {
    const h = await harness();
    // A job of the same name already exists: it must not be taken for ours.
    await call(h, DRAFT);
    h.sandbox.faults.inject("drop-connection", { operationName: "CreateJob" });
    const r = await call(h, DRAFT);
    expect(r.r.isError).toBe(true);
    expect(r.out.status).toBe("outcome-unknown");
    expect(r.text).toContain('Creating the job "Rust Developer" at "Nordlys Energi A/S"');
    expect(r.text).toContain("The outcome is UNKNOWN");
    expect(r.text).toContain('list_jobs (search "Rust Developer", accounts [cmp_nordlys])');
    expect(r.text).not.toMatch(/NOT created|Nothing changed|may be called again/);
    // The same job again is refused while the outcome is unknown; nothing more is sent.
    const again = await call(h, DRAFT);
    expect(again.r.isError).toBe(true);
    expect(again.text).toContain("outcome is not known yet");
    expect(h.sandbox.countRequests("CreateJob")).toBe(2);
    expect(await jobsNamed(h, "Rust Developer")).toHaveLength(1);
  });

  it("says the outcome is unknown when the platform creates the draft after the answer was lost", async () => {
    const { h } = await appliedAfterLostAnswer(harness, {
      tool: "post_job",
      args: DRAFT,
      mutation: "CreateJob",
      check: 'list_jobs (search "Rust Developer", accounts [cmp_nordlys])',
      confirmed: false,
    });
    // One job, though the platform made it after the answer was lost and the call was repeated.
    expect(await jobsNamed(h, "Rust Developer")).toHaveLength(1);
  });

  it("says the outcome is unknown when the draft's description is saved after the answer was lost", async () => {
    const { r, again, h } = await appliedAfterLostAnswer(harness, {
      tool: "post_job",
      args: { ...DRAFT, description: "Port the meter parser to Rust." },
      mutation: "UpdateJob",
      check: "list_jobs (jobId job_013)",
      confirmed: false,
    });
    expect(r.text).toContain('Draft job job_013 #1013 "Rust Developer"');
    expect(r.text).toContain("was created.");
    // Creating it again is refused too: one job.
    expect(again.text).toContain("outcome is not known yet");
    expect(h.sandbox.countRequests("CreateJob")).toBe(1);
    expect(await jobsNamed(h, "Rust Developer")).toHaveLength(1);
  });

  it("says the outcome is unknown when a draft edit is applied after the answer was lost", async () => {
    const { r } = await appliedAfterLostAnswer(harness, {
      tool: "post_job",
      args: { jobId: "job_005", description: "Inspect the turbines twice a year." },
      mutation: "UpdateJob",
      check: "list_jobs (jobId job_005)",
      confirmed: false,
    });
    expect(r.text).toContain("Saving the details of job job_005");
  });

  it("says the account is not allowed when the limited token posts a job", async () => {
    const h = await harness({ token: "limited" });
    const r = await call(h, DRAFT);
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("your account is not allowed to post jobs for company cmp_nordlys");
    expect(r.text).toContain("ask someone with job management rights");
    expect(r.text).not.toContain("argument");
    // A company the token cannot see is a wrong argument, not a permission.
    const other = await call(h, { ...DRAFT, company: "cmp_harbor" });
    expect(other.r.isError).toBe(true);
    expect(other.text).toContain("argument `company`");
    expect(other.text).toContain('Your companies: "Nordlys Energi A/S" (cmp_nordlys).');
    // Publishing an existing draft is refused before any preview.
    const publish = await call(h, { jobId: "job_005", publish: true });
    expect(publish.r.isError).toBe(true);
    expect(publish.text).toContain("not allowed to change job job_005");
    expect(h.sandbox.countRequests("UpdateJob")).toBe(0);
  });
});

describe("post_job publishing with the token round trip", () => {
  it("previews without changing anything, then creates and publishes with the token", async () => {
    const h = await harness();
    const first = await call(h, PUBLISH);
    expect(first.r.isError).toBeFalsy();
    expect(first.out.status).toBe("preview");
    const lines = first.text.trim().split("\n");
    expect(lines).toContain(
      'Create the job "Go Developer" at company "Nordlys Energi A/S" (cmp_nordlys) and publish it.',
    );
    expect(lines).toContain('Skills: "Go".');
    expect(lines).toContain('Description: "Build the metering ingest in Go.".');
    expect(lines.at(-1)).toBe(CONSEQUENCE);
    expect(first.out.confirmationToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(writes(h)).toBe(0);
    expect(await jobsNamed(h, "Go Developer")).toEqual([]);

    const second = await call(h, { ...PUBLISH, confirmationToken: first.out.confirmationToken });
    expect(second.r.isError).toBeFalsy();
    expect(second.out).toMatchObject({ status: "published", job: { status: "ACTIVE" } });
    expect(second.text).toContain("is published");
    expect(h.sandbox.countRequests("CreateJob")).toBe(1);
    expect(h.sandbox.countRequests("UpdateJob")).toBe(1);
    expect(await jobsNamed(h, "Go Developer")).toEqual([
      expect.objectContaining({ status: "ACTIVE" }),
    ]);

    const reuse = await call(h, { ...PUBLISH, confirmationToken: first.out.confirmationToken });
    expect(reuse.r.isError).toBe(true);
    expect(reuse.text).toContain("unknown, expired or already used");
    expect(writes(h)).toBe(2);
  });

  it("needs a description to publish", async () => {
    const h = await harness();
    const r = await call(h, { ...DRAFT, publish: true });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("argument `description`");
    expect(writes(h)).toBe(0);
  });

  it("binds the token to every argument, free text included, and to this tool", async () => {
    const h = await harness();
    for (const [changed, name] of [
      [{ description: "Build the metering ingest in Rust." }, "description"],
      [{ skills: ["Go", "Kubernetes"] }, "skills"],
      [{ company: "cmp_harbor" }, "company"],
    ] as const) {
      const { out } = await call(h, PUBLISH);
      const r = await call(h, { ...PUBLISH, ...changed, confirmationToken: out.confirmationToken });
      expect(r.r.isError).toBe(true);
      expect(r.text).toContain(`different now: ${name}`);
    }
    // A token from another tool's preview.
    const other = await call(h, { bidId: "bid_003" }, "manage_candidate");
    const foreign = await call(h, { ...PUBLISH, confirmationToken: other.out.confirmationToken });
    expect(foreign.r.isError).toBe(true);
    expect(foreign.text).toContain("issued by manage_candidate, not post_job");
    expect(writes(h)).toBe(0);
  });

  it("refuses an expired token", async () => {
    const h = await harness();
    const { out } = await call(h, PUBLISH);
    const late = await withClockAhead(PAST_TOKEN_LIFETIME_MS, () =>
      call(h, { ...PUBLISH, confirmationToken: out.confirmationToken }),
    );
    expect(late.r.isError).toBe(true);
    expect(late.text).toContain("expired");
    expect(writes(h)).toBe(0);
  });

  it("reports a created draft whose publishing failed, with its id, and can publish it later", async () => {
    const h = await harness();
    const { out } = await call(h, PUBLISH);
    // A definite refusal: the platform did not publish it.
    h.sandbox.faults.inject("rate-limit", { operationName: "UpdateJob" });
    const r = await call(h, { ...PUBLISH, confirmationToken: out.confirmationToken });
    expect(r.r.isError).toBe(true);
    expect(r.out).toMatchObject({ status: "partial", job: { id: "job_013", status: "DRAFT" } });
    expect(r.text).toContain('Draft job job_013 #1013 "Go Developer"');
    expect(r.text).toContain("was created, but publishing it failed");
    expect(r.text).toContain("not published");
    expect(r.text).toContain("jobId job_013");
    // Each sent once; the job was read back, not published twice.
    expect(h.sandbox.countRequests("CreateJob")).toBe(1);
    expect(h.sandbox.countRequests("UpdateJob")).toBe(1);
    expect(await jobsNamed(h, "Go Developer")).toEqual([
      expect.objectContaining({ status: "DRAFT" }),
    ]);

    expect(r.text).toContain("jobId job_013, the description and publish true");
    const later = { jobId: "job_013", description: PUBLISH.description, publish: true };
    const again = await call(h, later);
    expect(again.out.status).toBe("preview");
    expect(again.text).toContain('Publish the draft job job_013 "Go Developer"');
    const done = await call(h, { ...later, confirmationToken: again.out.confirmationToken });
    expect(done.out).toMatchObject({
      status: "published",
      job: { id: "job_013", status: "ACTIVE" },
    });
    expect(h.sandbox.countRequests("CreateJob")).toBe(1);
  });

  it("reads the job back when the connection drops after the publishing request", async () => {
    const h = await harness();
    const { out } = await call(h, PUBLISH);
    h.sandbox.faults.inject("drop-connection", { operationName: "UpdateJob", after: true });
    const r = await call(h, { ...PUBLISH, confirmationToken: out.confirmationToken });
    expect(r.r.isError).toBeFalsy();
    expect(r.out).toMatchObject({ status: "published", job: { status: "ACTIVE" } });
    expect(r.text).toContain("reading the job back confirmed it");
    expect(h.sandbox.countRequests("UpdateJob")).toBe(1);
  });

  it("publishes an existing draft, and refuses a job that is already published", async () => {
    const h = await harness();
    // job_005 is Nordlys's seeded draft "Wind Turbine Technician", with a description.
    const first = await call(h, { jobId: "job_005", publish: true });
    expect(first.out.status).toBe("preview");
    expect(first.text).toContain('Description: "Service and inspect offshore turbines.".');
    const done = await call(h, {
      jobId: "job_005",
      publish: true,
      confirmationToken: first.out.confirmationToken,
    });
    expect(done.out).toMatchObject({ status: "published", job: { status: "ACTIVE" } });
    const again = await call(h, { jobId: "job_005", publish: true });
    expect(again.r.isError).toBe(true);
    expect(again.text).toContain("already published");
    expect(h.sandbox.countRequests("UpdateJob")).toBe(1);
    expect(h.sandbox.countRequests("CreateJob")).toBe(0);
  });
});

describe("post_job publishes exactly what was previewed", () => {
  it("sends nothing when a draft edit replaced the description after the preview", async () => {
    const h = await harness();
    const publish = { jobId: "job_005", publish: true };
    const first = await call(h, publish);
    expect(first.text).toContain('Description: "Service and inspect offshore turbines.".');
    // A draft edit is applied at once, between the preview and the confirmation.
    const edit = await call(h, { jobId: "job_005", description: NEW_TEXT });
    expect(edit.out.status).toBe("draft");
    const second = await call(h, { ...publish, confirmationToken: first.out.confirmationToken });
    expect(second.r.isError).toBeFalsy();
    expect(second.out.status).toBe("changed");
    expect(second.out.changedSincePreview).toEqual(["description"]);
    expect(second.text).toContain(
      `Nothing was sent: since the preview, this changed on the platform: description (now ${JSON.stringify(NEW_TEXT)}).`,
    );
    // The fresh preview shows the new text; only the draft edit reached the platform.
    expect(second.text).toContain(`Description: ${JSON.stringify(NEW_TEXT)}.`);
    expect(h.sandbox.countRequests("UpdateJob")).toBe(1);
    expect(await jobDetail(h, "job_005")).toContain("not published");
    const third = await call(h, { ...publish, confirmationToken: second.out.confirmationToken });
    expect(third.out).toMatchObject({ status: "published", job: { status: "ACTIVE" } });
    expect(await jobDetail(h, "job_005")).toContain(`Description: ${JSON.stringify(NEW_TEXT)}`);
  });

  it("sends nothing when the draft's description changed on the platform after the preview", async () => {
    await changedBeforeTokenConfirmation(harness, DESCRIPTION_EDITED);
  });

  it("sends nothing when the draft's skills changed after the preview", async () => {
    await changedBeforeTokenConfirmation(harness, SKILL_RENAMED);
  });

  it("creates nothing when the company was renamed after the preview", async () => {
    const { h } = await changedBeforeTokenConfirmation(harness, COMPANY_RENAMED);
    expect(await jobsNamed(h, "Go Developer")).toEqual([
      expect.objectContaining({ status: "ACTIVE" }),
    ]);
  });

  it("shows a draft's own description whole, line breaks escaped", async () => {
    const long = `${"Offshore service. ".repeat(20).trim()}\nSecond paragraph.`;
    const h = await harness({
      seedPatch: (data) => {
        const job = data.jobs?.jobs.get("job_005");
        if (job) job.description = long;
      },
    });
    const r = await call(h, { jobId: "job_005", publish: true });
    expect(r.text).toContain(`Description: ${JSON.stringify(long)}.`);
  });

  it("refuses to publish a draft whose description holds characters a reader cannot see", async () => {
    const h = await harness({
      seedPatch: (data) => {
        const job = data.jobs?.jobs.get("job_005");
        if (job) job.description = "Service the \u202eturbines.";
      },
    });
    const r = await call(h, { jobId: "job_005", publish: true });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("U+202E RIGHT-TO-LEFT OVERRIDE");
    expect(r.text).toContain("description argument");
    // Given as an argument without them, it is previewed.
    const given = await call(h, { jobId: "job_005", publish: true, description: "Turbines." });
    expect(given.out.status).toBe("preview");
    expect(h.sandbox.countRequests("UpdateJob")).toBe(0);
  });

  it("refuses a description argument with characters a reader cannot see, naming them", async () => {
    const h = await harness();
    const r = await call(h, { ...PUBLISH, description: "Go\u200b work." });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("U+200B ZERO WIDTH SPACE");
    expect(writes(h)).toBe(0);
  });

  it("says the outcome is unknown when the platform publishes a draft after the answer was lost", async () => {
    const { again } = await appliedAfterLostAnswer(harness, {
      tool: "post_job",
      args: { jobId: "job_005", publish: true },
      mutation: "UpdateJob",
      check: "list_jobs (jobId job_005)",
      confirmed: true,
    });
    expect(again.text).toContain("already published");
  });

  it("says the outcome is unknown when the job to publish is created after the answer was lost", async () => {
    const { r, h } = await appliedAfterLostAnswer(harness, {
      tool: "post_job",
      args: PUBLISH,
      mutation: "CreateJob",
      check: 'list_jobs (search "Go Developer", accounts [cmp_nordlys])',
      confirmed: true,
    });
    expect(r.text).toContain("The publishing request was not sent.");
    expect(h.sandbox.countRequests("UpdateJob")).toBe(0);
    expect(await jobsNamed(h, "Go Developer")).toEqual([
      expect.objectContaining({ status: "DRAFT" }),
    ]);
  });

  it("says the outcome is unknown when the new job is published after the answer was lost", async () => {
    const { r, h } = await appliedAfterLostAnswer(harness, {
      tool: "post_job",
      args: PUBLISH,
      mutation: "UpdateJob",
      check: "list_jobs (jobId job_013)",
      confirmed: true,
    });
    expect(r.text).toContain('Draft job job_013 #1013 "Go Developer"');
    expect(h.sandbox.countRequests("CreateJob")).toBe(1);
    expect(await jobsNamed(h, "Go Developer")).toEqual([
      expect.objectContaining({ status: "ACTIVE" }),
    ]);
  });
});

describe("post_job with elicitation", () => {
  it("shows the form again when the draft's description changed while it was open", async () => {
    const { h } = await changedWhileFormOpen(harness, DESCRIPTION_EDITED);
    // Published as the second form showed it.
    expect(await jobDetail(h, "job_005")).toContain(`Description: ${JSON.stringify(NEW_TEXT)}`);
  });

  it("shows the form again when the company was renamed while it was open", async () => {
    await changedWhileFormOpen(harness, COMPANY_RENAMED);
  });

  it("publishes when the person ticks the box", async () => {
    const f = formAnswering({ action: "accept", content: { confirm: true } });
    const h = await harness(f.options);
    const r = await call(h, PUBLISH);
    expect(f.asked).toHaveLength(1);
    expect(f.asked[0]?.message.trim().split("\n").at(-1)).toBe(CONSEQUENCE);
    expect(r.out.status).toBe("published");
    expect(r.out.confirmationToken).toBeUndefined();
  });

  it("creates nothing when the form is cancelled; drafts ask nothing", async () => {
    const f = formAnswering({ action: "cancel" });
    const h = await harness(f.options);
    const r = await call(h, PUBLISH);
    expect(r.r.isError).toBeFalsy();
    expect(r.out.status).toBe("declined");
    expect(r.text).toContain("No job was created");
    expect(writes(h)).toBe(0);
    const draft = await call(h, DRAFT);
    expect(draft.out.status).toBe("draft");
    expect(f.asked).toHaveLength(1);
  });
});

describe("post_job and --read-only", () => {
  it("is not reached, and neither is manage_candidate; list_jobs is", async () => {
    const h = await harness({ readOnly: true });
    const found = await callTool<{ tools: { name: string }[] }>(h, "find_tools", {
      toolset: "jobs",
    });
    expect(found.out.tools.map((t) => t.name)).toEqual(["list_jobs"]);
  });
});

describe("post_job keeps platform text and free text in quotes", () => {
  const PREVIEW = "THIS IS A PREVIEW ONLY: ticking the box publishes nothing.";
  const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;
  const plant = (data: SandboxData) => {
    const nordlys = data.companies.find((c) => c.id === "cmp_nordlys");
    const draft = data.jobs?.jobs.get("job_005");
    if (!nordlys || !draft) throw new Error("seed changed");
    nordlys.name = `Nordlys\n${PREVIEW}`;
    draft.name = `Wind\n${PREVIEW}`;
    draft.description = `Turbines.\r\n${PREVIEW}`;
  };
  const contained = (message: string) => {
    const lines = message.trim().split(LINE_BREAK);
    for (const line of lines) expect(line).not.toMatch(/^\s*THIS IS A PREVIEW ONLY/);
    expect(lines.at(-1)).toBe(CONSEQUENCE);
    return lines;
  };

  it("refuses to publish a draft whose title holds characters a reader cannot see, naming them", async () => {
    const h = await harness({
      seedPatch: (data: SandboxData) => {
        const draft = data.jobs?.jobs.get("job_005");
        if (!draft) throw new Error("seed changed");
        draft.name = `Wind\u202eenibruT`;
      },
    });
    const r = await call(h, { jobId: "job_005", publish: true });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain("argument `name`: the title of draft job_005 holds characters");
    expect(r.text).toContain("U+202E RIGHT-TO-LEFT OVERRIDE");
    expect(writes(h)).toBe(0);
  });

  it("in the preview text and in the form", async () => {
    const h = await harness({ seedPatch: plant });
    const hostile = { ...PUBLISH, name: `Go\n${PREVIEW}`, description: `Go.\n\n${PREVIEW}` };
    const lines = contained((await call(h, hostile)).text);
    const what = lines.find((l) => l.startsWith("Create the job"));
    // Text the call gives is shown as it is sent: its line break escaped, not removed.
    expect(what).toContain(JSON.stringify(hostile.name));
    expect(what).toContain(`"Nordlys ${PREVIEW}"`);
    const existing = contained((await call(h, { jobId: "job_005", publish: true })).text);
    expect(existing.join("\n")).toContain(JSON.stringify(`Turbines.\r\n${PREVIEW}`));
    // The draft's own title is published as it is, so it is shown as it is: its line break escaped.
    expect(existing.join("\n")).toContain(JSON.stringify(`Wind\n${PREVIEW}`));
    await h.close();

    const f = formAnswering({ action: "decline" });
    const withForm = await harness({ seedPatch: plant, ...f.options });
    await call(withForm, hostile);
    await call(withForm, { jobId: "job_005", publish: true });
    expect(f.asked).toHaveLength(2);
    for (const asked of f.asked) contained(asked.message);
  });
});
