// Progressive discovery end to end (issue 31): with the default configuration, an SDK client that
// plays the assistant finds and completes four requests whose tools are not all listed at first,
// each in at most two calls more than with the tool listed: over stdio (the built binary) and
// Streamable HTTP, on MCP 2025-11-25 and 2026-07-28, with a client that acts on
// notifications/tools/list_changed and one that ignores it. It follows only what the server says:
// find_tools' answer, its list, and the preview's "call … again".
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport, type Tool } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { until } from "../helpers/until.js";
import { httpConfig, quietLogger } from "./http-helpers.js";

const cli = path.resolve(process.cwd(), "dist/cli.js");
const MODERN = "2026-07-28";

interface Found {
  tools: { name: string; call: string }[];
  addedToList: boolean;
}

/** The assistant: a client, the tools its list shows, and how many calls it made. */
class Assistant {
  calls = 0;
  listed: Tool[] = [];
  /** How each tool not listed at first was reached: "direct" or the proxy's name. */
  routes: string[] = [];
  /** What find_tools answered for each tool it found: how to call it, and whether it was added to the list. */
  found = new Map<string, { proxy: string; added: boolean }>();
  constructor(
    readonly client: Client,
    readonly actsOnListChanged: boolean,
  ) {}

  async start() {
    this.listed = (await this.client.listTools()).tools;
  }

  async call(name: string, args: Record<string, unknown>) {
    this.calls++;
    const result = await this.client.callTool({ name, arguments: args });
    const text = (result.content as { text?: string }[]).map((c) => c.text ?? "").join("\n");
    return { result, text, out: result.structuredContent as Record<string, unknown> };
  }

  /**
   * A way to call the tool for `need`: directly when its list shows it, else as find_tools says
   * (through the proxy it names, or directly once a list_changed brought it into the list).
   */
  async reach(need: string, tool: string) {
    const direct = (args: Record<string, unknown>) => this.call(tool, args);
    if (this.listed.some((t) => t.name === tool)) return direct;
    // A tool an earlier find_tools answer named is called as that answer said, with no new search.
    if (!this.found.has(tool)) {
      const { out } = await this.call("find_tools", { query: need });
      const answer = out as unknown as Found;
      expect(answer.tools[0]?.name).toBe(tool);
      for (const t of answer.tools) {
        this.found.set(t.name, {
          proxy: t.call.split(" ")[0] as string,
          added: answer.addedToList,
        });
      }
    }
    const found = this.found.get(tool);
    if (this.actsOnListChanged && found?.added) {
      await until(() => this.listed.some((t) => t.name === tool), "the list was reloaded");
      this.routes.push("direct");
      return direct;
    }
    const proxy = found?.proxy as string;
    this.routes.push(proxy);
    return (args: Record<string, unknown>) => this.call(proxy, { name: tool, arguments: args });
  }

  /** A change as the assistant makes it: the preview, then (the person agreed) the token. */
  async change(
    run: (args: Record<string, unknown>) => ReturnType<Assistant["call"]>,
    args: Record<string, unknown>,
  ) {
    const preview = await run(args);
    expect(preview.result.isError, preview.text).toBeFalsy();
    const token = preview.out.confirmationToken as string | undefined;
    if (!token) return preview;
    // The preview says how to confirm; the assistant follows it.
    expect(preview.text).toMatch(
      /call .* again with exactly the same arguments and confirmationToken/,
    );
    const done = await run({ ...args, confirmationToken: token });
    expect(done.result.isError, done.text).toBeFalsy();
    return done;
  }
}

function makeClient(
  version: "2025-11-25" | typeof MODERN,
  acts: boolean,
  assistant: () => Assistant,
) {
  return new Client(
    { name: `discovery-${version}-${acts ? "acts" : "ignores"}`, version: "0" },
    {
      ...(version === MODERN ? { versionNegotiation: { mode: { pin: MODERN } } } : {}),
      ...(acts
        ? {
            listChanged: {
              tools: {
                // The SDK waits 300 ms by default before reloading; until() counts turns, not time.
                debounceMs: 0,
                onChanged: (error: Error | null, tools: Tool[] | null) => {
                  if (!error && tools) assistant().listed = tools;
                },
              },
            },
          }
        : {}),
    },
  );
}

