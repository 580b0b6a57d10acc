// What a start of the built server loads before its first tools/list answer: the bundle leaves out
// what a start does not need (tools, graphql, crypto), and forms, whose answers the SDK checks with
// its own validator, work.
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";

const cli = path.resolve(process.cwd(), "dist/cli.js");
const recorder = fileURLToPath(new URL("./fixtures/record-loads.mjs", import.meta.url));
// The code a configured start parses, in bytes: mostly the SDK's server package (both protocol
// versions, the stdio entry, their codecs and validators), the check of whether a client renders Apps, then the catalog of every tool, which
// grows with each tool even when it is reached through find_tools.
// Start-up time beside mcp-graphql is measured by `npm run bench`.
const START_CODE_BUDGET = 1100 * 1024;

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let client: Client;
let record: string;
let forms = 0;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error("dist/cli.js is missing: run `npm run build` first.");
  sandbox = await startSandbox({ today: "2026-11-22", rateLimitPerMinute: 0 });
  const dir = mkdtempSync(path.join(tmpdir(), "workforce-start-path-"));
  record = path.join(dir, "loads.txt");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", recorder, cli],
    env: {
      WORKFORCE_API_URL: sandbox.url,
      WORKFORCE_TOKEN: sandbox.tokens.full,
      WORKFORCE_CONFIG_DIR: dir,
      RECORD_LOADS: record,
    },
    cwd: dir,
    stderr: "ignore",
  });
  client = new Client(
    { name: "start-path", version: "0" },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler("elicitation/create", () => {
    forms += 1;
    return { action: "accept", content: { confirm: false } };
  });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

/** Each file loaded before the first tools/list answer, with the modules its chunk holds. */
function startFiles() {
  const lines = readFileSync(record, "utf8").split("\n");
  const files = lines.filter((l) => l.startsWith("file ")).map((l) => fileURLToPath(l.slice(5)));
  const builtins = lines.filter((l) => l.startsWith("builtin ")).map((l) => l.slice(8));
  return { files, builtins };
}

describe("a configured start of the built server", () => {
  it("lists its first tools while loading none of them, nor graphql or node:crypto", async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(12);
    const { files, builtins } = startFiles();
    const code = files.map((file) => readFileSync(file, "utf8")).join("\n");
    // esbuild marks each bundled module with a `// path` line.
    for (const absent of [
      "// node_modules/graphql/",
      "// node_modules/graphql-request/",
      "// node_modules/zod/v4/core/compile.js",
      "// src/sandbox/",
      "// src/prompts/",
      "// src/tools/hires/",
      "// src/tools/confirmation.ts",
      "// src/tools/tool-error.ts",
      "// src/tools/answer-budget.ts",
      "// src/client/schema/introspection.ts",
      "// src/client/timesheet-payload-schema.ts",
    ]) {
      expect(code, absent).not.toContain(absent);
    }
    expect(builtins).not.toContain("crypto");
    expect(builtins).not.toContain("zlib");
    expect(builtins).not.toContain("http");
    const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
    console.info(`a configured start loads ${files.length} files, ${Math.round(bytes / 1024)} KB`);
    expect(bytes).toBeLessThan(START_CODE_BUDGET);
  });

  it("still shows a confirmation form and checks its answer", async () => {
    const result = await client.callTool({
      name: "terminate_hire",
      arguments: { hireId: "hire_001", date: "2026-12-31", reason: "OTHER" },
    });
    const text = (result.content as { text: string }[]).map((c) => c.text).join("\n");
    expect(forms).toBe(1);
    expect(text).toContain("Not confirmed (the box was left unticked): nothing was changed.");
    expect(sandbox.countRequests("TerminateHire")).toBe(0);
  });
});
