import type { SandboxDomain } from "../../domain.js";
import { paymentsResolvers } from "./resolvers.js";
import { paymentsTypeDefs } from "./schema.js";
import { seedPayments } from "./seed.js";

/** Payment requests (hours and money), their timesheets and daily registrations. */
export const paymentsDomain: SandboxDomain = {
  name: "payments",
  typeDefs: paymentsTypeDefs,
  resolvers: paymentsResolvers,
  seed: seedPayments,
};
