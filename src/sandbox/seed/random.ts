// The seeded randomness of the sample data, and small number helpers.
import { itemAt } from "../records.js";

/** mulberry32: small, fast and good enough for sample data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws from one seeded sequence: every draw, in order, decides the data. */
export interface SeedRandom {
  rand: () => number;
  /** An integer from min to max, both included. */
  int: (min: number, max: number) => number;
  pick: <T>(items: readonly T[]) => T;
}

export function seedRandom(seed: number): SeedRandom {
  const rand = prng(seed);
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => itemAt(items, int(0, items.length - 1));
  return { rand, int, pick };
}

export const pad = (n: number, width = 3) => String(n).padStart(width, "0");
export const round2 = (n: number) => Math.round(n * 100) / 100;

export function dayDiff(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
}
