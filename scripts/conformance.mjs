#!/usr/bin/env node
// Runs the official MCP conformance suite (server mode) against our Streamable HTTP transport, once
// for each protocol version the server speaks: `--requirements 2025-11-25` (initialize, sessions)
// and `--requirements 2026-07-28` (stateless, per-request _meta), each at its own wire version,
// both against the same server. Every scenario the suite runs is judged here, scored or not
// (extensions and the suite's pending scenarios too), against that version's list in
// conformance/expected-failures.json. Fails on any unexpected failure, and on any expected-failure
// entry that now passes or that the suite no longer runs. Needs `npm run build` first.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CONFORMANCE, npxWithNode22 } from "./lib/external.mjs";
import { startHttpServer } from "./lib/serve-http.mjs";

/** The protocol versions this server serves, each run as the suite's requirement set of that name. */
const REVISIONS = ["2025-11-25", "2026-07-28"];
/**
 * A check that an entry for a whole scenario never excuses: everything this server sends must be
 * valid against the version's JSON schema, whatever fixture the scenario misses.
 */
const ALWAYS_ENFORCED = "wire-schema-valid";

const EXPECTED = fileURLToPath(new URL("../conformance/expected-failures.json", import.meta.url));
const expectedByRevision = JSON.parse(readFileSync(EXPECTED, "utf8"));
const work = mkdtempSync(join(tmpdir(), "workforce-conformance-"));

/** Scenario name to its checks.json, from "=== Running scenario: x ===" and "Results saved to …". */
function scenarioResults(output) {
  const results = new Map();
  let current;
  for (const line of output.split("\n")) {
    const running = /^=== Running scenario: (\S+) ===$/.exec(line);
    if (running) current = running[1];
    const saved = /^Results saved to (.+)$/.exec(line);
    if (saved && current) {
      const file = join(saved[1].trim(), "checks.json");
      results.set(current, existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined);
    }
  }
  return results;
}

/** "✓ tools-list: 1 passed, 0 failed" lines of the suite's summary: every scenario that ran. */
function summary(output) {
  const rows = new Map();
  const tail = output.slice(output.lastIndexOf("=== SUMMARY ==="));
  for (const line of tail.split("\n")) {
    const match = /^([✓✗]) (\S+): (\d+) passed, (\d+) failed/.exec(line);
    if (match) rows.set(match[2], match[1] === "✓");
  }
  return rows;
}

/** Scenarios the requirement set runs without scoring, with the suite's reason ("extension", …). */
function notScored(output) {
  const rows = new Map();
  const start = output.indexOf("\nNot scored for ");
  if (start < 0) return rows;
  for (const line of output.slice(start).split("\n")) {
    const match = /^\s+[✓✗] (\S+) \(([^)]+)\)$/.exec(line);
    if (match) rows.set(match[1], match[2]);
  }
  return rows;
}

/**
 * Judges one revision's run. An entry "scenario" excuses that scenario's failing checks (except
 * wire-schema-valid); "scenario:check-id" excuses that check alone. An entry is stale when what it
 * excuses no longer fails, or when the suite did not run its scenario.
 */
