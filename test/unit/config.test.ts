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

describe("parseConfig refuses unsafe or impossible settings", () => {
  const platform = { WORKFORCE_API_URL: "https://api.example.com", WORKFORCE_TOKEN: "pat-123" };

  it.each([
    ["ftp://api.example.com", /must start with https:\/\/ or http:\/\/, not ftp:/],
    ["file:///etc/passwd", /must start with https:\/\/ or http:\/\/, not file:/],
    ["javascript:alert(1)", /must start with https:\/\/ or http:\/\/, not javascript:/],
    ["not a url", /must be a URL such as/],
    ["https://api.example.com/?x=1", /query string/],
  ])("WORKFORCE_API_URL %s is refused", (url, message) => {
    expect(() => parseConfig([], { ...platform, WORKFORCE_API_URL: url })).toThrow(message);
  });

  it("refuses credentials in the URL without repeating them", () => {
    let message = "";
    try {
      parseConfig([], { ...platform, WORKFORCE_API_URL: "http://alice:s3cret-pw@api.example.com" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/must not contain a user name or password/);
    expect(message).not.toContain("s3cret-pw");
    expect(message).not.toContain("alice");
  });

  it.each([
    [
      "WORKFORCE_TIMEOUT_MS",
      "3000000000",
      /WORKFORCE_TIMEOUT_MS must be a whole number from 100 to 600000/,
    ],
    ["WORKFORCE_TIMEOUT_MS", "0", /WORKFORCE_TIMEOUT_MS must be a whole number from 100/],
    ["WORKFORCE_RATE_LIMIT", "1e9", /WORKFORCE_RATE_LIMIT must be a whole number from 1 to 10000/],
    ["WORKFORCE_MAX_SESSIONS", "0", /WORKFORCE_MAX_SESSIONS must be a whole number from 1/],
    [
      "WORKFORCE_SESSION_IDLE_MINUTES",
      "abc",
      /WORKFORCE_SESSION_IDLE_MINUTES must be a whole number/,
    ],
    [
      "WORKFORCE_MAX_RESPONSE_BYTES",
      "10",
      /WORKFORCE_MAX_RESPONSE_BYTES must be a whole number from 65536/,
    ],
    [
      "WORKFORCE_MAX_ANSWER_BYTES",
      "99999999999",
      /WORKFORCE_MAX_ANSWER_BYTES must be a whole number/,
    ],
  ])("%s=%s is out of range", (name, value, message) => {
    expect(() => parseConfig([], { ...platform, [name]: value })).toThrow(message);
  });

  it("MCP authorization: token passthrough is opt-in (--token-passthrough or WORKFORCE_TOKEN_PASSTHROUGH)", () => {
    const api = { WORKFORCE_API_URL: "https://api.example.com" };
    let message = "";
    try {
      parseConfig(["--http"], api);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/would pass each client's own platform token through to the platform/);
    expect(message).toMatch(/MCP authorization spec does not allow by default/);
    expect(message).toMatch(/Run with --auth oauth so that each person signs in/);
    expect(message).toMatch(/--token-passthrough \(WORKFORCE_TOKEN_PASSTHROUGH=1\)/);
    for (const [args, env] of [
      [["--http", "--token-passthrough"], api],
      [["--http"], { ...api, WORKFORCE_TOKEN_PASSTHROUGH: "1" }],
      [["--http"], { ...api, WORKFORCE_TOKEN_PASSTHROUGH: "true" }],
    ] as const) {
      expect(parseConfig([...args], env)).toMatchObject({
        transport: "http",
        useSandbox: false,
        token: undefined,
        tokenPassthrough: true,
      });
    }
    expect(parseConfig(["--http"], { ...api, WORKFORCE_TOKEN: "pat-1" }).tokenPassthrough).toBe(
      false,
    );
  });

  it("--trust-proxy takes what Express's trust proxy takes, and refuses anything else", () => {
    for (const value of ["loopback", "1", "10.0.0.0/8,127.0.0.1", "uniquelocal, ::1", "fd00::/8"]) {
      expect(parseConfig(["--http", "--trust-proxy", value], {}).trustProxy).toBe(value);
    }
    expect(parseConfig(["--http"], { WORKFORCE_TRUST_PROXY: "loopback" }).trustProxy).toBe(
      "loopback",
    );
    expect(parseConfig(["--http"], {}).trustProxy).toBeUndefined();
    for (const value of ["true", "everyone", "10.0.0.0/8/1", "10.0.0.0/999", "1.2.3"]) {
      expect(() => parseConfig(["--http", "--trust-proxy", value], {}), value).toThrow(
        /--trust-proxy must be loopback/,
      );
    }
  });

  it("MCP authorization: the sandbox and a server with its own token need no passthrough", () => {
    expect(parseConfig(["--http"], {})).toMatchObject({
      useSandbox: true,
      tokenPassthrough: false,
    });
    expect(parseConfig([], {}).useSandbox).toBe(true);
    expect(
      parseConfig(["--http", "--sandbox"], { WORKFORCE_API_URL: "https://x.test" }).useSandbox,
    ).toBe(true);
  });

  it("--token-passthrough is for HTTP only, and not beside WORKFORCE_TOKEN", () => {
    expect(() => parseConfig(["--token-passthrough"], platform)).toThrow(
      /--token-passthrough works with --http only/,
    );
    expect(() => parseConfig(["--http", "--token-passthrough"], platform)).toThrow(
      /--token-passthrough is set, but so is WORKFORCE_TOKEN/,
    );
  });

  it("over stdio without a token, the message points to a sign-in or --auth oauth, not to passthrough", () => {
    expect(() => parseConfig([], { WORKFORCE_API_URL: "https://api.example.com" })).toThrow(
      /serve a team with --http --auth oauth/,
    );
  });

  it("a .env file may not choose where a token from the real environment goes", () => {
    const dotenv = {
      path: "/home/someone/project/.env",
      values: {
        WORKFORCE_API_URL: "https://evil.example",
        WORKFORCE_ALLOWED_HOSTS: "evil.example",
      },
    };
    const realEnv = { WORKFORCE_TOKEN: "pat-123" };
    expect(() => parseConfig([], realEnv, dotenv)).toThrow(
      /WORKFORCE_API_URL and WORKFORCE_ALLOWED_HOSTS come from \/home\/someone\/project\/\.env but WORKFORCE_TOKEN comes from the environment/,
    );
    expect(() =>
      parseConfig([], realEnv, { ...dotenv, values: { WORKFORCE_ALLOWED_HOSTS: "evil.example" } }),
    ).toThrow(/WORKFORCE_ALLOWED_HOSTS comes from/);
  });

  it("WORKFORCE_TEAM_URL (--team-url): the team server's base address, https or this machine's http, for a local server with its own credential", () => {
    const platform = { WORKFORCE_API_URL: "https://api.example.com", WORKFORCE_TOKEN: "pat-123" };
    expect(
      parseConfig([], { ...platform, WORKFORCE_TEAM_URL: "https://mcp.example.com/mcp/" }).teamUrl,
    ).toBe("https://mcp.example.com");
    expect(parseConfig(["--team-url", "http://127.0.0.1:3333"], platform).teamUrl).toBe(
      "http://127.0.0.1:3333",
    );
    // The person's credential is sent there.
    expect(() =>
      parseConfig([], { ...platform, WORKFORCE_TEAM_URL: "http://mcp.example.com" }),
    ).toThrow(
      /WORKFORCE_TEAM_URL must start with https:\/\/ .*your platform credential is sent there/,
    );
    expect(() =>
      parseConfig(["--http", "--team-url", "https://mcp.example.com"], platform),
    ).toThrow(/WORKFORCE_TEAM_URL is for a local server \(stdio\)/);
    expect(() => parseConfig(["--team-url", "https://mcp.example.com"], {})).toThrow(
      /the embedded sandbox's token is no one's/,
    );
    expect(() =>
      parseConfig([], platform, {
        path: "/home/someone/project/.env",
        values: { WORKFORCE_TEAM_URL: "https://evil.example" },
      }),
    ).toThrow(/WORKFORCE_TEAM_URL comes from .* but WORKFORCE_TOKEN comes from the environment/);
  });

  it("a .env file may set everything when the token is in it too, and the real env wins", () => {
    const config = parseConfig(
      [],
      { WORKFORCE_LOG_LEVEL: "error" },
      {
        path: ".env",
        values: {
          WORKFORCE_API_URL: "https://api.example.com",
          WORKFORCE_TOKEN: "pat-from-file",
          WORKFORCE_LOG_LEVEL: "debug",
        },
      },
    );
    expect(config).toMatchObject({ token: "pat-from-file", logLevel: "error", useSandbox: false });
    // The same URL in both places redirects nothing.
    expect(
      parseConfig([], platform, { path: ".env", values: { WORKFORCE_API_URL: "https://x.test" } })
        .apiUrl,
    ).toBe("https://api.example.com");
  });
});
