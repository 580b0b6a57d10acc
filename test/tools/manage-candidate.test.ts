// manage_candidate through a real MCP client against the sandbox: reversible step and status changes
// at once; rejecting and accepting a bid only after a confirmed preview; tokens, forms, faults with
// read-backs, permissions and injection.
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
  previewToken,
  textOf,
  useHarness,
  withClockAhead,
} from "../helpers/tool-calls.js";

interface Out {
  status: string;
  action: string;
  candidate?: { id: string; step: string; status: string; bid: { status: string } | null };
  bid?: { id: string; status: string; rate: number | null; currency: string };
  hire?: { id: string; status: string };
  confirmationToken?: string;
}

const ACCEPT = "Accepting creates a hire and an obligation to pay; it cannot be undone.";
const REJECT =
  "Their open bid is rejected for good; making them eligible again does not reopen it.";
// Seed: job_002 "React Frontend Developer" (Nordlys): jc_003 Mikkel (shortlisted), jc_005 Elsa
// with the open bid bid_003 at DKK 690 hourly; jc_001 is Ana on the completed job_001.
const BID = { bidId: "bid_003" };
const REJECT_ELSA = { candidateId: "jc_005", status: "NON_ELIGIBLE", reason: "BUDGET" };

const harness = useHarness();

/** Elsa's open bid bid_003 now asks ten times the rate (DKK 6,900.00 hourly). */
const raiseBid = (data: SandboxData) => {
  const bid = data.jobs?.bids.get("bid_003");
  if (!bid) throw new Error("seed changed");
  bid.rate = 6_900;
};
const BID_RAISED = {
  tool: "manage_candidate",
  args: BID,
  mutation: "AcceptBid",
  label: "rate",
  newValue: '"DKK 6,900.00 hourly"',
  edit: raiseBid,
};
const REJECTION_BID_RAISED = {
  tool: "manage_candidate",
  args: REJECT_ELSA,
  mutation: "UpdateJobCandidateStatus",
  label: "open bid",
  newValue: '"bid_003 at DKK 6,900.00 hourly"',
  edit: raiseBid,
};
const JOB002_CHECK = "list_jobs (jobId job_002)";

const call = (h: Harness, args: Record<string, unknown>, name = "manage_candidate") =>
  callTool<Out>(h, name, args);

/** Job job_002's candidates and bids as list_jobs shows them. */
async function job002(h: Harness) {
  const r = await h.client.callTool({ name: "list_jobs", arguments: { jobId: "job_002" } });
  const job = (
    r.structuredContent as {
      job: {
        candidates: { id: string; step: string; status: string; hireId: string | null }[];
        bids: { id: string; status: string }[];
      };
    }
  ).job;
  return {
    candidate: (id: string) => job.candidates.find((c) => c.id === id),
    bid: (id: string) => job.bids.find((b) => b.id === id)?.status,
  };
}

async function hiresOfElsa(h: Harness) {
  const r = await h.client.callTool({ name: "search_hires", arguments: { search: "Elsa" } });
  return (r.structuredContent as { hires: { id: string; status: string }[] }).hires;
}

const statusWrites = (h: Harness) => h.sandbox.countRequests("UpdateJobCandidateStatus");

