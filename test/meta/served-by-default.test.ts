// What a start with no settings serves, and what the toolsets setting adds, as manifest.json,
// server.json and the README tell it: each held to the config's own defaults and the registry.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOLSETS } from "../../src/config/defaults.js";
import { parseConfig } from "../../src/config.js";
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
const optIn = TOOLSETS.filter((toolset) => !servedByDefault.includes(toolset));

describe("what is served by default, and what the toolsets setting adds", () => {
  it("some toolsets are opt-in (otherwise the texts below would say nothing)", () => {
    expect(optIn.length).toBeGreaterThan(0);
    expect(servedByDefault.length).toBeGreaterThan(0);
  });

  it("manifest.json lists exactly the tools a start with its settings left empty serves", () => {
    // mcpb passes an empty setting as an empty variable.
    expect(toolsetsWith({ WORKFORCE_TOOLSETS: "" })).toEqual(servedByDefault);
    expect(manifest.tools.map((tool: { name: string }) => tool.name)).toEqual(
      namesIn(servedByDefault),
    );
    expect(manifest.server.mcp_config.env.WORKFORCE_TOOLSETS).toBe(`\${user_config.toolsets}`);
  });

  it("the value the texts give for everything (default plus the opt-in ones) serves every toolset", () => {
    const everything = `default,${optIn.join(",")}`;
    expect([...toolsetsWith({ WORKFORCE_TOOLSETS: everything })].sort()).toEqual(
      [...TOOLSETS].sort(),
    );
    for (const text of [
      manifest.user_config.toolsets.description,
      serverJson.packages[0].environmentVariables.find(
        (v: { name: string }) => v.name === "WORKFORCE_TOOLSETS",
      ).description,
      readme,
    ]) {
      expect(text).toContain(everything);
    }
  });

  it("manifest.json, server.json and the README name the opt-in toolsets as such", () => {
    const plain = `the opt-in ${optIn.join(" and ")}`;
    const quoted = `the opt-in ${optIn.map((toolset) => `\`${toolset}\``).join(" and ")}`;
    const toolsetsVariable = serverJson.packages[0].environmentVariables.find(
      (v: { name: string }) => v.name === "WORKFORCE_TOOLSETS",
    );
    expect(manifest.long_description).toContain(plain);
    expect(manifest.user_config.toolsets.description).toContain(plain);
    expect(toolsetsVariable.description).toContain(plain);
    expect(toolsetsVariable.description).not.toMatch(/default all/i);
    const configRow = readme.split("\n").find((line) => line.startsWith("| `WORKFORCE_TOOLSETS`"));
    expect(configRow).toContain(quoted);
  });
});
