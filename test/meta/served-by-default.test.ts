// What a start with no settings serves, and what the toolsets setting changes, as manifest.json,
// server.json and the README tell it: each held to the config's own defaults, the registry and the
// list a start gives at first.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOLSETS } from "../../src/config/defaults.js";
import { parseConfig } from "../../src/config.js";
import { LISTED_FIRST } from "../../src/tools/reach.js";
import { tools } from "../../src/tools/registry.js";

const read = (file: string) => readFileSync(join(process.cwd(), file), "utf8");
const manifest = JSON.parse(read("manifest.json"));
const serverJson = JSON.parse(read("server.json"));
const readme = read("README.md");

const configDir = mkdtempSync(join(tmpdir(), "workforce-served-"));
const toolsetsWith = (env: Record<string, string>) =>
  parseConfig([], { WORKFORCE_CONFIG_DIR: configDir, ...env }).toolsets;
const namesIn = (toolsets: readonly string[]) =>
  tools.filter((tool) => toolsets.includes(tool.toolset)).map((tool) => tool.name);

const servedByDefault = toolsetsWith({});
const toolsetsVariable = serverJson.packages[0].environmentVariables.find(
  (v: { name: string }) => v.name === "WORKFORCE_TOOLSETS",
);

describe("what is served by default, and what the toolsets setting changes", () => {
  it("a start with no settings reaches every toolset, and lists only a core of its tools at first", () => {
    expect([...servedByDefault].sort()).toEqual([...TOOLSETS].sort());
    expect(LISTED_FIRST.length).toBeGreaterThan(0);
    expect(LISTED_FIRST.length).toBeLessThan(namesIn(servedByDefault).length);
  });

  it("manifest.json lists exactly the tools a start with its settings left empty serves", () => {
    // mcpb passes an empty setting as an empty variable.
    expect(toolsetsWith({ WORKFORCE_TOOLSETS: "" })).toEqual(servedByDefault);
    const listed = manifest.tools.map((tool: { name: string }) => tool.name);
    for (const name of namesIn(servedByDefault)) expect(listed).toContain(name);
    expect(manifest.server.mcp_config.env.WORKFORCE_TOOLSETS).toBe(`\${user_config.toolsets}`);
  });

  it("manifest.json, server.json and the README say every toolset is reached, a core listed, the rest found", () => {
    for (const text of [
      manifest.long_description,
      manifest.user_config.toolsets.description,
      toolsetsVariable.description,
    ]) {
      expect(text).toMatch(/every toolset/i);
      expect(text).toContain("find_tools");
      expect(text).not.toMatch(/opt-in|default all/i);
    }
    const configRow = readme.split("\n").find((line) => line.startsWith("| `WORKFORCE_TOOLSETS`"));
    expect(configRow).toContain("every toolset");
    expect(configRow).toContain("find_tools");
  });

  it("a shorter list reaches only those toolsets (what the texts say it does)", () => {
    expect(toolsetsWith({ WORKFORCE_TOOLSETS: "hires,timesheets" })).toEqual([
      "hires",
      "timesheets",
    ]);
  });
});