describe("manage_candidate: reversible changes at once", () => {
  it("moves a candidate to a step with one request and no token", async () => {
    const h = await harness();
    const r = await call(h, { candidateId: "jc_003", step: "interview_selected" });
    expect(r.r.isError).toBeFalsy();
    expect(r.out).toMatchObject({ status: "updated", candidate: { step: "INTERVIEW_SELECTED" } });
    expect(r.out.confirmationToken).toBeUndefined();
    expect(r.text).toContain(
      'Candidate jc_003 "Mikkel Andersen" (wrk_053) on job job_002 "React Frontend Developer"',
    );
    expect(r.text).toContain("from step SHORTLISTED to INTERVIEW_SELECTED");
    expect(r.text).toContain("can be undone");
    expect(h.sandbox.countRequests("UpdateJobCandidateStep")).toBe(1);
    expect((await job002(h)).candidate("jc_003")?.step).toBe("INTERVIEW_SELECTED");

    const same = await call(h, { candidateId: "jc_003", step: "INTERVIEW_SELECTED" });
    expect(same.out.status).toBe("unchanged");
    expect(h.sandbox.countRequests("UpdateJobCandidateStep")).toBe(1);
  });

  it("refuses steps the platform sets, closed jobs, hired candidates and mixed arguments", async () => {
    const h = await harness();
    const system = await call(h, { candidateId: "jc_003", step: "APPLIED" });
    expect(system.r.isError).toBe(true);
    const closed = await call(h, { candidateId: "jc_001", step: "SHORTLISTED" });
    expect(closed.r.isError).toBe(true);
    expect(closed.text).toContain("COMPLETED; its candidates can no longer be changed");
    const both = await call(h, { candidateId: "jc_003", step: "SHORTLISTED", status: "ELIGIBLE" });
    expect(both.r.isError).toBe(true);
    expect(both.text).toContain("one change per call");
    const mixed = await call(h, { bidId: "bid_003", candidateId: "jc_005" });
    expect(mixed.r.isError).toBe(true);
    const unknown = await call(h, { candidateId: "jc_999", step: "SHORTLISTED" });
    expect(unknown.r.isError).toBe(true);
    expect(unknown.text).toContain("list_jobs");
    const token = await call(h, {
      candidateId: "jc_003",
      step: "SHORTLISTED",
      confirmationToken: "x",
    });
    expect(token.r.isError).toBe(true);
    expect(token.text).toContain("needs no confirmationToken");
    const reason = await call(h, { ...REJECT_ELSA, reason: "TOO_EXPENSIVE" });
    expect(reason.r.isError).toBe(true);
    expect(reason.text).toContain("BUDGET, ACCEPTED_OTHER_JOB");
    expect(h.sandbox.countRequests("UpdateJobCandidateStep") + statusWrites(h)).toBe(0);
  });

  it("says the account is not allowed for the limited token", async () => {
    const h = await harness({ token: "limited" });
    const r = await call(h, { candidateId: "jc_003", step: "INTERVIEW_SELECTED" });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain(
      "your account is not allowed to manage the candidates of job job_002; ask someone with job management rights",
    );
    const bid = await call(h, BID);
    expect(bid.r.isError).toBe(true);
    expect(bid.text).toContain(
      "your account is not allowed to accept bid bid_003 (it creates a hire); ask someone with hiring rights",
    );
    expect(bid.text).not.toContain("argument");
    expect(h.sandbox.countRequests("UpdateJobCandidateStep")).toBe(0);
    expect(h.sandbox.countRequests("AcceptBid")).toBe(0);
  });
});

