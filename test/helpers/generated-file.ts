// A generated file is written by its test: with the update switch on, the test writes what it
// generated; otherwise it fails when the committed file differs (a missing file counts as stale).
import { readFileSync, writeFileSync } from "node:fs";
import { expect, it } from "vitest";

/** A committed file's text; "" when it is missing, which counts as stale. */
export function committedText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** Writes `expected` to `file` when `update`, else checks that the committed file is `expected`. */
export function itMatchesGenerated(
  title: string,
  file: string,
  expected: string,
  { update, how }: { update: boolean; how: string },
): void {
  if (update) {
    it("rewrites the generated file", () => {
      writeFileSync(file, expected);
      expect(readFileSync(file, "utf8")).toBe(expected);
    });
    return;
  }
  it(title, () => {
    expect(committedText(file), how).toBe(expected);
  });
}
