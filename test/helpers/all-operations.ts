// Every GraphQL operation the client can send: each export of a module in src/client/operations/
// that is an operation, by its export name. Read from the folder, so a new domain file is covered
// without being listed anywhere (the validation test, the generated types, the annotations test).
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { CHECK_HIRES_BATCH_SIZE } from "../../src/client/operations/core.js";
import type { Operation } from "../../src/client/types.js";

export type AnyOperation = Operation<unknown, Record<string, unknown>>;

const FOLDER = path.resolve(import.meta.dirname, "../../src/client/operations");

function isOperation(value: unknown): value is AnyOperation {
  if (typeof value !== "object" || value === null) return false;
  const { name, document, type } = value as Record<string, unknown>;
  return (
    typeof name === "string" &&
    typeof document === "string" &&
    (type === "query" || type === "mutation")
  );
}

/**
 * The operations built for a count of aliased lookups, with the count the generated types and the
 * validation use (test/client/operations.test.ts also builds other sizes).
 */
const BUILT: Record<string, number> = {
  checkHiresQuery: CHECK_HIRES_BATCH_SIZE,
  skillLookupQuery: 3,
};

async function collect(): Promise<Record<string, AnyOperation>> {
  const found: Record<string, AnyOperation> = {};
  const files = readdirSync(FOLDER)
    .filter((file) => file.endsWith(".ts"))
    .sort();
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(FOLDER, file)).href)) as Record<
      string,
      unknown
    >;
    for (const [name, exported] of Object.entries(module)) {
      let value = exported;
      if (typeof exported === "function" && /(Query|Mutation)$/.test(name)) {
        const count = BUILT[name];
        if (count === undefined) {
          throw new Error(`Say in test/helpers/all-operations.ts how to build ${name}.`);
        }
        value = exported(count);
      }
      if (!isOperation(value)) continue;
      const other = found[name];
      // index.ts re-exports core.ts: the same operation under the same name.
      if (other && other.document !== value.document)
        throw new Error(`Two operations are exported as ${name}.`);
      found[name] = value;
    }
  }
  return found;
}

export const allOperations = await collect();
