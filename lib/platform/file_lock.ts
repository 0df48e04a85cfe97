import * as nodeFs from "node:fs";
import process from "node:process";
import type { FileLock, LockOptions } from "./platform.ts";
import { TrellisError } from "../shared/mod.ts";

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

/**
 * Waits until `tryLock` succeeds, with a short, jittered back-off. Each holder writes its pid and a
 * serial into the lock file, so a waiter can tell a queue that moves (many processes editing one
 * file on a busy machine) from one that is stuck: it gives up only after `timeoutMs` with the same
 * holder (an error with code ETIMEDOUT naming that pid).
 */
async function poll(path: string, tryLock: () => boolean | Promise<boolean>, options: LockOptions) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let holder = readHolder(path);
  let deadline = Date.now() + timeoutMs;
  for (let attempt = 0; !(await tryLock()); attempt++) {
    const now = readHolder(path);
    if (now !== holder) {
      holder = now;
      deadline = Date.now() + timeoutMs;
    } else if (Date.now() >= deadline) {
      const pid = holder.split(" ")[0];
      throw new TrellisError("ETIMEDOUT", `${path} is held by process ${pid || "(unknown)"}`, {
        path,
        pid: pid || undefined,
      });
    }
    // Short waits first (an edit holds the lock for milliseconds); a long queue backs off to 200 ms,
    // which costs it no latency (among many waiters one wakes soon) but keeps a hundred pollers from
    // starving the holder of CPU.
    const wait = Math.min(200, 2 + attempt * 4) * (0.5 + Math.random());
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

function readHolder(path: string): string {
  try {
    return nodeFs.readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

let serial = 0;

/** What the new holder writes into the lock file: its pid, and a serial that changes every time. */
const holderText = () => `${process.pid} ${Date.now()}-${serial++}\n`;

function holderRecord(fd: number): void {
  nodeFs.ftruncateSync(fd, 0);
  nodeFs.writeSync(fd, holderText(), 0);
}

// deno-lint-ignore no-explicit-any
const D = (globalThis as any).Deno;

export async function denoLockFile(path: string, options: LockOptions = {}): Promise<FileLock> {
  const file = await D.open(path, { read: true, write: true, create: true, mode: 0o600 });
  try {
    await poll(path, () => file.tryLock(true), options);
    await file.truncate(0);
    await file.write(new TextEncoder().encode(holderText()));
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
function libcFlock(): LibcFlock {
  if (libc) return libc;
  // Bun's require: `bun:ffi` exists only under Bun, and Deno's checker must not resolve it.
  // deno-lint-ignore no-explicit-any
  const ffi = (import.meta as any).require("bun:ffi");
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
  throw new TrellisError(
    "io",
    `cannot lock files: no C library with flock found (tried ${names.join(", ")})`,
    {
      libraries: names,
    },
  );
}

export async function bunLockFile(path: string, options: LockOptions = {}): Promise<FileLock> {
  const { flock } = libcFlock();
  const fd = nodeFs.openSync(path, nodeFs.constants.O_RDWR | nodeFs.constants.O_CREAT, 0o600);
  try {
    await poll(path, () => flock(fd, LOCK_EX | LOCK_NB) === 0, options);
    holderRecord(fd);
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
