// The built-schema cache of stateless HTTP servers: one build per platform and credential within
// the TTL, the least recently used dropped first when full, a failure never kept.
import { buildSchema, introspectionFromSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { createSchemaCache } from "../../src/client/schema/introspection.js";
import type { PlatformClient } from "../../src/client/types.js";

const introspection = introspectionFromSchema(buildSchema("type Query { hello: String }"));

function platform(fail = false) {
  const counted = { introspections: 0 };
  const client = {
    introspect: async () => {
      counted.introspections++;
      if (fail) throw new Error("platform down");
      return introspection;
    },
  } as unknown as PlatformClient;
  return { client, counted };
}

describe("the schema cache for servers made per request", () => {
  it("introspects once within the TTL and again after it", async () => {
    let now = 1_000_000;
    const cache = createSchemaCache({ ttlMs: 1_000, now: () => now });
    const { client, counted } = platform();
    const first = await cache.sourceFor("k", client).get();
    now += 1_000;
    expect(await cache.sourceFor("k", client).get()).toBe(first);
    expect(counted.introspections).toBe(1);
    now += 1;
    expect(await cache.sourceFor("k", client).get()).not.toBe(first);
    expect(counted.introspections).toBe(2);
  });

  it("drops the least recently used key first when it holds 16", async () => {
    const cache = createSchemaCache({ ttlMs: 60_000, now: () => 1_000_000 });
    const { client, counted } = platform();
    for (let i = 0; i < 16; i++) await cache.sourceFor(`k${i}`, client).get();
    await cache.sourceFor("k0", client).get(); // k0 used again: k1 is now the oldest
    await cache.sourceFor("k16", client).get();
    expect(counted.introspections).toBe(17);
    await cache.sourceFor("k0", client).get();
    expect(counted.introspections).toBe(17);
    await cache.sourceFor("k1", client).get();
    expect(counted.introspections).toBe(18);
  });

  it("keeps no failure: the next read asks the platform again", async () => {
    const cache = createSchemaCache({ now: () => 1_000_000 });
    const { client, counted } = platform(true);
    await expect(cache.sourceFor("k", client).get()).rejects.toThrow("platform down");
    await expect(cache.sourceFor("k", client).get()).rejects.toThrow("platform down");
    expect(counted.introspections).toBe(2);
  });
});