describe("manage_candidate: rejecting needs confirmation", () => {
  it("previews the rejection with the bid's rate, then rejects with the token", async () => {
    const h = await harness();
    const first = await call(h, REJECT_ELSA);
    expect(first.out.status).toBe("preview");
    const lines = first.text.trim().split("\n");
    expect(lines).toContain(
      'Mark candidate jc_005 "Elsa Bergström" (wrk_056) on job job_002 "React Frontend Developer" at "Nordlys Energi A/S" NON_ELIGIBLE (reason BUDGET); they are now at step APPLIED, ELIGIBLE.',
    );
    expect(lines).toContain("Their open bid bid_003 at DKK 690.00 hourly is rejected.");
    expect(lines.at(-1)).toBe(REJECT);
    expect(statusWrites(h)).toBe(0);
    expect((await job002(h)).bid("bid_003")).toBe("OPEN");

    const done = await call(h, { ...REJECT_ELSA, confirmationToken: first.out.confirmationToken });
    expect(done.r.isError).toBeFalsy();
    expect(done.out).toMatchObject({
      status: "updated",
      candidate: { status: "NON_ELIGIBLE", bid: { status: "REJECTED" } },
    });
    expect(done.text).toContain(
      "is now NON_ELIGIBLE (reason BUDGET). Their bid bid_003 is REJECTED.",
    );
    expect(statusWrites(h)).toBe(1);
    const after = await job002(h);
    expect(after.candidate("jc_005")?.status).toBe("NON_ELIGIBLE");
    expect(after.bid("bid_003")).toBe("REJECTED");

    // Back to eligible: reversible, no token, and the bid stays rejected.
    const back = await call(h, { candidateId: "jc_005", status: "eligible" });
    expect(back.out).toMatchObject({ status: "updated", candidate: { status: "ELIGIBLE" } });
    expect(back.text).toContain("stays rejected");
    expect(statusWrites(h)).toBe(2);
  });

  it("binds the token to the candidate, the reason, this tool and five minutes", async () => {
    const h = await harness();
    const { out } = await call(h, REJECT_ELSA);
    const other = await call(h, {
      ...REJECT_ELSA,
      reason: "AVAILABILITY",
      confirmationToken: out.confirmationToken,
    });
    expect(other.r.isError).toBe(true);
    expect(other.text).toContain("different now: reason");
    const postJobToken = await previewToken(h, "post_job", {
      company: "cmp_nordlys",
      name: "Go Developer",
      skills: ["Go"],
      description: "Go work.",
      publish: true,
    });
    const foreign = await call(h, { ...REJECT_ELSA, confirmationToken: postJobToken });
    expect(foreign.text).toContain("issued by post_job, not manage_candidate");
    const { out: fresh } = await call(h, REJECT_ELSA);
    const late = await withClockAhead(PAST_TOKEN_LIFETIME_MS, () =>
      call(h, { ...REJECT_ELSA, confirmationToken: fresh.confirmationToken }),
    );
    expect(late.text).toContain("expired");
    expect(statusWrites(h)).toBe(0);
  });

  it("sends nothing when the open bid's rate changed after the preview", async () => {
    const { second } = await changedBeforeTokenConfirmation(harness, REJECTION_BID_RAISED);
    expect(second.text).toContain("Their open bid bid_003 at DKK 6,900.00 hourly is rejected.");
  });

  it("sends nothing when the candidate was moved to another step after the preview", async () => {
    const h = await harness();
    const first = await call(h, REJECT_ELSA);
    h.sandbox.edit((data) => {
      const elsa = data.jobs?.candidates.get("jc_005");
      if (!elsa) throw new Error("seed changed");
      elsa.step = "INTERVIEW_SELECTED";
    });
    const second = await call(h, {
      ...REJECT_ELSA,
      confirmationToken: first.out.confirmationToken,
    });
    expect(second.out.status).toBe("changed");
    expect(second.text).toContain('step (now "INTERVIEW_SELECTED")');
    expect(second.text).toContain("they are now at step INTERVIEW_SELECTED, ELIGIBLE");
    expect(statusWrites(h)).toBe(0);
  });

  it("says the outcome is unknown when the platform rejects after the answer was lost", async () => {
    const { r } = await appliedAfterLostAnswer(harness, {
      tool: "manage_candidate",
      args: REJECT_ELSA,
      mutation: "UpdateJobCandidateStatus",
      check: JOB002_CHECK,
      confirmed: true,
    });
    expect(r.text).toContain("Setting candidate jc_005 NON_ELIGIBLE: The outcome is UNKNOWN");
  });
});

describe("manage_candidate: honest outcomes for the moves sent at once", () => {
  it("says the outcome is unknown when a step move is applied after the answer was lost", async () => {
    const { r, h } = await appliedAfterLostAnswer(harness, {
      tool: "manage_candidate",
      args: { candidateId: "jc_003", step: "INTERVIEW_SELECTED" },
      mutation: "UpdateJobCandidateStep",
      check: JOB002_CHECK,
      confirmed: false,
    });
    expect(r.text).toContain("Moving candidate jc_003 to step INTERVIEW_SELECTED:");
    expect((await job002(h)).candidate("jc_003")?.step).toBe("INTERVIEW_SELECTED");
  });

  it("says the outcome is unknown when ELIGIBLE is applied after the answer was lost", async () => {
    const { r } = await appliedAfterLostAnswer(harness, {
      tool: "manage_candidate",
      args: { candidateId: "jc_005", status: "ELIGIBLE" },
      mutation: "UpdateJobCandidateStatus",
      check: JOB002_CHECK,
      confirmed: false,
      options: {
        seedPatch: (data) => {
          const elsa = data.jobs?.candidates.get("jc_005");
          if (!elsa) throw new Error("seed changed");
          elsa.status = "NON_ELIGIBLE";
          elsa.statusReason = "BUDGET";
        },
      },
    });
    expect(r.text).toContain("Setting candidate jc_005 ELIGIBLE:");
  });

  it("reads a step move back when the connection drops after it", async () => {
    const h = await harness();
    h.sandbox.faults.inject("drop-connection", {
      operationName: "UpdateJobCandidateStep",
      after: true,
    });
    const r = await call(h, { candidateId: "jc_003", step: "INTERVIEW_SELECTED" });
    expect(r.r.isError).toBeFalsy();
    expect(r.out).toMatchObject({ status: "updated", candidate: { step: "INTERVIEW_SELECTED" } });
    expect(r.text).toContain("reading the candidate back confirmed the change");
    expect(h.sandbox.countRequests("UpdateJobCandidateStep")).toBe(1);
  });
});

