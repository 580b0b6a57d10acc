// How an operation is declared: its name, its document, and what
// a mutation does to what exists (test/meta/annotations.test.ts derives each tool's hints from it).
// Its result and variables types come from the generated registry by that name, so a new
// operation's name is a type error until `npm run generate:operations` has written its types (the
// generator runs without type checks, so it is never stopped by them).
import type { OperationTypes } from "../operation-types.generated.js";
import type { MutationEffect, Operation } from "../types.js";

/** The name inside the document, as the registry knows it. */
type OperationName = keyof OperationTypes;

type Typed<N extends OperationName> = Operation<
  OperationTypes[N]["data"],
  OperationTypes[N]["variables"]
>;

export function query<N extends OperationName>(name: N, document: string): Typed<N> {
  return { name, document, type: "query", safeToRepeat: true };
}

/** A mutation is sent once: after a lost answer the tool reads the platform back, never resends. */
export function mutation<N extends OperationName>(
  name: N,
  document: string,
  effect: MutationEffect,
): Typed<N> {
  return { name, document, type: "mutation", safeToRepeat: false, effect };
}
