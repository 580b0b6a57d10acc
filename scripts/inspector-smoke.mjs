#!/usr/bin/env node
// Smoke test with the MCP Inspector CLI against the built binary (embedded sandbox), over stdio and
// over --http, each in both protocol eras the server speaks: "legacy" (2025-11-25: initialize, and a
// session over HTTP) and "modern" (2026-07-28: server/discover, per-request _meta). Each lists the
// tools (with the Inspector's schema-portability check), searches for a hire, and reads the schema
// index. Needs `npm run build` first.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { INSPECTOR, npxWithNode22 } from "./lib/external.mjs";
import { startHttpServer } from "./lib/serve-http.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
/** Listed at first: a core, and the discovery tools that reach the rest. */
const EXPECTED_TOOLS = [
  "search_hires",
  "get_contract",
  "list_invoices",
  "terminate_hire",
  "find_tools",
  "run_read_tool",
  "run_write_tool",
];
/** The Inspector's --protocol-era values, with the protocol version each one speaks. */
const ERAS = [
  { era: "legacy", version: "2025-11-25" },
  { era: "modern", version: "2026-07-28" },
];
/** Every 2026-07-28 result carries the server's identity here; a 2025-11-25 one never does. */
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";
const work = mkdtempSync(join(tmpdir(), "workforce-inspector-"));
// Keep the Inspector's catalog and client config out of the home directory; no WORKFORCE_* env,
// so the server falls back to its embedded sandbox.
const env = {
  MCP_CATALOG_PATH: join(work, "mcp.json"),
  MCP_CLIENT_CONFIG_PATH: join(work, "client.json"),
  WORKFORCE_API_URL: "",
  WORKFORCE_TOKEN: "",
};

/** `target` is the server: ["--", node, cli.js] for stdio, ["--server-url", url] for HTTP. */
async function inspect(label, target, era, args) {
  console.log(`\n--- ${label}`);
  const run = await npxWithNode22(
    INSPECTOR,
    "mcp-inspector",
    ["--cli", "--format", "json", "--quiet", "--protocol-era", era, ...args, ...target],
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

/** The checks, through one transport in one protocol era. */
async function smoke(transport, target, { era, version }) {
  const run = (label, args) => inspect(`${transport}, ${version}: ${label}`, target, era, args);
  // --strict: exit 6 if any tool schema has an error-severity portability problem.
  const listed = await run("tools/list (--strict)", ["--method", "tools/list", "--strict"]);
  const names = (listed.tools ?? []).map((tool) => tool.name);
  console.log(`  tools: ${names.join(", ")}`);
  for (const name of EXPECTED_TOOLS) check(names.includes(name), `tools/list includes ${name}`);

  const search = await run("tools/call search_hires search=Ana", [
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
  check(
    (search._meta?.[SERVER_INFO] !== undefined) === (version === "2026-07-28"),
    `… spoken in ${version} (${version === "2026-07-28" ? "with" : "without"} _meta ${SERVER_INFO})`,
  );

  const found = await run("tools/call find_tools query=timesheets", [
    "--method",
    "tools/call",
    "--tool-name",
    "find_tools",
    "--tool-arg",
    "query=register timesheet hours",
  ]);
  const foundNames = (found.structuredContent?.tools ?? []).map((tool) => tool.name);
  check(found.isError !== true, "find_tools succeeds");
  check(foundNames.includes("submit_timesheets"), "find_tools finds submit_timesheets, not listed");

  const index = await run("resources/read workforce://schema", [
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
}

let server;
let failed = false;
try {
  for (const era of ERAS) await smoke("stdio", ["--", process.execPath, CLI], era);
  server = await startHttpServer();
  console.log(`\nServer for --http: ${server.url} (embedded sandbox)`);
  for (const era of ERAS) await smoke("http", ["--server-url", server.url], era);
  console.log("\nInspector smoke test (stdio and --http, 2025-11-25 and 2026-07-28): OK");
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
  if (server) console.error(server.stderr());
  console.error("\nInspector smoke test: FAILED");
} finally {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
