// Jobs, job candidates and bids in the sandbox: filters, counts, links and who may see what.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { createSeed } from "../../src/sandbox/seed/index.js";
import { gql, onlyError, TODAY } from "./helpers.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ today: TODAY, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

interface JobRow {
  id: string;
  name: string;
  status: string | null;
  company: { id: string };
  published: boolean;
  draft: boolean;
  available: boolean;
  publishedAt: string | null;
  createdAt: string;
  jobCandidates: { paginatorInfo: { total: number } };
  bids: { paginatorInfo: { total: number } };
}

const JOB_FIELDS = `id name status company { id } published draft available publishedAt createdAt
  jobCandidates(first: 1) { paginatorInfo { total } } bids(first: 1) { paginatorInfo { total } }`;

async function jobs(args: string, token: "full" | "limited" = "full") {
  const r = await gql<{ jobs: { paginatorInfo: { total: number }; data: JobRow[] } }>(
    sandbox,
    `{ jobs(${args || "first: 100"}) { paginatorInfo { total } data { ${JOB_FIELDS} } } }`,
    { token },
  );
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data?.jobs as { paginatorInfo: { total: number }; data: JobRow[] };
}

const counts = (j: JobRow) => [j.jobCandidates.paginatorInfo.total, j.bids.paginatorInfo.total];

