// The sign-in store trusts only a folder and file that are the user's own and writable by nobody
// else: another user who could write there could swap in their own sign-ins.json, and the server
// would start as their account. Tests run as root here, so ownership is tested by posing as
// another user (the store's owner) or, as root, by giving the file away with chown.
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readSignInIndex, SignInStore, SignInStoreError } from "../../src/auth/store.js";
import { madeUpSignIn, tempConfigDir } from "./helpers.js";

const API = "https://api.example.com";
const me = process.getuid?.() ?? 0;
const someoneElse = me + 4242;

/** A config folder holding one stored sign-in, made the normal way (0700 folder, 0600 file). */
async function stored(): Promise<SignInStore> {
  const store = new SignInStore(tempConfigDir());
  await store.update((signIns) => {
    signIns[API] = madeUpSignIn(API);
  });
  return store;
}

/** Every way the store is used: reading at start, and writing (login, renewing, logout). */
async function expectRefused(store: SignInStore, message: RegExp): Promise<void> {
  const before = readFileSync(store.path, "utf8");
  let refusal: unknown;
  try {
    store.list();
  } catch (error) {
    refusal = error;
  }
  expect(refusal).toBeInstanceOf(SignInStoreError);
  // Paths and uids only: never a token or the client secret.
  expect((refusal as Error).message).toMatch(message);
  expect((refusal as Error).message).not.toMatch(/token-of|client-secret/);
  expect(() => store.get(API)).toThrow(message);
  expect(() => readSignInIndex(store.dir, store.owner)).toThrow(message);
  await expect(store.update(() => {})).rejects.toThrow(message);
  await expect(
    store.update((signIns) => {
      delete signIns[API];
    }),
  ).rejects.toThrow(SignInStoreError);
  expect(readFileSync(store.path, "utf8")).toBe(before);
  expect(existsSync(`${store.path}.lock`)).toBe(false);
}

describe("the sign-in store refuses a folder or file another user could have written", () => {
  it("a fresh folder and file are created 0700 and 0600 and trusted", async () => {
    const store = await stored();
    expect(store.list().map((s) => s.identity.name)).toEqual(["me"]);
    expect(readSignInIndex(store.dir).apiUrls).toEqual([API]);
  });

  it("nothing stored yet is fine: no folder, no file", () => {
    expect(new SignInStore(tempConfigDir()).list()).toEqual([]);
  });

  it("CWE-732: a config folder others can write to (777, 770) is refused, naming it and `chmod 700`", async () => {
    for (const mode of [0o777, 0o770]) {
      const store = await stored();
      chmodSync(store.dir, mode);
      await expectRefused(
        store,
        new RegExp(
          `Refusing the sign-ins in ${store.dir}: other users can write to the folder \\(mode ${mode.toString(8)}\\).*chmod 700 ${store.dir}`,
        ),
      );
    }
  });

  it("CWE-732: a sign-ins.json others can write to (666, 620) is refused, naming it and `chmod 600`", async () => {
    for (const mode of [0o666, 0o620]) {
      const store = await stored();
      chmodSync(store.path, mode);
      await expectRefused(
        store,
        new RegExp(
          `Refusing ${store.path}: other users can write to it \\(mode ${mode.toString(8)}\\).*chmod 600 ${store.path}`,
        ),
      );
    }
  });

  it("CWE-732: readable by others (644) is not refused; `status` warns about that instead", async () => {
    const store = await stored();
    chmodSync(store.path, 0o644);
    expect(store.list()).toHaveLength(1);
  });

  it("CWE-283: a config folder owned by another user is refused, naming both users and `chown`", async () => {
    const mine = await stored();
    const posing = new SignInStore(mine.dir, () => {}, someoneElse);
    await expectRefused(
      posing,
      new RegExp(
        `Refusing the sign-ins in ${mine.dir}: the folder belongs to another user \\(uid ${me}\\), not to you \\(uid ${someoneElse}\\).*chown -R ${someoneElse} ${mine.dir}`,
      ),
    );
  });

  it.skipIf(me !== 0)(
    "CWE-283: a sign-ins.json owned by another user is refused, naming both users and `chown`",
    async () => {
      const store = await stored();
      chownSync(store.path, someoneElse, someoneElse);
      await expectRefused(
        store,
        new RegExp(
          `Refusing ${store.path}: it belongs to another user \\(uid ${someoneElse}\\), not to you \\(uid ${me}\\).*chown ${me} ${store.path}`,
        ),
      );
    },
  );

  it("CWE-59: a sign-ins.json that is a symbolic link is refused, even to a file of the user's", async () => {
    const store = await stored();
    const elsewhere = path.join(path.dirname(store.dir), "elsewhere.json");
    writeFileSync(elsewhere, readFileSync(store.path), { mode: 0o600 });
    rmSync(store.path);
    symlinkSync(elsewhere, store.path);
    await expectRefused(
      store,
      new RegExp(
        `Refusing ${store.path}: it is a symbolic link.*rm ${store.path}.*workforce-mcp login`,
      ),
    );
  });

  it("quotes a path with spaces in the suggested command", async () => {
    const dir = path.join(path.dirname(tempConfigDir()), "my config");
    mkdirSync(dir, { mode: 0o700 });
    const store = new SignInStore(dir);
    await store.update((signIns) => {
      signIns[API] = madeUpSignIn(API);
    });
    chmodSync(dir, 0o777);
    expect(() => store.list()).toThrow(`chmod 700 '${dir}'`);
  });
});

describe("on Windows (no owners or modes to check)", () => {
  const platform = Object.getOwnPropertyDescriptor(process, "platform");
  afterEach(() => {
    if (platform) Object.defineProperty(process, "platform", platform);
  });

  it("the checks are skipped", async () => {
    const store = await stored();
    chmodSync(store.dir, 0o777);
    Object.defineProperty(process, "platform", { value: "win32" });
    expect(new SignInStore(store.dir).list()).toHaveLength(1);
  });
});
