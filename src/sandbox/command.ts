import type { Config } from "../config.js";
import type { Logger } from "../logger.js";

// Placeholder until the sandbox lands (issue 2).
export async function runSandboxCommand(_config: Config, _logger: Logger): Promise<void> {
  throw new Error("The sandbox is not built yet.");
}
