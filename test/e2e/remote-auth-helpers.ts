// Shared by the `--auth oauth` tests (test/e2e/remote-auth.test.ts, test/redis/oauth-replicas.test.ts):
// the scripted MCP client's redirect address and PKCE, its MCP calls with a token, and opening the
// sealed platform grants (the test knows the encryption key) to look for their tokens elsewhere.
import { createHash, randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "vitest";
import { unseal } from "../../src/auth/remote/sealed-store.js";

/** Where the scripted MCP client says it listens; the test reads the redirect, never follows it. */
export const CLIENT_REDIRECT = "http://127.0.0.1:9/callback";

export const pkce = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

/** The hidden `request` field of this server's consent page. */
export function consentRequestOf(html: string): string {
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1];
  if (!request) throw new Error(`the consent page has no request field: ${html.slice(0, 300)}`);
  return request;
}

export async function mcpClient(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "remote-auth-test", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

/** Who the platform says is calling: list_accounts' viewer. */
export async function viewerName(client: Client): Promise<string> {
  const result = await client.callTool({ name: "list_accounts", arguments: {} });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return (result.structuredContent as { viewer: { name: string } }).viewer.name;
}

/**
 * The platform tokens in sealed grant records, opened with the base64 encryption key. `records`
 * are (name, sealed value) pairs, the name as the sealed store gives it (`oauth:grant:<id>`).
 */
export function platformTokensIn(
  encryptionKey: string,
  records: Iterable<[name: string, value: string]>,
): string[] {
  const key = Buffer.from(encryptionKey, "base64");
  const tokens: string[] = [];
  for (const [name, value] of records) {
    if (!name.startsWith("oauth:grant:")) continue;
    const grant = JSON.parse(unseal(key, name, value) ?? "{}");
    tokens.push(grant.accessToken, grant.refreshToken);
  }
  return tokens.filter((t): t is string => typeof t === "string");
}
