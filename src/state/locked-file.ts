// One file that several local processes of this user change: every change is made under a lock
// file (proper-lockfile) and written atomically (a temporary file renamed over the old one), so a
// reader sees the old file or the new one whole and no two writers lose each other's change.
import { open, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";

/** How long one process may hold the lock before others take it as abandoned. */
const LOCK_STALE_MS = 60_000;

/**
 * Locks `path` (the lock is a folder beside it, so the file need not exist yet) and resolves to the
 * function that releases it; other processes wait their turn.
 */
export async function lockFile(
  path: string,
  onCompromised: (error: Error) => void,
): Promise<() => Promise<void>> {
  // CommonJS: its functions arrive on `default` (bundled or not).
  const lockfile = await import("proper-lockfile");
  const lock = (lockfile.default ?? lockfile).lock;
  return lock(path, {
    realpath: false,
    stale: LOCK_STALE_MS,
    retries: { retries: 200, factor: 1.2, minTimeout: 20, maxTimeout: 500 },
    onCompromised,
  });
}

/**
 * Writes a new file beside the old one, created 0600 (never readable by others, not even for a
 * moment), flushed to disk, then renamed over it: readers see the old file or the new one whole.
 */
export async function writeAtomically(path: string, text: string): Promise<void> {
  // node:crypto loads here, on a write, not at every start that reads the file.
  const { randomBytes } = await import("node:crypto");
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const handle = await open(temporary, "wx", 0o600);
  try {
    await handle.writeFile(text, "utf8");
    await handle.chmod(0o600);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(temporary).catch(() => {});
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
  // The rename itself survives a crash once the folder is flushed too (not possible everywhere).
  const folder = await open(dirname(path), "r").catch(() => undefined);
  await folder?.sync().catch(() => {});
  await folder?.close().catch(() => {});
}