function judge(output, expected) {
  const ran = summary(output);
  const checksOf = scenarioResults(output);
  const unscored = notScored(output);
  const scenarioEntries = new Set(Object.keys(expected).filter((key) => !key.includes(":")));
  const checkEntries = new Set(Object.keys(expected).filter((key) => key.includes(":")));
  const unexpected = [];
  const used = new Set();
  const rows = [];
  const warnings = [];

  for (const [scenario, ok] of ran) {
    // A scenario that could not run at all leaves no checks.json; the summary still says it failed.
    const checks = checksOf.get(scenario) ?? [
      {
        id: scenario,
        status: ok ? "SUCCESS" : "FAILURE",
        errorMessage: "the scenario did not run",
      },
    ];
    const failing = checks.filter((check) => check.status === "FAILURE");
    for (const check of checks.filter((c) => c.status === "WARNING")) {
      warnings.push(`${scenario}:${check.id}: ${check.errorMessage ?? check.description}`);
    }
    const surprises = [];
    for (const check of failing) {
      const key = `${scenario}:${check.id}`;
      if (checkEntries.has(key)) used.add(key);
      else if (scenarioEntries.has(scenario) && check.id !== ALWAYS_ENFORCED) used.add(scenario);
      else surprises.push(`${check.id}: ${check.errorMessage ?? check.description}`);
    }
    // A per-check entry whose check is absent or skipped is kept while its scenario still fails
    // elsewhere (a failed prerequisite stops the later checks); one whose check passes is stale.
    for (const key of checkEntries) {
      const [name, id] = key.split(":");
      if (name !== scenario || used.has(key)) continue;
      const check = checks.find((c) => c.id === id);
      if (check?.status !== "SUCCESS" && failing.length > 0) used.add(key);
    }
    unexpected.push(...surprises.map((text) => `${scenario}: ${text}`));
    const excused = failing.length - surprises.length;
    const label = unscored.has(scenario) ? ` [not scored: ${unscored.get(scenario)}]` : "";
    let verdict;
    if (surprises.length > 0) verdict = `FAIL (unexpected: ${surprises.length} check(s))`;
    else if (excused > 0) {
      const reasons = [...scenarioEntries, ...checkEntries]
        .filter((key) => key === scenario || key.startsWith(`${scenario}:`))
        .map((key) => expected[key]);
      verdict = `expected failure: ${[...new Set(reasons)].join("; ")}`;
    } else verdict = "PASS";
    rows.push({ scenario, verdict: `${verdict}${label}`, passed: failing.length === 0 });
  }
  const stale = Object.keys(expected).filter((key) => !used.has(key));
  return { rows, unexpected, stale, warnings, ran: ran.size };
}

let server;
let exitCode = 1;
try {
  const listed = Object.keys(expectedByRevision).sort();
  if (listed.join() !== [...REVISIONS].sort().join()) {
    throw new Error(
      `${EXPECTED} must hold one list per protocol version (${REVISIONS.join(", ")}); it has ${listed.join(", ")}`,
    );
  }
  server = await startHttpServer();
  console.log(`Server under test: ${server.url} (embedded sandbox), suite ${CONFORMANCE}\n`);
  const outcomes = [];
  for (const revision of REVISIONS) {
    console.log(`\n##### Protocol ${revision}: conformance server --requirements ${revision}\n`);
    const run = await npxWithNode22(
      CONFORMANCE,
      "conformance",
      ["server", "--url", server.url, "--requirements", revision, "-o", join(work, revision)],
      { cwd: work },
    );
    // The suite exits 1 whenever a scored scenario fails, baselined or not; the verdict is ours.
    if (!run.stdout.includes("=== SUMMARY ===")) {
      throw new Error(
        `The suite did not finish for ${revision} (exit ${run.code}):\n${run.stderr}`,
      );
    }
    outcomes.push({ revision, ...judge(run.stdout, expectedByRevision[revision]) });
  }

  let ok = true;
  for (const { revision, rows, unexpected, stale, warnings, ran } of outcomes) {
    const passed = rows.filter((row) => row.passed).length;
    console.log(`\n=== Scenarios, protocol ${revision} (${ran} run, ${passed} passed) ===`);
    for (const { scenario, verdict } of rows) console.log(`  ${scenario.padEnd(46)} ${verdict}`);
    if (warnings.length > 0) {
      console.log(`\n  Warnings (SHOULDs; they do not fail the run):`);
      for (const warning of warnings) console.log(`    ${warning}`);
    }
    if (unexpected.length > 0) {
      ok = false;
      console.error(`\nUnexpected failures (${revision}):\n  ${unexpected.join("\n  ")}`);
    }
    if (stale.length > 0) {
      ok = false;
      console.error(
        `\nStale expected-failure entries (${revision}): they pass now, or the suite does not run them: ${stale.join(", ")}`,
      );
    }
  }
  exitCode = ok ? 0 : 1;
  console.log(exitCode === 0 ? "\nConformance: OK" : "\nConformance: FAILED");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  if (server) console.error(server.stderr());
} finally {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
