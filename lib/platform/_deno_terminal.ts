import type { TerminalIo } from "./platform.ts";

// deno-lint-ignore no-explicit-any
const D = (globalThis as any).Deno;
const END_OF_INPUT = "\x04";

/** The terminal through Deno's own calls: `setRaw`, `consoleSize`, SIGWINCH and `stdout.write`. */
export function denoTerminal(): TerminalIo {
  const encoder = new TextEncoder();
  const handlers = new Set<(text: string) => void>();
  let reading = false;
  let ended = false;
  let pending: Promise<void> = Promise.resolve();
  const read = async () => {
    const decoder = new TextDecoder();
    const reader = D.stdin.readable.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        // The end of input (Ctrl-D on an empty line in cooked mode) reads as what Ctrl-D types raw.
        ended = true;
        for (const handler of [...handlers]) handler(END_OF_INPUT);
        return;
      }
      const text = decoder.decode(value, { stream: true });
      if (text) { for (const handler of [...handlers]) handler(text); }
    }
  };
  return {
    setRawMode(on) {
      if (D.stdin.isTerminal()) D.stdin.setRaw(on);
    },
    size() {
      try {
        return D.consoleSize();
      } catch {
        return { columns: 80, rows: 24 };
      }
    },
    onResize(handler) {
      D.addSignalListener("SIGWINCH", handler);
      return () => D.removeSignalListener("SIGWINCH", handler);
    },
    onInput(handler) {
      handlers.add(handler);
      if (ended) queueMicrotask(() => handlers.has(handler) && handler(END_OF_INPUT));
      // One reader for the process's life: a second one could not lock the stream again.
      if (!reading) {
        reading = true;
        read().catch(() => {});
      }
      return () => void handlers.delete(handler);
    },
    write(text) {
      if (!text) return;
      const bytes = encoder.encode(text);
      pending = pending.then(async () => {
        let written = 0;
        while (written < bytes.length) written += await D.stdout.write(bytes.subarray(written));
      }).catch(() => {});
    },
    drain: () => pending,
  };
}
