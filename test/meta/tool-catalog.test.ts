// A start lists tools from the catalog the bundle carries, built from the registry at build time,
// and loads a tool only when it is first called. These checks keep the two from drifting apart.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { toolLoaders } from "../../src/tools/loaders.js";
import { tools } from "../../src/tools/registry.js";
import { catalogOf } from "../../src/tools/tool-list.js";

describe("the tool catalog", () => {
  it("has a loader for every registered tool, which loads that very definition", async () => {
    expect(Object.keys(toolLoaders)).toEqual(tools.map((tool) => tool.name));
    for (const tool of tools) expect(await toolLoaders[tool.name]?.(), tool.name).toBe(tool);
  });

  it("built into dist/ matches what the zod schemas give now", () => {
    const file = "dist/tool-catalog.json";
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first.`);
    const built = JSON.parse(readFileSync(file, "utf8"));
    // Through JSON, as the bundle embeds it.
    expect(built).toEqual(JSON.parse(JSON.stringify(catalogOf(tools))));
  });
});
