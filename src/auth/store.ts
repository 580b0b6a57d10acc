// Where `workforce-mcp login` keeps its sign-ins: one JSON file in the user's config folder,
// readable only by the user (0600, in a 0700 folder), one entry per platform URL. Every change is
// made under a lock file (proper-lockfile) and written atomically (a temporary file renamed over
// the old one), after reading the file again under the lock, so that two server processes
// renewing at once never lose the newest token pair. Before reading or writing, the folder and the
// file must be the user's own and writable by nobody else (the file not a symbolic link): another
// user who could write there could swap in their own sign-in, and the server would act as them.

import { lstatSync, mkdirSync, readFileSync, type Stats, statSync } from "node:fs";
import { unlink } from "node:fs/promises";
import { join } from "node:path";
import type { SignInIndex } from "../config.js";
import { lockFile, writeAtomically } from "../state/locked-file.js";
import type { TokenPair } from "./renewal.js";

export const SIGN_IN_FILE = "sign-ins.json";
export const DAY_MS = 24 * 60 * 60 * 1000;
/** The interface document: OAuth tokens can be refreshed for up to 90 days. */
export const SIGN_IN_PERIOD_MS = 90 * DAY_MS;
/** And one access token lasts 15 days (used when the platform leaves out expires_in). */
export const ACCESS_TOKEN_LIFETIME_MS = 15 * DAY_MS;

export interface SignInIdentity {
  id: string;
  name: string;
  email: string;
}

/** A sign-in: the platform's token pair, and the OAuth client that renews it. */
export interface StoredSignIn extends TokenPair {
  /** The GraphQL API's base URL this sign-in is for (the key). */
  apiUrl: string;
  /** Where it was obtained and is renewed; never taken from later configuration. */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  identity: SignInIdentity;
}

interface StoreFile {
  version: 1;
  signIns: Record<string, StoredSignIn>;
}

export class SignInStoreError extends Error {
  override name = "SignInStoreError";
}

/** Who must own the folder and the file: this process's user; nobody on Windows (no such modes). */
function currentUser(): number | undefined {
  return process.platform === "win32" ? undefined : process.getuid?.();
}

export class SignInStore {
  readonly path: string;

  constructor(
    readonly dir: string,
    private readonly onWarning: (message: string) => void = () => {},
    /** Whose folder and file these must be (tests pose as another user); none on Windows. */
    readonly owner: number | undefined = currentUser(),
  ) {
    this.path = join(dir, SIGN_IN_FILE);
  }

  /**
   * Throws SignInStoreError, naming the path, what is wrong and the fix, when the folder or the
   * file could have been written by another user. Nothing stored yet is fine.
   */
  verify(): void {
    const owner = this.owner;
    if (owner === undefined) return;
    const dir = this.dir;
    const folder = statIfThere(dir, statSync);
    if (!folder) return;
    if (!folder.isDirectory()) {
      throw new SignInStoreError(
        `Refusing the sign-ins in ${dir}: it is not a folder. Remove it, or set WORKFORCE_CONFIG_DIR to a folder of your own.`,
      );
    }
    if (folder.uid !== owner) {
      throw new SignInStoreError(
        `Refusing the sign-ins in ${dir}: the folder belongs to another user (uid ${folder.uid}), not to you (uid ${owner}), so the sign-in in it may be theirs. If the folder is yours (created with sudo, say), run \`sudo chown -R ${owner} ${quote(dir)}\`; otherwise set WORKFORCE_CONFIG_DIR to a folder of your own.`,
      );
    }
    if ((folder.mode & 0o022) !== 0) {
      throw new SignInStoreError(
        `Refusing the sign-ins in ${dir}: other users can write to the folder (mode ${octal(folder.mode)}), so they could put their own sign-in there. Run \`chmod 700 ${quote(dir)}\`, then \`workforce-mcp status\` to check that the sign-in shown is yours.`,
      );
    }
    const file = statIfThere(this.path, lstatSync);
    if (!file) return;
    const path = this.path;
    if (file.isSymbolicLink() || !file.isFile()) {
      throw new SignInStoreError(
        `Refusing ${path}: it is ${file.isSymbolicLink() ? "a symbolic link" : "not a regular file"}, so the sign-in could come from anywhere. Remove it (\`rm ${quote(path)}\`) and run \`workforce-mcp login\` again.`,
      );
    }
    if (file.uid !== owner) {
      throw new SignInStoreError(
        `Refusing ${path}: it belongs to another user (uid ${file.uid}), not to you (uid ${owner}), so the sign-in in it may be theirs. If you created it (with sudo, say), run \`sudo chown ${owner} ${quote(path)}\`; otherwise remove it and run \`workforce-mcp login\` again.`,
      );
    }
    if ((file.mode & 0o022) !== 0) {
      throw new SignInStoreError(
        `Refusing ${path}: other users can write to it (mode ${octal(file.mode)}), so the sign-in in it may not be yours. Run \`chmod 600 ${quote(path)}\`, then \`workforce-mcp status\` to check that the sign-in shown is yours.`,
      );
    }
  }

