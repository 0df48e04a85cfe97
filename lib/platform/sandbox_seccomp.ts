import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import * as nodePath from "node:path";
import process from "node:process";
import { digestHex } from "./digest.ts";
import { TrellisError } from "../shared/mod.ts";

/**
 * The sandbox's seccomp filter, handed to bwrap as raw classic-BPF bytes (`--seccomp FD`).
 *
 * Why hand-built and not a library: libseccomp is a C library (its bindings need a native addon,
 * which neither the compiled Deno binary nor Bun can load), and npm holds no maintained pure-JS
 * BPF builder. The program is small and fixed, so it is written out here instruction by
 * instruction, each rule documented, and tests/platform/sandbox_seccomp_test.ts runs it under real
 * bwrap.
 *
 * The rules (issue #20):
 * - Always (item 12): no file can be given the setuid or setgid bit — chmod, fchmod, fchmodat,
 *   fchmodat2 with S_ISUID|S_ISGID in the mode, and open/openat/creat/mknod/mknodat creating a file
 *   with them, fail with EPERM. Root in the sandbox owns what it creates as real root outside, so a
 *   setuid file left in the workspace would run as root later, for anyone. `openat2` (its mode sits
 *   in a struct BPF cannot read) and `io_uring_setup` (io_uring opens files and sockets without a
 *   system call) fail with ENOSYS, which every caller of them takes as "fall back".
 * - With the network off (item 6): `socket(AF_UNIX, …)` fails with EPERM. A UNIX socket is reached
 *   by its path, and every path on the host is visible read-only (a read-only mount does not stop a
 *   connect), so masking the known socket directories cannot cover a socket in `$HOME` or
 *   `/var/tmp`. `socketpair` stays allowed: it makes a connected pair and reaches nothing.
 * - Only the host's native system call table is allowed: on x86_64 the x32 numbers (bit 30) and the
 *   i386 entry points (`int 0x80`, another audit arch), on aarch64 the 32-bit arm entry points, fail
 *   with EPERM — their numbers differ, so the rules above would not see them.
 */

// Classic BPF opcodes (linux/filter.h) and seccomp return values (linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
/** struct seccomp_data: nr at 0, arch at 4, args[6] (u64, little-endian) from 16. */
const NR = 0;
const ARCH = 4;
const arg = (i: number) => 16 + 8 * i; // the low 32 bits: mode_t and int arguments
const S_ISUID_ISGID = 0o6000;
const AF_UNIX = 1;
const X32_BIT = 0x40000000;

export type SeccompArch = "x86_64" | "aarch64";

interface SyscallTable {
  audit: number;
  /** System calls whose mode argument (by index) must not carry S_ISUID|S_ISGID. */
  mode: [nr: number, argIndex: number][];
  enosys: number[];
  socket: number;
}

// x86_64: arch/x86/entry/syscalls/syscall_64.tbl; aarch64: include/uapi/asm-generic/unistd.h.
const TABLES: Record<SeccompArch, SyscallTable> = {
  x86_64: {
    audit: 0xc000003e,
    // open 2, creat 85, chmod 90, fchmod 91, mknod 133, openat 257, mknodat 259, fchmodat 268, fchmodat2 452
    mode: [[2, 2], [85, 1], [90, 1], [91, 1], [133, 1], [257, 3], [259, 2], [268, 2], [452, 2]],
    enosys: [425, 437], // io_uring_setup, openat2
    socket: 41,
  },
  aarch64: {
    audit: 0xc00000b7,
    // mknodat 33, fchmod 52, fchmodat 53, openat 56, fchmodat2 452 (no open/creat/chmod/mknod there)
    mode: [[33, 2], [52, 1], [53, 2], [56, 3], [452, 2]],
    enosys: [425, 437],
    socket: 198,
  },
};

type Insn = { code: number; k: number; jt?: string; jf?: string; label?: string };

const programs = new Map<string, { program: Uint8Array; name: string }>();

/** The program and its file name (by digest), built once per process for each variant. */
function cachedProgram(arch: SeccompArch, denyUnixSockets: boolean): { program: Uint8Array; name: string } {
  const key = `${arch}:${denyUnixSockets}`;
  let entry = programs.get(key);
  if (!entry) {
    const program = seccompProgram(arch, { denyUnixSockets });
    programs.set(key, entry = { program, name: `filter-${digestHex("sha256", program).slice(0, 16)}.bpf` });
  }
  return entry;
}

