// Every one-click install link, configuration snippet and `claude mcp add` line in the README is
// read here as its client would read it (the VS Code and Cursor links decoded, the JSON parsed, the
// command line split), and the server each describes is started from this clone (npx resolves the
// package to the clone itself, offline; /path/to/workforce-mcp is the clone) and listed through a
// real SDK client over stdio. A link of a form this test cannot read fails it.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";

const ROOT = process.cwd();
const README = readFileSync(path.join(ROOT, "README.md"), "utf8");
const CLONE = "/path/to/workforce-mcp";

/** A server as a client's configuration describes it. */
interface Described {
  from: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The links a client opens to install a server: VS Code's (or its web redirect) and Cursor's. */
const LINK =
  /(?:vscode(?:-insiders)?:|cursor:\/\/|https:\/\/(?:insiders\.)?vscode\.dev\/redirect)[^\s)<>"'`\]]*/g;

function server(from: string, config: Record<string, unknown>): Described {
  const {
    command,
    args = [],
    env = {},
    type,
  } = config as {
    command?: unknown;
    args?: unknown;
    env?: unknown;
    type?: unknown;
  };
  if (typeof command !== "string") throw new Error(`${from}: no command`);
  if (!Array.isArray(args) || !args.every((a) => typeof a === "string"))
    throw new Error(`${from}: args is not a list of strings`);
  if (type !== undefined && type !== "stdio") throw new Error(`${from}: type ${String(type)}`);
  return { from, command, args, env: env as Record<string, string> };
}

/** The server an install link names; throws for a link of any other form. */
function fromLink(link: string): Described {
  if (link.startsWith("https://")) {
    const inner = new URL(link).searchParams.get("url");
    if (!inner) throw new Error(`${link}: a VS Code redirect without url=`);
    return { ...fromLink(inner), from: link };
  }
  const vscode = /^vscode(?:-insiders)?:mcp\/install\?(.+)$/.exec(link);
  if (vscode) {
    const config = JSON.parse(decodeURIComponent(vscode[1] as string));
    expect(config.name, link).toBe("workforce");
    return server(link, config);
  }
  if (link.startsWith("cursor://anysphere.cursor-deeplink/mcp/install?")) {
    const url = new URL(link);
    expect(url.searchParams.get("name"), link).toBe("workforce");
    const config = url.searchParams.get("config");
    if (!config) throw new Error(`${link}: no config=`);
    return server(link, JSON.parse(Buffer.from(config, "base64").toString("utf8")));
  }
  throw new Error(`an install link this test cannot read: ${link}`);
}

/** Every server in the README's JSON snippets (mcpServers, or VS Code's servers and inputs). */
function fromSnippets(): Described[] {
  const found: Described[] = [];
  for (const [, body] of README.matchAll(/```json\n([\s\S]*?)```/g)) {
    const doc = JSON.parse(body as string) as {
      mcpServers?: Record<string, Record<string, unknown>>;
      servers?: Record<string, Record<string, unknown>>;
      inputs?: { id: string; type: string }[];
    };
    const inputs = new Set((doc.inputs ?? []).map((input) => input.id));
    for (const [name, config] of Object.entries(doc.mcpServers ?? doc.servers ?? {})) {
      const described = server(`the JSON snippet's ${name}: ${JSON.stringify(config)}`, config);
      // VS Code asks for ${input:id} values: each must be an input the same file declares.
      for (const value of Object.values(described.env)) {
        for (const [, id] of value.matchAll(/\$\{input:([^}]+)\}/g)) {
          expect(inputs.has(id as string), `${described.from}: input ${id}`).toBe(true);
        }
      }
      found.push(described);
    }
  }
  return found;
}

