import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../src/config.js";

const secret = "s3cret-Pa55word";
/** Replicas share Redis and one sealing key. */
const KEY = { WORKFORCE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64") };

describe("WORKFORCE_REDIS_URL and --stateless", () => {
  it("accepts redis:// and rediss:// with credentials and a database, and makes HTTP stateless", () => {
    for (const url of [
      "redis://127.0.0.1:6379",
      `redis://:${secret}@redis.internal:6379/2`,
      `rediss://team:${secret}@redis.example.com:6380`,
    ]) {
      const config = parseConfig(["--http"], { ...KEY, WORKFORCE_REDIS_URL: url });
      expect(config.redisUrl).toBe(url);
      expect(config.stateless).toBe(true);
    }
  });

  it("needs WORKFORCE_ENCRYPTION_KEY over HTTP, saying why: a form shown by one replica is completed on another", () => {
    expect(() =>
      parseConfig(["--http"], { WORKFORCE_REDIS_URL: "redis://127.0.0.1:6379" }),
    ).toThrow(
      /WORKFORCE_REDIS_URL \(several replicas\) needs WORKFORCE_ENCRYPTION_KEY.*completed on another/,
    );
    // One stdio process shares only the rate budget: its forms never leave it.
    expect(
      parseConfig([], {
        WORKFORCE_REDIS_URL: "redis://127.0.0.1:6379",
        WORKFORCE_API_URL: "https://api.example.com",
        WORKFORCE_TOKEN: "pat-123",
      }).redisUrl,
    ).toBe("redis://127.0.0.1:6379");
  });

  it("is off by default: sessions in one process, state in memory", () => {
    const config = parseConfig(["--http"], {});
    expect(config.redisUrl).toBeUndefined();
    expect(config.stateless).toBe(false);
    expect(parseConfig(["--http", "--stateless"], {}).stateless).toBe(true);
    expect(parseConfig(["--http"], { WORKFORCE_STATELESS: "true" }).stateless).toBe(true);
  });

  it("refuses other schemes, query strings and paths, never echoing the URL", () => {
    const cases: [string, RegExp][] = [
      [`http://user:${secret}@redis.example.com`, /must start with redis:\/\/ or rediss:\/\//],
      [`redis://:${secret}@redis.example.com:6379/?tls=true`, /query string/],
      [`redis://:${secret}@redis.example.com:6379/queue`, /database number/],
      [`not a url ${secret}`, /must be a URL/],
    ];
    for (const [url, message] of cases) {
      let error: unknown;
      try {
        parseConfig(["--http"], { WORKFORCE_REDIS_URL: url });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toMatch(/^WORKFORCE_REDIS_URL /);
      expect((error as Error).message).not.toContain(secret);
    }
  });

  it("may not come from .env when WORKFORCE_TOKEN comes from the real environment", () => {
    const realEnv = { WORKFORCE_API_URL: "https://api.example.com", WORKFORCE_TOKEN: "pat-123" };
    const dotenv = { path: "/work/.env", values: { WORKFORCE_REDIS_URL: "redis://evil:6379" } };
    expect(() => parseConfig(["--http"], realEnv, dotenv)).toThrow(
      /WORKFORCE_REDIS_URL comes from \/work\/\.env but WORKFORCE_TOKEN comes from the environment/,
    );
    // Both from the same place: fine.
    const both = parseConfig(
      ["--http"],
      {},
      { ...dotenv, values: { ...realEnv, ...KEY, ...dotenv.values } },
    );
    expect(both.redisUrl).toBe("redis://evil:6379");
    // No token in the environment (each client brings its own): the operator's .env may set it.
    const perClient = parseConfig(
      ["--http", "--token-passthrough"],
      { WORKFORCE_API_URL: "https://api.example.com", ...KEY },
      dotenv,
    );
    expect(perClient.redisUrl).toBe("redis://evil:6379");
  });

  it("--stateless is for HTTP only", () => {
    expect(() => parseConfig(["--stateless"], {})).toThrow(/--stateless works with --http only/);
  });
});
