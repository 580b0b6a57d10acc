// A person who opens the HTTP server's address in a real browser (headless Chromium, the Debian
// package) gets a readable page on how to connect an assistant, at / and at /mcp, with nothing
// blocked by its own Content-Security-Policy and nothing that runs. Skipped, with the reason
// printed, where /usr/bin/chromium is not installed.
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { chromiumAvailable, launchChromium } from "../helpers/chromium.js";
import { httpConfig, quietLogger } from "./http-helpers.js";

const available = chromiumAvailable("human-page-browser");

describe.skipIf(!available)("the HTTP server's page for people, in headless Chromium", () => {
  let server: HttpServerHandle;
  let context: BrowserContext;
  beforeAll(async () => {
    server = await startHttpServer(httpConfig({ useSandbox: true }), quietLogger(), "9.9.9");
    context = await launchChromium();
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
