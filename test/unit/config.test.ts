import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../src/config.js";

describe("parseConfig", () => {
  it("uses the embedded sandbox when nothing is configured", () => {
    const config = parseConfig([], {});
    expect(config).toMatchObject({ command: "serve", transport: "stdio", useSandbox: true });
  });

  it("uses the platform when both URL and token are set, and strips a trailing /graphql", () => {
    const config = parseConfig([], {
      WORKFORCE_API_URL: "https://api.example.com/graphql/",
      WORKFORCE_TOKEN: "pat-123",
    });
    expect(config).toMatchObject({
      useSandbox: false,
      apiUrl: "https://api.example.com",
      token: "pat-123",
    });
  });

  it("--sandbox wins over a configured platform", () => {
    const config = parseConfig(["--sandbox"], {
      WORKFORCE_API_URL: "https://api.example.com",
      WORKFORCE_TOKEN: "pat-123",
    });
    expect(config.useSandbox).toBe(true);
  });

  it("says which variable is missing when only one is set", () => {
    expect(() => parseConfig([], { WORKFORCE_API_URL: "https://api.example.com" })).toThrow(
      /WORKFORCE_TOKEN is not set/,
    );
    expect(() => parseConfig([], { WORKFORCE_TOKEN: "pat-123" })).toThrow(
      /WORKFORCE_API_URL is not set/,
    );
  });

  it("rejects unknown flags, bad ports and bad log levels with a ConfigError", () => {
    expect(() => parseConfig(["--nope"], {})).toThrow(ConfigError);
    expect(() => parseConfig(["--http", "--port", "99999"], {})).toThrow(/between 0 and 65535/);
    expect(() => parseConfig([], { WORKFORCE_LOG_LEVEL: "loud" })).toThrow(
      /log level must be one of/,
    );
    expect(() => parseConfig(["frobnicate"], {})).toThrow(/Unknown command/);
  });

  it("parses the sandbox subcommand with its own port default", () => {
    const config = parseConfig(["sandbox", "--rate-limit", "0"], {});
    expect(config).toMatchObject({ command: "sandbox", port: 0, sandboxRateLimitPerMinute: 0 });
  });

  it("reads HTTP flags and extra allowed hosts from flag and environment", () => {
    const config = parseConfig(["--http", "--port", "4000", "--allowed-hosts", "a.test, b.test"], {
      WORKFORCE_ALLOWED_HOSTS: "c.test",
    });
    expect(config).toMatchObject({
      transport: "http",
      port: 4000,
      allowedHosts: ["a.test", "b.test", "c.test"],
    });
  });
});
