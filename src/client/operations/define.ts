// How an operation is declared: its name, its document, and whether sending it twice is safe.
import type { Operation } from "../types.js";

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
): Operation<TData, TVariables> {
  return { name, document, type: "mutation", safeToRepeat };
}
