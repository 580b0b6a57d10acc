import type { SandboxDomain } from "../../domain.js";
import { webhooksResolvers } from "./resolvers.js";
import { webhooksTypeDefs } from "./schema.js";
import { seedWebhooks } from "./seed.js";

/** The companies' webhooks (`webhook`, `webhooks`), secrets included, for query_platform to refuse. */
export const webhooksDomain: SandboxDomain = {
  name: "webhooks",
  typeDefs: webhooksTypeDefs,
  resolvers: webhooksResolvers,
  seed: seedWebhooks,
};
