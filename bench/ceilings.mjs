// Memory under abuse, measured on the built server (dist/cli.js) as a separate process: these were
// timed assertions in the tests (test/e2e/http-hardening.test.ts, test/e2e/http-session-flood.test.ts,
// test/client/response-size.test.ts, test/server/bounded-answers.test.ts), where the figures
// depend on the machine and on when V8 collects; the tests keep the behaviour (every initialize
// answered, the oversized answer refused and the connection dropped), bench/run.mjs the figures.
import { fork, spawn, spawnSync } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { Agent, createServer, request } from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Redis } from "ioredis";

const MB = 2 ** 20;

/** Resident memory and its high-water mark of a process, in bytes (Linux /proc). */
export function procStatus(pid) {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1]) * 1024;
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

/** Resets the high-water mark to the current RSS; false where the kernel does not allow it. */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** `node dist/cli.js --http --port 0`; resolves with the child and the address it prints. */
export async function startHttpBinary(cli, env) {
  const child = spawn(process.execPath, [cli, "--http", "--host", "127.0.0.1", "--port", "0"], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const url = await new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const listening = /listening on (http:\/\/\S+?)\/mcp\b/.exec(stderr);
      if (listening) resolve(listening[1]);
    });
    child.once("exit", (code) => reject(new Error(`HTTP server exited ${code}:\n${stderr}`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", resolve);
      child.kill();
    });
  return { child, url, stop };
}

/**
 * The built HTTP server in a child run with --expose-gc (bench/http-server-child.mjs): `heap()`
 * resolves with the heap it holds after a full collection.
 */
async function startHttpChild(env) {
  const child = fork(new URL("./http-server-child.mjs", import.meta.url), [], {
    env,
    execArgv: ["--expose-gc"],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const next = () =>
    new Promise((resolve, reject) => {
      const exit = (code) => reject(new Error(`HTTP server exited ${code}:\n${stderr}`));
      child.once("exit", exit);
      child.once("message", (message) => {
        child.off("exit", exit);
        resolve(message);
      });
    });
  const { url } = await next();
  const heap = async () => {
    const answer = next();
    child.send("heap");
    return (await answer).heap;
  };
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", resolve);
      child.send("stop");
    });
  return { child, url, heap, stop };
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench-flood", version: "0" },
  },
});

function post(url, body, agent) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * An initialize flood of 15× WORKFORCE_MAX_SESSIONS against the embedded-sandbox HTTP server: the
 * oldest idle sessions are ended to make room, so the second half (which ends as many sessions as
 * it opens) must not grow resident memory with them. Without the cap a session costs ~60 KB.
 */
