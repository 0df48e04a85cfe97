import { lstatSync, readdirSync } from "node:fs";
import * as nodePath from "node:path";
import process from "node:process";
import { isWithinPath } from "./sandbox_protected.ts";

/**
 * The kernel's own knobs under /proc stay read-only in every profile (issue #20 item 1). Root in the
 * sandbox is the host's uid 0 without capabilities, and a sysctl file checks the uid, not a
 * capability: a writable `/proc/sys/kernel/core_pattern` is a command the kernel runs as real root
 * outside every namespace.
 *
 * bwrap's `--proc` already binds `/proc/sysrq-trigger`, `/proc/irq` and `/proc/bus` read-only when
 * it finds them writable, but it asks `access(W_OK)` of the directory, and the kernel answers
 * EACCES for the root of `/proc/sys` even to root: so `/proc/sys` is always bound read-only here.
 * The self-check probe (sandbox_probe.ts) writes to `/proc/sys` and looks for a writable file in the
 * three bwrap covers, so a bwrap that stops covering them is reported, not trusted.
 * `/proc/fs` and `/proc/acpi` (Docker keeps them read-only or masked) are bound too where they hold
 * a file this user could write (looked at once per process: a bind costs every sandboxed command's
 * start, see bench/RESULTS.md sandbox_start).
 */
const PROC_WHEN_WRITABLE = ["fs", "acpi"];

let writableProc: string[] | undefined;

/**
 * Mount arguments that keep the kernel interfaces read-only; they go after every bind (a writable
 * root of `/` would otherwise bind the host's /sys writable over the read-only one). `/sys` is
 * read-only through `--ro-bind / /` already, so it is bound again when a writable root contains it
 * or lies inside it.
 */
export function kernelInterfaceArgs(roots: string[]): string[] {
  writableProc ??= PROC_WHEN_WRITABLE.map((name) => `/proc/${name}`).filter((dir) => holdsWritable(dir, 3));
  const out = ["--ro-bind", "/proc/sys", "/proc/sys"];
  for (const path of writableProc) out.push("--ro-bind", path, path);
  if (roots.some((root) => isWithinPath(root, "/sys") || isWithinPath("/sys", root))) {
    out.push("--ro-bind", "/sys", "/sys");
  }
  return out;
}

/** Whether `dir` holds, `depth` levels down at most, a file this user may write by its mode bits. */
function holdsWritable(dir: string, depth: number): boolean {
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false; // absent here
  }
  for (const name of names) {
    const path = nodePath.join(dir, name);
    try {
      const info = lstatSync(path);
      if (info.isDirectory() && depth > 0 && holdsWritable(path, depth - 1)) return true;
      if (info.isFile() && ((info.uid === uid && info.mode & 0o200) || info.mode & 0o022)) return true;
    } catch {
      // gone or unreadable: nothing to write there
    }
  }
  return false;
}
