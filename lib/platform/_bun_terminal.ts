import process from "node:process";
import type { TerminalIo } from "./platform.ts";

/**
 * The terminal through Node's tty streams, as Bun implements them: `process.stdin` in raw mode,
 * SIGWINCH for size changes, and `process.stdout.write`, which queues what a full pseudo-terminal
 * cannot take yet (a raw `writeSync` would fail with EAGAIN once stdin has made the shared file
 * description non-blocking).
 */
export function nodeTerminal(): TerminalIo {
  const { stdin, stdout } = process;
  const handlers = new Set<(text: string) => void>();
  const decoder = new TextDecoder("utf-8");
  // The end of input (Ctrl-D on an empty line in cooked mode) reads as what Ctrl-D types raw.
  const onEnd = () => {
    for (const handler of [...handlers]) handler("\x04");
  };
  const onData = (chunk: Uint8Array | string) => {
    const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    if (text) { for (const handler of [...handlers]) handler(text); }
  };
  return {
    setRawMode(on) {
      if (stdin.isTTY) stdin.setRawMode(on);
    },
    size: () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 }),
    onResize(handler) {
      process.on("SIGWINCH", handler);
      return () => void process.off("SIGWINCH", handler);
    },
    onInput(handler) {
      handlers.add(handler);
      if (handlers.size === 1) {
        stdin.on("data", onData);
        stdin.on("end", onEnd);
        stdin.resume();
      }
      return () => {
        handlers.delete(handler);
        if (handlers.size === 0) {
          stdin.off("data", onData);
          stdin.off("end", onEnd);
          stdin.pause();
        }
      };
    },
    write(text) {
      if (text) stdout.write(text);
    },
    drain: () => new Promise((resolve) => stdout.write("", () => resolve())),
  };
}
