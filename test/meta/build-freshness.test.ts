// The end-to-end tests run dist/cli.js; test/global-setup.ts rebuilds it when src/ is newer, so a
// change to a handler shows in them without a manual `npm run build`. These check that rule.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD_OUTPUT, ensureBuilt, staleBecause } from "../helpers/build.js";

const T0 = new Date("2026-01-01T00:00:00Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** A project folder with src/tools/a.ts at t=0 and, when `builtAt` is given, dist/cli.js then. */
function project(builtAt?: number): string {
  const root = mkdtempSync(path.join(tmpdir(), "workforce-build-"));
  mkdirSync(path.join(root, "src/tools"), { recursive: true });
  writeFileSync(path.join(root, "src/tools/a.ts"), "export {};\n");
  writeFileSync(path.join(root, "package.json"), "{}\n");
  for (const file of ["src/tools/a.ts", "src/tools", "src", "package.json"]) {
    utimesSync(path.join(root, file), at(0), at(0));
  }
  if (builtAt !== undefined) writeBuild(root, builtAt);
  return root;
}

function writeBuild(root: string, seconds: number): void {
  mkdirSync(path.join(root, "dist"), { recursive: true });
  writeFileSync(path.join(root, BUILD_OUTPUT), "// built\n");
  utimesSync(path.join(root, BUILD_OUTPUT), at(seconds), at(seconds));
}

describe("when dist/ counts as stale", () => {
  it("is stale with no build, fresh after one, stale again once a source file changes", () => {
    const root = project();
    expect(staleBecause(root)).toMatch(/dist\/cli\.js is missing/);
    writeBuild(root, 10);
    expect(staleBecause(root)).toBeUndefined();
    utimesSync(path.join(root, "src/tools/a.ts"), at(20), at(20));
    expect(staleBecause(root)).toMatch(/^src changed/);
    rmSync(root, { recursive: true, force: true });
  });

  it("counts a deleted source file and a changed package.json", () => {
    const root = project(10);
    rmSync(path.join(root, "src/tools/a.ts"));
    utimesSync(path.join(root, "src/tools"), at(20), at(20));
    expect(staleBecause(root)).toMatch(/^src changed/);

    const other = project(10);
    utimesSync(path.join(other, "package.json"), at(20), at(20));
    expect(staleBecause(other)).toMatch(/^package\.json changed/);
    rmSync(root, { recursive: true, force: true });
    rmSync(other, { recursive: true, force: true });
  });

  it("builds once when two runs find it stale at the same moment, and not at all when fresh", async () => {
    const root = project();
    let builds = 0;
    const build = async () => {
      builds++;
      // Still building when the other run asks for the lock.
      await new Promise((resolve) => setImmediate(resolve));
      writeBuild(root, 10);
    };
    const results = await Promise.all([ensureBuilt(root, build), ensureBuilt(root, build)]);
    expect(builds).toBe(1);
    expect(results.sort()).toEqual(["built", "fresh"]);
    expect(await ensureBuilt(root, build)).toBe("fresh");
    expect(builds).toBe(1);
    rmSync(root, { recursive: true, force: true });
  });
});

describe("this run", () => {
  it("runs a dist/ built after the last change to src/ (test/global-setup.ts built it if not)", () => {
    expect(staleBecause(process.cwd())).toBeUndefined();
  });
});
