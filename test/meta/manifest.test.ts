// The bundle manifest must stay a valid MCPB manifest and list the tools the server really has.
// Its `tools` entries are generated (name + first line of the description): npm run manifest:update
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LATEST_MANIFEST_VERSION, MANIFEST_SCHEMAS } from "@anthropic-ai/mcpb";
import { describe, expect, it } from "vitest";
import { listToolsAsClientSees, manifestEntryOf } from "./tool-surface.js";

const MANIFEST = join(process.cwd(), "manifest.json");
// mcpb substitutes `${name}` placeholders when it starts the server.
const mcpb = (name: string) => `\${${name}}`;
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));

describe("manifest.json", async () => {
  const expectedTools = (await listToolsAsClientSees()).map(manifestEntryOf);

  if (process.env.UPDATE_MANIFEST === "1") {
    it("rewrites the tools list from the registry", () => {
      const manifest = readJson(MANIFEST);
      manifest.tools = expectedTools;
      writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
      expect(readJson(MANIFEST).tools).toEqual(expectedTools);
    });
    return;
  }

  const manifest = readJson(MANIFEST);

  it("uses the newest manifest version mcpb knows, and passes its schema", () => {
    expect(manifest.manifest_version).toBe(LATEST_MANIFEST_VERSION);
    const result = MANIFEST_SCHEMAS[LATEST_MANIFEST_VERSION].safeParse(manifest);
    expect(result.error?.issues ?? []).toEqual([]);
  });

  it("lists exactly the server's tools (run `npm run manifest:update` if not)", () => {
    expect(manifest.tools).toEqual(expectedTools);
  });

  it("carries the package's version", () => {
    expect(manifest.version).toBe(readJson(join(process.cwd(), "package.json")).version);
  });

  it("starts the built CLI and passes the platform settings as the env the CLI reads", () => {
    expect(manifest.server.entry_point).toBe("dist/cli.js");
    expect(manifest.server.mcp_config).toMatchObject({
      command: "node",
      args: [`${mcpb("__dirname")}/dist/cli.js`],
      env: {
        WORKFORCE_API_URL: mcpb("user_config.api_url"),
        WORKFORCE_TOKEN: mcpb("user_config.token"),
      },
    });
  });

  it("keeps the token secret and lets both settings stay empty for the sandbox", () => {
    const { api_url: apiUrl, token } = manifest.user_config;
    expect(token.sensitive).toBe(true);
    expect(apiUrl.sensitive).not.toBe(true);
    for (const setting of [apiUrl, token]) {
      expect(setting.required).toBe(false);
      expect(setting.default).toBe("");
      expect(setting.description).toMatch(/sandbox/);
    }
  });
});
