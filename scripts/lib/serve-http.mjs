// Starts the built server over Streamable HTTP on a free loopback port, for scripts that test it.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** `node dist/cli.js --http --sandbox --port <free>`, ready when /healthz answers. */
export async function startHttpServer({ args = [], env = {} } = {}) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [CLI, "--http", "--sandbox", "--host", "127.0.0.1", "--port", String(port), ...args],
    { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  };
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${base}/healthz`);
      if (response.ok)
        return { url: `${base}/mcp`, base, pid: child.pid, stderr: () => stderr, stop };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  await stop();
  throw new Error(`The HTTP server did not come up on ${base}:\n${stderr}`);
}
