// server.json describes this server to the MCP registry (https://registry.modelcontextprotocol.io).
// No npm package ships the registry's JSON Schema, so the schema below restates the rules of its
// published 2025-12-11 schema for the fields server.json uses (required fields, name pattern, length
// limits, exact versions, transports, inputs). It is stricter in one way: unknown properties are
// refused, so a misspelt field fails here instead of being ignored by the registry.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { TOOLSETS } from "../../src/config/defaults.js";
import { USAGE } from "../../src/config.js";
import { LOG_LEVELS } from "../../src/logger.js";

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

const readJson = (file: string) => JSON.parse(readFileSync(join(process.cwd(), file), "utf8"));

const input = {
  type: "object",
  properties: {
    description: { type: "string" },
    isRequired: { type: "boolean" },
    format: { enum: ["string", "number", "boolean", "filepath"] },
    value: { type: "string" },
    isSecret: { type: "boolean" },
    default: { type: "string" },
    placeholder: { type: "string" },
    choices: { type: "array", items: { type: "string" } },
  },
  additionalProperties: false,
};
const keyValueInput = {
  type: "object",
  required: ["name"],
  properties: { ...input.properties, name: { type: "string", minLength: 1 } },
  additionalProperties: false,
};
// The registry refuses version ranges and "latest": a version names one release.
const exactVersion = {
  type: "string",
  minLength: 1,
  maxLength: 255,
  not: { anyOf: [{ const: "latest" }, { pattern: "^[\\^~<>=]|[ *]|\\.x(\\.|$)" }] },
};
const httpUrl = { type: "string", pattern: "^https?://[^\\s]+$" };