describe("manage_candidate: accepting a bid", () => {
  it("previews the bidder, job and rate, then creates the hire with the token", async () => {
    const h = await harness();
    const first = await call(h, BID);
    expect(first.out.status).toBe("preview");
    const lines = first.text.trim().split("\n");
    expect(lines).toContain(
      'Accept bid bid_003 from "Elsa Bergström" (wrk_056) on job job_002 "React Frontend Developer" at "Nordlys Energi A/S".',
    );
    expect(lines).toContain(
      "Rate: DKK 690.00 hourly. A hire is created and the worker is offered a draft contract at this rate.",
    );
    expect(lines.at(-1)).toBe(ACCEPT);
    expect(h.sandbox.countRequests("AcceptBid")).toBe(0);
    expect(await hiresOfElsa(h)).toEqual([]);

    const done = await call(h, { ...BID, confirmationToken: first.out.confirmationToken });
    expect(done.r.isError).toBeFalsy();
    expect(done.out).toMatchObject({
      status: "accepted",
      bid: { status: "ACCEPTED" },
      hire: { status: "OFFERED" },
    });
    const hireId = done.out.hire?.id as string;
    expect(done.text).toContain(`hire ${hireId} (status OFFERED) for "Elsa Bergström"`);
    expect(done.text).toContain("DKK 690.00 hourly");
    expect(h.sandbox.countRequests("AcceptBid")).toBe(1);

    // The hire is an ordinary hire for the read tools, at the bid's rate and currency.
    expect(await hiresOfElsa(h)).toEqual([
      expect.objectContaining({ id: hireId, status: "OFFERED" }),
    ]);
    const hire = await h.client.callTool({ name: "get_hire", arguments: { hireId } });
    expect(textOf(hire)).toContain("DKK 690.00");
    const after = await job002(h);
    expect(after.bid("bid_003")).toBe("ACCEPTED");
    expect(after.candidate("jc_005")).toMatchObject({ step: "HIRING", hireId });

    const reuse = await call(h, { ...BID, confirmationToken: first.out.confirmationToken });
    expect(reuse.r.isError).toBe(true);
    const again = await call(h, BID);
    expect(again.r.isError).toBe(true);
    expect(again.text).toContain("ACCEPTED; only open bids can be accepted");
    expect(h.sandbox.countRequests("AcceptBid")).toBe(1);
  });

  it("binds the token to the bid", async () => {
    const h = await harness();
    const { out } = await call(h, BID);
    const other = await call(h, { bidId: "bid_004", confirmationToken: out.confirmationToken });
    expect(other.r.isError).toBe(true);
    expect(other.text).toContain("different now: bidId");
    expect(h.sandbox.countRequests("AcceptBid")).toBe(0);
  });

  it("sends acceptBid once when the connection drops after it, and reads the bid back", async () => {
    const h = await harness();
    const { out } = await call(h, BID);
    h.sandbox.faults.inject("drop-connection", { operationName: "AcceptBid", after: true });
    const r = await call(h, { ...BID, confirmationToken: out.confirmationToken });
    expect(h.sandbox.countRequests("AcceptBid")).toBe(1);
    expect(h.sandbox.countRequests("AcceptBidOutcome")).toBe(1);
    expect(r.r.isError).toBeFalsy();
    expect(r.out).toMatchObject({ status: "accepted", bid: { status: "ACCEPTED" } });
    expect(r.text).toContain("reading the bid back confirmed it");
    const hires = await hiresOfElsa(h);
    expect(hires).toHaveLength(1);
    expect(r.out.hire?.id).toBe(hires[0]?.id);
  });

  it("says the outcome is unknown, never NOT accepted, when no read shows the bid accepted", async () => {
    const h = await harness();
    const { out } = await call(h, BID);
    h.sandbox.faults.inject("drop-connection", { operationName: "AcceptBid" });
    const r = await call(h, { ...BID, confirmationToken: out.confirmationToken });
    expect(r.r.isError).toBe(true);
    expect(r.out).toMatchObject({ status: "outcome-unknown", bid: { status: "OPEN" } });
    expect(r.text).toContain('Accepting bid bid_003 from "Elsa Bergström": The outcome is UNKNOWN');
    expect(r.text).toContain(JOB002_CHECK);
    expect(r.text).not.toMatch(/NOT accepted|Nothing changed|fresh preview/);
    // The bid still reads OPEN, but another attempt is refused while the outcome is unknown.
    const again = await call(h, BID);
    expect(again.r.isError).toBe(true);
    expect(again.text).toContain("outcome is not known yet");
    expect(h.sandbox.countRequests("AcceptBid")).toBe(1);
    expect(await hiresOfElsa(h)).toEqual([]);
  });

  it("says the outcome is unknown when the bid cannot be read back either", async () => {
    const h = await harness();
    const { out } = await call(h, BID);
    h.sandbox.faults.inject("drop-connection", { operationName: "AcceptBid", after: true });
    h.sandbox.faults.inject("internal-error", { operationName: "AcceptBidOutcome", count: 100 });
    const r = await call(h, { ...BID, confirmationToken: out.confirmationToken });
    expect(r.r.isError).toBe(true);
    expect(r.out.status).toBe("outcome-unknown");
    expect(r.text).toContain("Do not send it again");
    expect(h.sandbox.countRequests("AcceptBid")).toBe(1);
  });

  it("says the outcome is unknown when the platform accepts the bid after the answer was lost", async () => {
    const { again, h } = await appliedAfterLostAnswer(harness, {
      tool: "manage_candidate",
      args: BID,
      mutation: "AcceptBid",
      check: JOB002_CHECK,
      confirmed: true,
    });
    expect(again.text).toContain("ACCEPTED; only open bids can be accepted");
    expect(await hiresOfElsa(h)).toHaveLength(1);
  });

  it("sends nothing when the bid's rate changed after the preview, and shows a fresh one", async () => {
    const { second, third, h } = await changedBeforeTokenConfirmation(harness, BID_RAISED);
    expect(second.text).toContain(
      'Nothing was sent: since the preview, this changed on the platform: rate (now "DKK 6,900.00 hourly").',
    );
    expect(second.text).toContain("Rate: DKK 6,900.00 hourly.");
    // Accepted only with the fresh preview's token, at the rate it showed.
    expect(third.text).toContain("DKK 6,900.00 hourly");
    expect(await hiresOfElsa(h)).toHaveLength(1);
  });
});