describe("jobs", () => {
  it("holds about ten jobs over the companies in every status, newest first", async () => {
    const all = await jobs("first: 100");
    expect(all.paginatorInfo.total).toBeGreaterThanOrEqual(10);
    expect(new Set(all.data.map((j) => j.status))).toEqual(
      new Set(["DRAFT", "ACTIVE", "COMPLETED", "REMOVED"]),
    );
    expect(new Set(all.data.map((j) => j.company.id)).size).toBe(3);
    const created = all.data.map((j) => j.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    for (const j of all.data) {
      expect(j.draft).toBe(j.status === "DRAFT");
      expect(j.published).toBe(j.publishedAt !== null);
      expect(j.available).toBe(j.status === "ACTIVE");
    }
  });

  it("counts candidates and bids per job through the nested paginators", async () => {
    const open = await jobs("statuses: [ACTIVE], first: 100");
    const byName = new Map(open.data.map((j) => [j.name, j]));
    expect(counts(byName.get("Backend Developer (Python)") as JobRow)).toEqual([3, 3]);
    expect(counts(byName.get("React Frontend Developer") as JobRow)).toEqual([4, 2]);
    const idle = open.data.filter((j) => j.jobCandidates.paginatorInfo.total === 0);
    expect(idle.map((j) => j.name).sort()).toEqual(["Cloud Architect", "Grid Data Analyst"]);
  });

  it("orders by the number of candidates and filters by bids, skill names and text", async () => {
    const fewest = await jobs("statuses: [ACTIVE], orderBy: [{ field: CANDIDATES, order: ASC }]");
    expect(counts(fewest.data[0] as JobRow)[0]).toBe(0);
    const noBids = await jobs("hasBids: false, first: 100");
    expect(noBids.data.every((j) => j.bids.paginatorInfo.total === 0)).toBe(true);
    const react = await jobs('skills: ["react"], first: 100');
    expect(react.data.map((j) => j.name).sort()).toEqual([
      "Frontend Developer (checkout)",
      "React Frontend Developer",
    ]);
    const backend = await jobs('search: "backend", first: 100');
    expect(backend.data.map((j) => j.name).sort()).toEqual([
      "Backend Developer (Python)",
      "Senior Backend Engineer",
    ]);
  });

  it("shows one job by id, null for an unknown id", async () => {
    const r = await gql<{ job: { name: string; rate: number | null; minimumRate: number } | null }>(
      sandbox,
      '{ job(id: "job_002") { name rate minimumRate } }',
    );
    expect(r.data?.job).toEqual({ name: "React Frontend Developer", rate: null, minimumRate: 550 });
    const none = await gql(sandbox, '{ job(id: "job_999") { id } }');
    expect(none.errors).toBeUndefined();
    expect(none.data).toEqual({ job: null });
  });
});

describe("jobCandidates and bids", () => {
  it("links the finished job's hired candidate to the core hire and its accepted bid", async () => {
    const r = await gql<{
      jobCandidates: {
        data: {
          step: string;
          status: string;
          worker: { id: string };
          hire: { id: string } | null;
          bid: { status: string; rate: number; currency: string } | null;
        }[];
      };
    }>(
      sandbox,
      `{ jobCandidates(jobs: ["job_001"], steps: [HIRING]) {
        data { step status worker { id } hire { id } bid { status rate currency } } } }`,
    );
    expect(r.data?.jobCandidates.data).toEqual([
      {
        step: "HIRING",
        status: "ELIGIBLE",
        worker: { id: "wrk_001" },
        hire: { id: "hire_001" },
        bid: { status: "ACCEPTED", rate: 650, currency: "DKK" },
      },
    ]);
  });

  it("filters candidates by status and bids by job and status", async () => {
    const out = await gql<{ jobCandidates: { data: { statusReason: string | null }[] } }>(
      sandbox,
      '{ jobCandidates(jobs: ["job_003"], statuses: [NON_ELIGIBLE]) { data { statusReason } } }',
    );
    expect(out.data?.jobCandidates.data).toEqual([{ statusReason: "AVAILABILITY" }]);
    const bids = await gql<{ bids: { data: { status: string; worker: { name: string } }[] } }>(
      sandbox,
      '{ bids(job: "job_003", statuses: [OPEN]) { data { status worker { name } } } }',
    );
    expect(bids.data?.bids.data.map((b) => b.worker.name).sort()).toEqual([
      "Frederik Juhl",
      "Oliver Dahl",
    ]);
  });

  it("names the agency that bid for a worker", async () => {
    const r = await gql<{ bids: { data: { supplier: { id: string; name: string } | null }[] } }>(
      sandbox,
      '{ bids(job: "job_002") { data { supplier { id name } } } }',
    );
    expect(r.data?.bids.data.map((b) => b.supplier?.id ?? null)).toContain("rec_brightpath");
  });
});

describe("the limited token", () => {
  it("sees Nordlys' jobs only and is refused another company's job", async () => {
    const mine = await jobs("first: 100", "limited");
    expect(mine.paginatorInfo.total).toBeGreaterThan(0);
    expect(mine.data.every((j) => j.company.id === "cmp_nordlys")).toBe(true);
    const castell = await gql(sandbox, '{ job(id: "job_011") { id } }', { token: "limited" });
    expect(onlyError(castell).message).toBe("You are not authorized to perform this action.");
    const theirBids = await gql<{ bids: { data: unknown[] } }>(
      sandbox,
      '{ bids(job: "job_011") { data { id } } }',
      { token: "limited" },
    );
    expect(theirBids.data?.bids.data).toEqual([]);
  });

  it("gets rates as restricted fields: null with an error naming the path", async () => {
    const r = await gql<{ bids: { data: { id: string; rate: number | null }[] } }>(
      sandbox,
      '{ bids(job: "job_002") { data { id rate } } }',
      { token: "limited" },
    );
    expect(r.data?.bids.data.every((b) => b.rate === null)).toBe(true);
    expect(r.errors?.[0]?.message).toBe("You are not authorized to access this field.");
    expect(r.errors?.[0]?.path).toEqual(["bids", "data", 0, "rate"]);
  });
});

it("seeds the same jobs every time, dated relative to today", () => {
  const a = createSeed(TODAY);
  expect(a.jobs).toEqual(createSeed(TODAY).jobs);
  const job = a.jobs?.jobs.get("job_005");
  expect(job?.createdAt.slice(0, 10)).toBe("2026-11-20");
  expect(createSeed("2027-01-01").jobs?.jobs.get("job_005")?.createdAt.slice(0, 10)).toBe(
    "2026-12-30",
  );
});
