import { fstatSync, writeSync } from "node:fs";
import process from "node:process";

const FD = { stdin: 0, stdout: 1, stderr: 2 } as const;
const LINUX_MEMORY_DEVICES = 1; // /dev/null, /dev/zero, …: character devices that are no terminal

/**
 * Whether a standard stream is a terminal, without touching `process.stdin`/`stdout`/`stderr`: in
 * Bun the first touch builds a tty stream and the Node stream layer under it (~7 ms of a CLI start
 * on the bench machine). Pipes and files answer from one fstat; only character devices, which may be
 * a terminal, ask node:tty.
 */
export function isTerminalFd(stream: keyof typeof FD): boolean {
  const fd = FD[stream];
  let info;
  try {
    info = fstatSync(fd);
  } catch {
    return false; // closed
  }
  if (!info.isCharacterDevice()) return false;
  if (process.platform === "linux" && ((Number(info.rdev) >> 8) & 0xfff) === LINUX_MEMORY_DEVICES) {
    return false;
  }
  return process.getBuiltinModule("node:tty").isatty(fd);
}

const encoder = new TextEncoder();

/**
 * Writes to stderr synchronously, so diagnostics keep their order with everything else and are out
 * before an exit; `process.stderr` (a Node stream, costly to build) only takes over when the
 * descriptor is non-blocking and full.
 */
export function writeStderrSync(text: string): void {
  const bytes = encoder.encode(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(2, bytes, done);
  } catch (error) {
    if ((error as { code?: string }).code !== "EAGAIN") return; // stderr closed: nothing to tell
    process.stderr.write(bytes.subarray(done));
  }
}