export async function sessionFlood(cli, baseEnv) {
  const maxSessions = 200;
  const total = 3_000;
  const concurrency = 16;
  const server = await startHttpBinary(cli, {
    ...baseEnv,
    WORKFORCE_MAX_SESSIONS: String(maxSessions),
  });
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    const pid = server.child.pid;
    const before = procStatus(pid).rss;
    let sent = 0;
    let created = 0;
    let other = 0;
    let halfway;
    const worker = async () => {
      while (sent < total) {
        sent++;
        const status = await post(`${server.url}/mcp`, initialize, agent);
        if (status === 200) {
          created++;
          if (created === total / 2) halfway = procStatus(pid).rss;
        } else other++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const { rss: after, peak } = procStatus(pid);
    return { maxSessions, total, created, other, before, halfway, after, peak };
  } finally {
    agent.destroy();
    await server.stop();
  }
}

/**
 * A platform stand-in whose answers are `totalBytes` of JSON, chunked (no Content-Length), except
 * the first: a small error, so that a first call loads the tool's code before anything is measured.
 */
async function bigAnswerServer(totalBytes) {
  const head = Buffer.from('{"data":{"blob":"');
  const tail = Buffer.from('"}}');
  const filler = Buffer.alloc(64 * 1024, 0x61);
  const state = { written: 0, hits: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.on("error", () => {});
      if (++state.hits === 1) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"data":null,"errors":[{"message":"warming up"}]}');
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      let left = totalBytes - head.length - tail.length;
      const send = (chunk) => {
        state.written += chunk.length;
        return res.write(chunk);
      };
      const pump = () => {
        while (left > 0) {
          if (res.destroyed) return;
          const piece = left >= filler.length ? filler : filler.subarray(0, left);
          left -= piece.length;
          if (!send(piece)) {
            res.once("drain", pump);
            return;
          }
        }
        res.end(tail);
      };
      send(head);
      pump();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    get written() {
      return state.written;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * search_hires against a platform that answers 50 MB (the default limit is 5 MB): the server stops
 * reading at the limit, so its memory peak during the call stays far below the answer's size.
 */
export async function oversizedAnswer(cli, baseEnv) {
  const totalBytes = 50 * MB;
  const platform = await bigAnswerServer(totalBytes);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli],
    env: { ...baseEnv, WORKFORCE_API_URL: platform.url, WORKFORCE_TOKEN: "bench-token" },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "0.0.0" });
  try {
    await client.connect(transport);
    // Warm: the tool's code loaded and a first (small) failure handled before measuring.
    await client.callTool({ name: "search_hires", arguments: { search: "Ana" } });
    const pid = transport.pid;
    const before = procStatus(pid).rss;
    const peakReset = resetPeak(pid);
    const result = await client.callTool({ name: "search_hires", arguments: { search: "Ana" } });
    const { peak } = procStatus(pid);
    const refused = result.isError === true && /larger than 5 MB/.test(JSON.stringify(result));
    return { totalBytes, before, peak, peakReset, refused, written: platform.written };
  } finally {
    await client.close();
    await platform.close();
  }
}

/** A signed webhook delivery; resolves with its status. */
function deliver(url, body, secret, agent) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          signature: createHmac("sha256", secret).update(body).digest("hex"),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A contractAccepted payload of exactly `bytes`, padded in a custom field's display value. */
function largestEvent(companyId, n, bytes) {
  const event = (pad) =>
    JSON.stringify({
      event: "contractAccepted",
      data: {
        contract: { id: `ctr_${n}`, hireId: `hire_${n}`, hireStatus: "ready" },
        worker: { id: `wrk_${n}`, name: "Bench Worker", email: "w@example.com", phone: null },
        trustedContact: { id: `tc_${n}`, accountId: companyId, status: "active" },
        customFieldValues: [{ id: "cf_1", customFieldTitle: "Notes", displayValue: pad }],
      },
    });
  const bare = Buffer.byteLength(event(""));
  return event("x".repeat(bytes - bare));
}

