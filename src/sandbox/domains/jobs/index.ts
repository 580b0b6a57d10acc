import type { SandboxDomain } from "../../domain.js";
import { jobsResolvers } from "./resolvers.js";
import { jobsTypeDefs } from "./schema.js";
import { seedJobs } from "./seed.js";

/** Jobs with their candidates and bids; seeded after the talent pool, whose workers apply. */
export const jobsDomain: SandboxDomain = {
  name: "jobs",
  typeDefs: jobsTypeDefs,
  resolvers: jobsResolvers,
  seed: seedJobs,
};
