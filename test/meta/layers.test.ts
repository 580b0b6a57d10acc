// The layout reads top-down: cli → transports → server → tools and resources (and auth) → client →
// state, config, logger and web (the sign-in pages). Nothing imports upward, and tools and
// resources never import each other; a module both need lives below them. The sandbox is a
// program of its own beside the server.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(process.cwd(), "src");

/** Lower numbers sit higher; a module may import only its own layer's folder or lower ones. */
const LAYER: Record<string, number> = {
  "cli.ts": 0,
  transports: 1,
  "server.ts": 2,
  tools: 3,
  resources: 3,
  prompts: 3,
  auth: 3,
  sandbox: 3,
  client: 4,
  state: 5,
  "config.ts": 5,
  config: 5,
  "logger.ts": 5,
  // HTML pages, redirects and cookies of the sign-in pages (the team server's and the sandbox's).
  web: 5,
};

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

const topOf = (file: string) => relative(SRC, file).split("/")[0] as string;

const edges: { from: string; to: string }[] = [];
for (const file of sourceFiles(SRC)) {
  const text = readFileSync(file, "utf8");
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
    const target = resolve(dirname(file), (match[1] as string).replace(/\.js$/, ".ts"));
    edges.push({ from: relative(SRC, file), to: relative(SRC, target) });
  }
}

describe("the source layout", () => {
  it("knows the layer of every top-level folder and file", () => {
    const unknown = [
      ...new Set(edges.flatMap((e) => [e.from, e.to]).map((p) => p.split("/")[0])),
    ].filter((top) => top !== undefined && LAYER[top] === undefined);
    expect(unknown).toEqual([]);
  });

  it("never imports upward, nor between tools, resources, auth and the sandbox", () => {
    const upward = edges.filter(({ from, to }) => {
      const a = topOf(join(SRC, from));
      const b = topOf(join(SRC, to));
      if (a === b) return false;
      const la = LAYER[a] ?? -1;
      const lb = LAYER[b] ?? -1;
      return lb < la || (lb === la && lb === 3);
    });
    expect(upward.map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
  });
});
