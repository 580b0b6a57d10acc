// Runs once per vitest run, before any test file: builds dist/ when src/ (or the build scripts,
// package.json, tsconfig) changed since dist/cli.js was written, so the end-to-end tests run the
// code as it is now. In watch mode, every rerun checks again.
import type { TestProject } from "vitest/node";
import { ensureBuilt } from "./helpers/build.js";

export default async function setup(project: TestProject): Promise<void> {
  const root = project.config.root;
  await ensureBuilt(root);
  project.onTestsRerun(async () => {
    await ensureBuilt(root);
  });
}