/** The filter for `arch`, as the bytes bwrap reads (struct sock_filter: u16 code, u8 jt, u8 jf, u32 k). */
export function seccompProgram(arch: SeccompArch, options: { denyUnixSockets: boolean }): Uint8Array {
  const t = TABLES[arch];
  const p: Insn[] = [
    { code: LD_W_ABS, k: ARCH },
    { code: JEQ_K, k: t.audit, jf: "eperm" },
    { code: LD_W_ABS, k: NR },
  ];
  if (arch === "x86_64") p.push({ code: JGE_K, k: X32_BIT, jt: "eperm" });
  for (const nr of t.enosys) p.push({ code: JEQ_K, k: nr, jt: "enosys" });
  for (const [nr, index] of t.mode) p.push({ code: JEQ_K, k: nr, jt: `mode${index}` });
  if (options.denyUnixSockets) p.push({ code: JEQ_K, k: t.socket, jt: "socket" });
  p.push({ code: RET_K, k: RET_ALLOW });
  for (const index of new Set(t.mode.map(([, i]) => i))) {
    p.push({ code: LD_W_ABS, k: arg(index), label: `mode${index}` });
    p.push({ code: JSET_K, k: S_ISUID_ISGID, jt: "eperm", jf: "allow" });
  }
  if (options.denyUnixSockets) {
    p.push({ code: LD_W_ABS, k: arg(0), label: "socket" });
    p.push({ code: JEQ_K, k: AF_UNIX, jt: "eperm", jf: "allow" });
  }
  p.push({ code: RET_K, k: RET_ALLOW, label: "allow" });
  p.push({ code: RET_K, k: RET_ERRNO | EPERM, label: "eperm" });
  p.push({ code: RET_K, k: RET_ERRNO | ENOSYS, label: "enosys" });
  return assemble(p);
}

/** Resolves labels to the forward offsets BPF jumps take (0: the next instruction). */
function assemble(program: Insn[]): Uint8Array {
  const at = new Map(program.flatMap((insn, i) => insn.label ? [[insn.label, i] as const] : []));
  const offset = (from: number, label?: string) => {
    if (label === undefined) return 0;
    const to = at.get(label);
    if (to === undefined || to <= from || to - from - 1 > 255) {
      throw new TrellisError("internal", `bad BPF jump to ${label}`, { label });
    }
    return to - from - 1;
  };
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach((insn, i) => {
    view.setUint16(i * 8, insn.code, true);
    view.setUint8(i * 8 + 2, offset(i, insn.jt));
    view.setUint8(i * 8 + 3, offset(i, insn.jf));
    view.setUint32(i * 8 + 4, insn.k >>> 0, true);
  });
  return bytes;
}

/** The host's system call table, or undefined where Trellis has none (no filter: see README). */
export function hostSeccompArch(): SeccompArch | undefined {
  if (process.platform !== "linux") return undefined;
  return process.arch === "x64" ? "x86_64" : process.arch === "arm64" ? "aarch64" : undefined;
}

/**
 * bwrap reads the filter from a file descriptor, and a spawned process gets only stdin, stdout and
 * stderr from Deno and Bun: so the sandbox argv starts with `/bin/sh -c 'exec "$@" 9<"$0"' FILE`,
 * which opens the filter as fd 9 and becomes bwrap (one exec, no process left in between).
 */
export function withSeccompFd(file: string, bwrapArgv: string[]): string[] {
  return ["/bin/sh", "-c", 'exec "$@" 9<"$0"', file, bwrapArgv[0], "--seccomp", "9", ...bwrapArgv.slice(1)];
}

/**
 * The filter's file: named by its digest, in a per-user temp dir only this user can write, which
 * the profile also keeps read-only inside the sandbox should a writable root hold it, so no
 * sandboxed command can swap the filter the next one loads. Readable by all (it is no secret, and
 * a sandbox built by root may run as another user, as the tests do through setpriv). Its bytes are compared
 * on every call (a few hundred bytes) and rewritten when they differ or the file went away.
 */
export function seccompFilterFile(
  dir: string,
  arch: SeccompArch,
  options: { denyUnixSockets: boolean; write: boolean },
): string {
  const { program, name } = cachedProgram(arch, options.denyUnixSockets);
  if (!options.write) return nodePath.join(dir, name);
  const home = ownedDir(dir);
  const file = nodePath.join(home, name);
  if (!sameBytes(file, program)) {
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, program, { mode: 0o644 });
    renameSync(temp, file);
  }
  return file;
}

const fallbackDirs = new Map<string, string>();

/** `dir`, made if missing, when this user owns it and no one else can write it; else a fresh private one. */
function ownedDir(dir: string): string {
  const fallback = fallbackDirs.get(dir);
  if (fallback) return fallback;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    const info = lstatSync(dir);
    const uid = typeof process.getuid === "function" ? process.getuid() : info.uid;
    if (info.isDirectory() && info.uid === uid && (info.mode & 0o022) === 0) return dir;
  } catch {
    // not makeable here: a private one below
  }
  const made = mkdtempSync(nodePath.join(nodePath.dirname(dir), "trellis-sandbox-seccomp-"));
  chmodSync(made, 0o755);
  fallbackDirs.set(dir, made);
  return made;
}

function sameBytes(file: string, program: Uint8Array): boolean {
  try {
    const info = lstatSync(file);
    if (!info.isFile() || info.size !== program.length) return false;
    const bytes = readFileSync(file);
    return bytes.every((b, i) => b === program[i]);
  } catch {
    return false;
  }
}