describe("manage_candidate with elicitation", () => {
  it("shows the form again when the bid's rate changed while it was open", async () => {
    const { asked, h } = await changedWhileFormOpen(harness, BID_RAISED);
    expect(asked[0]?.message).toContain("Rate: DKK 690.00 hourly.");
    expect(asked[1]?.message).toContain(
      'rate (was "DKK 690.00 hourly", now "DKK 6,900.00 hourly")',
    );
    // Accepted once, at the rate the second form showed.
    const [hire] = await hiresOfElsa(h);
    const detail = await h.client.callTool({ name: "get_hire", arguments: { hireId: hire?.id } });
    expect(textOf(detail)).toContain("DKK 6,900.00");
  });

  it("shows the rejection form again when the open bid's rate changed while it was open", async () => {
    await changedWhileFormOpen(harness, REJECTION_BID_RAISED);
  });

  it("accepts the bid when the person ticks the box", async () => {
    const f = formAnswering({ action: "accept", content: { confirm: true } });
    const h = await harness(f.options);
    const r = await call(h, BID);
    expect(f.asked).toHaveLength(1);
    expect(f.asked[0]?.message).toContain("DKK 690.00 hourly");
    expect(f.asked[0]?.message.trim().split("\n").at(-1)).toBe(ACCEPT);
    expect(r.out.status).toBe("accepted");
    // Step moves ask nothing.
    await call(h, { candidateId: "jc_003", step: "INTERVIEW_SELECTED" });
    expect(f.asked).toHaveLength(1);
  });

  it("changes nothing when the person leaves the box unticked", async () => {
    const f = formAnswering({ action: "accept", content: { confirm: false } });
    const h = await harness(f.options);
    const bid = await call(h, BID);
    expect(bid.r.isError).toBeFalsy();
    expect(bid.out.status).toBe("declined");
    expect(bid.text).toContain("still OPEN");
    const reject = await call(h, REJECT_ELSA);
    expect(reject.out.status).toBe("declined");
    expect(h.sandbox.countRequests("AcceptBid") + statusWrites(h)).toBe(0);
    expect((await job002(h)).bid("bid_003")).toBe("OPEN");
  });
});

