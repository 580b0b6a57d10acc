#!/usr/bin/env node
// Smoke test with the MCP Inspector CLI against the built binary over stdio (embedded sandbox):
// list the tools (with the Inspector's schema-portability check), search for a hire, read the
// schema index. Needs `npm run build` first.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { INSPECTOR, npxWithNode22 } from "./lib/external.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const EXPECTED_TOOLS = [
  "search_hires",
  "get_contract",
  "list_invoices",
  "submit_timesheets",
  "terminate_hire",
];
const work = mkdtempSync(join(tmpdir(), "workforce-inspector-"));
// Keep the Inspector's catalog and client config out of the home directory; no WORKFORCE_* env,
// so the server falls back to its embedded sandbox.
const env = {
  MCP_CATALOG_PATH: join(work, "mcp.json"),
  MCP_CLIENT_CONFIG_PATH: join(work, "client.json"),
  WORKFORCE_API_URL: "",
  WORKFORCE_TOKEN: "",
};

async function inspect(label, args) {
  console.log(`\n--- ${label}`);
  const run = await npxWithNode22(
    INSPECTOR,
    "mcp-inspector",
    ["--cli", "--format", "json", "--quiet", ...args, "--", process.execPath, CLI],
    { cwd: work, env, echo: false },
  );
  if (run.code !== 0) throw new Error(`${label}: exit ${run.code}\n${run.stderr}\n${run.stdout}`);
  // --format json wraps the MCP result as { result }.
  const parsed = JSON.parse(run.stdout);
  return parsed.result ?? parsed;
}

function check(condition, message) {
  if (!condition) throw new Error(`Assertion failed: ${message}`);
  console.log(`  ok  ${message}`);
}

let failed = false;
try {
  // --strict: exit 6 if any tool schema has an error-severity portability problem.
  const listed = await inspect("tools/list (--strict)", ["--method", "tools/list", "--strict"]);
  const names = (listed.tools ?? []).map((tool) => tool.name);
  console.log(`  tools: ${names.join(", ")}`);
  for (const name of EXPECTED_TOOLS) check(names.includes(name), `tools/list includes ${name}`);

  const search = await inspect("tools/call search_hires search=Ana", [
    "--method",
    "tools/call",
    "--tool-name",
    "search_hires",
    "--tool-arg",
    "search=Ana",
  ]);
  const text = (search.content ?? []).map((block) => block.text ?? "").join("\n");
  check(search.isError !== true, "search_hires succeeds");
  check(text.includes("Ana Costa"), "search_hires finds Ana Costa (text)");
  check(JSON.stringify(search.structuredContent ?? {}).includes("Ana Costa"), "… and structured");

  const index = await inspect("resources/read workforce://schema", [
    "--method",
    "resources/read",
    "--uri",
    "workforce://schema",
  ]);
  const body = (index.contents ?? []).map((item) => item.text ?? "").join("\n");
  check(
    index.contents?.[0]?.uri === "workforce://schema",
    "resources/read returns workforce://schema",
  );
  check(
    body.includes("## Queries") && body.includes("## Mutations"),
    "the schema index lists queries and mutations",
  );
  console.log("\nInspector smoke test: OK");
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
  console.error("\nInspector smoke test: FAILED");
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
