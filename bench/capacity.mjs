// Hosting capacity, measured by bench/run.mjs: replicas of the built server (`dist/cli.js --http`)
// under many concurrent HTTP clients of MCP 2026-07-28 and 2025-11-25, each looping search_hires
// for a fixed time. Three processes, none sharing another's: the platform (the sandbox, in a
// child whose HTTP server times every request it answers), the replica(s), and the load
// generator (a child with plain node:http keep-alive agents, not SDK Client objects, so that 500
// clients cost little). Server overhead is the client's latency minus the platform's own time.
// The same file is the two children: `node bench/capacity.mjs platform|load`, driven over IPC.
import { fork, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { Agent, request, Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { procStatus } from "./ceilings.mjs";

/** The sealing key every replica of the three-replica case shares (a bench value, not a secret). */
const SHARED_KEY = Buffer.alloc(32, 11).toString("base64");

const SELF = fileURLToPath(import.meta.url);
const NGINX_CONF = fileURLToPath(new URL("../deploy/nginx.conf", import.meta.url));
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const SEARCH = { activeStatus: ["ACTIVE"], first: 25 };

const percentile = (values, p) => {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))];
};

// --- Child: the platform. The sandbox (rate limit off), with every request it answers timed
// from its headers' arrival to the last byte of its answer.
async function platformChild() {
  const times = [];
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (event, ...args) {
    if (event === "request") {
      const res = args[1];
      const start = process.hrtime.bigint();
      res.once("finish", () =>
        times.push([Date.now(), Number(process.hrtime.bigint() - start) / 1e6]),
      );
    }
    return emit.call(this, event, ...args);
  };
  const { startSandbox } = await import("../dist/sandbox/index.js");
  const sandbox = await startSandbox({ rateLimitPerMinute: 0 });
  process.on("message", (message) => {
    if (message === "reset") times.length = 0;
    else if (message === "report") process.send({ times });
    else if (message === "close") sandbox.close().then(() => process.exit(0));
  });
  process.send({
    url: sandbox.url.replace(/\/+$/, "").replace(/\/graphql$/, ""),
    token: sandbox.tokens.full,
  });
}

// --- Child: the load generator.
function post(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The JSON-RPC answer of a POST, whether sent as JSON or as an event stream. */
function answerOf(response) {
  if (!/event-stream/.test(response.headers["content-type"] ?? ""))
    return JSON.parse(response.text);
  let answer;
  for (const line of response.text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const message = JSON.parse(line.slice(5));
    if ("result" in message || "error" in message) answer = message;
  }
  return answer;
}

const envelope = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "bench-load", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

async function runClient(agent, url, version, deadline, measureFrom, out) {
  const base = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  let headers = { ...base, "mcp-protocol-version": version === "modern" ? MODERN : LEGACY };
  if (version === "modern") {
    headers = { ...headers, "mcp-method": "tools/call", "mcp-name": "search_hires" };
  }
  if (version === "sessions") {
    const init = await post(
      agent,
      url,
      base,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: LEGACY,
          capabilities: {},
          clientInfo: { name: "bench-load", version: "0" },
        },
      }),
    );
    const session = init.headers["mcp-session-id"];
    if (init.status !== 200 || !session) {
      out.errors++;
      out.samples.push(`initialize ${init.status}: ${init.text.slice(0, 200)}`);
      return;
    }
    headers["mcp-session-id"] = session;
    await post(
      agent,
      url,
      headers,
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    );
  }
  let id = 1;
  while (Date.now() < deadline) {
    const params = { name: "search_hires", arguments: SEARCH };
    if (version === "modern") params._meta = envelope;
    const body = JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params });
    const start = process.hrtime.bigint();
    let failure;
    try {
      const response = await post(agent, url, headers, body);
      const answer = response.status === 200 ? answerOf(response) : undefined;
      if (!answer?.result || answer.result.isError) {
        failure = `${response.status}: ${response.text.slice(0, 200)}`;
      }
    } catch (error) {
      failure = String(error);
    }
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    // Steady state: the calls that end inside the measured window.
    const ended = Date.now();
    if (ended < measureFrom || ended > deadline) continue;
    if (failure) {
      out.errors++;
      if (out.samples.length < 3) out.samples.push(failure);
    } else out.latencies.push(elapsed);
  }
}

function loadChild() {
  process.once("message", async ({ url, version, clients, warmupMs, durationMs }) => {
    const agent = new Agent({ keepAlive: true, maxSockets: clients, maxFreeSockets: clients });
    const out = { latencies: [], errors: 0, samples: [] };
    const measureFrom = Date.now() + warmupMs;
    const deadline = measureFrom + durationMs;
    await Promise.all(
      Array.from({ length: clients }, () =>
        runClient(agent, url, version, deadline, measureFrom, out).catch((error) => {
          out.errors++;
          if (out.samples.length < 3) out.samples.push(String(error));
        }),
      ),
    );
    agent.destroy();
    process.send({ ...out, measureFrom, deadline });
  });
}

