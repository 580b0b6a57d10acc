// One HTTP server without Redis, several sessions of one person: an attempt whose outcome is
// unknown is held for all of them and for 2026-07-28 requests, and after the server restarts, since
// it is kept in the local state file (CWE-841: a change applied twice).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import type { Clock } from "../../src/tools/define-tool.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { httpConfig, quietLogger } from "./http-helpers.js";

const TOOL = "terminate_hire";
const ARGS = { hireId: "hire_001", reason: "PROJECT_COMPLETED_EARLY", date: "2026-12-31" };

/** Real time, but the waits between read-backs end at once. */
const noWait: Clock = { now: () => Date.now(), sleep: async () => {} };

async function connect(url: string, version?: "2026-07-28"): Promise<Client> {
  const client = new Client(
    { name: "held-attempts", version: "0" },
    version ? { versionNegotiation: { mode: { pin: version } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return client;
}

const textOf = (r: { content?: unknown }) =>
  ((r.content ?? []) as { text: string }[]).map((c) => c.text).join("\n");

describe("an HTTP server without Redis holds an unknown outcome for every session of the person", () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let folder: string;
  let server: HttpServerHandle;
  const start = () =>
    startHttpServer(
      httpConfig(
        {},
        {
          WORKFORCE_API_URL: sandbox.url,
          WORKFORCE_TOKEN: sandbox.tokens.full,
          WORKFORCE_CONFIG_DIR: folder,
        },
      ),
      quietLogger(),
      "9.9.9",
      { toolClock: noWait },
    );
  beforeAll(async () => {
    sandbox = await startSandbox({ today: "2026-11-22", rateLimitPerMinute: 0 });
    folder = mkdtempSync(join(tmpdir(), "workforce-http-held-"));
    server = await start();
  });
  afterAll(async () => {
    await server.close();
    await sandbox.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("refuses the same change from another session, a 2026-07-28 request and after a restart; one mutation", async () => {
    const first = await connect(server.url);
    const preview = await first.callTool({ name: TOOL, arguments: ARGS });
    const token = (preview.structuredContent as { confirmationToken: string }).confirmationToken;
    sandbox.faults.inject("drop-connection", { operationName: "TerminateHire", later: true });
    const lost = await first.callTool({
      name: TOOL,
      arguments: { ...ARGS, confirmationToken: token },
    });
    expect((lost.structuredContent as { status: string }).status, textOf(lost)).toBe(
      "outcome-unknown",
    );
    await first.close();

    const another = await connect(server.url);
    const fromSession = await another.callTool({ name: TOOL, arguments: ARGS });
    expect(fromSession.isError).toBe(true);
    expect(textOf(fromSession)).toContain("outcome is not known yet");
    await another.close();

    const modern = await connect(server.url, "2026-07-28");
    const fromRequest = await modern.callTool({ name: TOOL, arguments: ARGS });
    expect(fromRequest.isError).toBe(true);
    expect(textOf(fromRequest)).toContain("outcome is not known yet");
    await modern.close();

    await server.close();
    server = await start();
    const afterRestart = await connect(server.url);
    const restarted = await afterRestart.callTool({ name: TOOL, arguments: ARGS });
    expect(restarted.isError).toBe(true);
    expect(textOf(restarted)).toContain("outcome is not known yet");
    await afterRestart.close();

    expect(sandbox.countRequests("TerminateHire")).toBe(1);
  });
});
