// MCP Apps in tests: the capability a client declares when it renders Apps, and a headless
// Chromium page hosting a view with the ext-apps SDK's AppBridge (test/helpers/apps-host.ts),
// whose tool calls go through the harness's real SDK client.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { CallToolResult, ClientCapabilities } from "@modelcontextprotocol/client";
import { build } from "esbuild";
import type { BrowserContext, Frame, Page } from "playwright-core";
import { APP_MIME_TYPE } from "../../src/web/app-views.js";
import type { Harness } from "./mcp-harness.js";

/** What a client that renders MCP Apps declares (SEP-1865: the io.modelcontextprotocol/ui extension). */
export const APPS_CAPABILITIES = {
  extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [APP_MIME_TYPE] } },
} as unknown as ClientCapabilities;

/** Where the views' screenshots go (ignored by git): open them after a run. */
const SCREENSHOTS = path.join(process.cwd(), "test-results", "apps-views");

let hostScript: Promise<string> | undefined;

function hostPage(): Promise<string> {
  hostScript ??= build({
    entryPoints: [path.join(process.cwd(), "test/helpers/apps-host.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  }).then((out) => out.outputFiles[0]?.text ?? "");
  return hostScript.then(
    (script) =>
      `<!doctype html><html><head><meta charset="utf-8"></head><body><script>${script.replace(/<\/script/gi, "<\\/script")}</script></body></html>`,
  );
}

export interface HostedView {
  page: Page;
  /** The view's own frame (the iframe the host made). */
  view: Frame;
  /** Every tool call the view made through the host. */
  calls: { name: string; arguments?: Record<string, unknown> }[];
  /** What the view told the model through the host (ui/update-model-context). */
  modelContext(): Promise<unknown[]>;
  screenshot(name: string): Promise<string>;
}

/**
 * Reads the view the tool links to (`_meta.ui.resourceUri` in tools/list), and shows it in a host
 * page with the tool's arguments and result, as a client that renders Apps would.
 */
export async function hostView(
  browser: BrowserContext,
  h: Harness,
  tool: string,
  args: Record<string, unknown>,
  result: CallToolResult,
): Promise<HostedView> {
  const listed = (await h.client.listTools()).tools.find((t) => t.name === tool);
  const uri = (listed?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
  if (!uri) throw new Error(`${tool} links to no view`);
  const read = await h.client.readResource({ uri });
  const html = (read.contents[0] as { text: string }).text;
  const page = await browser.newPage();
  await page.setViewportSize({ width: 900, height: 1100 });
  const calls: HostedView["calls"] = [];
  await page.exposeFunction("callServerTool", async (params: HostedView["calls"][number]) => {
    calls.push(params);
    return h.client.callTool(params);
  });
  await page.setContent(await hostPage());
  await page.evaluate(
    ([html, args, result]) =>
      (window as unknown as { showView: (...a: unknown[]) => Promise<void> }).showView(
        html,
        args,
        result,
      ),
    [html, args, result] as const,
  );
  const view = page.frames().find((frame) => frame !== page.mainFrame());
  if (!view) throw new Error("the host made no frame for the view");
  return {
    page,
    view,
    calls,
    modelContext: () =>
      page.evaluate(() => (window as unknown as { modelContext: unknown[] }).modelContext),
    async screenshot(name) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      const file = path.join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
  };
}
