// The tool wrapper, logging and instructions, with small tools of our own and no platform at all.

import type { ClientCapabilities } from "@modelcontextprotocol/client";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AuthenticationError } from "../../src/client/errors.js";
import type { PlatformClient } from "../../src/client/types.js";
import { parseConfig } from "../../src/config.js";
import { createLogger, type Logger, type LogLevel } from "../../src/logger.js";
import { createServer, SANDBOX_NOTICE, type SandboxInfo } from "../../src/server.js";
import { sealRequestState } from "../../src/state/sealing.js";
import { type AnyTool, defineTool, type ToolContext } from "../../src/tools/define-tool.js";
import { selectTools } from "../../src/tools/registry.js";
import { catalogOf } from "../../src/tools/tool-list.js";

const TOKEN = "wf_pat_wrapper_test_secret_0123456789";
const unusedClient = {} as PlatformClient;

let seen: ToolContext | undefined;
const probe = defineTool({
  name: "probe",
  title: "Probe",
  description: "Reports what the wrapper gave it.",
  toolset: "hires",
  instruction: "Test tool.",
  readme: { does: "Test tool." },
  inputSchema: { mode: z.enum(["ok", "progress", "elicit", "auth", "leak"]) },
  outputSchema: { mode: z.string(), answer: z.string().optional() },
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  async handler({ mode }, context) {
    seen = context;
    if (mode === "progress") {
      await context.reportProgress(1, 3, "first");
      await context.reportProgress(3, 3, "done");
    }
    if (mode === "auth") throw new AuthenticationError("Unauthenticated.");
    if (mode === "leak") return { structured: { mode, answer: TOKEN }, text: `token ${TOKEN}` };
    if (mode === "elicit") {
      const reply = context.formReply;
      if (reply) {
        const { action, content } = reply.answer;
        return {
          structured: { mode, answer: `${action}:${JSON.stringify(content)}` },
          text: "asked",
        };
      }
      if (!context.forms) return { structured: { mode, answer: "no elicitation" }, text: "none" };
      return {
        form: {
          message: "Sure?",
          requestedSchema: {
            type: "object",
            properties: { confirm: { type: "boolean" } },
            required: ["confirm"],
          },
          requestState: sealRequestState(context.sealingKey, {
            expiresAt: context.clock.now() + 60_000,
          }),
        },
      };
    }
    return { structured: { mode }, text: `mode ${mode}` };
  },
});
const writer = defineTool({
  ...probe,
  name: "writer",
  title: "Writer",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
});

interface Setup {
  client: Client;
  logger: Logger;
  lines: string[];
  /** Methods of every notification that reached the client's transport. */
  notifications: string[];
  close(): Promise<void>;
}

const open: Setup[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  seen = undefined;
});

