// How an operation is declared: its name, its document, whether sending it twice is safe, and what
// a mutation does to what exists (test/meta/annotations.test.ts derives each tool's hints from it).
import type { MutationEffect, Operation } from "../types.js";

export function query<TData, TVariables extends Record<string, unknown>>(
  name: string,
  document: string,
): Operation<TData, TVariables> {
  return { name, document, type: "query", safeToRepeat: true };
}

export function mutation<TData, TVariables extends Record<string, unknown>>(
  name: string,
  document: string,
  safeToRepeat: boolean,
  effect: MutationEffect,
): Operation<TData, TVariables> {
  return { name, document, type: "mutation", safeToRepeat, effect };
}
