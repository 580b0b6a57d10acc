// What a tool can send, read from its source: the operations its module, and the src/tools modules
// it imports, import by name from src/client/operations. The annotations meta-test derives each
// tool's hints from it, and `npm run generate:tools` the table of which tool makes which change.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Kind, parse } from "graphql";
import ts from "typescript";
import { type AnyOperation, allOperations } from "./all-operations.js";

const TOOLS_DIR = path.resolve("src/tools");
const OPERATIONS_DIR = path.resolve("src/client/operations");
const operationsByExport = new Map<string, AnyOperation>(Object.entries(allOperations));

/** The value imports of a module: each resolved file with the names it takes (types left out). */
function valueImports(file: string): { file: string; names: string[] }[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const found: { file: string; names: string[] }[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const clause = statement.importClause;
    if (!clause || clause.isTypeOnly) continue;
    if (!ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const spec = statement.moduleSpecifier.text;
    if (!spec.startsWith(".")) continue;
    const bindings = clause.namedBindings;
    const names =
      bindings && ts.isNamedImports(bindings)
        ? bindings.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text)
        : [];
    const resolved = path.resolve(path.dirname(file), spec).replace(/\.js$/, ".ts");
    found.push({ file: resolved, names });
  }
  return found;
}

/** The operations a module can send: those it, or a src/tools module it imports, imports by name. */
export function operationsOf(file: string, seen = new Set<string>()): Set<AnyOperation> {
  const operations = new Set<AnyOperation>();
  seen.add(file);
  for (const imported of valueImports(file)) {
    if (imported.file.startsWith(OPERATIONS_DIR + path.sep)) {
      for (const name of imported.names) {
        const operation = operationsByExport.get(name);
        if (operation) operations.add(operation);
      }
    } else if (
      imported.file.startsWith(TOOLS_DIR + path.sep) &&
      !/registry(\.generated)?\.ts$/.test(imported.file) &&
      !seen.has(imported.file)
    ) {
      for (const operation of operationsOf(imported.file, seen)) operations.add(operation);
    }
  }
  return operations;
}

/** Where a tool is defined: src/tools/<toolset>/<verb-noun>.ts (docs/adding-tools.md). */
export const fileOf = (tool: { name: string; toolset: string }) =>
  path.join(TOOLS_DIR, tool.toolset, `${tool.name.replaceAll("_", "-")}.ts`);

/** The root fields an operation's document selects: for a mutation, the changes it makes. */
export function rootFields(operation: AnyOperation): string[] {
  return parse(operation.document).definitions.flatMap((d) =>
    d.kind === Kind.OPERATION_DEFINITION
      ? d.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []))
      : [],
  );
}
