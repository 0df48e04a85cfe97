import * as nodeFs from "node:fs";
import process from "node:process";
import type { FileLock, LockOptions } from "./platform.ts";

/**
 * Exclusive advisory locks on a lock file — flock(2) — for read-modify-write of small shared files
 * (config.toml), so two trellis processes editing one file take turns instead of losing an edit.
 *
 * Why flock and not an O_EXCL lock file: the kernel drops a flock when its process dies, so a
 * killed edit never leaves a stale lock, and no pid check or takeover race is needed. Deno offers
 * flock as `FsFile.tryLock`; Bun (node:fs) has none, so the Bun side calls libc's `flock` through
 * `bun:ffi`. Both take the same kernel lock, so `deno run main.ts` and the compiled binary exclude
 * each other (tests/platform/file_lock_test.ts runs one against the other).
 *
 * Both poll with LOCK_NB rather than block: a blocking flock would hold Bun's only thread (and a
 * Deno pool thread) with no way to give up after `timeoutMs`.
 */

const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;
const DEFAULT_TIMEOUT_MS = 30_000;

/** Waits until `tryLock` succeeds, with a short, jittered back-off; throws a timeout error after `timeoutMs`. */
async function poll(path: string, tryLock: () => boolean | Promise<boolean>, options: LockOptions) {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  for (let attempt = 0; !(await tryLock()); attempt++) {
    if (Date.now() >= deadline) {
      throw Object.assign(new Error(`timed out waiting for the lock on ${path}`), { code: "ETIMEDOUT" });
    }
    const wait = Math.min(25, 1 + attempt) * (0.5 + Math.random());
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

// deno-lint-ignore no-explicit-any
const D = (globalThis as any).Deno;

export async function denoLockFile(path: string, options: LockOptions = {}): Promise<FileLock> {
  const file = await D.open(path, { read: true, write: true, create: true, mode: 0o600 });
  try {
    await poll(path, () => file.tryLock(true), options);
  } catch (error) {
    file.close();
    throw error;
  }
  return {
    release: async () => {
      await file.unlock();
      file.close();
    },
  };
}

interface LibcFlock {
  flock(fd: number, operation: number): number;
}
let libc: LibcFlock | undefined;

/** libc's flock through bun:ffi, opened once; the names cover glibc, musl and macOS. */
async function libcFlock(): Promise<LibcFlock> {
  if (libc) return libc;
  // A computed specifier: `bun:ffi` exists only under Bun, and Deno's checker must not resolve it.
  const ffi = await import(["bun", "ffi"].join(":"));
  const names = ["libc.so.6", `libc.musl-${process.arch === "arm64" ? "aarch64" : "x86_64"}.so.1`];
  names.push("libc.so", "/usr/lib/libSystem.B.dylib");
  for (const name of names) {
    try {
      const lib = ffi.dlopen(name, { flock: { args: ["i32", "i32"], returns: "i32" } });
      return libc = lib.symbols as LibcFlock;
    } catch {
      // try the next name
    }
  }
  throw new Error(`cannot lock files: no C library with flock found (tried ${names.join(", ")})`);
}

export async function bunLockFile(path: string, options: LockOptions = {}): Promise<FileLock> {
  const { flock } = await libcFlock();
  const fd = nodeFs.openSync(path, nodeFs.constants.O_RDWR | nodeFs.constants.O_CREAT, 0o600);
  try {
    await poll(path, () => flock(fd, LOCK_EX | LOCK_NB) === 0, options);
  } catch (error) {
    nodeFs.closeSync(fd);
    throw error;
  }
  return {
    release: () => {
      flock(fd, LOCK_UN);
      nodeFs.closeSync(fd);
      return Promise.resolve();
    },
  };
}
