// What a person sees on the first call with a wrong WORKFORCE_API_URL, through a real MCP client:
// the host and what is wrong, at once, and no advice to wait and try again.
import { afterEach, describe, expect, it } from "vitest";
import { closedPort } from "../client/helpers.js";
import { type Harness, startHarness } from "../helpers/mcp-harness.js";

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

async function firstCall(apiUrl: string): Promise<string> {
  // Retries as configured by default (3): an unreachable address must not use them.
  const h = await startHarness({ config: { apiUrl, maxRetries: 3 }, sandboxMode: false });
  open.push(h);
  const result = await h.client.callTool({ name: "search_hires", arguments: {} });
  expect(result.isError).toBe(true);
  const [first] = result.content as { type: string; text: string }[];
  return first?.text ?? "";
}

describe("the first tool call on a wrong platform address", () => {
  it("a closed port on 127.0.0.1: the host, refused, and what to fix, without a retry hint", async () => {
    const port = await closedPort();
    const text = await firstCall(`http://127.0.0.1:${port}`);
    expect(text).toBe(
      [
        "search_hires failed: the platform could not be reached.",
        `Nothing accepted the connection at 127.0.0.1:${port} (ECONNREFUSED). Check the address and port in WORKFORCE_API_URL, and that the platform runs there.`,
        "Trying again will not help until the configuration is fixed.",
      ].join("\n"),
    );
  });

  it("a name under .invalid (RFC 6761): the name and a DNS failure, one attempt", async () => {
    const text = await firstCall("https://workforce.example.invalid");
    expect(text).toMatch(/could not be reached\.\n/);
    expect(text).toContain("The name workforce.example.invalid could not be resolved");
    expect(text).not.toMatch(/attempts|60 seconds|rate limit/);
  });

  it("https to the sandbox's plain HTTP port: a TLS failure naming the host", async () => {
    const h = await startHarness();
    open.push(h);
    const { host } = new URL(h.sandbox.url);
    const text = await firstCall(`https://${host}`);
    expect(text).toContain(`The TLS (https) connection to ${host} failed`);
    expect(text).not.toMatch(/attempts|60 seconds|rate limit/);
  });
});
