// Values that must outlive this process for a person working locally: the attempts at changes
// whose outcome is unknown, confirmation tokens and forms. One JSON file in the sign-in folder
// (0600 in 0700), changed under a lock, so every local server of this user shares it and a
// restart forgets nothing that still holds.
import { mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { lockFile, writeAtomically } from "./locked-file.js";
import { type KeyValueStore, SharedStateUnavailableError } from "./store.js";

export const LOCAL_STATE_FILE = "local-state.json";

type Entries = Record<string, { value: string; expiresAt: number | null }>;

export function createFileStore(
  path: string,
  options: { now?: () => number; onWarning?: (message: string) => void } = {},
): KeyValueStore {
  const now = options.now ?? Date.now;
  const unavailable = (action: string, cause: unknown) =>
    new SharedStateUnavailableError(action, { cause, where: path });

  const read = (): Entries => {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw error;
    }
    const entries = JSON.parse(text) as Entries;
    const at = now();
    for (const [key, entry] of Object.entries(entries)) {
      if (entry.expiresAt !== null && entry.expiresAt <= at) delete entries[key];
    }
    return entries;
  };

  /** Reads the file under the lock, lets `change` alter it, and writes it back if it did. */
  async function update<T>(action: string, change: (entries: Entries) => T): Promise<T> {
    let release: () => Promise<void>;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      release = await lockFile(path, (error) =>
        options.onWarning?.(`The lock on ${path} was lost (${error.message}).`),
      );
    } catch (error) {
      throw unavailable(action, error);
    }
    try {
      const entries = read();
      const before = JSON.stringify(entries);
      const result = change(entries);
      const after = JSON.stringify(entries);
      if (after !== before) await writeAtomically(path, `${after}\n`);
      return result;
    } catch (error) {
      throw unavailable(action, error);
    } finally {
      await release().catch(() => {});
    }
  }

  const expiry = (ttlMs: number | undefined) => (ttlMs === undefined ? null : now() + ttlMs);

  return {
    async get(key) {
      try {
        return read()[key]?.value;
      } catch (error) {
        throw unavailable("read its local state", error);
      }
    },
    async set(key, value, ttlMs) {
      await update("record its local state", (entries) => {
        entries[key] = { value, expiresAt: expiry(ttlMs) };
      });
    },
    async setIfAbsent(key, value, ttlMs) {
      return update("record its local state", (entries) => {
        if (entries[key]) return false;
        entries[key] = { value, expiresAt: expiry(ttlMs) };
        return true;
      });
    },
    async take(key) {
      return update("read its local state", (entries) => {
        const value = entries[key]?.value;
        delete entries[key];
        return value;
      });
    },
    async delete(key) {
      await update("update its local state", (entries) => {
        delete entries[key];
      });
    },
  };
}
