import type { SandboxDomain } from "../../domain.js";
import { hireDetailsResolvers } from "./resolvers.js";
import { hireDetailsTypeDefs } from "./schema.js";
import { seedHireDetails } from "./seed.js";

/** A hire's owners, compliance rows and PO number; custom fields on contracts; projects. */
export const hireDetailsDomain: SandboxDomain = {
  name: "hire-details",
  typeDefs: hireDetailsTypeDefs,
  resolvers: hireDetailsResolvers,
  seed: seedHireDetails,
};
