import type { ResolverMap } from "./context.js";
import type { SandboxData } from "./seed/index.js";

/**
 * One area of the platform in the sandbox (payment requests, talent pool, jobs, ...): its slice of
 * the schema, its resolvers and its seeded records, kept together in `src/sandbox/domains/<name>/`.
 */
export interface SandboxDomain {
  name: string;
  /**
   * SDL fragment: its own types, plus `extend type Query`, `extend type Mutation` or `extend type
   * Hire` for fields it adds to others. Same names and types as the real schema.
   */
  typeDefs: string;
  resolvers: ResolverMap;
  /** Adds this domain's records to freshly seeded data; `rand` is the seed's deterministic PRNG. */
  seed?(data: SandboxData, rand: () => number): void;
}
