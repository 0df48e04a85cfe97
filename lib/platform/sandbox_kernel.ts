import { existsSync } from "node:fs";
import { isWithinPath } from "./sandbox_protected.ts";

/**
 * The kernel's own knobs under /proc, kept read-only in every profile (issue #20 item 1). Root in the
 * sandbox is the host's uid 0 without capabilities, and a sysctl file checks the uid, not a
 * capability: a writable `/proc/sys/kernel/core_pattern` is a command the kernel runs as real root
 * outside every namespace. bwrap covers some of these itself, but only those it finds writable
 * (`/proc/sys` is a 0555 directory, so it skips it): each is bound read-only here, whatever bwrap
 * does. The same list as Docker's read-only and masked /proc paths that exist as directories or
 * writable files.
 */
const PROC_KERNEL = [
  "sys",
  "sysrq-trigger",
  "irq",
  "bus",
  "fs",
  "acpi",
  "driver",
  "tty",
  "mtrr",
  "pressure",
  "sysvipc",
];

/**
 * Mount arguments that keep the kernel interfaces read-only; they go after every bind (a writable
 * root of `/` would otherwise bind the host's /sys writable over the read-only one). `/proc/sys` is
 * always bound (bwrap fails if the host has none, rather than leaving the new one writable); the
 * others where this kernel has them. `/sys` is read-only through `--ro-bind / /` already, so it is
 * bound again when a writable root contains it or lies inside it.
 */
export function kernelInterfaceArgs(roots: string[]): string[] {
  const out: string[] = [];
  for (const name of PROC_KERNEL) {
    const path = `/proc/${name}`;
    if (name === "sys" || existsSync(path)) out.push("--ro-bind", path, path);
  }
  if (roots.some((root) => isWithinPath(root, "/sys") || isWithinPath("/sys", root))) {
    out.push("--ro-bind", "/sys", "/sys");
  }
  return out;
}
