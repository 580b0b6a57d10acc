// Examples in what the model reads show the shape of the platform's ids, never the sandbox's: an
// assistant that saw `hire_001` in a description offers ids of that shape on a real account.
import { describe, expect, it } from "vitest";
import { everyToolAsListed } from "./tool-surface.js";

/** The sandbox's id shapes (cmp_nordlys, hire_001, tc_012, …). */
const SANDBOX_ID = /\b(cmp|hire|tc|job|jc|bid|apr|inv|pr|ctr|wrk|usr|org)_[a-z0-9]+/g;

/** Every string in a JSON value: descriptions, examples, defaults. */
function* strings(value: unknown): Generator<string> {
  if (typeof value === "string") yield value;
  else if (value && typeof value === "object") {
    for (const item of Object.values(value)) yield* strings(item);
  }
}

describe("what the model reads of the tool list", async () => {
  const listed = await everyToolAsListed();

  it.each(listed.map((tool) => [tool.name, tool] as const))(
    "%s shows no sandbox-looking id",
    (_name, tool) => {
      const read = [tool.title ?? "", tool.description ?? "", ...strings(tool.inputSchema)];
      const found = read.flatMap((text) => text.match(SANDBOX_ID) ?? []);
      expect(found).toEqual([]);
    },
  );

  it("the pattern catches the sandbox's ids (a check that cannot fail is no check)", () => {
    const sample = 'Example: {"accounts": ["cmp_nordlys"], "hireId": "hire_001", "tc": "tc_012"}';
    expect(sample.match(SANDBOX_ID)).toEqual(["cmp_nordlys", "hire_001", "tc_012"]);
  });
});
