#!/usr/bin/env node
// Runs the official MCP conformance suite (server mode) against our Streamable HTTP transport.
// Fails on any unexpected failure, and on any expected-failure entry that now passes or that the
// suite no longer has. Needs `npm run build` first.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CONFORMANCE, npxWithNode22 } from "./lib/external.mjs";
import { startHttpServer } from "./lib/serve-http.mjs";

const EXPECTED = fileURLToPath(new URL("../conformance/expected-failures.json", import.meta.url));
const expected = JSON.parse(readFileSync(EXPECTED, "utf8")).server;
const work = mkdtempSync(join(tmpdir(), "workforce-conformance-"));

function scenarioNames(listOutput) {
  const names = [];
  let inServer = false;
  for (const line of listOutput.split("\n")) {
    if (line.startsWith("Server scenarios")) inServer = true;
    else if (line.startsWith("Client scenarios")) inServer = false;
    const match = inServer && /^\s+- (\S+)/.exec(line);
    if (match) names.push(match[1]);
  }
  return names;
}

/** "✓ tools-list: 1 passed, 0 failed" lines of the suite's summary. */
function summary(output) {
  const rows = [];
  const tail = output.slice(output.lastIndexOf("=== SUMMARY ==="));
  for (const line of tail.split("\n")) {
    const match = /^([✓✗]) (\S+): (\d+) passed, (\d+) failed/.exec(line);
    if (match) rows.push({ scenario: match[2], ok: match[1] === "✓" });
  }
  return rows;
}

let server;
let exitCode = 1;
try {
  const listed = await npxWithNode22(CONFORMANCE, "conformance", ["list", "--server"], {
    cwd: work,
    echo: false,
  });
  if (listed.code !== 0) throw new Error(`conformance list failed:\n${listed.stderr}`);
  const known = new Set(scenarioNames(listed.stdout));

  // The suite reads a YAML list; ours is JSON so each entry carries its reason. JSON is YAML.
  const baseline = join(work, "expected-failures.yaml");
  writeFileSync(baseline, JSON.stringify({ server: Object.keys(expected) }));

  server = await startHttpServer();
  console.log(`Server under test: ${server.url} (embedded sandbox)\n`);
  const run = await npxWithNode22(
    CONFORMANCE,
    "conformance",
    ["server", "--url", server.url, "--expected-failures", baseline, "-o", join(work, "results")],
    { cwd: work },
  );

  const results = summary(run.stdout);
  // Entries for scenarios the suite no longer has, or no longer runs by default, are stale too.
  const ran = new Set(results.map((result) => result.scenario));
  const gone = Object.keys(expected).filter((name) => !known.has(name) || !ran.has(name));

  console.log("\n=== Scenarios ===");
  for (const { scenario, ok } of results) {
    const verdict = ok
      ? expected[scenario]
        ? "PASS (but listed as expected failure: stale)"
        : "PASS"
      : expected[scenario]
        ? `expected failure: ${expected[scenario]}`
        : "FAIL (unexpected)";
    console.log(`  ${scenario.padEnd(34)} ${verdict}`);
  }
  if (gone.length > 0) {
    console.error(
      `\nStale expected-failure entries (the suite has no such scenario, or does not run it): ${gone.join(", ")}`,
    );
  }
  exitCode = run.code === 0 && gone.length === 0 ? 0 : 1;
  console.log(exitCode === 0 ? "\nConformance: OK" : "\nConformance: FAILED");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  if (server) console.error(server.stderr());
} finally {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