describe("manage_candidate keeps platform text in quotes", () => {
  const PREVIEW = "THIS IS A PREVIEW ONLY: ticking the box hires nobody.";
  const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;
  const plant = (data: SandboxData) => {
    const elsa = [...data.workers.values()].find((w) => w.firstName === "Elsa");
    const job = data.jobs?.jobs.get("job_002");
    if (!elsa || !job) throw new Error("seed changed");
    elsa.lastName = `Bergström\n${PREVIEW}`;
    job.name = `React\r\n${PREVIEW}`;
  };
  const contained = (message: string, consequence: string) => {
    const lines = message.trim().split(LINE_BREAK);
    for (const line of lines) expect(line).not.toMatch(/^\s*THIS IS A PREVIEW ONLY/);
    expect(lines.at(-1)).toBe(consequence);
    expect(message).toContain(`"Elsa Bergström ${PREVIEW}"`);
  };

  it("in the previews and in the forms", async () => {
    const h = await harness({ seedPatch: plant });
    contained((await call(h, BID)).text, ACCEPT);
    contained((await call(h, REJECT_ELSA)).text, REJECT);
    await h.close();

    const { asked, options } = formAnswering({ action: "decline" });
    const withForm = await harness({ seedPatch: plant, ...options });
    await call(withForm, BID);
    await call(withForm, REJECT_ELSA);
    expect(asked).toHaveLength(2);
    contained(asked[0]?.message ?? "", ACCEPT);
    contained(asked[1]?.message ?? "", REJECT);
  });
});

