// Where a server keeps confirmations and attempts at changes, so that every process and session
// acting for one person sees the same ones: a hold on a change whose outcome is unknown must
// survive a restart and cover every session, or the change could be sent twice.
import { join } from "node:path";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { createFileStore, LOCAL_STATE_FILE } from "../state/file-store.js";
import type { KeyValueStore, StateStore } from "../state/store.js";

/**
 * The team's Redis when there is one; the embedded sandbox's process (its data ends with the
 * process, and so may what holds it); otherwise the local state file in the sign-in folder, which
 * every local server of this user shares and a restart keeps.
 */
export function confirmationStateFor(
  config: Config,
  logger: Logger,
  options: { sandbox: boolean; store: StateStore | undefined },
): KeyValueStore | undefined {
  if (config.redisUrl || options.sandbox) return options.store;
  return createFileStore(join(config.configDir, LOCAL_STATE_FILE), {
    onWarning: (message) => logger.warning(message),
  });
}
