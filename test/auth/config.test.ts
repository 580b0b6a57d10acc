// The sign-in settings in parseConfig: what login needs, what is refused, what .env may not set,
// and when a stored sign-in is used.
import { chmodSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSignInIndex, SignInStore } from "../../src/auth/store.js";
import { ConfigError, DEFAULTS, parseConfig } from "../../src/config.js";
import { madeUpSignIn, tempConfigDir } from "./helpers.js";

const oauth = {
  WORKFORCE_API_URL: "https://api.example.com",
  WORKFORCE_CLIENT_ID: "client-1",
  WORKFORCE_CLIENT_SECRET: "secret-value-1",
};
const dotenv = (values: Record<string, string>) => ({ path: "/project/.env", values });
const none = () => ({ apiUrls: [] as string[] });

describe("login, status and logout settings", () => {
  it("login takes the API URL, client and redirect URL; the auth URL defaults to the API's", () => {
    const config = parseConfig(["login"], oauth);
    expect(config).toMatchObject({
      command: "login",
      apiUrl: "https://api.example.com",
      authUrl: "https://api.example.com",
      clientId: "client-1",
      clientSecret: "secret-value-1",
      redirectUri: DEFAULTS.redirectUri,
      openBrowser: true,
    });
    const flagged = parseConfig(
      [
        "login",
        "--auth-url",
        "https://auth.example.com/oauth/authorize",
        "--redirect-uri",
        "http://localhost:8123/cb",
        "--no-browser",
      ],
      oauth,
    );
    expect(flagged).toMatchObject({
      authUrl: "https://auth.example.com",
      redirectUri: "http://localhost:8123/cb",
      openBrowser: false,
    });
  });

  it("login names every missing setting in one line", () => {
    expect(() => parseConfig(["login"], {})).toThrow(
      /login needs WORKFORCE_API_URL .*WORKFORCE_CLIENT_ID, WORKFORCE_CLIENT_SECRET/,
    );
    expect(() => parseConfig(["login"], { ...oauth, WORKFORCE_CLIENT_SECRET: "" })).toThrow(
      /login needs WORKFORCE_CLIENT_SECRET:/,
    );
  });

  it("refuses an auth URL or redirect URL that would send secrets or codes off this machine", () => {
    expect(() =>
      parseConfig(["login"], { ...oauth, WORKFORCE_AUTH_URL: "http://auth.example.com" }),
    ).toThrow(/WORKFORCE_AUTH_URL must start with https:\/\/ \(http:\/\/ only for 127\.0\.0\.1/);
    expect(() =>
      parseConfig(["login"], { ...oauth, WORKFORCE_API_URL: "http://api.example.com" }),
    ).toThrow(/defaults to WORKFORCE_API_URL; that is plain http on another machine/);
    expect(
      parseConfig(["login"], { ...oauth, WORKFORCE_AUTH_URL: "http://127.0.0.1:4000" }).authUrl,
    ).toBe("http://127.0.0.1:4000");
    for (const bad of [
      "https://127.0.0.1:8123/cb",
      "http://example.com:8123/cb",
      "http://127.0.0.1/cb",
      "http://127.0.0.1:8123/cb?x=1",
      "not a url",
    ]) {
      expect(() => parseConfig(["login"], { ...oauth, WORKFORCE_REDIRECT_URI: bad })).toThrow(
        /WORKFORCE_REDIRECT_URI must be an http address on this machine with a port/,
      );
    }
  });

  it("status and logout need nothing; unknown commands are still refused", () => {
    expect(parseConfig(["status"], {}).command).toBe("status");
    expect(parseConfig(["logout"], {}).command).toBe("logout");
    expect(() => parseConfig(["signin"], {})).toThrow(/Unknown command/);
  });

  it("keeps sign-ins in WORKFORCE_CONFIG_DIR, else the user's config folder", () => {
    expect(parseConfig([], { WORKFORCE_CONFIG_DIR: "relative/dir" }).configDir).toBe(
      path.resolve("relative/dir"),
    );
    expect(parseConfig([], { XDG_CONFIG_HOME: "/xdg" }).configDir).toMatch(/workforce-mcp$/);
  });
});

describe("using a stored sign-in", () => {
  const index = (apiUrls: string[]) => () => ({ apiUrls });

  it("is used for WORKFORCE_API_URL when no WORKFORCE_TOKEN is set", () => {
    const config = parseConfig(
      [],
      { WORKFORCE_API_URL: "https://api.example.com/graphql" },
      undefined,
      index(["https://api.example.com"]),
    );
    expect(config).toMatchObject({ useSandbox: false, signedIn: true, token: undefined });
  });

  it("WORKFORCE_TOKEN wins; a sign-in for another platform does not count", () => {
    expect(
      parseConfig(
        [],
        { WORKFORCE_API_URL: "https://api.example.com", WORKFORCE_TOKEN: "pat-1" },
        undefined,
        index(["https://api.example.com"]),
      ).signedIn,
    ).toBe(false);
    expect(() =>
      parseConfig(
        [],
        { WORKFORCE_API_URL: "https://api.example.com" },
        undefined,
        index(["https://other.example.com"]),
      ),
    ).toThrow(/WORKFORCE_TOKEN is not set and there is no sign-in .*workforce-mcp login/);
  });

  it("is not used with --token-passthrough or --auth oauth: each client brings its own credential", () => {
    const config = parseConfig(
      ["--http", "--token-passthrough"],
      { WORKFORCE_API_URL: "https://api.example.com" },
      undefined,
      index(["https://api.example.com"]),
    );
    expect(config).toMatchObject({ signedIn: false, tokenPassthrough: true, token: undefined });
  });

  it("MCP authorization: --http with a stored sign-in serves as that sign-in, no passthrough needed", () => {
    const config = parseConfig(
      ["--http"],
      { WORKFORCE_API_URL: "https://api.example.com" },
      undefined,
      index(["https://api.example.com"]),
    );
    expect(config).toMatchObject({ signedIn: true, tokenPassthrough: false });
  });

  it("with nothing configured it is still the embedded sandbox", () => {
    expect(parseConfig([], {}, undefined, index(["https://api.example.com"])).useSandbox).toBe(
      true,
    );
  });

  it("a damaged sign-in file is a configuration error with its own message", () => {
    expect(() =>
      parseConfig([], { WORKFORCE_API_URL: "https://api.example.com" }, undefined, () => {
        throw new Error("The sign-in file /x/sign-ins.json is damaged.");
      }),
    ).toThrow(ConfigError);
  });
});

describe("a sign-in another user could have written, at start", () => {
  it("CWE-732: a config folder others can write to stops the server with the folder and the fix", async () => {
    const configDir = tempConfigDir();
    const store = new SignInStore(configDir);
    await store.update((signIns) => {
      signIns["https://api.example.com"] = madeUpSignIn("https://api.example.com");
    });
    chmodSync(configDir, 0o777);
    const env = { WORKFORCE_API_URL: "https://api.example.com", WORKFORCE_CONFIG_DIR: configDir };
    expect(() => parseConfig([], env, undefined, readSignInIndex)).toThrow(ConfigError);
    expect(() => parseConfig([], env, undefined, readSignInIndex)).toThrow(
      new RegExp(`Refusing the sign-ins in ${configDir}: .*chmod 700 ${configDir}`),
    );
    // WORKFORCE_TOKEN set: the sign-in is not used, so not read.
    expect(
      parseConfig([], { ...env, WORKFORCE_TOKEN: "pat-1" }, undefined, readSignInIndex).signedIn,
    ).toBe(false);
  });
});

describe("what .env may not choose", () => {
  it("never where sign-ins are stored", () => {
    expect(() =>
      parseConfig([], {}, dotenv({ WORKFORCE_CONFIG_DIR: "/tmp/elsewhere" }), none),
    ).toThrow(/WORKFORCE_CONFIG_DIR comes from \/project\/\.env; a \.env file may not choose/);
    // From the real environment it is fine, even with the same line in .env.
    expect(
      parseConfig(
        [],
        { WORKFORCE_CONFIG_DIR: "/tmp/mine" },
        dotenv({ WORKFORCE_CONFIG_DIR: "/tmp/elsewhere" }),
      ).configDir,
    ).toBe("/tmp/mine");
  });

  it("not where a client secret from the environment or a flag is sent", () => {
    const { WORKFORCE_CLIENT_SECRET, ...rest } = oauth;
    expect(() =>
      parseConfig(
        ["login"],
        { WORKFORCE_CLIENT_SECRET },
        dotenv({ ...rest, WORKFORCE_AUTH_URL: "https://attacker.example" }),
      ),
    ).toThrow(
      /WORKFORCE_API_URL and WORKFORCE_AUTH_URL come from \/project\/\.env but the OAuth client secret comes from the environment/,
    );
    expect(() =>
      parseConfig(
        ["login", "--client-secret", "s3cret-flag"],
        {},
        dotenv({ WORKFORCE_API_URL: "https://attacker.example", WORKFORCE_CLIENT_ID: "c" }),
      ),
    ).toThrow(/comes from \/project\/\.env but the OAuth client secret comes from --client-secret/);
  });

  it("but may hold the whole OAuth setup when the secret is there too", () => {
    const config = parseConfig(["login"], {}, dotenv(oauth));
    expect(config).toMatchObject({
      clientSecret: "secret-value-1",
      apiUrl: oauth.WORKFORCE_API_URL,
    });
  });

  it("never echoes the client secret in a configuration error", () => {
    try {
      parseConfig(["login"], { ...oauth, WORKFORCE_REDIRECT_URI: "ftp://x" });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain("secret-value-1");
    }
  });
});