async function setup(
  options: {
    tools?: AnyTool[];
    readOnly?: boolean;
    sandbox?: SandboxInfo;
    capabilities?: ClientCapabilities;
    /** stderr's level (WORKFORCE_LOG_LEVEL). */
    logLevel?: LogLevel;
  } = {},
): Promise<Setup> {
  const lines: string[] = [];
  const logger = createLogger(options.logLevel ?? "debug", (line) => {
    lines.push(line);
  });
  logger.addSecret(TOKEN);
  const config = { ...parseConfig(["--sandbox"], {}), readOnly: options.readOnly ?? false };
  const tools = options.tools ?? selectTools(config, [probe, writer]);
  const workforce = createServer(config, {
    client: unusedClient,
    logger,
    sandbox: options.sandbox,
    tools,
    catalog: catalogOf(tools),
  });
  const client = new Client(
    { name: "t", version: "0" },
    { capabilities: options.capabilities ?? {} },
  );
  if (options.capabilities?.elicitation) {
    client.setRequestHandler("elicitation/create", async (request) => ({
      action: "accept",
      content: { confirm: request.params.message === "Sure?" },
    }));
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await workforce.server.connect(b);
  await client.connect(a);
  const notifications: string[] = [];
  const deliver = a.onmessage;
  a.onmessage = (message, extra) => {
    if ("method" in message && !("id" in message)) notifications.push(message.method);
    deliver?.(message, extra);
  };
  const s = {
    client,
    logger,
    lines,
    notifications,
    close: async () => {
      await client.close();
      await workforce.close();
    },
  };
  open.push(s);
  return s;
}

describe("tool registration", () => {
  it("lists title, annotations and both schemas", async () => {
    const { client } = await setup();
    const { tools } = await client.listTools();
    const listed = tools.find((t) => t.name === "writer");
    expect(listed?.title).toBe("Writer");
    expect(listed?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(listed?.inputSchema.properties).toHaveProperty("mode");
    expect(listed?.outputSchema?.properties).toHaveProperty("answer");
  });

  it("--read-only leaves out every tool that changes something", async () => {
    const { client } = await setup({ readOnly: true });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["probe"]);
    expect(client.getInstructions()).toMatch(/read-only/);
  });

  it("returns text and structured content, with the sandbox notice first in sandbox mode", async () => {
    const plain = await setup();
    const result = await plain.client.callTool({ name: "probe", arguments: { mode: "ok" } });
    expect(result.structuredContent).toEqual({ mode: "ok" });
    expect(result.content).toEqual([{ type: "text", text: "mode ok" }]);

    const sandboxed = await setup({ sandbox: { identities: ["Full token: Ada"] } });
    const again = await sandboxed.client.callTool({ name: "probe", arguments: { mode: "ok" } });
    expect(again.content).toEqual([{ type: "text", text: `${SANDBOX_NOTICE}\nmode ok` }]);
    const failed = await sandboxed.client.callTool({ name: "probe", arguments: { mode: "auth" } });
    expect(JSON.stringify(failed.content)).toContain(SANDBOX_NOTICE);
  });

  it("turns a thrown platform error into an error result without structured content", async () => {
    const { client } = await setup();
    const result = await client.callTool({ name: "probe", arguments: { mode: "auth" } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.stringify(result.content)).toContain("Create a new personal access token");
  });

  it("redacts the token from text and structured content", async () => {
    const { client } = await setup();
    const result = await client.callTool({ name: "probe", arguments: { mode: "leak" } });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(result.structuredContent).toEqual({ mode: "leak", answer: "[redacted]" });
  });

  it("gives each call a live signal and the per-server state store", async () => {
    const { client } = await setup();
    await client.callTool({ name: "probe", arguments: { mode: "ok" } });
    const first = seen;
    await client.callTool({ name: "probe", arguments: { mode: "ok" } });
    expect(first?.signal.aborted).toBe(false);
    expect(seen?.store).toBe(first?.store);
    expect(seen?.sandbox).toBe(false);
  });
});

describe("progress", () => {
  it("reaches the client when it gave a progress token", async () => {
    const { client } = await setup();
    const progress: unknown[] = [];
    await client.callTool(
      { name: "probe", arguments: { mode: "progress" } },
      {
        onprogress: (p) => progress.push(p),
      },
    );
    expect(progress).toEqual([
      { progress: 1, total: 3, message: "first" },
      { progress: 3, total: 3, message: "done" },
    ]);
  });

  it("is not sent without a progress token", async () => {
    const { client, notifications } = await setup();
    const result = await client.callTool({ name: "probe", arguments: { mode: "progress" } });
    expect(result.isError).toBeFalsy();
    expect(notifications.filter((n) => n === "notifications/progress")).toEqual([]);
    // The same call with a token does produce them, so the filter above would see them.
    await client.callTool(
      { name: "probe", arguments: { mode: "progress" } },
      {
        onprogress: () => {},
      },
    );
    expect(notifications.filter((n) => n === "notifications/progress")).toHaveLength(2);
  });
});

describe("elicitation", () => {
  it("is offered only to clients that support it", async () => {
    const without = await setup();
    const none = await without.client.callTool({ name: "probe", arguments: { mode: "elicit" } });
    expect(none.structuredContent).toEqual({ mode: "elicit", answer: "no elicitation" });

    const withIt = await setup({ capabilities: { elicitation: {} } });
    const asked = await withIt.client.callTool({ name: "probe", arguments: { mode: "elicit" } });
    expect(asked.structuredContent).toEqual({ mode: "elicit", answer: 'accept:{"confirm":true}' });

    // A client that shows only URLs cannot show the server's forms.
    const urlOnly = await setup({ capabilities: { elicitation: { url: {} } } });
    const notAsked = await urlOnly.client.callTool({
      name: "probe",
      arguments: { mode: "elicit" },
    });
    expect(notAsked.structuredContent).toEqual({ mode: "elicit", answer: "no elicitation" });
  });
});

describe("logging", () => {
  it("forwards log lines as notifications at or above the level the client set", async () => {
    const { client, logger } = await setup();
    const messages: { level: string; data: unknown }[] = [];
    client.setNotificationHandler("notifications/message", (n) => {
      messages.push({ level: n.params.level, data: n.params.data });
    });
    await client.setLoggingLevel("warning");
    logger.info("quiet line");
    logger.warning("loud line", { token: TOKEN });
    await client.setLoggingLevel("debug");
    logger.debug("detail line");
    await client.ping(); // lets queued notifications arrive
    expect(messages).toEqual([
      { level: "warning", data: { message: "loud line", token: "[redacted]" } },
      { level: "debug", data: "detail line" },
    ]);
  });

  it("honours the client's debug level above stderr's error level, still redacting the token", async () => {
    const { client, logger, lines } = await setup({ logLevel: "error" });
    const messages: { level: string; data: unknown }[] = [];
    client.setNotificationHandler("notifications/message", (n) => {
      messages.push({ level: n.params.level, data: n.params.data });
    });
    logger.debug("before the client chose"); // until then, stderr's level
    await client.setLoggingLevel("debug");
    logger.debug(`sent Bearer ${TOKEN}`, { authorization: `Bearer ${TOKEN}` });
    logger.error("failed");
    await client.ping();
    expect(messages).toEqual([
      {
        level: "debug",
        data: { message: "sent Bearer [redacted]", authorization: "Bearer [redacted]" },
      },
      { level: "error", data: "failed" },
    ]);
    expect(lines).toEqual(["[workforce-mcp] error: failed\n"]);
  });

  it("stops forwarding when the session closes", async () => {
    const s = await setup();
    const messages: unknown[] = [];
    s.client.setNotificationHandler("notifications/message", (n) => {
      messages.push(n.params);
    });
    await s.close();
    s.logger.error("after close");
    expect(messages).toEqual([]);
    expect(s.lines.join("")).toContain("after close");
  });
});

describe("instructions", () => {
  it("explain how the tools fit together, and say plainly when it is the sandbox", async () => {
    const { client } = await setup({
      sandbox: { identities: ["The full token acts as Ada Admin."] },
    });
    const text = client.getInstructions() ?? "";
    expect(text).toMatch(/SANDBOX MODE/);
    expect(text).toContain("The full token acts as Ada Admin.");
    const real = await setup();
    expect(real.client.getInstructions()).not.toMatch(/sandbox/i);
  });
});
