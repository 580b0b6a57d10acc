// The jobs domain's mutations in the sandbox: createJob, updateJob (publishing), the candidate step
// and status, and acceptBid, with the platform's validation and authorization shapes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type GqlResponse, gql, onlyError, TODAY } from "./helpers.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ today: TODAY, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.reset();
});

function expectValidation(r: GqlResponse<unknown>, field: string, keys: string[]) {
  const e = onlyError(r);
  expect(e.message).toBe(`Validation failed for the field [${field}].`);
  expect(e.extensions.code).toBe("DOWNSTREAM_SERVICE_ERROR");
  expect(Object.keys(e.extensions.validation ?? {}).sort()).toEqual([...keys].sort());
  expect(r.data).toBeNull();
  return e.extensions.validation as Record<string, string[]>;
}

function expectUnauthorized(r: GqlResponse<unknown>, field: string) {
  const e = onlyError(r);
  expect(e.message).toBe("You are not authorized to perform this action.");
  expect(e.path).toEqual([field]);
  expect(e.extensions).toEqual({ code: "DOWNSTREAM_SERVICE_ERROR", serviceName: "platform" });
}

const JOB = `id name status description published draft publishedAt company { id }
  skills { name } canBePublished viewerCanEdit`;
interface Job {
  id: string;
  name: string;
  status: string;
  description: string | null;
  published: boolean;
  draft: boolean;
  publishedAt: string | null;
  company: { id: string };
  skills: { name: string }[];
  canBePublished: boolean;
  viewerCanEdit: boolean;
}

const createJob = (input: Record<string, unknown>, token: "full" | "limited" = "full") =>
  gql<{ createJob: Job }>(
    sandbox,
    `mutation($input: CreateJobInput!) { createJob(input: $input) { ${JOB} } }`,
    { variables: { input }, token },
  );
const updateJob = (input: Record<string, unknown>, token: "full" | "limited" = "full") =>
  gql<{ updateJob: Job }>(
    sandbox,
    `mutation($input: UpdateJobInput!) { updateJob(input: $input) { ${JOB} } }`,
    { variables: { input }, token },
  );

describe("createJob and updateJob", () => {
  it("creates a DRAFT with the skills by name, new names included, and lists it first", async () => {
    const r = await createJob({
      company: "cmp_nordlys",
      name: "  Rust Developer ",
      skills: ["rust", "postgresql"],
    });
    expect(r.errors).toBeUndefined();
    const job = r.data?.createJob as Job;
    expect(job).toMatchObject({
      name: "Rust Developer",
      status: "DRAFT",
      draft: true,
      published: false,
      publishedAt: null,
      company: { id: "cmp_nordlys" },
      canBePublished: false,
      viewerCanEdit: true,
    });
    // A known skill keeps the platform's spelling; an unknown one is added as given.
    expect(job.skills.map((s) => s.name)).toEqual(["rust", "PostgreSQL"]);
    const list = await gql<{ jobs: { data: { id: string }[] } }>(
      sandbox,
      `{ jobs(accounts: ["cmp_nordlys"], first: 1) { data { id } } }`,
    );
    expect(list.data?.jobs.data[0]?.id).toBe(job.id);
  });

  it("reports every bad field at once and creates nothing", async () => {
    const before = await gql<{ jobs: { paginatorInfo: { total: number } } }>(
      sandbox,
      "{ jobs(first: 1) { paginatorInfo { total } } }",
    );
    const r = await createJob({ company: "cmp_nowhere", name: " ", skills: [] });
    expectValidation(r, "createJob", ["input.company", "input.name"]);
    const none = await createJob({ company: "cmp_nordlys", name: "X", skills: [] });
    expectValidation(none, "createJob", ["input.skills"]);
    const after = await gql<{ jobs: { paginatorInfo: { total: number } } }>(
      sandbox,
      "{ jobs(first: 1) { paginatorInfo { total } } }",
    );
    expect(after.data?.jobs.paginatorInfo.total).toBe(before.data?.jobs.paginatorInfo.total);
  });

  it("refuses the limited token, even for its own company", async () => {
    expectUnauthorized(
      await createJob({ company: "cmp_nordlys", name: "X", skills: ["Go"] }, "limited"),
      "createJob",
    );
    expectUnauthorized(await updateJob({ id: "job_005", published: true }, "limited"), "updateJob");
  });

  it("publishes a draft with a description, once and for good", async () => {
    // job_005 is a seeded draft with a description.
    const noText = await createJob({ company: "cmp_harbor", name: "Tester", skills: ["QA"] });
    const id = noText.data?.createJob.id as string;
    const refused = await updateJob({ id, published: true });
    const messages = expectValidation(refused, "updateJob", ["input.description"]);
    expect(messages["input.description"]?.[0]).toContain("required to publish");

    const r = await updateJob({ id, description: "Test the apps.", published: true });
    expect(r.data?.updateJob).toMatchObject({
      status: "ACTIVE",
      published: true,
      description: "Test the apps.",
    });
    expect(r.data?.updateJob.publishedAt).toMatch(new RegExp(`^${TODAY}T`));
    const back = await updateJob({ id, published: false });
    const undo = expectValidation(back, "updateJob", ["input.published"]);
    expect(undo["input.published"]?.[0]).toContain("cannot be undone");
    const closed = await updateJob({ id: "job_001", description: "x" });
    expectValidation(closed, "updateJob", ["input.id"]);
    expectValidation(await updateJob({ id: "job_999" }), "updateJob", ["input.id"]);
  });
});