const serverJsonSchema = {
  type: "object",
  required: ["$schema", "name", "description", "version"],
  properties: {
    $schema: {
      const: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
    },
    name: {
      type: "string",
      pattern: "^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$",
      minLength: 3,
      maxLength: 200,
    },
    title: { type: "string", minLength: 1, maxLength: 100 },
    description: { type: "string", minLength: 1, maxLength: 100 },
    version: exactVersion,
    websiteUrl: { type: "string", format: "uri" },
    repository: {
      type: "object",
      required: ["url", "source"],
      properties: {
        url: { type: "string", format: "uri" },
        source: { type: "string" },
        id: { type: "string" },
        subfolder: { type: "string" },
      },
      additionalProperties: false,
    },
    packages: {
      type: "array",
      items: {
        type: "object",
        required: ["registryType", "identifier", "version", "transport"],
        properties: {
          registryType: { enum: ["npm", "pypi", "oci", "nuget", "mcpb"] },
          registryBaseUrl: { type: "string", format: "uri" },
          identifier: { type: "string", minLength: 1 },
          version: exactVersion,
          runtimeHint: { type: "string" },
          transport: {
            type: "object",
            required: ["type"],
            properties: { type: { const: "stdio" } },
            additionalProperties: false,
          },
          environmentVariables: { type: "array", items: keyValueInput },
        },
        additionalProperties: false,
      },
    },
    remotes: {
      type: "array",
      items: {
        type: "object",
        required: ["type", "url"],
        properties: {
          type: { enum: ["streamable-http", "sse"] },
          url: httpUrl,
          headers: { type: "array", items: keyValueInput },
          variables: { type: "object", additionalProperties: input },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};

describe("server.json for the MCP registry", () => {
  const server = readJson("server.json");
  const pkg = readJson("package.json");
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats(ajv);
  const validate = ajv.compile(serverJsonSchema);

  it("passes the registry's rules", () => {
    validate(server);
    expect(validate.errors ?? []).toEqual([]);
  });

  it("refuses what the registry refuses (the rules are live, not decorative)", () => {
    const bad = [
      { ...server, name: "workforce-mcp" },
      { ...server, description: "x".repeat(101) },
      { ...server, version: "^0.1.0" },
      { ...server, packages: [{ ...server.packages[0], version: "latest" }] },
      { ...server, remotes: [{ type: "streamable-http", url: "mcp.example.com/mcp" }] },
    ];
    for (const candidate of bad) expect(validate(candidate)).toBe(false);
  });

  it("names the npm package and version this repository publishes, over stdio", () => {
    expect(server.version).toBe(pkg.version);
    expect(server.packages).toEqual([
      expect.objectContaining({
        registryType: "npm",
        identifier: pkg.name,
        version: pkg.version,
        transport: { type: "stdio" },
      }),
    ]);
    // The registry checks that the published package claims this server by the same name.
    if (pkg.mcpName !== undefined) expect(pkg.mcpName).toBe(server.name);
  });

  it("describes each variable the CLI reads, marking the secrets", () => {
    const variables = server.packages[0].environmentVariables as {
      name: string;
      isSecret: boolean;
      description: string;
      choices?: string[];
      placeholder?: string;
    }[];
    const byName = new Map(variables.map((v) => [v.name, v]));
    for (const name of ["WORKFORCE_API_URL", "WORKFORCE_CLIENT_ID", "WORKFORCE_CLIENT_SECRET"])
      expect(byName.has(name), name).toBe(true);
    const secrets = variables.filter((v) => v.isSecret).map((v) => v.name);
    expect(secrets.sort()).toEqual(["WORKFORCE_CLIENT_SECRET", "WORKFORCE_TOKEN"]);
    for (const variable of variables) {
      // A variable the CLI does not read would be a setting that silently does nothing.
      expect(USAGE).toContain(`  ${variable.name} `);
      expect(variable.description.length).toBeGreaterThan(10);
    }
    expect(byName.get("WORKFORCE_LOG_LEVEL")?.choices).toEqual([...LOG_LEVELS]);
    const toolsets = byName.get("WORKFORCE_TOOLSETS")?.placeholder?.split(",") ?? [];
    for (const toolset of toolsets) expect(TOOLSETS).toContain(toolset);
  });

  it("offers the hosted mode as a remote whose address is the host's own", () => {
    expect(server.remotes).toEqual([
      expect.objectContaining({ type: "streamable-http", url: "https://{host}/mcp" }),
    ]);
    expect(server.remotes[0].variables.host).toMatchObject({ isRequired: true });
  });

  describe("the owner's fields, filled by scripts/set-owner.mjs before the first publish", () => {
    const run = (dir: string, ...args: string[]) =>
      spawnSync(process.execPath, [join(process.cwd(), "scripts", "set-owner.mjs"), ...args], {
        env: { ...process.env, WORKFORCE_PROJECT_DIR: dir },
        encoding: "utf8",
      });
    const copy = () => {
      const dir = mkdtempSync(join(tmpdir(), "wfmcp-owner-"));
      for (const file of ["package.json", "server.json"]) copyFileSync(file, join(dir, file));
      return dir;
    };

    it("stops `npm publish` while they are unset", () => {
      expect(pkg.scripts.prepublishOnly).toBe("node scripts/set-owner.mjs --check");
      const dir = copy();
      try {
        const check = run(dir, "--check");
        if (server.name.includes(".OWNER/")) {
          expect(check.status).toBe(1);
          expect(check.stderr).toContain("Not ready to publish");
          expect(check.stderr).toContain("package.json mcpName");
        } else {
          expect(check.status, check.stderr).toBe(0);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("fills them consistently, and server.json still passes the registry's rules", () => {
      const dir = copy();
      try {
        expect(run(dir, "not a name").status).toBe(2);
        const set = run(dir, "acme-co");
        expect(set.status, set.stderr).toBe(0);
        const filled = JSON.parse(readFileSync(join(dir, "server.json"), "utf8"));
        const filledPkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
        expect(filled.name).toBe("io.github.acme-co/workforce-mcp");
        expect(filledPkg.mcpName).toBe(filled.name);
        expect(filledPkg.repository).toEqual({
          type: "git",
          url: "git+https://github.com/acme-co/workforce-mcp.git",
        });
        expect(filledPkg.homepage).toBe("https://github.com/acme-co/workforce-mcp#readme");
        expect(filledPkg.bugs).toEqual({ url: "https://github.com/acme-co/workforce-mcp/issues" });
        expect(filled.repository).toEqual({
          url: "https://github.com/acme-co/workforce-mcp",
          source: "github",
        });
        validate(filled);
        expect(validate.errors ?? []).toEqual([]);
        // Everything else is as it was.
        expect({
          ...filled,
          name: server.name,
          repository: undefined,
          websiteUrl: undefined,
        }).toEqual({ ...server, repository: undefined, websiteUrl: undefined });
        expect(run(dir, "--check").status).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
