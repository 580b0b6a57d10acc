// The bundle manifest must stay a valid MCPB manifest that starts the built CLI. Its `tools` and
// `prompts` entries are written from the registries (npm run generate:tools;
// test/meta/generated-tool-files.test.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LATEST_MANIFEST_VERSION, MANIFEST_SCHEMAS } from "@anthropic-ai/mcpb";
import { describe, expect, it } from "vitest";

const MANIFEST = join(process.cwd(), "manifest.json");
// mcpb substitutes `${name}` placeholders when it starts the server.
const mcpb = (name: string) => `\${${name}}`;
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));

describe("manifest.json", () => {
  const manifest = readJson(MANIFEST);

  it("uses the newest manifest version mcpb knows, and passes its schema", () => {
    expect(manifest.manifest_version).toBe(LATEST_MANIFEST_VERSION);
    const result = MANIFEST_SCHEMAS[LATEST_MANIFEST_VERSION].safeParse(manifest);
    expect(result.error?.issues ?? []).toEqual([]);
  });

  it("lists a fixed set of prompts whose texts fill in only their own arguments", () => {
    // prompts_generated would tell clients the server makes up prompts beyond these; it does not.
    expect(manifest.prompts_generated).not.toBe(true);
    expect(manifest.prompts.length).toBeGreaterThan(0);
    for (const prompt of manifest.prompts) {
      const used = [...prompt.text.matchAll(/\$\{arguments\.([^}]*)\}/g)].map((m) => m[1]);
      expect(used, prompt.name).toEqual(prompt.arguments ?? []);
      expect(prompt.text.replaceAll(/\$\{arguments\.[^}]*\}/g, ""), prompt.name).not.toContain(
        "${",
      );
    }
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
