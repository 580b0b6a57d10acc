// Debian's headless Chromium for the browser tests, skipped (with the reason printed) where the
// package is not installed; .ci/run installs it when it can.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";

/** Whether the browser is there; says why a test is skipped when it is not. */
export function chromiumAvailable(test: string): boolean {
  const available = existsSync(CHROMIUM);
  if (!available) {
    console.log(
      `${test}: skipped: ${CHROMIUM} is not installed (.ci/run installs the Debian package chromium when it can).`,
    );
  }
  return available;
}

/** A fresh headless browser with an empty profile. */
export function launchChromium(): Promise<BrowserContext> {
  const profile = mkdtempSync(path.join(tmpdir(), "workforce-mcp-chromium-profile-"));
  // The machine has no internet: every background connection of Chromium's is off.
  return chromium.launchPersistentContext(profile, {
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
}
