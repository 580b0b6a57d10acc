// One server, two protocol versions: MCP 2026-07-28 (no handshake, every request carries its
// version in _meta) and 2025-11-25 (initialize, sessions), over stdio and Streamable HTTP,
// driven by the SDK's 2.x client pinned to 2026-07-28, its negotiating client, and the 1.x
// client, which speaks only 2025-11-25.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioClientTransportV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { LISTED_FIRST } from "../../src/tools/reach.js";
import { tools as registry } from "../../src/tools/registry.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { httpConfig, quietLogger, raw } from "./http-helpers.js";

const cli = path.resolve(process.cwd(), "dist/cli.js");
const MODERN = "2026-07-28";
// The default list: the core, then the discovery tools that reach the rest.
const registryOrder = registry
  .filter((tool) => LISTED_FIRST.includes(tool.name) || tool.toolset === "discovery")
  .map((tool) => tool.name);

/** A client as each SDK line makes one, and the protocol version it should end up speaking. */
const clients = [
  {
    name: "2.x client pinned to 2026-07-28",
    version: MODERN,
    make: () =>
      new Client(
        { name: "pinned", version: "0" },
        { versionNegotiation: { mode: { pin: MODERN } } },
      ),
  },
  {
    name: "2.x client negotiating (server/discover first)",
    version: MODERN,
    make: () =>
      new Client({ name: "auto", version: "0" }, { versionNegotiation: { mode: "auto" } }),
  },
  {
    name: "1.x client (2025-11-25 only)",
    version: "2025-11-25",
    make: () => new ClientV1({ name: "v1", version: "0" }),
  },
] as const;

type AnyClient = Client | ClientV1;

function stdioTransport(v1: boolean) {
  const options = {
    command: process.execPath,
    args: [cli],
    env: {},
    cwd: mkdtempSync(path.join(tmpdir(), "workforce-mcp-versions-")),
    stderr: "ignore" as const,
  };
  return v1 ? new StdioClientTransportV1(options) : new StdioClientTransport(options);
}

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content.map((c) => c.text ?? "").join("\n");
}