/** The four requests, each with the calls it takes when its tool is listed. */
async function requests(a: Assistant, label: string, receivesEvents: boolean) {
  const spent = async (work: () => Promise<unknown>) => {
    const before = a.calls;
    await work();
    return a.calls - before;
  };
  // 1. A PO number on a payment request: preview and confirmation, 2 calls when listed.
  const po = await spent(async () => {
    const run = await a.reach("add a PO number to a payment request", "update_payment_request");
    const done = await a.change(run, {
      paymentRequestId: "pr_0016",
      purchaseOrderNumber: `PO-${label}`,
    });
    expect(done.text).toContain(`PO-${label}`);
  });
  expect(po).toBeLessThanOrEqual(2 + 2);
  // 2. A custom field on a talent-pool contact: 2 calls when listed.
  const field = await spent(async () => {
    const run = await a.reach(
      "set a custom field on a talent pool contact",
      "update_talent_contact",
    );
    await a.change(run, {
      contact: "tc_001",
      values: [{ field: "Notice period", value: `${label} notice` }],
    });
  });
  expect(field).toBeLessThanOrEqual(2 + 2);
  // 3. A retry of a failed webhook delivery: list (to find it) and retry, 2 calls when listed.
  const retry = await spent(async () => {
    const run = await a.reach("retry a failed webhook delivery", "manage_webhooks");
    // The read that names the failed delivery came in the same find_tools answer.
    const list = await a.reach("list our webhooks", "list_webhooks");
    const listed = await list({ company: "cmp_nordlys" });
    const webhooks = (listed.out.webhooks ?? []) as { failedDeliveryIds: string[] }[];
    const eventId = webhooks.flatMap((w) => w.failedDeliveryIds)[0];
    expect(eventId, listed.text).toBeDefined();
    const done = await run({ action: "retry", company: "cmp_nordlys", eventId });
    expect(done.result.isError, done.text).toBeFalsy();
  });
  expect(retry).toBeLessThanOrEqual(2 + 2);
  // 4. What changed since Monday: 1 call when listed (it is).
  const changes = await spent(async () => {
    const run = await a.reach("what changed since Monday", "list_changes");
    const done = await run({ since: "2026-11-23" });
    // A stdio server without WORKFORCE_TEAM_URL receives no webhook events, and says so.
    if (receivesEvents) expect(done.result.isError, done.text).toBeFalsy();
    else expect(done.text).toContain("cannot say what changed");
  });
  expect(changes).toBeLessThanOrEqual(1 + 2);
  // Only a 2025-11-25 session's list changes; elsewhere the proxies reach the tools.
  const legacyActs = a.actsOnListChanged && a.client.getNegotiatedProtocolVersion() !== MODERN;
  expect(a.routes).toEqual(
    legacyActs
      ? // list_webhooks came into the list with manage_webhooks: called by its name, no route.
        ["direct", "direct", "direct"]
      : ["run_write_tool", "run_write_tool", "run_write_tool", "run_read_tool"],
  );
}

/** A failed delivery to retry: a termination the seeded webhook (at an .example address) cannot take. */
async function failOneDelivery(connect: (client: Client) => Promise<void>) {
  const client = new Client({ name: "setup", version: "0" });
  await connect(client);
  try {
    const args = { hireId: "hire_001", date: "2026-12-31", reason: "OTHER" };
    const preview = await client.callTool({ name: "terminate_hire", arguments: args });
    const token = (preview.structuredContent as { confirmationToken: string }).confirmationToken;
    await client.callTool({
      name: "terminate_hire",
      arguments: { ...args, confirmationToken: token },
    });
  } finally {
    await client.close();
  }
}

const kinds = [
  { version: "2025-11-25", acts: true },
  { version: "2025-11-25", acts: false },
  { version: MODERN, acts: true },
  { version: MODERN, acts: false },
] as const;

describe("discovery over stdio (the built binary, embedded sandbox)", () => {
  const transport = () =>
    new StdioClientTransport({
      command: process.execPath,
      args: [cli],
      env: {},
      cwd: mkdtempSync(path.join(tmpdir(), "workforce-mcp-discovery-")),
      stderr: "ignore",
    });

  for (const kind of kinds) {
    it(`finds and completes four requests: ${kind.version}, a client that ${kind.acts ? "acts on" : "ignores"} list_changed`, async () => {
      let assistant: Assistant | undefined;
      const client = makeClient(kind.version, kind.acts, () => assistant as Assistant);
      assistant = new Assistant(client, kind.acts);
      await client.connect(transport());
      try {
        // The failed delivery is made here through the assistant's own process, not counted.
        const args = { hireId: "hire_001", date: "2026-12-31", reason: "OTHER" };
        const preview = await client.callTool({ name: "terminate_hire", arguments: args });
        const token = (preview.structuredContent as { confirmationToken: string })
          .confirmationToken;
        await client.callTool({
          name: "terminate_hire",
          arguments: { ...args, confirmationToken: token },
        });
        await assistant.start();
        await requests(assistant, `${kind.version}-${kind.acts}`, false);
      } finally {
        await client.close();
      }
    });
  }
});

describe("discovery over Streamable HTTP (embedded sandbox)", () => {
  let server: HttpServerHandle;
  let mcpUrl: URL;
  beforeAll(async () => {
    // Four whole scenarios against one server within a minute: the rate budget is not under test.
    const config = httpConfig({
      useSandbox: true,
      rateLimitPerMinute: 10_000,
      sandboxRateLimitPerMinute: 0,
    });
    server = await startHttpServer(config, quietLogger(), "9.9.9");
    mcpUrl = new URL(`${server.url}/mcp`);
    await failOneDelivery((client) => client.connect(new StreamableHTTPClientTransport(mcpUrl)));
  });
  afterAll(() => server.close());

  for (const kind of kinds) {
    it(`finds and completes four requests: ${kind.version}, a client that ${kind.acts ? "acts on" : "ignores"} list_changed`, async () => {
      let assistant: Assistant | undefined;
      const client = makeClient(kind.version, kind.acts, () => assistant as Assistant);
      assistant = new Assistant(client, kind.acts);
      await client.connect(new StreamableHTTPClientTransport(mcpUrl));
      try {
        await assistant.start();
        await requests(assistant, `${kind.version}-${kind.acts}`, true);
      } finally {
        await client.close();
      }
    });
  }
});
