// On a team server each person's prompts are completed and filled in from what their own
// credential reads: two people on one HTTP server (tokens they bring themselves), in sessions
// (2025-11-25) and per request (2026-07-28), never see each other's companies or hires.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { httpConfig, quietLogger } from "./http-helpers.js";

let sandbox: Sandbox;
let server: HttpServerHandle;
const open: Client[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ today: "2026-11-22", rateLimitPerMinute: 0 });
  server = await startHttpServer(
    httpConfig({}, { WORKFORCE_API_URL: sandbox.url, WORKFORCE_TOKEN_PASSTHROUGH: "1" }),
    quietLogger(),
    "9.9.9",
  );
});
afterAll(async () => {
  for (const client of open) await client.close();
  await server?.close();
  await sandbox?.close();
});

async function person(token: "full" | "limited", version: "2025-11-25" | "2026-07-28") {
  const client = new Client(
    { name: `prompts-${token}`, version: "0" },
    version === "2026-07-28" ? { versionNegotiation: { mode: { pin: version } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${sandbox.tokens[token]}` } },
    }),
  );
  open.push(client);
  return client;
}

const companies = async (client: Client, value = "") =>
  (
    await client.complete({
      ref: { type: "ref/prompt", name: "month_end_invoices" },
      argument: { name: "company", value },
    })
  ).completion.values;

describe.each(["2025-11-25", "2026-07-28"] as const)(
  "prompts on a team server, per person (MCP %s)",
  (version) => {
    it("completes each person's own companies and hires, and fills a prompt in only from them", async () => {
      const maja = await person("full", version);
      const oskar = await person("limited", version);
      // Asked in turn on the same server: neither answer leaks into the other.
      expect(await companies(maja)).toEqual([
        "Nordlys Energi A/S",
        "Harbor & Pine Inc.",
        "Castell Retail GmbH",
      ]);
      expect(await companies(oskar)).toEqual(["Nordlys Energi A/S"]);
      expect(await companies(oskar, "harb")).toEqual([]);
      const hires = (client: Client) =>
        client.complete({
          ref: { type: "ref/prompt", name: "onboard_hire" },
          argument: { name: "hire", value: "liam" },
        });
      expect((await hires(maja)).completion.values).toEqual(["Liam O'Connor"]);
      expect((await hires(oskar)).completion.values).toEqual([]);
      const harbor = { name: "month_end_invoices", arguments: { company: "Harbor & Pine" } };
      const got = await maja.getPrompt(harbor);
      expect(JSON.stringify(got.messages)).toContain("(cmp_harbor)");
      await expect(oskar.getPrompt(harbor)).rejects.toThrow(
        /no company you can see is named "Harbor & Pine"/,
      );
    });
  },
);
