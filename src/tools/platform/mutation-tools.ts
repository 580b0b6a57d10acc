// Which tool of this server makes each change the platform's API offers as a mutation, so
// describe_schema and query_platform can name it, or say plainly that none does.
// The table is generated from the tools' imports (`npm run generate:tools`), never written by hand.
import { type Reach, reachOf } from "../reach.js";
import { MUTATION_TOOLS } from "./mutation-tools.generated.js";

/**
 * What the platform's public API cannot do that people ask for, and where a person does it: in the
 * server instructions, and in describe_schema's answer to a search for a change no mutation makes.
 * test/meta/cannot-do.test.ts checks it against the real schema.
 */
export const API_CANNOT =
  "The platform's public API cannot change a contract's rate or dates (so no extension), and a company cannot approve or reject payment requests through it; no tool or query here does these. Say so, and that a person does them in the platform's web app.";

/** The tool that makes this change, if one does. */
export function toolForMutation(field: string): string | undefined {
  return Object.hasOwn(MUTATION_TOOLS, field) ? MUTATION_TOOLS[field] : undefined;
}

/** Every mutation a tool sends, for the test that keeps this table whole. */
export function mappedMutations(): string[] {
  return Object.keys(MUTATION_TOOLS);
}

/**
 * One sentence: which tool makes the change (and how to reach it when it is not listed), that
 * whoever runs this server turned that tool off, or that none does and where a person makes it.
 */
export function whoMakes(field: string, reach?: Reach): string {
  const tool = toolForMutation(field);
  if (!tool) {
    return `no tool of this server makes ${field}; a person makes that change in the platform's web app`;
  }
  const how = reachOf(reach, tool);
  return how === undefined
    ? `whoever runs this server turned off its tool that makes ${field}; a person can make that change in the platform's web app`
    : `this server's ${tool} tool makes ${field}, with its checks, and the person's confirmation where the change needs one${how}`;
}
