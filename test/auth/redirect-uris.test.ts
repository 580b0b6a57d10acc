// Which redirect URLs and client metadata an MCP client may register or publish here.
import { InvalidClientMetadataError } from "@modelcontextprotocol/server-legacy/auth";
import { describe, expect, it } from "vitest";
import {
  checkClientMetadata,
  InvalidRedirectUriError,
  MAX_METADATA_BYTES,
  MAX_REDIRECT_URIS,
  redirectUriProblem,
} from "../../src/auth/remote/redirect-uris.js";

const CALLBACK = "http://127.0.0.1:3000/callback";

describe("redirectUriProblem", () => {
  it("accepts https (MCP authorization 2025-11-25: redirect URIs use HTTPS)", () => {
    expect(redirectUriProblem("https://app.example.com/oauth/callback")).toBeUndefined();
    expect(redirectUriProblem("https://app.example.com:8443/cb?tenant=1")).toBeUndefined();
  });

  it("accepts http://127.0.0.1:PORT/callback (RFC 8252 §7.3 loopback)", () => {
    expect(redirectUriProblem("http://127.0.0.1:53682/callback")).toBeUndefined();
    expect(redirectUriProblem("http://[::1]:53682/callback")).toBeUndefined();
  });

  it("accepts http://localhost/callback (MCP authorization 2025-11-25: localhost)", () => {
    expect(redirectUriProblem("http://localhost/callback")).toBeUndefined();
    expect(redirectUriProblem("http://localhost:6274/oauth/callback")).toBeUndefined();
  });

  it("refuses plain http to another host (MCP authorization 2025-11-25: https or localhost)", () => {
    expect(redirectUriProblem("http://app.example.com/callback")).toMatch(
      /plain http to a host that is not loopback/,
    );
    // Neither a name that merely starts like loopback nor another loopback spelling.
    expect(redirectUriProblem("http://localhost.example.com/cb")).toMatch(/not loopback/);
    expect(redirectUriProblem("http://127.0.0.1.nip.io/cb")).toMatch(/not loopback/);
  });

  it("refuses a #fragment (RFC 6749 §3.1.2)", () => {
    expect(redirectUriProblem("https://app.example.com/cb#x")).toMatch(/fragment/);
    expect(redirectUriProblem("https://app.example.com/cb#")).toMatch(/fragment/);
  });

  it("refuses file: (MCP authorization 2025-11-25: only https or localhost)", () => {
    expect(redirectUriProblem("file:///etc/passwd")).toMatch(/the file: scheme/);
  });

  it("refuses ftp: (MCP authorization 2025-11-25: only https or localhost)", () => {
    expect(redirectUriProblem("ftp://127.0.0.1/callback")).toMatch(/the ftp: scheme/);
  });

  it("refuses blob: (MCP authorization 2025-11-25: only https or localhost)", () => {
    expect(redirectUriProblem("blob:https://app.example.com/1234")).toMatch(/the blob: scheme/);
  });

  it("refuses javascript:, data: and private-use schemes (MCP authorization 2025-11-25)", () => {
    expect(redirectUriProblem("javascript:alert(1)")).toMatch(/the javascript: scheme/);
    expect(redirectUriProblem("data:text/html,hi")).toMatch(/the data: scheme/);
    expect(redirectUriProblem("com.example.app:/callback")).toMatch(/com\.example\.app: scheme/);
  });

  it("refuses user:password@ (RFC 3986 §3.2.1 userinfo)", () => {
    expect(redirectUriProblem("https://user:password@app.example.com/cb")).toMatch(
      /user name or password/,
    );
    expect(redirectUriProblem("http://user@127.0.0.1/cb")).toMatch(/user name or password/);
  });

  it("refuses relative URLs, over-long URLs, white space and invisible characters", () => {
    expect(redirectUriProblem("/callback")).toMatch(/not an absolute URL/);
    expect(redirectUriProblem(`https://app.example.com/${"a".repeat(2_000)}`)).toMatch(
      /longer than 2000/,
    );
    expect(redirectUriProblem("https://app.example.com/cb\nx")).toMatch(/white space/);
    expect(redirectUriProblem("https://app.example.com/\u202ebc")).toMatch(
      /cannot see or that change the text's direction \(U\+202E\)/,
    );
    expect(redirectUriProblem("https://app.example.com/\u200bcb")).toMatch(/U\+200B/);
  });
});

