// A start of the built server lists tools from the catalog the bundle carries, built from the
// registry at build time, and loads the tools only with the first call. This checks that what it
// lists is what the registry gives now.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Tool } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LISTED_FIRST } from "../../src/tools/reach.js";
import { tools } from "../../src/tools/registry.js";
import { listToolsAsClientSees } from "./tool-surface.js";

const cli = path.resolve(process.cwd(), "dist/cli.js");
let client: Client;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error("dist/cli.js is missing: run `npm run build` first.");
  const dir = mkdtempSync(path.join(tmpdir(), "workforce-catalog-"));
  const transport = new StdioClientTransport({
    command: process.execPath,
    // A default start, as listToolsAsClientSees() lists it.
    args: [cli, "--sandbox"],
    env: { PATH: process.env.PATH ?? "", WORKFORCE_CONFIG_DIR: dir },
    cwd: dir,
    stderr: "ignore",
  });
  client = new Client({ name: "tool-catalog", version: "0" });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
});

describe("the built server (run `npm run build` after changing a tool)", () => {
  it("lists every tool exactly as the registry gives it now", async () => {
    const listed: Tool[] = (await client.listTools()).tools;
    expect(listed).toEqual(await listToolsAsClientSees());
  });

  it("tells the assistant what each listed tool is for, and names the others", () => {
    const instructions = client.getInstructions() ?? "";
    const discovery = ["find_tools", "run_read_tool", "run_write_tool"];
    for (const tool of tools) {
      if (LISTED_FIRST.includes(tool.name) || discovery.includes(tool.name)) {
        expect(instructions, tool.name).toContain(`- ${tool.instruction}`);
      } else {
        expect(instructions, tool.name).not.toContain(`- ${tool.instruction}`);
        expect(instructions, tool.name).toMatch(new RegExp(`Also reachable.*\\b${tool.name}\\b`));
      }
    }
  });
});
