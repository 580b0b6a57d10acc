// A function a reader takes in at once: none in src/ is over MAX_LINES lines (generated files
// aside). Functions, arrows, methods, accessors and constructors are each measured whole, from
// their first line to their last, nested functions included.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = resolve(process.cwd(), "src");
const MAX_LINES = 150;

/** Written by a generator, not by hand (the table "Generated files" in ARCHITECTURE.md). */
const GENERATED = new Set([
  "client/operation-types.generated.ts",
  "sandbox/resolver-types.generated.ts",
]);

/** Over the limit for now, by file and name, with the functions inside it: none. */
const ALLOWED = new Set<string>();

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration;

function isFunction(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The name a reader would look for: its own, or the variable, property or call it is given to. */
function nameOf(node: FunctionNode, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent))
    return `(function given to ${parent.expression.getText(source)})`;
  return "(anonymous function)";
}

interface Long {
  file: string;
  name: string;
  line: number;
  lines: number;
  /** The functions it stands in, outermost first. */
  within: string[];
}

/** The functions of one file over `maxLines` lines. */
function longFunctionsIn(file: string, text: string, maxLines: number): Long[] {
  const found: Long[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node, within: string[]): void => {
    if (!isFunction(node) || !node.body) {
      ts.forEachChild(node, (child) => visit(child, within));
      return;
    }
    const name = nameOf(node, source);
    const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
    const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
    const lines = last - first + 1;
    if (lines > maxLines) found.push({ file, name, line: first + 1, lines, within });
    ts.forEachChild(node, (child) => visit(child, [...within, name]));
  };
  visit(source, []);
  return found;
}

describe("function length", () => {
  const long = [...sourceFiles(SRC)]
    .map((path) => relative(SRC, path))
    .filter((file) => !GENERATED.has(file))
    .flatMap((file) => longFunctionsIn(file, readFileSync(join(SRC, file), "utf8"), MAX_LINES));

  it(`finds no function in src/ over ${MAX_LINES} lines, but those allowed for now`, () => {
    const over = long
      .filter((f) => ![...f.within, f.name].some((name) => ALLOWED.has(`${f.file} ${name}`)))
      .map((f) => `src/${f.file}:${f.line} ${f.name} is ${f.lines} lines; split it`);
    expect(over).toEqual([]);
  });

  it("allows only functions that are still over the limit", () => {
    const still = new Set(long.map((f) => `${f.file} ${f.name}`));
    expect([...ALLOWED].filter((entry) => !still.has(entry))).toEqual([]);
  });

  it("measures every kind of function whole, nested ones included (the check itself can fail)", () => {
    const text = [
      "export function outer() {", // 1
      "  const arrow = () => {", // 2
      "    return 1;",
      "",
      "",
      "  };", // 6: arrow is 5 lines
      "  return arrow;",
      "}", // 8: outer is 8 lines
      "class Long {",
      "  method() {", // 10
      "    const x = 1;",
      "",
      "",
      "",
      "    return x;",
      "  }", // 16: method is 7 lines
      "}",
      "call(function () {", // 18
      "",
      "",
      "",
      "",
      "});", // 23: 6 lines
      "const short = () => 1;",
    ].join("\n");
    const found = longFunctionsIn("long.ts", text, 4).map(
      (f) => `${[...f.within, f.name].join(" > ")}@${f.line}:${f.lines}`,
    );
    expect(found).toEqual([
      "outer@1:8",
      "outer > arrow@2:5",
      "method@10:7",
      "(function given to call)@18:6",
    ]);
  });
});