describe("manage_candidate by name: the person (and job) instead of ids", () => {
  const ELSA = { person: "Elsa Bergström", job: "React Frontend Developer" };

  it("accepts a named person's bid on a named job: a preview, then the token; one hire", async () => {
    const h = await harness();
    const first = await call(h, ELSA);
    expect(first.r.isError).toBeFalsy();
    expect(first.out).toMatchObject({
      status: "preview",
      action: "accept-bid",
      bid: { id: "bid_003" },
    });
    expect(first.text).toContain(
      'Accept bid bid_003 from "Elsa Bergström" (wrk_056) on job job_002 "React Frontend Developer" at "Nordlys Energi A/S".',
    );
    expect(first.text.trim().split("\n").at(-1)).toBe(ACCEPT);
    expect(h.sandbox.countRequests("AcceptBid")).toBe(0);

    const done = await call(h, { ...ELSA, confirmationToken: first.out.confirmationToken });
    expect(done.r.isError).toBeFalsy();
    expect(done.out).toMatchObject({
      status: "accepted",
      bid: { id: "bid_003", status: "ACCEPTED" },
    });
    expect(h.sandbox.countRequests("AcceptBid")).toBe(1);
    expect(await hiresOfElsa(h)).toEqual([expect.objectContaining({ id: done.out.hire?.id })]);

    // Once only: the token is spent, and her bid is no longer open.
    const reuse = await call(h, { ...ELSA, confirmationToken: first.out.confirmationToken });
    expect(reuse.r.isError).toBe(true);
    const again = await call(h, ELSA);
    expect(again.r.isError).toBe(true);
    expect(again.text).toContain("bid bid_003 is ACCEPTED; only open bids can be accepted");
    expect(h.sandbox.countRequests("AcceptBid")).toBe(1);
    expect(await hiresOfElsa(h)).toHaveLength(1);
  });

  it("takes the job by id, and leaves it out when the person has one open bid", async () => {
    const h = await harness();
    const byId = await call(h, { person: "Elsa", job: "job_002" });
    expect(byId.out).toMatchObject({ status: "preview", bid: { id: "bid_003" } });
    // Oliver's other bid (on the completed job_001) was rejected: one open bid, on job_003.
    const oliver = await call(h, { person: "oliver dahl" });
    expect(oliver.out).toMatchObject({ status: "preview", bid: { id: "bid_006" } });
    expect(oliver.text).toContain('on job job_003 "Backend Developer (Python)"');
    expect(h.sandbox.countRequests("AcceptBid")).toBe(0);
  });

  it("lists the open bids with their ids when the person has several, and asks for the job", async () => {
    const h = await harness({
      seedPatch: (data) => {
        const jobs = data.jobs;
        const jc = jobs?.candidates.get("jc_003");
        if (!jobs || !jc) throw new Error("seed changed");
        jobs.bids.set("bid_900", {
          id: "bid_900",
          jobId: "job_002",
          workerId: jc.workerId,
          supplierId: null,
          status: "OPEN",
          rate: 700,
          rateType: "HOURLY",
          currency: "DKK",
          brief: null,
          createdAt: "2026-11-20T11:00:00.000000Z",
        });
        jc.bidId = "bid_900";
      },
    });
    const r = await call(h, { person: "Mikkel Andersen" });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain('"Mikkel Andersen" (wrk_053) has 2 open bids');
    expect(r.text).toContain("bid bid_900 OPEN, DKK 700.00 hourly");
    expect(r.text).toContain("bid bid_010 OPEN, EUR 90.00 hourly");
    expect(r.text).toContain("Give job (its id or name) or bidId");
    const chosen = await call(h, { person: "Mikkel Andersen", job: "checkout" });
    expect(chosen.out).toMatchObject({ status: "preview", bid: { id: "bid_010" } });
  });

  it("lists the people a name fits, with ids, and changes nothing", async () => {
    const h = await harness();
    const r = await call(h, { person: "Mar" });
    expect(r.r.isError).toBe(true);
    expect(r.text).toContain('"Mar" fits 2 people: "Marcus Bell" (wrk_');
    expect(r.text).toContain('"Marta Wiśniewska" (wrk_');
    expect(r.text).toContain("Give the worker id or whole name");
    expect(h.sandbox.countRequests("AcceptBid")).toBe(0);
  });

  it("says an unknown person or job is unknown, and how to find the right one", async () => {
    const h = await harness();
    const nobody = await call(h, { person: "Nobody Atall" });
    expect(nobody.r.isError).toBe(true);
    expect(nobody.text).toContain(
      'argument `person`: no candidate or bidder on jobs you can see has the name or worker id "Nobody Atall"',
    );
    const noJob = await call(h, { person: "Elsa", job: "Underwater Welder" });
    expect(noJob.r.isError).toBe(true);
    expect(noJob.text).toContain(
      'argument `job`: no job you can see has the name or id "Underwater Welder"',
    );
    expect(noJob.text).toContain("list_jobs with search");
    const notThere = await call(h, { person: "Elsa", job: "Cloud Architect" });
    expect(notThere.r.isError).toBe(true);
    expect(notThere.text).toContain(
      'no candidate or bidder on job job_008 "Cloud Architect" (ACTIVE)',
    );
    const noBid = await call(h, { person: "Camilla Vestergaard" });
    expect(noBid.r.isError).toBe(true);
    expect(noBid.text).toContain("has no open bid on an active job");
    expect(noBid.text).toContain("candidate jc_004, step INVITED_TO_APPLY");
  });

  it("moves a named candidate, asking for the job when they are on several", async () => {
    const h = await harness();
    const several = await call(h, { person: "Mikkel Andersen", step: "INTERVIEW_SELECTED" });
    expect(several.r.isError).toBe(true);
    expect(several.text).toContain("is a candidate on 2 jobs");
    expect(several.text).toContain("candidate jc_003");
    expect(several.text).toContain("candidate jc_014");
    const moved = await call(h, {
      person: "Mikkel Andersen",
      job: "React Frontend Developer",
      step: "INTERVIEW_SELECTED",
    });
    expect(moved.out).toMatchObject({
      status: "updated",
      candidate: { id: "jc_003", step: "INTERVIEW_SELECTED" },
    });
    expect(h.sandbox.countRequests("UpdateJobCandidateStep")).toBe(1);
  });

  it("rejects a named candidate only after a confirmed preview", async () => {
    const h = await harness();
    const args = { person: "Elsa", status: "NON_ELIGIBLE", reason: "BUDGET" };
    const first = await call(h, args);
    expect(first.out).toMatchObject({ status: "preview", candidate: { id: "jc_005" } });
    expect(statusWrites(h)).toBe(0);
    const done = await call(h, { ...args, confirmationToken: first.out.confirmationToken });
    expect(done.out).toMatchObject({ status: "updated", candidate: { status: "NON_ELIGIBLE" } });
    expect(statusWrites(h)).toBe(1);
  });

  it("binds the token to the names given, and refuses ids beside a name", async () => {
    const h = await harness();
    const { out } = await call(h, ELSA);
    const other = await call(h, {
      person: "Oliver Dahl",
      confirmationToken: out.confirmationToken,
    });
    expect(other.r.isError).toBe(true);
    expect(other.text).toContain("different now");
    const mixed = await call(h, { person: "Elsa", bidId: "bid_003" });
    expect(mixed.r.isError).toBe(true);
    expect(mixed.text).toContain("bidId do not go with it");
    const lone = await call(h, { job: "job_002" });
    expect(lone.r.isError).toBe(true);
    expect(lone.text).toContain("job goes with person");
    expect(h.sandbox.countRequests("AcceptBid")).toBe(0);
  });

  it("sends nothing when the bid's rate changed after a preview by name", async () => {
    const { second, third, h } = await changedBeforeTokenConfirmation(harness, {
      ...BID_RAISED,
      args: ELSA,
    });
    expect(second.text).toContain("Rate: DKK 6,900.00 hourly.");
    expect(third.text).toContain("DKK 6,900.00 hourly");
    expect(await hiresOfElsa(h)).toHaveLength(1);
  });

  it("says the outcome is unknown after a lost answer, by name as by id", async () => {
    const { again, h } = await appliedAfterLostAnswer(harness, {
      tool: "manage_candidate",
      args: ELSA,
      mutation: "AcceptBid",
      check: JOB002_CHECK,
      confirmed: true,
    });
    expect(again.text).toContain("ACCEPTED; only open bids can be accepted");
    expect(await hiresOfElsa(h)).toHaveLength(1);
  });
});

describe("manage_candidate by name when the name fits another bid at confirmation", () => {
  it("sends nothing when the person's open bid on the job is another one by then", async () => {
    const h = await harness();
    const args = { person: "Elsa Bergström", job: "React Frontend Developer" };
    const first = await call(h, args);
    expect(first.out).toMatchObject({ status: "preview", bid: { id: "bid_003" } });
    // Her bid is cancelled and she bids again at the same terms: the name now finds bid_901.
    h.sandbox.edit((data) => {
      const jobs = data.jobs;
      const old = jobs?.bids.get("bid_003");
      const jc = jobs?.candidates.get("jc_005");
      if (!jobs || !old || !jc) throw new Error("seed changed");
      old.status = "CANCELLED";
      jobs.bids.set("bid_901", { ...old, id: "bid_901", status: "OPEN" });
      jc.bidId = "bid_901";
    });
    const second = await call(h, { ...args, confirmationToken: first.out.confirmationToken });
    expect(second.out.status, second.text).toBe("changed");
    expect(second.text).toContain("bid (");
    expect(h.sandbox.countRequests("AcceptBid")).toBe(0);
  });
});