describe("checkClientMetadata", () => {
  it("passes good metadata through, naming nothing", () => {
    const metadata = { redirect_uris: [CALLBACK], client_name: "Inspector" };
    expect(checkClientMetadata(metadata)).toEqual(metadata);
  });

  it("throws invalid_redirect_uri (RFC 7591 §3.2.2) naming the URL and the rule", () => {
    const attempt = () =>
      checkClientMetadata({ redirect_uris: [CALLBACK, "http://evil.example/cb"] });
    expect(attempt).toThrow(InvalidRedirectUriError);
    expect(attempt).toThrow(InvalidClientMetadataError);
    expect(attempt).toThrow(
      /^redirect_uris\[1\] "http:\/\/evil\.example\/cb" uses plain http to a host that is not loopback/,
    );
    try {
      attempt();
    } catch (error) {
      expect((error as InvalidRedirectUriError).toResponseObject().error).toBe(
        "invalid_redirect_uri",
      );
    }
  });

  it("requires at least one redirect URL, and at most ten (RFC 9700 §4.1.1 registration)", () => {
    expect(() => checkClientMetadata({ redirect_uris: [] })).toThrow(/redirect_uris is required/);
    const many = Array.from({ length: MAX_REDIRECT_URIS + 1 }, (_, i) => `${CALLBACK}/${i}`);
    expect(() => checkClientMetadata({ redirect_uris: many })).toThrow(/holds 11 URLs; at most 10/);
  });

  it("bounds client_name and refuses hidden characters in it (shown on the consent page)", () => {
    expect(() =>
      checkClientMetadata({ redirect_uris: [CALLBACK], client_name: "x".repeat(201) }),
    ).toThrow(/client_name is longer than 200/);
    expect(() =>
      checkClientMetadata({ redirect_uris: [CALLBACK], client_name: "Good\u202eliveC" }),
    ).toThrow(/client_name "Good\\u\{202E\}liveC" holds .*\(U\+202E\)/);
  });

  it("keeps emoji joined by U+200D in client_name", () => {
    const name = "Dev \u{1F469}\u200D\u{1F4BB}";
    expect(checkClientMetadata({ redirect_uris: [CALLBACK], client_name: name }).client_name).toBe(
      name,
    );
  });

  it("bounds the metadata's size as JSON", () => {
    const big = { redirect_uris: [CALLBACK], contacts: ["a".repeat(MAX_METADATA_BYTES)] };
    expect(() => checkClientMetadata(big)).toThrow(/bytes as JSON; at most 4096/);
  });

  it("keeps https links and drops others (client_uri, logo_uri, tos_uri, policy_uri, jwks_uri)", () => {
    const checked = checkClientMetadata({
      redirect_uris: [CALLBACK],
      client_uri: "https://app.example.com",
      logo_uri: "http://app.example.com/logo.png",
      tos_uri: "https://user:pw@app.example.com/tos",
      policy_uri: "javascript:alert(1)",
      jwks_uri: "https://app.example.com/jwks.json",
    });
    expect(checked).toEqual({
      redirect_uris: [CALLBACK],
      client_uri: "https://app.example.com",
      jwks_uri: "https://app.example.com/jwks.json",
    });
  });

  it("keeps the fields it does not look at, such as client_id and client_secret", () => {
    const full = { client_id: "abc", client_secret: "s", redirect_uris: [CALLBACK] };
    expect(checkClientMetadata(full)).toEqual(full);
  });
});