/** What every client must be able to do, whatever version it speaks. */
async function exercise(client: AnyClient, expectedVersion: string) {
  // The 1.x client speaks 2025-11-25 at most; what it agreed to shows as the session (HTTP) below.
  if (client instanceof Client) expect(client.getNegotiatedProtocolVersion()).toBe(expectedVersion);
  const { tools } = await client.listTools();
  expect(tools.length).toBe(registryOrder.length);
  // Listed in one fixed order (the registry's), whoever asks and in whichever version.
  expect(tools.map((t) => t.name)).toEqual(registryOrder);
  const hire = await client.callTool({ name: "get_hire", arguments: { hireId: "hire_001" } });
  expect(hire.isError).toBeFalsy();
  expect(textOf(hire)).toContain("Hire hire_001");
  // A tool error is a result with isError, in both versions.
  const missing = await client.callTool({ name: "get_hire", arguments: { hireId: "hire_999" } });
  expect(missing.isError).toBe(true);
  expect(textOf(missing)).toMatch(/hire_999/);
  const type = await client.readResource({ uri: "workforce://schema/types/Hire" });
  expect((type.contents[0] as { text: string }).text).toMatch(/^type Hire \{/m);
  // The prompts: listed, got with an argument read through the platform, and completed.
  const { prompts } = await client.listPrompts();
  expect(prompts.map((p) => p.name)).toEqual([
    "weekly_timesheets",
    "month_end_invoices",
    "contracts_ending",
    "onboard_hire",
  ]);
  const onboard = await client.getPrompt({
    name: "onboard_hire",
    arguments: { hire: "Ana Costa" },
  });
  const message = onboard.messages[0] as { content: { text: string } };
  expect(message.content.text).toContain('get_hire {"hireId":"hire_001"}');
  const companies = await client.complete({
    ref: { type: "ref/prompt", name: "weekly_timesheets" },
    argument: { name: "company", value: "nord" },
  });
  expect(companies.completion.values).toEqual(["Nordlys Energi A/S"]);
  // A change without forms: a preview with a single-use token, then the token.
  const args = { hireId: "hire_001", date: "2026-12-31", reason: "OTHER" };
  const preview = await client.callTool({ name: "terminate_hire", arguments: args });
  const token = (preview.structuredContent as { confirmationToken?: string }).confirmationToken;
  expect(token, textOf(preview)).toMatch(/^[0-9a-f-]{36}$/);
  expect(textOf(preview)).toContain("Nothing has been changed yet");
}

describe("both protocol versions over stdio (the built binary, embedded sandbox)", () => {
  for (const entry of clients) {
    it(`serves the ${entry.name}`, async () => {
      const client = entry.make();
      await client.connect(stdioTransport(client instanceof ClientV1) as never);
      try {
        await exercise(client, entry.version);
      } finally {
        await client.close();
      }
    });
  }

  it("confirms a change in a form each way: input_required on 2026-07-28, elicitation on 2025-11-25", async () => {
    const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    const modern = new Client(
      { name: "stdio-forms-2026", version: "0" },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: MODERN } },
      },
    );
    const legacy = new ClientV1(
      { name: "stdio-forms-2025", version: "0" },
      { capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    modern.setRequestHandler("elicitation/create", async () => {
      asked.push("2026-07-28");
      return { action: "accept", content: { confirm: true } };
    });
    legacy.setRequestHandler(ElicitRequestSchema, async () => {
      asked.push("2025-11-25");
      return { action: "accept", content: { confirm: true } };
    });
    for (const [client, hireId] of [
      [modern, "hire_001"],
      [legacy, "hire_002"],
    ] as const) {
      await client.connect(stdioTransport(client instanceof ClientV1) as never);
      try {
        const result = await client.callTool({
          name: "terminate_hire",
          arguments: { hireId, date: "2026-12-31", reason: "OTHER" },
        });
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ status: "terminated" });
      } finally {
        await client.close();
      }
    }
    expect(asked).toEqual([MODERN, "2025-11-25"]);
  });

  it("answers server/discover, then an initialize on the same connection (clients that do both)", async () => {
    const child = spawn(process.execPath, [cli], {
      stdio: ["pipe", "pipe", "ignore"],
      cwd: mkdtempSync(path.join(tmpdir(), "workforce-mcp-versions-")),
      env: {},
    });
    const answers = new Map<number, { result?: Record<string, unknown>; error?: unknown }>();
    let buffer = "";
    let waiting: (() => void) | undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
        const message = JSON.parse(buffer.slice(0, i));
        buffer = buffer.slice(i + 1);
        if (typeof message.id === "number") answers.set(message.id, message);
        waiting?.();
      }
    });
    const ask = async (message: Record<string, unknown>) => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
      const id = message.id as number;
      while (!answers.has(id)) await new Promise<void>((resolve) => (waiting = resolve));
      return answers.get(id);
    };
    try {
      const discover = await ask({
        id: 1,
        method: "server/discover",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      });
      expect(discover?.result?.supportedVersions).toEqual([MODERN]);
      const init = await ask({
        id: 2,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "0" },
        },
      });
      expect(init?.result?.protocolVersion).toBe("2025-11-25");
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`,
      );
      const list = await ask({ id: 3, method: "tools/list", params: {} });
      expect((list?.result?.tools as unknown[] | undefined)?.length).toBe(registryOrder.length);
    } finally {
      child.kill();
    }
  });
});

describe("both protocol versions over Streamable HTTP (embedded sandbox)", () => {
  let server: HttpServerHandle;
  let mcpUrl: URL;
  beforeAll(async () => {
    server = await startHttpServer(httpConfig({ useSandbox: true }), quietLogger(), "9.9.9");
    mcpUrl = new URL(`${server.url}/mcp`);
  });
  afterAll(() => server.close());

  for (const entry of clients) {
    it(`serves the ${entry.name}`, async () => {
      const client = entry.make();
      const transport =
        client instanceof ClientV1
          ? new StreamableHTTPClientTransportV1(mcpUrl)
          : new StreamableHTTPClientTransport(mcpUrl);
      await client.connect(transport as never);
      try {
        await exercise(client, entry.version);
        // 2026-07-28 has no sessions; 2025-11-25 clients get one.
        expect(Boolean(transport.sessionId)).toBe(entry.version !== MODERN);
      } finally {
        await client.close();
      }
    });
  }

  it("reports progress of long work to a 2026-07-28 client", async () => {
    const client = clients[0].make();
    await client.connect(new StreamableHTTPClientTransport(mcpUrl));
    try {
      const registrations = Array.from({ length: 120 }, (_, i) => ({
        hireId: i === 0 ? "hire_001" : `hire_unknown_${i}`,
        reportedDate: "2026-11-16",
        hours: 7.5,
        externalId: `row-${i}`,
      }));
      const progress: number[] = [];
      await client.callTool(
        { name: "submit_timesheets", arguments: { registrations } },
        { onprogress: (p) => progress.push(p.progress) },
      );
      expect(progress.length).toBeGreaterThan(1);
      expect(progress.at(-1)).toBe(120);
    } finally {
      await client.close();
    }
  });

  const modernBody = (method: string, params: Record<string, unknown> = {}, version = MODERN) => ({
    jsonrpc: "2.0",
    id: 7,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });

  it("checks MCP-Protocol-Version, Mcp-Method and Mcp-Name against the body (MCP 2026-07-28, standard headers)", async () => {
    const ok = await raw(mcpUrl.href, {
      body: modernBody("tools/list"),
      headers: { "mcp-protocol-version": MODERN, "mcp-method": "tools/list" },
    });
    expect(ok.status).toBe(200);
    const noHeaders = await raw(mcpUrl.href, { body: modernBody("tools/list") });
    expect(noHeaders.status).toBe(400);
    expect(JSON.parse(noHeaders.body).error.code).toBe(-32020);
    const otherMethod = await raw(mcpUrl.href, {
      body: modernBody("tools/list"),
      headers: { "mcp-protocol-version": MODERN, "mcp-method": "tools/call" },
    });
    expect(otherMethod.status).toBe(400);
    expect(JSON.parse(otherMethod.body).error.message).toMatch(/Mcp-Method/);
    const otherName = await raw(mcpUrl.href, {
      body: modernBody("tools/call", { name: "get_hire", arguments: { hireId: "hire_001" } }),
      headers: {
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/call",
        "mcp-name": "terminate_hire",
      },
    });
    expect(otherName.status).toBe(400);
    expect(JSON.parse(otherName.body).error.code).toBe(-32020);
  });

  it("answers server/discover, then opens a 2025 session for the same client's initialize", async () => {
    const discover = await raw(mcpUrl.href, {
      body: modernBody("server/discover"),
      headers: { "mcp-protocol-version": MODERN, "mcp-method": "server/discover" },
    });
    expect(discover.status).toBe(200);
    expect(JSON.parse(discover.body).result.supportedVersions).toEqual([MODERN]);
    const init = await raw(mcpUrl.href, {
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "0" },
        },
      },
    });
    expect(init.status).toBe(200);
    expect(init.headers["mcp-session-id"]).toBeTruthy();
    expect(init.body).toContain('"protocolVersion":"2025-11-25"');
  });

  it("answers an unknown protocol version with the versions it speaks, and malformed _meta with invalid params", async () => {
    const unknown = await raw(mcpUrl.href, {
      body: modernBody("tools/list", {}, "2099-01-01"),
      headers: { "mcp-protocol-version": "2099-01-01", "mcp-method": "tools/list" },
    });
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body).error).toMatchObject({
      code: -32022,
      data: { supported: [MODERN], requested: "2099-01-01" },
    });
    const malformed = modernBody("tools/list");
    (malformed.params._meta as Record<string, unknown>)[
      "io.modelcontextprotocol/clientCapabilities"
    ] = "all";
    const bad = await raw(mcpUrl.href, {
      body: malformed,
      headers: { "mcp-protocol-version": MODERN, "mcp-method": "tools/list" },
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe(-32602);
  });

  it("sends a 2026-07-28 call's log lines at the level its _meta asks for, and none when it asks for none", async () => {
    const call = (logLevel?: string) => {
      const body = modernBody("tools/call", {
        name: "get_hire",
        arguments: { hireId: "hire_001" },
      });
      if (logLevel) {
        (body.params._meta as Record<string, unknown>)["io.modelcontextprotocol/logLevel"] =
          logLevel;
      }
      return raw(mcpUrl.href, {
        body,
        headers: {
          "mcp-protocol-version": MODERN,
          "mcp-method": "tools/call",
          "mcp-name": "get_hire",
        },
      });
    };
    const debug = await call("debug");
    expect(debug.status).toBe(200);
    expect(debug.body).toContain('"method":"notifications/message"');
    expect(debug.body).toContain("get_hire answered");
    const silent = await call();
    expect(silent.status).toBe(200);
    expect(silent.body).not.toContain("notifications/message");
    const errorsOnly = await call("error");
    expect(errorsOnly.body).not.toContain("notifications/message");
  });

  it("gives the lists cache hints on 2026-07-28 (ttlMs, cacheScope) and none on 2025-11-25", async () => {
    const modern = await raw(mcpUrl.href, {
      body: modernBody("tools/list"),
      headers: { "mcp-protocol-version": MODERN, "mcp-method": "tools/list" },
    });
    const result = JSON.parse(modern.body).result;
    expect(result.ttlMs).toBeGreaterThan(0);
    expect(result.cacheScope).toBe("public");
  });
});

/** An HTTP server on a sandbox of its own, for one describe: the tests see what reached the platform. */
function serverOnItsOwnSandbox() {
  const at = {} as {
    sandbox: Awaited<ReturnType<typeof startSandbox>>;
    server: HttpServerHandle;
    mcpUrl: URL;
  };
  beforeAll(async () => {
    at.sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    const env = { WORKFORCE_API_URL: at.sandbox.url, WORKFORCE_TOKEN: at.sandbox.tokens.full };
    at.server = await startHttpServer(httpConfig({}, env), quietLogger(), "9.9.9");
    at.mcpUrl = new URL(`${at.server.url}/mcp`);
  });
  afterAll(async () => {
    await at.server.close();
    await at.sandbox.close();
  });
  return at;
}

describe("a caller's trace context goes on to the platform (W3C traceparent)", () => {
  const TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  const at = serverOnItsOwnSandbox();

  const lastTraceparent = () => at.sandbox.requests.at(-1)?.traceparent;

  it("from _meta.traceparent, in both protocol versions; a malformed one is not passed on", async () => {
    for (const entry of [clients[0], clients[2]]) {
      const client = entry.make();
      const transport =
        client instanceof ClientV1
          ? new StreamableHTTPClientTransportV1(at.mcpUrl)
          : new StreamableHTTPClientTransport(at.mcpUrl);
      await client.connect(transport as never);
      try {
        const args = { hireId: "hire_001" };
        await client.callTool({ name: "get_hire", arguments: args, _meta: { traceparent: TRACE } });
        expect(lastTraceparent(), entry.name).toBe(TRACE);
        await client.callTool({
          name: "get_hire",
          arguments: args,
          _meta: { traceparent: "junk" },
        });
        expect(lastTraceparent(), entry.name).toBeUndefined();
        await client.callTool({ name: "get_hire", arguments: args });
        expect(lastTraceparent(), entry.name).toBeUndefined();
      } finally {
        await client.close();
      }
    }
  });

  it("from an HTTP caller's traceparent header", async () => {
    const client = clients[0].make();
    await client.connect(
      new StreamableHTTPClientTransport(at.mcpUrl, {
        requestInit: { headers: { traceparent: TRACE } },
      }),
    );
    try {
      await client.callTool({ name: "get_hire", arguments: { hireId: "hire_001" } });
      expect(lastTraceparent()).toBe(TRACE);
    } finally {
      await client.close();
    }
  });
});

describe("a confirmation form each way over HTTP: input_required on 2026-07-28, elicitation on 2025-11-25", () => {
  const at = serverOnItsOwnSandbox();

  const TERMINATE = { hireId: "hire_001", date: "2026-12-31", reason: "OTHER" };
  const terminations = () => at.sandbox.countRequests("TerminateHire");

  it("2026-07-28: the form comes back as input_required, the retried call with the answer terminates once", async () => {
    at.sandbox.reset();
    const forms: string[] = [];
    const client = new Client(
      { name: "forms-2026", version: "0" },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: MODERN } },
      },
    );
    client.setRequestHandler("elicitation/create", async (request) => {
      forms.push(String(request.params.message));
      return { action: "accept", content: { confirm: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(at.mcpUrl));
    try {
      const result = await client.callTool({ name: "terminate_hire", arguments: TERMINATE });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(forms).toHaveLength(1);
      expect(forms[0]).toContain("hire_001");
      expect(terminations()).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("2025-11-25 (the 1.x client): the same form as elicitation/create in the session; declining sends nothing", async () => {
    at.sandbox.reset();
    const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    const client = new ClientV1(
      { name: "forms-2025", version: "0" },
      { capabilities: { elicitation: {} } },
    );
    let answer: "accept" | "decline" = "decline";
    client.setRequestHandler(ElicitRequestSchema, async () =>
      answer === "accept"
        ? { action: "accept", content: { confirm: true } }
        : { action: "decline" },
    );
    await client.connect(new StreamableHTTPClientTransportV1(at.mcpUrl));
    try {
      const declined = await client.callTool({ name: "terminate_hire", arguments: TERMINATE });
      expect(textOf(declined)).toContain("the person declined");
      expect(terminations()).toBe(0);
      answer = "accept";
      const done = await client.callTool({ name: "terminate_hire", arguments: TERMINATE });
      expect(done.isError, textOf(done)).toBeFalsy();
      expect(terminations()).toBe(1);
    } finally {
      await client.close();
    }
  });
});
