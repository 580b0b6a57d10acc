// How the MCP Apps views' browser script (views/view-app.ts) is built: the same esbuild options for
// the bundle (scripts/bundle.mjs) and for view-page.ts when running from src or tsc's output.
export const VIEW_SCRIPT_BUILD = {
  bundle: true,
  minify: true,
  format: "iife",
  platform: "browser",
  target: "es2022",
  write: false,
  legalComments: "none",
} as const;
