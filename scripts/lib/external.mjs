// Pinned versions of the external tools CI runs through npx (never installed into the project).
// Both need Node >= 22; the `node` package from the npm registry supplies it beside Node 20.
import { spawn } from "node:child_process";

export const NODE22 = "node@22.23.3";
export const CONFORMANCE = "@modelcontextprotocol/conformance@0.2.0-alpha.12";
export const INSPECTOR = "@modelcontextprotocol/inspector@2.12.0";

/**
 * Runs `npx -y -p node@22 -p <pkg> <bin> ...args` and resolves with its exit code and output.
 * Output is streamed to ours as it comes, so CI logs show progress.
 */
export function npxWithNode22(pkg, bin, args, { cwd, env, echo = true } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["-y", "-p", NODE22, "-p", pkg, bin, ...args], {
      cwd,
      env: { ...process.env, npm_config_update_notifier: "false", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      if (echo) process.stdout.write(chunk);
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      if (echo) process.stderr.write(chunk);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