/** `claude mcp add <name> [-e KEY=VALUE]… -- <command> [args…]`, as Claude Code reads it. */
function fromClaudeAdd(line: string): Described {
  const words = line.trim().split(/\s+/);
  expect(words.slice(0, 3), line).toEqual(["claude", "mcp", "add"]);
  const env: Record<string, string> = {};
  let i = 3;
  let name: string | undefined;
  for (; i < words.length && words[i] !== "--"; i++) {
    const word = words[i] as string;
    if (word === "-e" || word === "--env") {
      const [key, ...value] = (words[++i] ?? "").split("=");
      env[key as string] = value.join("=");
    } else if (word === "--scope" || word === "-s") i++;
    else if (word.startsWith("-"))
      throw new Error(`${line}: an option this test cannot read: ${word}`);
    else if (name === undefined) name = word;
    else throw new Error(`${line}: a second name ${word}`);
  }
  expect(name, line).toBe("workforce");
  const [command, ...args] = words.slice(i + 1);
  if (words[i] !== "--" || !command) throw new Error(`${line}: no command after --`);
  return { from: line, command, args, env };
}

const links = [...README.matchAll(LINK)].map((m) => m[0]);
const adds = [...README.matchAll(/claude mcp add\s+[^`\n]+/g)].map((m) => m[0]);

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({ today: "2026-11-22", rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await sandbox?.close();
});

/** The described server as a person would fill it in: this clone, the sandbox as the platform. */
function filledIn(described: Described) {
  const fill = (value: string) => value.replaceAll(CLONE, ROOT);
  const env: Record<string, string> = {};
  for (const key of Object.keys(described.env)) {
    if (key === "WORKFORCE_API_URL") env[key] = sandbox.url;
    else if (key === "WORKFORCE_TOKEN") env[key] = sandbox.tokens.full;
    else throw new Error(`${described.from}: a setting this test does not fill in: ${key}`);
  }
  return { command: fill(described.command), args: described.args.map(fill), env };
}

async function start(described: Described) {
  const { command, args, env } = filledIn(described);
  const client = new Client({ name: "install-links", version: "0" });
  await client.connect(
    new StdioClientTransport({
      command,
      args,
      env: {
        ...env,
        WORKFORCE_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), "workforce-install-")),
        // npx must find the clone itself, never fetch a package from the registry.
        npm_config_offline: "true",
        npm_config_update_notifier: "false",
      },
      cwd: ROOT,
      stderr: "ignore",
    }),
  );
  return client;
}

describe("the README's install links, snippets and claude mcp add lines", () => {
  it("reads each one of a known form, and refuses any other (a check that can fail)", () => {
    expect(links.length).toBeGreaterThanOrEqual(3);
    expect(adds.length).toBeGreaterThanOrEqual(3);
    expect(() => fromLink("vscode:extension/some.extension")).toThrow(/cannot read/);
    expect(() => fromClaudeAdd("claude mcp add workforce --transport http x")).toThrow(
      /cannot read/,
    );
    for (const link of links) fromLink(link);
    for (const line of adds) fromClaudeAdd(line);
    expect(fromSnippets().length).toBeGreaterThanOrEqual(3);
  });

  const described = (): Described[] => [
    ...links.map(fromLink),
    ...fromSnippets(),
    ...adds.map(fromClaudeAdd),
  ];

  it("starts the server each describes, from this clone, and lists its tools", async () => {
    const all = described();
    // One start per distinct server: the same command, arguments and settings.
    const distinct = new Map<string, Described[]>();
    for (const d of all) {
      const key = JSON.stringify([d.command, d.args, Object.keys(d.env).sort()]);
      distinct.set(key, [...(distinct.get(key) ?? []), d]);
    }
    expect(distinct.size).toBeGreaterThanOrEqual(3);
    // Each start runs npx or node and the server: slow on a busy machine, hence the test's timeout.
    for (const [, same] of distinct) {
      const first = same[0] as Described;
      const client = await start(first);
      try {
        const { tools } = await client.listTools();
        expect(
          tools.map((t) => t.name),
          first.from,
        ).toContain("search_hires");
        const onPlatform = "WORKFORCE_API_URL" in first.env;
        expect(client.getInstructions() ?? "", first.from).toMatch(
          onPlatform ? /^(?![\s\S]*SANDBOX MODE)/ : /SANDBOX MODE/,
        );
        const accounts = await client.callTool({ name: "list_accounts", arguments: {} });
        const text = (accounts.content as { text: string }[]).map((c) => c.text).join("\n");
        expect(text, first.from).toContain("Maja Lindqvist");
      } finally {
        await client.close();
      }
    }
  }, 120_000);
});
