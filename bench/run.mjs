#!/usr/bin/env node
// npm run bench: measures the built server (dist/) against the sandbox on loopback, each figure
// beside its own baseline from the same run. Prints a table and writes bench/results.json.
// Rate limits are out of the way: the sandbox runs with its limit off (0) and the server's own
// governor is set to WORKFORCE_RATE_LIMIT=1000000 a minute.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { cpus, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { operations } from "../dist/client/operations.js";
import { startSandbox } from "../dist/sandbox/index.js";
import { freePort } from "../scripts/lib/serve-http.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const RESULTS = fileURLToPath(new URL("./results.json", import.meta.url));
const SEARCH = { search: "Ana" };
const COLD_RUNS = 10;
const OVERHEAD_CALLS = 300;
const MEMORY_CALLS = 2_000;
const SESSIONS = 25;
const CALLS_PER_SESSION = 40;

const median = (values) => percentile(values, 50);
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const now = () => process.hrtime.bigint();
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

function procStatus(pid) {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1]) * 1024;
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

const sandbox = await startSandbox({ rateLimitPerMinute: 0 });
const apiUrl = sandbox.url.replace(/\/+$/, "").replace(/\/graphql$/, "");
const graphqlUrl = `${apiUrl}/graphql`;
const serverEnv = {
  ...process.env,
  WORKFORCE_API_URL: apiUrl,
  WORKFORCE_TOKEN: sandbox.tokens.full,
  WORKFORCE_RATE_LIMIT: "1000000",
  WORKFORCE_SANDBOX_RATE_LIMIT: "0",
  WORKFORCE_LOG_LEVEL: "error",
};

async function connectStdio(env = serverEnv, nodeArgs = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, CLI],
    env,
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "0.0.0" });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

async function searchHires(client, args = SEARCH) {
  const result = await client.callTool({ name: "search_hires", arguments: args });
  if (result.isError) throw new Error(`search_hires failed: ${JSON.stringify(result.content)}`);
  return result;
}

// --- The exact GraphQL request search_hires sends: captured through a recording proxy.
async function captureSearchRequest() {
  let captured;
  const proxy = createHttpServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks).toString("utf8");
    const parsed = JSON.parse(body);
    if (/search_?hires|hires/i.test(parsed.operationName ?? parsed.query ?? "")) captured ??= body;
    const upstream = await fetch(graphqlUrl, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: req.headers.authorization },
      body,
    });
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(await upstream.text());
  });
  const port = await freePort();
  await new Promise((resolve) => proxy.listen(port, "127.0.0.1", resolve));
  const { client } = await connectStdio({
    ...serverEnv,
    WORKFORCE_API_URL: `http://127.0.0.1:${port}`,
  });
  try {
    await searchHires(client);
  } finally {
    await client.close();
    await new Promise((resolve) => proxy.close(resolve));
  }
  if (!captured) throw new Error("search_hires sent no hires query to the platform");
  const { query } = JSON.parse(captured);
  const known = Object.values(operations).some(
    (operation) => operation.document.trim() === query.trim(),
  );
  if (!known) throw new Error("The captured document is not one of dist/client/operations.js");
  return captured;
}

