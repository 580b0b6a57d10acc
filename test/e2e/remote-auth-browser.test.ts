// The whole hosted sign-in (`--http --auth oauth` against the sandbox) in a real browser: the MCP
// SDK's client asks for authorization, headless Chromium (the Debian package) opens this server's
// consent page and clicks Continue, signs in at the sandbox's page and clicks Approve, the browser
// comes back through this server's callback to the client's loopback listener, and the client
// finishes with its token and lists tools, once per protocol version. Skipped, with the reason
// printed, where /usr/bin/chromium is not installed.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { chromiumAvailable, launchChromium } from "../helpers/chromium.js";
import {
  sdkClientProvider,
  startTeamServer,
  type TeamServer,
  viewerName,
} from "./remote-auth-helpers.js";

const available = chromiumAvailable("remote-auth-browser");

/** A desktop MCP client's loopback listener (RFC 8252 §7.3): it keeps the answer it is sent. */
async function startRedirectListener() {
  const answers: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    // Chromium also asks for /favicon.ico.
    if (url.pathname !== "/callback") return res.writeHead(404).end();
    answers.push(url.searchParams);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end('<!DOCTYPE html><title>Client</title><h1 id="client">Back in the client</h1>');
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return { url, answers, close: () => new Promise((resolve) => server.close(resolve)) };
}

const VERSIONS = [
  { version: "2025-11-25", options: {} },
  { version: "2026-07-28", options: { versionNegotiation: { mode: { pin: "2026-07-28" } } } },
] as const;

describe.skipIf(!available)("hosted sign-in (--auth oauth) in headless Chromium", () => {
  let sandbox: Sandbox;
  let server: TeamServer;
  let listener: Awaited<ReturnType<typeof startRedirectListener>>;
  let context: BrowserContext;

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    server = await startTeamServer(sandbox);
    listener = await startRedirectListener();
    context = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await listener?.close();
    await server?.handle.close();
    await sandbox?.close();
  });

  for (const { version, options } of VERSIONS) {
    it(`MCP authorization (${version}): the client's request, this server's consent page clicked, the platform's sign-in, the callback, then tools`, async () => {
      const { provider, opened, tokens } = sdkClientProvider(listener.url, "Browser test client");
      const mcp = new URL(`${server.publicUrl}/mcp`);
      const make = () => new Client({ name: `browser-${version}`, version: "0" }, options);
      const first = new StreamableHTTPClientTransport(mcp, { authProvider: provider });
      await expect(make().connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
      const authorizeAt = opened.at(-1) as URL;
      expect(authorizeAt.origin).toBe(server.publicUrl);

      // A browser new to both: the sandbox asks who signs in, whatever the test before did.
      await context.clearCookies();
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(error.message));
      try {
        await page.goto(authorizeAt.href);
        expect(await page.title()).toBe("Allow access to the workforce platform?");
        expect(await page.textContent("body")).toContain("Browser test client");
        // Over http://127.0.0.1 too, Chromium keeps the page's __Host- cookie (a secure context).
        expect(await context.cookies(server.publicUrl)).toEqual([
          expect.objectContaining({
            name: expect.stringMatching(/^__Host-wfm_consent_/),
            secure: true,
          }),
        ]);
        // A real click: Chromium posts the form with the Origin its referrer policy allows.
        const posted = page.waitForRequest((r) => r.url() === `${server.publicUrl}/oauth/consent`);
        await Promise.all([
          page.waitForURL((url) => url.pathname !== "/authorize"),
          page.click("#approve"),
        ]);
        expect((await (await posted).allHeaders()).origin).toBe(server.publicUrl);
        expect(await page.title()).toBe("Sign in to the sandbox platform");
        await page.check("#identity-limited");
        await Promise.all([
          page.waitForURL((url) => url.href.startsWith(listener.url)),
          page.click("#approve"),
        ]);
        expect(await page.textContent("#client")).toBe("Back in the client");
      } finally {
        await page.close();
      }
      expect(problems).toEqual([]);

      const answer = listener.answers.at(-1) as URLSearchParams;
      expect(answer.get("code")).toBeTruthy();
      // RFC 9207 §2: the answer names this server as its issuer; the SDK's client checks it.
      expect(answer.get("iss")).toBe(new URL(server.publicUrl).href);
      await first.finishAuth(answer);
      expect(tokens()?.access_token).toBeTruthy();

      const client = make();
      await client.connect(new StreamableHTTPClientTransport(mcp, { authProvider: provider }));
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(version);
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain("list_accounts");
        expect(await viewerName(client)).toBe("Oskar Berg");
      } finally {
        await client.close();
      }
    }, 90_000);
  }
});