/** redis-server on a free loopback port, nothing written to disk; undefined where it is missing. */
async function startRedisServer() {
  if (spawnSync("redis-server", ["--version"]).status !== 0) return undefined;
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.includes("Ready to accept connections")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited ${code}`)));
  });
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url);
  return {
    url,
    usedMemory: async () => Number(/used_memory:(\d+)/.exec(await client.info("memory"))?.[1]),
    stop: async () => {
      client.disconnect();
      await new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill();
      });
    },
  };
}

/**
 * A webhook flood against the HTTP server's receiver with its default byte budgets: `companies`
 * companies, each with its own secret, send events of the largest size the receiver accepts, each
 * company twice its own budget, in two rounds. The store keeps each company within its budget and
 * all within the overall one (refusing the rest with 503), so the second round adds nothing. In
 * memory, the server's heap after a full collection is measured (its RSS is reported beside it);
 * with `redis`, the events are kept in a redis-server of its own, whose memory is measured instead.
 */
export async function webhookFlood(cli, baseEnv, { redis = false } = {}) {
  const companies = 20;
  const bodyBytes = 16 * 1024;
  const maxBytes = 64 * MB;
  const companyMaxBytes = 4 * MB;
  const perCompany = Math.ceil((2 * companyMaxBytes) / bodyBytes);
  const shared = redis ? await startRedisServer() : undefined;
  if (redis && !shared) return undefined;
  const secrets = Array.from({ length: companies }, (_, i) => ({
    companyId: `cmp_bench_${i}`,
    secret: `bench_secret_${i}_`.padEnd(32, "s"),
  }));
  const env = {
    ...baseEnv,
    WORKFORCE_WEBHOOK_SECRETS: secrets.map((s) => `${s.companyId}:${s.secret}`).join(","),
    ...(shared
      ? {
          WORKFORCE_REDIS_URL: shared.url,
          WORKFORCE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
        }
      : {}),
  };
  // In memory, the events are in the server's heap: measured after a full collection there.
  const server = shared ? await startHttpBinary(cli, env) : await startHttpChild(env);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  try {
    const pid = server.child.pid;
    const memory = async () => (shared ? await shared.usedMemory() : await server.heap());
    const rss = [];
    const url = `${server.url}/webhooks/platform`;
    const statuses = {};
    // Warm: the receiver's code loaded before anything is measured.
    await deliver(url, largestEvent("cmp_bench_0", "warm", 1024), secrets[0].secret, agent);
    const before = await memory();
    const tooLarge = await deliver(
      url,
      largestEvent("cmp_bench_0", "big", bodyBytes + 1),
      secrets[0].secret,
      agent,
    );
    const rounds = [];
    for (let round = 0; round < 2; round++) {
      for (let n = 0; n < perCompany; n++) {
        await Promise.all(
          secrets.map(async ({ companyId, secret }) => {
            const body = largestEvent(companyId, `${round}_${n}`, bodyBytes);
            const status = await deliver(url, body, secret, agent);
            statuses[status] = (statuses[status] ?? 0) + 1;
          }),
        );
      }
      rounds.push(await memory());
      rss.push(procStatus(pid).rss);
    }
    return {
      where: shared ? "Redis used_memory" : "server heap after a full collection",
      rss,
      companies,
      perCompany,
      bodyBytes,
      maxBytes,
      companyMaxBytes,
      tooLarge,
      statuses,
      before,
      rounds,
    };
  } finally {
    agent.destroy();
    await server.stop();
    await shared?.stop();
  }
}

/**
 * The in-memory event store alone, in this process: the heap it holds, after a full collection,
 * once a flood like webhookFlood's has been stored the way the receiver stores it.
 */
export async function eventStoreHeap() {
  const { createMemoryStore } = await import("../dist/state/memory-store.js");
  const { createWebhookEventStore } = await import("../dist/state/webhook-events.js");
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc");
  const companies = 20;
  const bodyBytes = 16 * 1024;
  const maxBytes = 64 * MB;
  const companyMaxBytes = 4 * MB;
  const perCompany = Math.ceil((2 * companyMaxBytes) / bodyBytes);
  const events = createWebhookEventStore(createMemoryStore(), {
    maxEvents: 10_000,
    maxAgeMs: 7 * 24 * 3_600_000,
    maxBytes,
    maxCompanyBytes: companyMaxBytes,
  });
  gc();
  const before = process.memoryUsage().heapUsed;
  const outcomes = {};
  for (let n = 0; n < perCompany; n++) {
    for (let c = 0; c < companies; c++) {
      const companyId = `cmp_bench_${c}`;
      const body = largestEvent(companyId, n, bodyBytes);
      const payload = JSON.parse(body);
      const id = createHash("sha256").update(`${companyId}\n`).update(body).digest("hex");
      const outcome = await events.add({ id, event: payload.event, companyId, payload });
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  }
  gc();
  const after = process.memoryUsage().heapUsed;
  return { before, after, accounted: await events.bytes(), maxBytes, outcomes };
}

export const mb = (bytes) => `${(bytes / MB).toFixed(0)} MB`;
export { MB };