async function directRequest(body) {
  const response = await fetch(graphqlUrl, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${sandbox.tokens.full}` },
    body,
  });
  const json = await response.json();
  if (!response.ok || json.errors?.length)
    throw new Error(`direct request failed: ${response.status}`);
  return json;
}

// --- Cold start: spawn → first tools/list answer, raw JSON-RPC over the pipes.
function coldStart() {
  return new Promise((resolve, reject) => {
    const start = now();
    const child = spawn(process.execPath, [CLI], {
      env: serverEnv,
      stdio: ["pipe", "pipe", "ignore"],
    });
    let buffer = "";
    const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      let newline = buffer.indexOf("\n");
      while (newline >= 0) {
        const message = JSON.parse(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        if (message.id === 1) {
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
        } else if (message.id === 2) {
          const elapsed = ms(start);
          child.kill();
          child.once("exit", () => resolve(elapsed));
        }
        newline = buffer.indexOf("\n");
      }
    });
    child.once("error", reject);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "bench", version: "0" },
      },
    });
  });
}

function bareNode() {
  const start = now();
  spawnSync(process.execPath, ["-e", ""]);
  return ms(start);
}

const rows = [];
const row = (figure, value, target, pass, detail = "") =>
  rows.push({ figure, value, target, result: pass ? "PASS" : "MISS", detail });

try {
  // Cold start, interleaved with the bare-node baseline so both see the same machine load.
  const cold = [];
  const bare = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    bare.push(bareNode());
    cold.push(await coldStart());
  }
  const coldMedian = median(cold);
  const bareMedian = median(bare);
  row(
    "cold start",
    `${coldMedian.toFixed(0)} ms (bare node ${bareMedian.toFixed(0)} ms, ${(coldMedian / bareMedian).toFixed(1)}×)`,
    "≤ 350 ms and ≤ 4× bare node",
    coldMedian <= 350 && coldMedian <= 4 * bareMedian,
    `median of ${COLD_RUNS}`,
  );

  // Call overhead: the same request through MCP over stdio and straight to the sandbox.
  const body = await captureSearchRequest();
  const { client } = await connectStdio();
  for (let i = 0; i < 30; i++) {
    await searchHires(client);
    await directRequest(body);
  }
  const viaMcp = [];
  const direct = [];
  for (let i = 0; i < OVERHEAD_CALLS; i++) {
    let start = now();
    await searchHires(client);
    viaMcp.push(ms(start));
    start = now();
    await directRequest(body);
    direct.push(ms(start));
  }
  const added = median(viaMcp) - median(direct);
  row(
    "call overhead",
    `+${added.toFixed(2)} ms (MCP ${median(viaMcp).toFixed(2)} ms vs direct ${median(direct).toFixed(2)} ms)`,
    "≤ 1.5 ms added per call",
    added <= 1.5,
    `medians of ${OVERHEAD_CALLS} calls each`,
  );

  // Sizes.
  const listed = await client.listTools();
  const listBytes = Buffer.byteLength(JSON.stringify(listed));
  // What a model reads of each tool: name, description and input schema.
  const visibleBytes = listed.tools.reduce(
    (sum, tool) =>
      sum +
      Buffer.byteLength(tool.name) +
      Buffer.byteLength(tool.description ?? "") +
      Buffer.byteLength(JSON.stringify(tool.inputSchema)),
    0,
  );
  row(
    "tool list, model-visible",
    `${kb(visibleBytes)} (~${Math.round(visibleBytes / 4)} tokens, ${kb(visibleBytes / listed.tools.length)} a tool)`,
    "≤ 20 KB",
    visibleBytes <= 20 * 1024,
    `${listed.tools.length} tools: names, descriptions, input schemas`,
  );
  row(
    "tool list, whole answer",
    `${kb(listBytes)} (~${Math.round(listBytes / 4)} tokens)`,
    "≤ 32 KB",
    listBytes <= 32 * 1024,
    "tools/list as sent, with output schemas and annotations",
  );
  const searchTool = listed.tools.find((tool) => tool.name === "search_hires");
  const pageKey = ["limit", "first", "pageSize", "perPage"].find(
    (key) => searchTool?.inputSchema.properties?.[key],
  );
  const page = await searchHires(client, pageKey ? { [pageKey]: 25 } : {});
  const text = page.content.map((block) => block.text ?? "").join("\n");
  const answerBytes =
    Buffer.byteLength(text) + Buffer.byteLength(JSON.stringify(page.structuredContent ?? {}));
  const returned = JSON.stringify(page.structuredContent ?? {}).match(/"id":/g)?.length ?? 0;
  row(
    "answer size",
    `${kb(answerBytes)} (text ${kb(Buffer.byteLength(text))} + structured)`,
    "≤ 8 KB",
    answerBytes <= 8 * 1024,
    `search_hires ${pageKey ?? "(default page)"}=25, ${returned} ids in the answer`,
  );
  await client.close();

  // Memory: a fresh server, 2,000 calls; then again with V8's old space capped, which tells lazy
  // heap growth (bounded under the cap) apart from a leak (which would grow or crash under it).
  for (const nodeArgs of [[], ["--max-old-space-size=64"]]) {
    const fresh = await connectStdio(serverEnv, nodeArgs);
    let at1000 = 0;
    for (let i = 1; i <= MEMORY_CALLS; i++) {
      await searchHires(fresh.client);
      if (i === 1_000) at1000 = procStatus(fresh.pid).rss;
    }
    const end = procStatus(fresh.pid);
    await fresh.client.close();
    const growth = (end.rss - at1000) / at1000;
    row(
      nodeArgs.length ? "memory (old space ≤ 64 MB)" : "memory",
      `peak ${(end.peak / 2 ** 20).toFixed(0)} MB; RSS ${(at1000 / 2 ** 20).toFixed(0)} → ${(end.rss / 2 ** 20).toFixed(0)} MB (${(growth * 100).toFixed(1)}%)`,
      "peak ≤ 150 MB, growth 1,000→2,000 ≤ 10%",
      end.peak <= 150 * 2 ** 20 && growth <= 0.1,
      `after ${MEMORY_CALLS} calls${nodeArgs.length ? `, node ${nodeArgs.join(" ")}` : ""}`,
    );
  }

  // Concurrency over Streamable HTTP.
  const port = await freePort();
  const http = spawn(
    process.execPath,
    [CLI, "--http", "--host", "127.0.0.1", "--port", String(port)],
    {
      env: serverEnv,
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let httpStderr = "";
  http.stderr.on("data", (chunk) => {
    httpStderr += chunk;
  });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
      } catch {}
      if (i > 100) throw new Error(`HTTP server did not start:\n${httpStderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const latencies = [];
    let errors = 0;
    const started = now();
    await Promise.all(
      Array.from({ length: SESSIONS }, async () => {
        const session = new Client({ name: "bench", version: "0.0.0" });
        await session.connect(
          new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)),
        );
        for (let i = 0; i < CALLS_PER_SESSION; i++) {
          const start = now();
          try {
            await searchHires(session);
          } catch {
            errors++;
          }
          latencies.push(ms(start));
        }
        await session.close();
      }),
    );
    const wall = ms(started);
    row(
      "concurrency",
      `${errors} errors; p50 ${median(latencies).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
      "no errors, p99 printed",
      errors === 0,
      `${SESSIONS} sessions × ${CALLS_PER_SESSION} calls, ${((latencies.length / wall) * 1000).toFixed(0)} calls/s`,
    );
  } finally {
    http.kill();
  }
} finally {
  await sandbox.close();
}

const machine = {
  cpus: cpus().length,
  cpu: cpus()[0]?.model ?? "unknown",
  ramGb: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  date: new Date().toISOString(),
};
const width = (key) => Math.max(key.length, ...rows.map((r) => String(r[key]).length));
const columns = ["figure", "value", "target", "result", "detail"];
const line = (cells) =>
  `| ${cells.map((cell, i) => String(cell).padEnd(width(columns[i]))).join(" | ")} |`;
console.log(
  `\nMachine: ${machine.cpus} CPUs (${machine.cpu}), ${machine.ramGb} GB RAM, Node ${machine.node}`,
);
console.log("Rate limits off: sandbox limit 0, WORKFORCE_RATE_LIMIT=1000000.\n");
console.log(line(columns));
console.log(line(columns.map((c) => "-".repeat(width(c)))));
for (const r of rows) console.log(line(columns.map((c) => r[c])));
writeFileSync(RESULTS, `${JSON.stringify({ machine, rows }, null, 2)}\n`);
console.log(`\nJSON copy: bench/results.json`);
process.exit(rows.every((r) => r.result === "PASS") ? 0 : 1);
