// `workforce-mcp doctor` in this process, against the sandbox over real HTTP: one line per check,
// what to fix, whether all passed, and never a token.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDoctor } from "../../src/auth/doctor.js";
import { readSignInIndex } from "../../src/auth/store.js";
import { parseConfig } from "../../src/config.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { closedPort } from "../client/helpers.js";
import { capturingLogger, expectNoSecret, secretsOf, signedIn, tempConfigDir } from "./helpers.js";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimitPerMinute: 0 });
});
afterAll(() => sandbox.close());

async function doctor(env: Record<string, string>, now?: () => number) {
  const config = parseConfig(
    ["doctor"],
    { WORKFORCE_CONFIG_DIR: tempConfigDir(), ...env },
    undefined,
    readSignInIndex,
  );
  const { logger, lines: log } = capturingLogger();
  const lines: string[] = [];
  const passed = await runDoctor(config, logger, { out: (line) => lines.push(line), now });
  return { passed, lines, log };
}

describe("doctor", () => {
  it("a good token: every check ok, with who it is and which accounts, exit 0", async () => {
    const { passed, lines, log } = await doctor({
      WORKFORCE_API_URL: sandbox.url,
      WORKFORCE_TOKEN: sandbox.tokens.limited,
    });
    expect(lines).toEqual([
      `ok      address: ${sandbox.url}/graphql answers GraphQL over plain HTTP.`,
      expect.stringMatching(
        /^ok {6}credential: WORKFORCE_TOKEN \(personal access token\) accepted: Oskar Berg <oskar\.berg@nordlys\.example> \(usr_002\)\. Personal access tokens last 6 months/,
      ),
      "ok      accounts: 1: Nordlys Energi A/S (Company, cmp_nordlys).",
      "ok      rate budget: this server sends at most 60 requests a minute per token; the platform allows 60.",
    ]);
    expect(passed).toBe(true);
    expectNoSecret([...lines, ...log], [sandbox.tokens.limited]);
  });

  it("a wrong token: the address is fine, the credential is the problem and what to do, exit 1", async () => {
    const token = "wf_pat_not_a_real_token_4711";
    const { passed, lines, log } = await doctor({
      WORKFORCE_API_URL: sandbox.url,
      WORKFORCE_TOKEN: token,
    });
    expect(passed).toBe(false);
    expect(lines[0]).toMatch(/^ok {6}address: /);
    expect(lines[1]).toMatch(
      /^problem credential: WORKFORCE_TOKEN \(personal access token\): the platform refused it\. .*Create a new personal access token/,
    );
    expect(lines[2]).toBe("skipped accounts: needs an accepted credential.");
    expectNoSecret([...lines, ...log], [token]);
  });

  it("an unreachable address: the host and the reason, the rest skipped, exit 1", async () => {
    const port = await closedPort();
    const { passed, lines } = await doctor({
      WORKFORCE_API_URL: `http://127.0.0.1:${port}`,
      WORKFORCE_TOKEN: sandbox.tokens.full,
    });
    expect(passed).toBe(false);
    expect(lines).toEqual([
      `problem address: Nothing accepted the connection at 127.0.0.1:${port} (ECONNREFUSED). Check the address and port in WORKFORCE_API_URL, and that the platform runs there.`,
      "skipped credential: needs an address that answers.",
      "skipped accounts: needs an address that answers.",
      "skipped rate budget: needs an address that answers.",
    ]);
  });

  it("a base URL with a wrong path: the HTTP status and that /graphql is added", async () => {
    const { passed, lines } = await doctor({
      WORKFORCE_API_URL: `${sandbox.url}/api/v2`,
      WORKFORCE_TOKEN: sandbox.tokens.full,
    });
    expect(passed).toBe(false);
    expect(lines[0]).toBe(
      `problem address: ${sandbox.url}/api/v2/graphql answered HTTP 404, so it is not the platform's GraphQL API. Set WORKFORCE_API_URL to the platform's base URL: /graphql is added to it.`,
    );
  });

  it("no credential, and a rate budget above the platform's: both said, exit 1", async () => {
    const { passed, lines } = await doctor({
      WORKFORCE_API_URL: sandbox.url,
      WORKFORCE_RATE_LIMIT: "100",
    });
    expect(passed).toBe(false);
    expect(lines.slice(1)).toEqual([
      `problem credential: neither WORKFORCE_TOKEN nor a sign-in for ${sandbox.url}. Run \`workforce-mcp login\`, or set WORKFORCE_TOKEN to a personal access token from the platform's settings.`,
      "skipped accounts: needs a credential.",
      "problem rate budget: WORKFORCE_RATE_LIMIT is 100 a minute, above the platform's 60: requests past 60 in a minute are refused. Set it to 60 or less (default 60).",
    ]);
  });

  it("a sign-in: who, and until when to sign in again; an ended one says to log in again", async () => {
    const configDir = tempConfigDir();
    const { signIn } = await signedIn(sandbox, { configDir });
    const env = { WORKFORCE_API_URL: sandbox.url, WORKFORCE_CONFIG_DIR: configDir };
    const live = await doctor(env);
    expect(live.passed).toBe(true);
    expect(live.lines[1]).toMatch(
      /^ok {6}credential: the sign-in of `workforce-mcp login` accepted: Maja Lindqvist .* sign in again by \d{4}-/,
    );
    expectNoSecret([...live.lines, ...live.log], secretsOf(signIn));

    const ended = await doctor(env, () => signIn.renewBy + 1);
    expect(ended.passed).toBe(false);
    expect(ended.lines[1]).toMatch(
      /^problem credential: the sign-in ended on \d{4}-.* \(it lasts 90 days\)\. Run `workforce-mcp login` again\.$/,
    );
  });

  it("nothing configured: says the embedded sandbox is used, exit 0", async () => {
    const { passed, lines } = await doctor({});
    expect(passed).toBe(true);
    expect(lines).toEqual([
      expect.stringMatching(/^ok {6}platform: nothing is configured .*embedded sandbox/),
    ]);
  });
});
