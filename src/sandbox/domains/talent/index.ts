import type { SandboxDomain } from "../../domain.js";
import { talentResolvers } from "./resolvers.js";
import { talentTypeDefs } from "./schema.js";
import { seedTalent } from "./seed.js";

/** The talent pool: skills and trusted contacts (workers in a company's pool). */
export const talentDomain: SandboxDomain = {
  name: "talent",
  typeDefs: talentTypeDefs,
  resolvers: talentResolvers,
  seed: seedTalent,
};