  /** The sign-in for one platform, as stored now (no lock: a snapshot). */
  get(apiUrl: string): StoredSignIn | undefined {
    return this.read().signIns[apiUrl];
  }

  list(): StoredSignIn[] {
    return Object.values(this.read().signIns);
  }

  /** Whether the file exists and may be read by others than its owner. */
  permissions(): { mode: number } | undefined {
    try {
      return { mode: statSync(this.path).mode & 0o777 };
    } catch {
      return undefined;
    }
  }

  /**
   * Reads the file again under the lock, lets `change` alter it (it may await, for example a
   * token request), and writes it back atomically when it changed. Other processes wait.
   */
  async update<T>(change: (signIns: Record<string, StoredSignIn>) => Promise<T> | T): Promise<T> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // Before the lock file goes into the folder; read() checks again under the lock.
    this.verify();
    let release: () => Promise<void>;
    try {
      release = await lockFile(this.path, (error) =>
        this.onWarning(`The lock on ${this.path} was lost (${error.message}).`),
      );
    } catch (error) {
      throw new SignInStoreError(
        `Could not lock ${this.path} to change the sign-in (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
    try {
      const file = this.read();
      const before = JSON.stringify(file);
      const result = await change(file.signIns);
      const after = JSON.stringify(file);
      if (after !== before) {
        if (Object.keys(file.signIns).length === 0) {
          await unlink(this.path).catch(() => {});
        } else {
          await writeAtomically(this.path, `${JSON.stringify(file, null, 2)}\n`);
        }
      }
      return result;
    } finally {
      await release().catch(() => {});
    }
  }

  private read(): StoreFile {
    this.verify();
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, signIns: {} };
      throw new SignInStoreError(
        `Could not read the sign-ins in ${this.path} (${(error as NodeJS.ErrnoException).code ?? "error"}).`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const file = parsed as Partial<StoreFile> | undefined;
    if (
      file?.version !== 1 ||
      typeof file.signIns !== "object" ||
      file.signIns === null ||
      Array.isArray(file.signIns)
    ) {
      throw new SignInStoreError(
        `The sign-in file ${this.path} is damaged. Delete it and run \`workforce-mcp login\` again.`,
      );
    }
    const signIns: Record<string, StoredSignIn> = {};
    for (const [apiUrl, entry] of Object.entries(file.signIns)) {
      if (isSignIn(entry) && entry.apiUrl === apiUrl) signIns[apiUrl] = entry;
    }
    return { version: 1, signIns };
  }
}

function isSignIn(value: unknown): value is StoredSignIn {
  const v = value as Partial<StoredSignIn> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.apiUrl === "string" &&
    typeof v.authUrl === "string" &&
    typeof v.clientId === "string" &&
    typeof v.clientSecret === "string" &&
    typeof v.accessToken === "string" &&
    typeof v.accessTokenExpiresAt === "number" &&
    typeof v.renewBy === "number" &&
    typeof v.identity === "object" &&
    v.identity !== null
  );
}

function statIfThere(path: string, stat: typeof statSync): Stats | undefined {
  try {
    return stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new SignInStoreError(
      `Could not check ${path} (${(error as NodeJS.ErrnoException).code ?? "error"}).`,
    );
  }
}

const octal = (mode: number) => (mode & 0o777).toString(8);

/** A path as one shell word, for the commands the messages suggest. */
function quote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

/** `2026-12-01 14:05 UTC`: unambiguous in any terminal. */
export function when(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** For parseConfig: which platforms have a stored sign-in. Cheap: one small file, no lock. */
export function readSignInIndex(
  configDir: string,
  owner: number | undefined = currentUser(),
): SignInIndex {
  return { apiUrls: new SignInStore(configDir, undefined, owner).list().map((s) => s.apiUrl) };
}
