// A real redis-server for the tests: Debian's package, on 127.0.0.1 and a free port, with nothing
// written to disk. When it is not installed the Redis tests are skipped, and say so.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { Redis } from "ioredis";
import { freePort } from "../e2e/http-helpers.js";

const probe = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
/** Undefined when redis-server can run here; otherwise why the Redis tests are skipped. */
export const REDIS_MISSING =
  probe.status === 0
    ? undefined
    : "redis-server is not installed (Debian: apt-get install redis-server; .ci/run installs it); the Redis tests are skipped.";
if (REDIS_MISSING) process.stderr.write(`\n[skipped] ${REDIS_MISSING}\n`);

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** A plain client for looking inside, keys unprefixed. */
  inspect(): Redis;
  close(): Promise<void>;
}

export async function startRedis(password?: string): Promise<RedisServer> {
  // redis-server cannot be told to pick a port (--port 0 turns TCP off), and the server's
  // WORKFORCE_REDIS_URL takes a TCP address: a port free a moment ago, and another one if something
  // took it before redis-server listened (see the first start below).
  let port = await freePort();
  let child: ChildProcess | undefined;
  const clients: Redis[] = [];

  async function start(): Promise<void> {
    const args = [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
    ];
    if (password) args.push("--requirepass", password);
    const proc = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
    child = proc;
    await new Promise<void>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(
        () => reject(new Error(`redis-server did not start: ${out}`)),
        10_000,
      );
      proc.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${out}`));
      });
    });
  }

  async function stop(): Promise<void> {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once("exit", () => resolve());
      proc.kill("SIGTERM");
    });
  }

  for (let attempt = 1; ; attempt++) {
    try {
      await start();
      break;
    } catch (error) {
      if (attempt >= 5 || !/Address already in use/i.test(String(error))) throw error;
      port = await freePort();
    }
  }
  const auth = password ? `:${encodeURIComponent(password)}@` : "";
  return {
    url: `redis://${auth}127.0.0.1:${port}`,
    port,
    start,
    stop,
    inspect() {
      const client = new Redis({ host: "127.0.0.1", port, password, lazyConnect: false });
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) client.disconnect();
      await stop();
    },
  };
}

/** Every key and everything stored under it, as text (and by key), for looking for secrets. */
export async function dumpAll(redis: Redis): Promise<{
  keys: string[];
  text: string;
  /** Each key's type and what it holds (a string's value, a zset's members and scores, ...). */
  entries: Map<string, { type: string; values: string[] }>;
}> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "COUNT", 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  const parts: string[] = [];
  const entries = new Map<string, { type: string; values: string[] }>();
  for (const key of keys) {
    const type = await redis.type(key);
    const values: string[] = [];
    if (type === "string") values.push((await redis.get(key)) ?? "");
    else if (type === "zset") values.push(...(await redis.zrange(key, 0, -1, "WITHSCORES")));
    else if (type === "hash") values.push(...Object.entries(await redis.hgetall(key)).flat());
    else if (type === "set") values.push(...(await redis.smembers(key)));
    else if (type === "list") values.push(...(await redis.lrange(key, 0, -1)));
    entries.set(key, { type, values });
    parts.push(key, ...values);
  }
  return { keys, text: parts.join("\n"), entries };
}
