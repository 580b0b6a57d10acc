// `status` and `logout` in this process, against the sandbox over real HTTP.
import { chmodSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLogout, runStatus } from "../../src/auth/commands.js";
import { type Config, parseConfig } from "../../src/config.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { capturingLogger, expectNoSecret, secretsOf, signedIn, tempConfigDir } from "./helpers.js";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimitPerMinute: 0 });
});
afterAll(() => sandbox.close());

async function command(
  run: typeof runStatus,
  args: string[],
  env: Record<string, string>,
): Promise<string> {
  const config: Config = parseConfig(args, env);
  const { logger } = capturingLogger();
  const lines: string[] = [];
  await run(config, logger, { out: (line) => lines.push(line) });
  return lines.join("\n");
}

describe("status", () => {
  it("says when nothing is stored", async () => {
    const out = await command(runStatus, ["status"], { WORKFORCE_CONFIG_DIR: tempConfigDir() });
    expect(out).toMatch(
      /No sign-in is stored\. Set WORKFORCE_API_URL and run `workforce-mcp login`/,
    );
  });

  it("for WORKFORCE_TOKEN: the kind, what is known of its expiry, and who it is; never the token", async () => {
    const out = await command(runStatus, ["status"], {
      WORKFORCE_CONFIG_DIR: tempConfigDir(),
      WORKFORCE_API_URL: sandbox.url,
      WORKFORCE_TOKEN: sandbox.tokens.limited,
    });
    expect(out).toMatch(/Credential: personal access token from WORKFORCE_TOKEN/);
    expect(out).toMatch(/last 6 months/);
    expect(out).toMatch(/Identity: +the platform accepts it: Oskar Berg/);
    expect(out).not.toContain(sandbox.tokens.limited);
  });

  it("for a sign-in: identity, platform, kind, expiry and a live check; warns when others can read the file", async () => {
    const configDir = tempConfigDir();
    const { signIn, store } = await signedIn(sandbox, { configDir });
    const out = await command(runStatus, ["status"], { WORKFORCE_CONFIG_DIR: configDir });
    expect(out).toContain(`Platform:   ${sandbox.url}`);
    expect(out).toMatch(/Credential: OAuth access token \(client /);
    expect(out).toMatch(/Expiry: +access token valid until \d{4}-.* sign in again by \d{4}-/);
    expect(out).toMatch(/Check: +the platform accepts it: Maja Lindqvist/);
    expect(out).not.toMatch(/Warning/);
    expectNoSecret([out], secretsOf(signIn));

    chmodSync(store.path, 0o644);
    const loose = await command(runStatus, ["status"], { WORKFORCE_CONFIG_DIR: configDir });
    expect(loose).toMatch(/can be read by other users \(mode 644\); run `chmod 600/);
  });
});

describe("logout", () => {
  it("forgets WORKFORCE_API_URL's sign-in only, or all of them", async () => {
    const configDir = tempConfigDir();
    const other = await startSandbox({ rateLimitPerMinute: 0 });
    try {
      const { store } = await signedIn(sandbox, { configDir });
      await signedIn(other, { configDir });
      expect(store.list()).toHaveLength(2);

      const one = await command(runLogout, ["logout"], {
        WORKFORCE_CONFIG_DIR: configDir,
        WORKFORCE_API_URL: other.url,
      });
      expect(one).toMatch(new RegExp(`Signed out of ${other.url} \\(Maja Lindqvist`));
      expect(store.list().map((s) => s.apiUrl)).toEqual([sandbox.url]);

      const all = await command(runLogout, ["logout"], { WORKFORCE_CONFIG_DIR: configDir });
      expect(all).toMatch(/Signed out of/);
      expect(store.list()).toEqual([]);
      const again = await command(runLogout, ["logout"], { WORKFORCE_CONFIG_DIR: configDir });
      expect(again).toMatch(/No sign-in was stored; nothing to forget/);
    } finally {
      await other.close();
    }
  });
});
