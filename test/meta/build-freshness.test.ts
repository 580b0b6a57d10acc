// The end-to-end tests run dist/cli.js; test/global-setup.ts rebuilds it when src/ is newer, so a
// change to a handler shows in them without a manual `npm run build`. These check that rule, and
// that a build that failed never counts as one.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD_MARK, ensureBuilt, projectWithTypeError, staleBecause } from "../helpers/build.js";

const T0 = new Date("2026-01-01T00:00:00Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** A project folder with src/tools/a.ts at t=0 and, when `builtAt` is given, a finished build then. */
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
  writeFileSync(path.join(root, "dist/cli.js"), "// built\n");
  writeFileSync(path.join(root, BUILD_MARK), "built\n");
  utimesSync(path.join(root, BUILD_MARK), at(seconds), at(seconds));
}

describe("when dist/ counts as stale", () => {
  it("is stale with no build, fresh after one, stale again once a source file changes", () => {
    const root = project();
    expect(staleBecause(root)).toMatch(/dist\/\.build-complete is missing/);
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

describe("a build that failed", () => {
  it("never counts as built, however new the dist/cli.js it left: the next run builds again", async () => {
    const root = project(10);
    let builds = 0;
    // What a failing `npm run build` leaves: its first step removed the mark, tsc wrote
    // dist/cli.js (it emits despite type errors), and the build stopped there.
    const failing = async () => {
      builds++;
      rmSync(path.join(root, BUILD_MARK));
      writeFileSync(path.join(root, "dist/cli.js"), "// tsc's output, not bundled\n");
      utimesSync(path.join(root, "src/tools/a.ts"), at(20), at(20));
      throw new Error("npm run build failed (exit 2)");
    };
    utimesSync(path.join(root, "src/tools/a.ts"), at(20), at(20));
    await expect(ensureBuilt(root, failing)).rejects.toThrow(/npm run build failed/);
    expect(staleBecause(root)).toMatch(/dist\/\.build-complete is missing/);

    await expect(ensureBuilt(root, async () => writeBuild(root, 30))).resolves.toBe("built");
    expect(builds).toBe(1);
    expect(staleBecause(root)).toBeUndefined();
    rmSync(root, { recursive: true, force: true });
  });

  it("the real build script takes the mark away when tsc fails, though tsc still wrote dist/cli.js", () => {
    const root = projectWithTypeError(["scripts/build.mjs", "scripts/lib"]);
    try {
      for (const file of [
        "src/cli.ts",
        "src",
        "package.json",
        "tsconfig.build.json",
        "scripts/build.mjs",
      ]) {
        utimesSync(path.join(root, file), at(0), at(0));
      }
      // An earlier build finished; this one starts after the bad edit.
      writeBuild(root, 10);
      expect(staleBecause(root)).toBeUndefined();

      const build = spawnSync(process.execPath, [path.join(root, "scripts/build.mjs")], {
        cwd: root,
        encoding: "utf8",
      });
      expect(build.status).not.toBe(0);
      expect(build.stdout).toMatch(/error TS2322/);
      expect(build.stderr).toMatch(/tsc failed; dist\/ is not built/);
      // Newer than every source file: by dist/cli.js alone, this would pass for a build.
      expect(existsSync(path.join(root, "dist/cli.js"))).toBe(true);
      expect(staleBecause(root)).toMatch(/dist\/\.build-complete is missing/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("this run", () => {
  it("runs a dist/ built after the last change to src/ (test/global-setup.ts built it if not)", () => {
    expect(staleBecause(process.cwd())).toBeUndefined();
  });
});
