import type { GraphQLSchema } from "graphql";
import { LRUCache } from "lru-cache";
import type { StateStore } from "../../state/store.js";
import type { PlatformClient } from "../types.js";

// graphql loads with the first schema built, not when the server starts (docs/performance.md).
const build = () => import("./build.js");

/**
 * The platform's schema, introspected once on first use and then kept. Resources and tools share
 * one per server (and HTTP sessions on the same platform and token share one between servers).
 */
export interface SchemaSource {
  get(signal?: AbortSignal): Promise<GraphQLSchema>;
}

export function createSchemaSource(client: PlatformClient): SchemaSource {
  let pending: Promise<GraphQLSchema> | undefined;
  return {
    get(signal) {
      if (!pending) {
        pending = Promise.all([client.introspect({ signal }), build()]).then(([raw, m]) =>
          m.schemaFromIntrospection(raw),
        );
        // A failure is not cached: the next read asks the platform again.
        pending.catch(() => {
          pending = undefined;
        });
      }
      return pending;
    },
  };
}

/** How long a schema introspected by one replica serves the others (and this one) before a fresh look. */
const SCHEMA_CACHE_TTL_MS = 60 * 60_000;
/** How many platforms and credentials one process keeps a built schema for (each is large). */
const SCHEMA_CACHE_ENTRIES = 16;
/** Marks a stored introspection answer as gzipped JSON in base64. */
const GZIP_BASE64 = "gzip:";

export interface SchemaCache {
  /**
   * The schema source for `key` (a digest of the platform and credential, never a token): built at
   * most once per process and TTL, introspected with `client` only when no replica has it cached.
   */
  sourceFor(key: string, client: PlatformClient): SchemaSource;
}

/**
 * The introspection cache for servers created per request (stateless HTTP): a built schema per key
 * in this process, and the introspection answer in the state store, so that replicas introspect
 * once between them. A store that fails is skipped: the platform is asked instead.
 */
export function createSchemaCache(
  options: { store?: StateStore; ttlMs?: number; now?: () => number } = {},
): SchemaCache {
  const { store } = options;
  const ttlMs = options.ttlMs ?? SCHEMA_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  // The least recently used goes first when full; an entry older than the TTL is built again.
  // ttlResolution 0: every age is read from `now`, so an injected clock is followed exactly.
  const built = new LRUCache<string, Promise<GraphQLSchema>>({
    max: SCHEMA_CACHE_ENTRIES,
    ttl: ttlMs,
    ttlResolution: 0,
    perf: { now },
  });

  async function load(key: string, client: PlatformClient, signal?: AbortSignal) {
    const stored = await store?.get(`schema:${key}`).catch(() => undefined);
    if (stored?.startsWith(GZIP_BASE64)) {
      try {
        const { gunzipSync } = await import("node:zlib");
        const json = gunzipSync(Buffer.from(stored.slice(GZIP_BASE64.length), "base64"));
        return (await build()).schemaFromIntrospection(JSON.parse(json.toString("utf8")));
      } catch {
        // Unreadable: introspect again and overwrite it.
      }
    }
    const data = await client.introspect({ signal });
    const schema = (await build()).schemaFromIntrospection(data);
    // A schema's JSON is large and repetitive: gzip shrinks it well (docs/performance.md).
    if (!store) return schema;
    const { gzipSync } = await import("node:zlib");
    const packed = GZIP_BASE64 + gzipSync(JSON.stringify(data)).toString("base64");
    await store.set(`schema:${key}`, packed, ttlMs).catch(() => {});
    return schema;
  }

  return {
    sourceFor(key, client) {
      return {
        get(signal) {
          const cached = built.get(key);
          if (cached) return cached;
          const schema = load(key, client, signal);
          built.set(key, schema);
          // A failure is not cached: the next read asks again.
          schema.catch(() => {
            if (built.peek(key) === schema) built.delete(key);
          });
          return schema;
        },
      };
    },
  };
}
