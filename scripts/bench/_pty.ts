/**
 * A command on a real pseudo-terminal for the interactive benches (util-linux `script`): what it
 * prints is read as it comes, keys are written to it, and `waitFor` says when the output first
 * matched a pattern, in ms since the spawn.
 */

const encoder = new TextEncoder();

/** The interactive mode's first frame with the prompt: the footer comes right after it. */
export const IDLE = /› [^\n]*\r?\n[^\n]*\/help/;

function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A command on a pseudo-terminal: what it prints is read as it comes, keys are written to it. */
export class Pty {
  #tail = "";
  #waiters: { pattern: RegExp; resolve: (at: number) => void }[] = [];
  readonly started = performance.now();
  readonly done: Promise<Deno.CommandStatus>;
  #stdin: WritableStreamDefaultWriter<Uint8Array>;

  constructor(argv: string[], options: { cwd: string; env: Record<string, string> }) {
    const child = new Deno.Command("script", {
      args: ["-qfec", argv.map(quote).join(" "), "/dev/null"],
      cwd: options.cwd,
      env: { SHELL: "/bin/sh", TERM: "xterm-256color", LANG: "C.UTF-8", ...options.env },
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#stdin = child.stdin.getWriter();
    this.done = child.status;
    void this.#read(child.stdout);
  }

  async #read(stream: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const at = performance.now();
      this.#tail = (this.#tail + decoder.decode(chunk, { stream: true })).slice(-8192);
      this.#waiters = this.#waiters.filter((w) => {
        if (!w.pattern.test(this.#tail)) return true;
        w.resolve(at);
        return false;
      });
    }
  }

  /** When the output (its last 8 KiB) first matches `pattern`, in ms since the spawn. */
  waitFor(pattern: RegExp, timeoutMs = 120_000): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${pattern} in: ${this.#tail.slice(-400)}`)),
        timeoutMs,
      );
      const done = (at: number) => {
        clearTimeout(timer);
        resolve(at - this.started);
      };
      if (pattern.test(this.#tail)) return done(performance.now());
      this.#waiters.push({ pattern, resolve: done });
    });
  }

  async write(text: string): Promise<void> {
    await this.#stdin.write(encoder.encode(text));
  }

  async close(): Promise<void> {
    await this.#stdin.close().catch(() => {});
    await this.done;
  }
}
