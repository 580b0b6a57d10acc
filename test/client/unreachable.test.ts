// A wrong platform address fails at once, naming the host and what is wrong with it: sending again
// after a back-off meets the same refusal (it used to be retried, then advised waiting).
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  NetworkError,
  type PlatformError,
  TimeoutError,
  UnexpectedResponseError,
} from "../../src/client/errors.js";
import { viewerQuery } from "../../src/client/operations/index.js";
import { closedPort, fastClient } from "./helpers.js";

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    return error as PlatformError;
  }
  throw new Error("expected the call to fail");
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((done) => s.close(done));
});

/** A plain HTTP server answering every request with `body`; counts the requests. */
async function plainServer(body: string, type: string) {
  const seen = { requests: 0 };
  const server = createServer((_req, res) => {
    seen.requests++;
    res.writeHead(200, { "content-type": type }).end(body);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return { port, seen };
}

describe("a platform address that cannot be reached", () => {
  // Three retries allowed, as by default: the unreachable address must use none of them.
  const retries = { maxRetries: 3 };

  it("a closed port: one attempt, the host and ECONNREFUSED, not retried", async () => {
    const port = await closedPort();
    const error = await failure(
      fastClient({ url: `http://127.0.0.1:${port}` }, retries).run(viewerQuery, {}),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.attempts).toBe(1);
    expect(error.retryable).toBe(false);
    expect(error.hint).toBe(
      `Nothing accepted the connection at 127.0.0.1:${port} (ECONNREFUSED). Check the address and port in WORKFORCE_API_URL, and that the platform runs there.`,
    );
  });

  it("a name that does not resolve (RFC 6761 .invalid): one attempt, the name and a DNS failure", async () => {
    const error = await failure(
      fastClient({ url: "https://platform.example.invalid" }, retries).run(viewerQuery, {}),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.attempts).toBe(1);
    // ENOTFOUND with a resolver that answers, EAI_AGAIN on a machine without one.
    expect(error.hint).toMatch(
      /^The name platform\.example\.invalid could not be resolved \((ENOTFOUND|EAI_AGAIN)\)\. Check its spelling in WORKFORCE_API_URL/,
    );
  });

  it("https to a server that speaks plain HTTP: one attempt, a TLS failure, nothing sent", async () => {
    const { port, seen } = await plainServer("{}", "application/json");
    const error = await failure(
      fastClient({ url: `https://127.0.0.1:${port}` }, retries).run(viewerQuery, {}),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.attempts).toBe(1);
    expect(error.hint).toMatch(
      new RegExp(
        `^The TLS \\(https\\) connection to 127\\.0\\.0\\.1:${port} failed \\(\\w+\\)\\. Check WORKFORCE_API_URL: http or https, and the port\\.$`,
      ),
    );
    expect(seen.requests).toBe(0);
  });

  it("an address that drops the packets: one attempt, ended by the connect time-out, not the request's", async () => {
    // A listener that never accepts, with its queue full: the kernel drops further connection
    // attempts, as a firewall or a dead host does. (Node accepts by itself, so Python listens.)
    const listener = spawn("python3", [
      "-c",
      "import socket,time\ns=socket.socket();s.bind(('127.0.0.1',0));s.listen(0)\nprint(s.getsockname()[1],flush=True)\ntime.sleep(60)",
    ]);
    try {
      const port = Number(await new Promise<string>((done) => listener.stdout.once("data", done)));
      const queued = connect(port, "127.0.0.1");
      await new Promise((done) => queued.once("connect", done));
      const error = await failure(
        fastClient(
          { url: `http://127.0.0.1:${port}` },
          { ...retries, timeoutMs: 30_000, connectTimeoutMs: 300 },
        ).run(viewerQuery, {}),
      );
      queued.destroy();
      // The connect time-out ended it: the longer request time-out would end it as a TimeoutError.
      expect(error).not.toBeInstanceOf(TimeoutError);
      expect(error).toBeInstanceOf(NetworkError);
      expect(error.attempts).toBe(1);
      expect(error.retryable).toBe(false);
      expect(error.message).toContain("the request was not sent");
      expect(error.hint).toBe(
        `Nothing answered a connection to 127.0.0.1:${port} within a few seconds: the address drops the packets (a wrong address, a firewall, or the platform is down). Check WORKFORCE_API_URL, and that this machine can reach the platform.`,
      );
    } finally {
      listener.kill();
    }
  });

  it("an address that answers with a web page: one attempt, naming the host", async () => {
    const { port, seen } = await plainServer("<html>Welcome</html>", "text/html");
    const error = await failure(
      fastClient({ url: `http://127.0.0.1:${port}` }, retries).run(viewerQuery, {}),
    );
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(seen.requests).toBe(1);
    expect(error.hint).toMatch(
      `The address 127.0.0.1:${port} answered with something that is not the platform's GraphQL API.`,
    );
  });

  it("a dropped connection on a reachable address is still retried", async () => {
    // The other side of the rule: a passing failure keeps its retries.
    const server = createServer((req) => req.socket.destroy());
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const { port } = server.address() as AddressInfo;
    const error = await failure(
      fastClient({ url: `http://127.0.0.1:${port}` }, retries).run(viewerQuery, {}),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.retryable).toBe(true);
    expect(error.attempts).toBe(4);
  });
});
