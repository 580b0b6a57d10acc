// Pins every tool's surface (name, title, description, schemas, annotations) as clients see it, so
// a change to what the assistant reads is always a reviewed diff. Regenerate: npm run snapshots:update
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { everyToolAsListed, snapshotOf } from "./tool-surface.js";

const DIR = join(process.cwd(), "test", "__snapshots__", "tools");
const UPDATE = process.env.UPDATE_SNAPSHOTS === "1";
const HOW = "The tool surface changed: run `npm run snapshots:update` and review the diff.";

const render = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const committed = () => {
  try {
    return readdirSync(DIR).filter((file) => file.endsWith(".json"));
  } catch {
    return [];
  }
};

describe("tool snapshots", async () => {
  const listed = await everyToolAsListed();

  if (UPDATE) {
    it("rewrites the snapshots from the registry", () => {
      rmSync(DIR, { recursive: true, force: true });
      mkdirSync(DIR, { recursive: true });
      for (const tool of listed)
        writeFileSync(join(DIR, `${tool.name}.json`), render(snapshotOf(tool)));
      expect(committed().length).toBe(listed.length);
    });
    return;
  }

  it("has exactly one snapshot per listed tool", () => {
    const expected = listed.map((tool) => `${tool.name}.json`).sort();
    expect(committed().sort(), HOW).toEqual(expected);
  });

  for (const tool of listed) {
    it(`${tool.name} matches its snapshot`, () => {
      let saved: string;
      try {
        saved = readFileSync(join(DIR, `${tool.name}.json`), "utf8");
      } catch {
        throw new Error(`No snapshot for ${tool.name}. ${HOW}`);
      }
      expect(render(snapshotOf(tool)), HOW).toBe(saved);
    });
  }
});
