// `--auth oauth` settings and the sealing of what the team server stores.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSealedStore, digestKey } from "../../src/auth/remote/sealed-store.js";
import { parseConfig } from "../../src/config.js";
import { createMemoryStore } from "../../src/state/memory-store.js";
import { seal, unseal } from "../../src/state/sealing.js";
import { encryptionKeyFrom } from "../../src/state/sealing-key.js";

const KEY = randomBytes(32).toString("base64");
const PLATFORM = {
  WORKFORCE_API_URL: "https://api.example.com",
  WORKFORCE_CLIENT_ID: "client-1",
  WORKFORCE_CLIENT_SECRET: "secret-1",
  WORKFORCE_PUBLIC_URL: "https://mcp.example.com",
  WORKFORCE_ENCRYPTION_KEY: KEY,
};
const oauth = (env: NodeJS.ProcessEnv, args: string[] = []) =>
  parseConfig(["--http", "--auth", "oauth", ...args], env);

describe("--auth oauth settings", () => {
  it("takes the platform's OAuth client, the public address and the key", () => {
    const config = oauth(PLATFORM);
    expect(config).toMatchObject({
      auth: "oauth",
      transport: "http",
      publicUrl: "https://mcp.example.com",
      authUrl: "https://api.example.com",
      clientId: "client-1",
      useSandbox: false,
      signedIn: false,
    });
    expect(parseConfig(["--http"], { ...PLATFORM, WORKFORCE_AUTH: "OAuth" }).auth).toBe("oauth");
    expect(parseConfig(["--http"], {}).auth).toBe("token");
  });

  it("accepts a trailing slash on the public address, and the sandbox without a client", () => {
    expect(oauth({ ...PLATFORM, WORKFORCE_PUBLIC_URL: "https://mcp.example.com/" }).publicUrl).toBe(
      "https://mcp.example.com",
    );
    const sandbox = oauth({ WORKFORCE_ENCRYPTION_KEY: KEY });
    expect(sandbox).toMatchObject({ useSandbox: true, publicUrl: undefined });
  });

  it("refuses stdio, a missing or malformed key, and WORKFORCE_TOKEN beside it", () => {
    expect(() => parseConfig(["--auth", "oauth"], PLATFORM)).toThrow(/works with --http only/);
    expect(() => oauth({ ...PLATFORM, WORKFORCE_ENCRYPTION_KEY: "" })).toThrow(
      /needs WORKFORCE_ENCRYPTION_KEY/,
    );
    const short = randomBytes(16).toString("base64");
    let message = "";
    try {
      oauth({ ...PLATFORM, WORKFORCE_ENCRYPTION_KEY: short });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/must be 32 random bytes in base64/);
    expect(message).not.toContain(short);
    expect(() => oauth({ ...PLATFORM, WORKFORCE_TOKEN: "pat-1" })).toThrow(/Unset WORKFORCE_TOKEN/);
    expect(() => parseConfig(["--http", "--auth", "saml"], PLATFORM)).toThrow(
      /--auth must be one of: token, oauth/,
    );
  });

  it("needs the platform's OAuth client, and a public address off this machine", () => {
    expect(() => oauth({ ...PLATFORM, WORKFORCE_CLIENT_SECRET: "" })).toThrow(
      /needs WORKFORCE_CLIENT_SECRET: the OAuth client registered on the platform for this server, with the redirect URL <WORKFORCE_PUBLIC_URL>\/oauth\/callback/,
    );
    expect(() => oauth({ ...PLATFORM, WORKFORCE_PUBLIC_URL: "" }, ["--host", "0.0.0.0"])).toThrow(
      /needs WORKFORCE_PUBLIC_URL when listening on 0\.0\.0\.0/,
    );
    expect(oauth({ ...PLATFORM, WORKFORCE_PUBLIC_URL: "" }).publicUrl).toBeUndefined();
  });

  it("checks the public address: https (http only on this machine), no path, no credentials", () => {
    const bad = (url: string) => () => oauth({ ...PLATFORM, WORKFORCE_PUBLIC_URL: url });
    expect(bad("http://mcp.example.com")).toThrow(/must start with https:\/\//);
    expect(bad("https://mcp.example.com/team")).toThrow(/no path/);
    expect(bad("https://user:pw@mcp.example.com")).toThrow(/user name, password/);
    expect(bad("not a url")).toThrow(/must be a URL/);
    expect(oauth({ ...PLATFORM, WORKFORCE_PUBLIC_URL: "http://127.0.0.1:3333" }).publicUrl).toBe(
      "http://127.0.0.1:3333",
    );
  });
});

describe("sealed records", () => {
  const key = encryptionKeyFrom(KEY);

  it("round-trips, with a fresh IV each time, and opens only under its own name and key", () => {
    const a = seal(key, "oauth:grant:1", '{"accessToken":"at-secret"}');
    const b = seal(key, "oauth:grant:1", '{"accessToken":"at-secret"}');
    expect(a).not.toBe(b);
    expect(a).not.toContain("at-secret");
    expect(unseal(key, "oauth:grant:1", a)).toBe('{"accessToken":"at-secret"}');
    expect(unseal(key, "oauth:grant:2", a)).toBeUndefined();
    expect(unseal(randomBytes(32), "oauth:grant:1", a)).toBeUndefined();
    // One character of the ciphertext changed (the middle one: every bit of it counts, unlike the
    // last characters' padding bits), so it is always a real change.
    const middle = Math.floor(a.length / 2);
    const tampered = `${a.slice(0, middle)}${a[middle] === "A" ? "B" : "A"}${a.slice(middle + 1)}`;
    expect(tampered).not.toBe(a);
    expect(unseal(key, "oauth:grant:1", tampered)).toBeUndefined();
    expect(unseal(key, "oauth:grant:1", "plain text")).toBeUndefined();
  });

  it("stores JSON sealed, takes it once, and names secrets only by digest", async () => {
    const state = createMemoryStore();
    const store = createSealedStore(state, key);
    await store.set("code:x", { grantId: "g1" }, 60_000);
    expect(await state.get("oauth:code:x")).toMatch(/^wfm1\./);
    expect(await store.take("code:x")).toEqual({ grantId: "g1" });
    expect(await store.take("code:x")).toBeUndefined();
    await store.set("gone", { a: 1 }, 0);
    expect(await store.get("gone")).toBeUndefined();
    const name = digestKey("access:", "wfm_at_secret");
    expect(name).toMatch(/^access:[\w-]{43}$/);
    expect(name).not.toContain("secret");
  });

  it("refuses a key that is not 32 bytes", () => {
    expect(() => encryptionKeyFrom(randomBytes(31).toString("base64"))).toThrow(/32 bytes/);
  });
});
