// The sandbox types its records and arguments rather than asserting them: the type assertions in
// src/sandbox (`x as T` and `<T>x`, but not `as const`, which asserts nothing) stay at or below
// CEILING, generated files aside. Counted on the syntax tree, so strings and comments never count.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SANDBOX = resolve(process.cwd(), "src/sandbox");
// The one left is withArgs (context.ts), where the executor has checked the arguments.
const CEILING = 1;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".generated.ts")) yield path;
  }
}

const isConst = (type: ts.TypeNode) =>
  ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === "const";

/** The line (1-based) of each type assertion in one file. */
function castsIn(file: string, text: string): number[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !isConst(node.type)) {
      lines.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

describe("casts in src/sandbox", () => {
  it(`finds at most ${CEILING} type assertions outside generated files`, () => {
    const casts = [...sourceFiles(SANDBOX)].flatMap((path) =>
      castsIn(path, readFileSync(path, "utf8")).map(
        (line) => `src/sandbox/${relative(SANDBOX, path)}:${line}`,
      ),
    );
    if (casts.length > CEILING) {
      expect.fail(
        `${casts.length} type assertions in src/sandbox, over the ceiling of ${CEILING}; ` +
          `type these instead:\n${casts.join("\n")}`,
      );
    }
  });

  it("counts `as T` and `<T>x`, not `as const`, strings or comments (the check itself can fail)", () => {
    const text = [
      "const a = x as string;", // 1
      "const b = <number>y;", // 2
      "const c = [1, 2] as const;", // 3
      "// z as string, in a comment", // 4
      'const d = "acts as a bearer";', // 5
      "const e = (p as unknown) as Q;", // 6: two
      "/* w as W */ const f = 1;", // 7
      "const g = { k: h as string };", // 8
    ].join("\n");
    expect(castsIn("casts.ts", text)).toEqual([1, 2, 6, 6, 8]);
  });
});
