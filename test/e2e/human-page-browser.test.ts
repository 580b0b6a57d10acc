// A person who opens the HTTP server's address in a real browser (headless Chromium, the Debian
// package) gets a readable page on how to connect an assistant, at / and at /mcp, with nothing
// blocked by its own Content-Security-Policy and nothing that runs. Skipped, with the reason
// printed, where /usr/bin/chromium is not installed.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { httpConfig, quietLogger } from "./http-helpers.js";

const CHROMIUM = "/usr/bin/chromium";
const available = existsSync(CHROMIUM);
if (!available) {
  console.log(
    `human-page-browser: skipped: ${CHROMIUM} is not installed (.ci/run installs the Debian package chromium when it can).`,
  );
}

describe.skipIf(!available)("the HTTP server's page for people, in headless Chromium", () => {
  let server: HttpServerHandle;
  let context: BrowserContext;
  beforeAll(async () => {
    server = await startHttpServer(httpConfig({ useSandbox: true }), quietLogger(), "9.9.9");
    const profile = mkdtempSync(path.join(tmpdir(), "workforce-mcp-chromium-page-"));
    // The machine has no internet: every background connection of Chromium's is off.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await server?.close();
  });

  for (const where of ["/", "/mcp"]) {
    it(`${where}: says what the address is and how to connect, with no console error`, async () => {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));
      try {
        const response = await page.goto(`${server.url}${where}`);
        expect(response?.status()).toBe(200);
        expect(response?.headers()["content-security-policy"]).toContain("default-src 'none'");
        expect(await page.title()).toBe("workforce-mcp: an MCP server");
        const body = (await page.textContent("body")) ?? "";
        expect(body).toContain("It answers AI assistants, not browsers.");
        expect(body).toContain(`claude mcp add --transport http workforce ${server.url}/mcp`);
        // The inline style is allowed by the policy: the page is laid out, not raw.
        // A string: the project's types have no DOM.
        const font = await page.evaluate<string>("getComputedStyle(document.body).fontFamily");
        expect(font).toContain("system-ui");
        expect(await page.locator("script").count()).toBe(0);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});