const CANDIDATE = "id step status statusReason statusComment bid { id status } hire { id }";
interface Candidate {
  id: string;
  step: string;
  status: string;
  statusReason: string | null;
  statusComment: string | null;
  bid: { id: string; status: string } | null;
  hire: { id: string } | null;
}
const setStep = (input: Record<string, unknown>, token: "full" | "limited" = "full") =>
  gql<{ updateJobCandidateStep: Candidate }>(
    sandbox,
    `mutation($input: UpdateJobCandidateStepInput!) { updateJobCandidateStep(input: $input) { ${CANDIDATE} } }`,
    { variables: { input }, token },
  );
const setStatus = (input: Record<string, unknown>, token: "full" | "limited" = "full") =>
  gql<{ updateJobCandidateStatus: Candidate }>(
    sandbox,
    `mutation($input: UpdateJobCandidateStatusInput!) { updateJobCandidateStatus(input: $input) { ${CANDIDATE} } }`,
    { variables: { input }, token },
  );

describe("the candidate mutations", () => {
  it("moves a candidate to a manual step, and refuses the steps the platform sets", async () => {
    const r = await setStep({ jobCandidate: "jc_003", step: "INTERVIEW_SCHEDULED" });
    expect(r.data?.updateJobCandidateStep.step).toBe("INTERVIEW_SCHEDULED");
    for (const step of ["APPLIED", "HIRING", "INVITED_TO_APPLY"]) {
      const refused = await setStep({ jobCandidate: "jc_003", step });
      const messages = expectValidation(refused, "updateJobCandidateStep", ["input.step"]);
      expect(messages["input.step"]?.[0]).toContain("manual");
    }
    // jc_001 is Ana, hired on a completed job.
    expectValidation(
      await setStep({ jobCandidate: "jc_001", step: "SHORTLISTED" }),
      "updateJobCandidateStep",
      ["input.jobCandidate"],
    );
    expectValidation(
      await setStep({ jobCandidate: "jc_999", step: "SHORTLISTED" }),
      "updateJobCandidateStep",
      ["input.jobCandidate"],
    );
    expectUnauthorized(
      await setStep({ jobCandidate: "jc_003", step: "SHORTLISTED" }, "limited"),
      "updateJobCandidateStep",
    );
  });

  it("rejecting rejects the open bid, and making them eligible again does not reopen it", async () => {
    // jc_005 is Elsa on job_002, with the open bid bid_003.
    const r = await setStatus({
      jobCandidate: "jc_005",
      status: "NON_ELIGIBLE",
      statusReason: "BUDGET",
      statusComment: "Over budget.",
    });
    expect(r.data?.updateJobCandidateStatus).toMatchObject({
      status: "NON_ELIGIBLE",
      statusReason: "BUDGET",
      statusComment: "Over budget.",
      bid: { id: "bid_003", status: "REJECTED" },
    });
    const back = await setStatus({ jobCandidate: "jc_005", status: "ELIGIBLE" });
    expect(back.data?.updateJobCandidateStatus).toMatchObject({
      status: "ELIGIBLE",
      statusReason: null,
      bid: { status: "REJECTED" },
    });
    expectValidation(
      await setStatus({ jobCandidate: "jc_005", status: "ELIGIBLE", statusReason: "BUDGET" }),
      "updateJobCandidateStatus",
      ["input.statusReason"],
    );
    expectUnauthorized(
      await setStatus({ jobCandidate: "jc_005", status: "NON_ELIGIBLE" }, "limited"),
      "updateJobCandidateStatus",
    );
  });

  it("shows one candidate and one bid, scoped like the lists", async () => {
    const one = await gql<{ jobCandidate: { id: string; viewerCanUpdateStatus: boolean } }>(
      sandbox,
      '{ jobCandidate(id: "jc_003") { id viewerCanUpdateStatus } }',
    );
    expect(one.data?.jobCandidate).toEqual({ id: "jc_003", viewerCanUpdateStatus: true });
    const limited = await gql<{ jobCandidate: { viewerCanUpdateStatus: boolean } }>(
      sandbox,
      '{ jobCandidate(id: "jc_003") { viewerCanUpdateStatus } }',
      { token: "limited" },
    );
    expect(limited.data?.jobCandidate.viewerCanUpdateStatus).toBe(false);
    // bid_009 is on Castell's job_011: not the limited token's company.
    const castell = await gql(sandbox, '{ bid(id: "bid_009") { id } }', { token: "limited" });
    expectUnauthorized(castell, "bid");
    const none = await gql<{ bid: null }>(sandbox, '{ bid(id: "bid_999") { id } }');
    expect(none.data?.bid).toBeNull();
  });
});

