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

let stdoutErrorsHandled = false;
/**
 * Set once a write has gone to the stream, or once something else writes stdout through it (the
 * terminal): every later write follows it there, since a blocking write would overtake what the
 * stream still queues.
 */
let stdoutStreaming = false;

export function useStdoutStream(): void {
  stdoutStreaming = true;
}

/**
 * Writes with blocking `write(2)` calls on fd 1, which builds no Node stream (up to ~8 ms of a
 * printing command's start); a non-blocking descriptor that is full (EAGAIN: someone made it
 * non-blocking and the reader is slow) hands the rest, and every later write, to the stream, which
 * waits the pipe out. A write error (EPIPE: the reader went away) rejects, as the stream's would.
 */
export function writeStdout(text: string): Promise<void> {
  if (stdoutStreaming) return writeStdoutStream(text);
  const bytes = encoder.encode(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (error) {
    if ((error as { code?: string }).code !== "EAGAIN") return Promise.reject(error);
    stdoutStreaming = true;
    return writeStdoutStream(bytes.subarray(done));
  }
  return Promise.resolve();
}

/**
 * Node's `process.stdout`, whose stream waits out a full pipe. Not `Bun.write(Bun.stdout)`: Bun 1.4.5
 * wrote the first 64 KiB twice once stdout had been made non-blocking (as reading `process.stdout`
 * anywhere does): `trellis completion fish | source` got a doubled, broken script. The stream's own
 * `error` event is handled here so an EPIPE rejects the write without also ending the process.
 */
function writeStdoutStream(text: string | Uint8Array): Promise<void> {
  if (!stdoutErrorsHandled) {
    process.stdout.on("error", () => {});
    stdoutErrorsHandled = true;
  }
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (error) => error ? reject(error) : resolve());
  });
}