// --- Parent side, used by run.mjs.
function child(mode) {
  const proc = fork(SELF, [mode], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const next = () =>
    new Promise((resolve, reject) => {
      const exited = (code) => reject(new Error(`bench ${mode} child exited ${code}`));
      proc.once("exit", exited);
      proc.once("message", (message) => {
        proc.off("exit", exited);
        resolve(message);
      });
    });
  return { proc, next };
}

async function freePort() {
  const server = createNetServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Peak RSS of a replica while `during` runs, sampled every 100 ms (VmHWM is read too). */
async function withPeakRss(pids, during) {
  const peaks = new Map(pids.map((pid) => [pid, 0]));
  const sample = () => {
    for (const pid of pids) {
      try {
        const { rss, peak } = procStatus(pid);
        peaks.set(pid, Math.max(peaks.get(pid), rss, peak));
      } catch {}
    }
  };
  const timer = setInterval(sample, 100);
  try {
    const result = await during();
    sample();
    return { result, peaks: [...peaks.values()] };
  } finally {
    clearInterval(timer);
  }
}

/** CPU time a process has used, in seconds (Linux /proc: user + system, 100 ticks a second). */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

async function loadCase(platform, url, version, clients, timing, pids, helpers = []) {
  platform.proc.send("reset");
  const load = child("load");
  const groups = {
    replicas: pids,
    platform: [platform.proc.pid],
    load: [load.proc.pid],
    proxy: helpers,
  };
  const cpuOf = () =>
    Object.fromEntries(
      Object.entries(groups).map(([k, list]) => [
        k,
        list.reduce((t, pid) => t + cpuSeconds(pid), 0),
      ]),
    );
  const cpuBefore = cpuOf();
  const wallStart = Date.now();
  load.proc.send({ url, version, clients, ...timing });
  const { result, peaks } = await withPeakRss(pids, () => load.next());
  const cpuAfter = cpuOf();
  const wall = (Date.now() - wallStart) / 1000;
  const cores = Object.fromEntries(
    Object.keys(groups).map((k) => [k, Number(((cpuAfter[k] - cpuBefore[k]) / wall).toFixed(2))]),
  );
  platform.proc.send("report");
  const { times } = await platform.next();
  // The platform's times of the requests that ended in the measured window.
  const calls = result.latencies.length;
  const measured = times
    .filter(([at]) => at >= result.measureFrom && at <= result.deadline)
    .map(([, took]) => took);
  const p = (values, q) => percentile(values, q);
  return {
    version,
    clients,
    calls,
    callsPerSecond: calls / (timing.durationMs / 1000),
    errors: result.errors,
    errorSamples: result.samples,
    latency: { p50: p(result.latencies, 50), p99: p(result.latencies, 99) },
    platform: { p50: p(measured, 50), p99: p(measured, 99) },
    overhead: {
      p50: p(result.latencies, 50) - p(measured, 50),
      p99: p(result.latencies, 99) - p(measured, 99),
    },
    peakRss: Math.max(...peaks),
    cores,
  };
}

const VERSION_LABEL = {
  modern: `${MODERN}`,
  sessions: `${LEGACY}, sessions`,
  stateless: `${LEGACY}, per request`,
};

/**
 * One replica, then three behind deploy/nginx.conf sharing one Redis: every case a fresh set of
 * processes (so no case inherits another's heap or rate window), the same clients and duration.
 */
export async function capacity({ cli, baseEnv, clientCounts, durationMs, warmupMs, log }) {
  const platform = child("platform");
  const { url: apiUrl, token } = await platform.next();
  const env = {
    ...baseEnv,
    WORKFORCE_API_URL: apiUrl,
    WORKFORCE_TOKEN: token,
    WORKFORCE_RATE_LIMIT: "10000",
    WORKFORCE_MAX_SESSIONS: String(4 * Math.max(...clientCounts)),
  };
  const timing = { durationMs, warmupMs };
  const single = [];
  const replicated = [];
  let skipped;
  try {
    for (const version of ["modern", "sessions", "stateless"]) {
      for (const clients of clientCounts) {
        const replica = await startReplica(cli, env, {
          args: version === "stateless" ? ["--stateless"] : [],
        });
        try {
          log?.(`capacity: 1 replica, ${VERSION_LABEL[version]}, ${clients} clients`);
          single.push(
            await loadCase(platform, `${replica.url}/mcp`, version, clients, timing, [
              replica.child.pid,
            ]),
          );
        } finally {
          await replica.stop();
        }
      }
    }
    const why = missing();
    if (why) skipped = why;
    else {
      for (const version of ["modern", "stateless"]) {
        for (const clients of clientCounts) {
          log?.(`capacity: 3 replicas behind nginx, ${VERSION_LABEL[version]}, ${clients} clients`);
          replicated.push(
            await withReplicas(cli, env, (url, pids, helpers) =>
              loadCase(platform, url, version, clients, timing, pids, helpers),
            ),
          );
        }
      }
    }
  } finally {
    platform.proc.send("close");
    await new Promise((resolve) => platform.proc.once("exit", resolve));
  }
  return { single, replicated, skipped, labels: VERSION_LABEL };
}

function missing() {
  for (const binary of ["nginx", "redis-server"]) {
    const found = spawnSync("sh", ["-c", `command -v ${binary} || ls /usr/sbin/${binary}`]);
    if (found.status !== 0) {
      return `${binary} is not installed (Debian: apt-get install ${binary === "nginx" ? "nginx-light" : binary})`;
    }
  }
  return undefined;
}

const nginxBinary = () =>
  spawnSync("sh", ["-c", "command -v nginx || echo /usr/sbin/nginx"]).stdout.toString().trim();

async function waitForPort(port, proc, name) {
  for (let i = 0; i < 100; i++) {
    if (proc.exitCode !== null) throw new Error(`${name} exited ${proc.exitCode}`);
    const open = await new Promise((resolve) => {
      const socket = createNetServer().listen(port, "127.0.0.1");
      socket.once("listening", () => socket.close(() => resolve(false)));
      socket.once("error", () => resolve(true));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${name} did not listen on ${port}`);
}

/**
 * Redis on a free loopback port, three replicas on free ports, and nginx with deploy/nginx.conf
 * as shipped except its ports (the replicas' and its own, rewritten to free ones).
 */
async function withReplicas(cli, env, use) {
  const prefix = mkdtempSync(join(tmpdir(), "workforce-bench-nginx-"));
  const redisPort = await freePort();
  const redis = spawn(
    "redis-server",
    ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const replicas = [];
  let nginx;
  try {
    await waitForPort(redisPort, redis, "redis-server");
    const ports = [];
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const replica = await startReplica(
        cli,
        {
          ...env,
          WORKFORCE_REDIS_URL: `redis://127.0.0.1:${redisPort}/0`,
          // Replicas share one key: a form shown by one is completed on another.
          WORKFORCE_ENCRYPTION_KEY: SHARED_KEY,
          WORKFORCE_TRUST_PROXY: "loopback",
        },
        { port },
      );
      replicas.push(replica);
      ports.push(port);
    }
    const listen = await freePort();
    let conf = readFileSync(NGINX_CONF, "utf8").replace(
      "listen 127.0.0.1:8080;",
      `listen 127.0.0.1:${listen};`,
    );
    [3001, 3002, 3003].forEach((shipped, i) => {
      conf = conf.replace(`server 127.0.0.1:${shipped};`, `server 127.0.0.1:${ports[i]};`);
    });
    spawnSync("mkdir", ["-p", join(prefix, "logs")]);
    const confPath = join(prefix, "nginx.conf");
    writeFileSync(confPath, conf);
    nginx = spawn(nginxBinary(), ["-p", prefix, "-c", confPath, "-g", "daemon off;"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let nginxErr = "";
    nginx.stderr.on("data", (chunk) => (nginxErr += chunk));
    await waitForPort(listen, nginx, `nginx (${nginxErr})`);
    const result = await use(
      `http://127.0.0.1:${listen}/mcp`,
      replicas.map((r) => r.child.pid),
      [redis.pid, nginx.pid, ...childrenOf(nginx.pid)],
    );
    const errorLog = readFileSync(join(prefix, "logs", "error.log"), "utf8");
    const lines = errorLog.split("\n");
    result.nginxErrors = lines.filter((line) => /\[(error|crit|alert|emerg)\]/.test(line)).length;
    result.nginxWarnings = lines.filter((line) => /\[warn\]/.test(line)).length;
    result.nginxSample = /\[(?:error|crit|alert|emerg|warn)\] \d+#\d+: ([^\n]*)/
      .exec(errorLog)?.[1]
      ?.slice(0, 120);
    return result;
  } finally {
    if (nginx && nginx.exitCode === null) {
      nginx.kill("SIGQUIT");
      await new Promise((resolve) => nginx.once("exit", resolve));
    }
    await Promise.all(replicas.map((r) => r.stop()));
    redis.kill();
    await new Promise((resolve) =>
      redis.exitCode !== null ? resolve() : redis.once("exit", resolve),
    );
  }
}

/** The processes a process started (nginx's worker), from /proc. */
function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** `node dist/cli.js --http` on a loopback port (0: any), with more arguments; its address. */
async function startReplica(cli, env, { port = 0, args = [] } = {}) {
  const proc = spawn(
    process.execPath,
    [cli, "--http", "--host", "127.0.0.1", "--port", String(port), ...args],
    { env, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  const url = await new Promise((resolve, reject) => {
    proc.stderr.on("data", (chunk) => {
      stderr += chunk;
      const listening = /listening on (http:\/\/\S+?)\/mcp\b/.exec(stderr);
      if (listening) resolve(listening[1]);
    });
    proc.once("exit", (code) => reject(new Error(`replica exited ${code}:\n${stderr}`)));
  });
  return {
    child: proc,
    url,
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once("exit", resolve);
        proc.kill();
      }),
  };
}

if (process.argv[1] === SELF) {
  if (process.argv[2] === "platform") await platformChild();
  else if (process.argv[2] === "load") loadChild();
}
