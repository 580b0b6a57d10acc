import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { createMemoryStore } from "./memory-store.js";
import type { StateStore } from "./store.js";

/**
 * The state store for this process: Redis when WORKFORCE_REDIS_URL is set (replicas share it),
 * otherwise one process's memory. Rejects with a readable error when Redis cannot be reached.
 */
export async function createStateStore(
  config: Pick<Config, "redisUrl">,
  logger: Logger,
): Promise<StateStore> {
  if (!config.redisUrl) return createMemoryStore();
  // Loaded only when used: the Redis client is not part of the default cold start.
  const { createRedisStore } = await import("./redis-store.js");
  return createRedisStore(config.redisUrl, logger);
}