const HIRE = `id status worker { id } company { id } recruiter { id }
  latestContract { id status rate rateType currency jobName startDate endDate }`;
const acceptBid = (bid: string, token: "full" | "limited" = "full") =>
  gql<{ acceptBid: Record<string, unknown> & { id: string } }>(
    sandbox,
    `mutation($input: AcceptBidInput!) { acceptBid(input: $input) { ${HIRE} } }`,
    { variables: { input: { bid } }, token },
  );

describe("acceptBid", () => {
  it("hires the bid's worker: an OFFERED hire with a draft contract at the bid's rate", async () => {
    const r = await acceptBid("bid_003");
    expect(r.errors).toBeUndefined();
    const hire = r.data?.acceptBid as { id: string };
    expect(hire).toMatchObject({
      status: "OFFERED",
      worker: { id: "wrk_056" },
      company: { id: "cmp_nordlys" },
      recruiter: null,
      latestContract: {
        status: "DRAFT",
        rate: 690,
        rateType: "HOURLY",
        currency: "DKK",
        jobName: "React Frontend Developer",
      },
    });
    // The bid, the candidate and the job show it; the hire is an ordinary hire.
    const after = await gql<{
      bid: { status: string; job: { hires: { data: { id: string }[] } } };
      jobCandidate: { step: string; hire: { id: string } };
      hire: { id: string; status: string };
    }>(
      sandbox,
      `{ bid(id: "bid_003") { status job { hires { data { id } } } }
         jobCandidate(id: "jc_005") { step hire { id } }
         hire(id: "${hire.id}") { id status } }`,
    );
    expect(after.data?.bid.status).toBe("ACCEPTED");
    expect(after.data?.bid.job.hires.data.map((h) => h.id)).toEqual([hire.id]);
    expect(after.data?.jobCandidate).toEqual({ step: "HIRING", hire: { id: hire.id } });
    expect(after.data?.hire.status).toBe("OFFERED");

    const again = await acceptBid("bid_003");
    const messages = expectValidation(again, "acceptBid", ["input.bid"]);
    expect(messages["input.bid"]?.[0]).toContain("ACCEPTED");
  });

  it("attributes an agency's bid to the agency", async () => {
    const r = await acceptBid("bid_004");
    expect(r.data?.acceptBid).toMatchObject({ recruiter: { id: "rec_brightpath" } });
  });

  it("refuses closed jobs, unknown bids and the limited token", async () => {
    // bid_001 is Ana's accepted bid on the completed job_001; bid_002 a rejected one there.
    const closed = await acceptBid("bid_002");
    const messages = expectValidation(closed, "acceptBid", ["input.bid"]);
    expect(messages["input.bid"]?.join(" ")).toContain("COMPLETED");
    expectValidation(await acceptBid("bid_999"), "acceptBid", ["input.bid"]);
    expectUnauthorized(await acceptBid("bid_003", "limited"), "acceptBid");
    const bid = await gql<{ bid: { status: string } }>(
      sandbox,
      '{ bid(id: "bid_003") { status } }',
    );
    expect(bid.data?.bid.status).toBe("OPEN");
  });
});
