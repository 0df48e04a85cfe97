import type { Platform, TerminalIo } from "../../platform/mod.ts";

/**
 * Opt-in measurement for the bench (`TRELLIS_KEY_LATENCY_LOG=FILE`): for every key, the time from
 * the moment its bytes were read to the moment the frame that echoes it was handed to the
 * terminal (the write's completion), in milliseconds, one number a line, written at exit.
 */
export class KeyLatencyLog {
  #pending: number[] = [];
  #samples: number[] = [];

  private constructor(private readonly platform: Platform, private readonly file: string) {}

  static fromEnv(platform: Platform): KeyLatencyLog | null {
    const file = platform.env("TRELLIS_KEY_LATENCY_LOG");
    return file ? new KeyLatencyLog(platform, file) : null;
  }

  /** Input bytes arrived. */
  received(): void {
    this.#pending.push(performance.now());
  }

  /** The frame for the keys read so far was queued: time it to the terminal. */
  echoed(terminal: TerminalIo): void {
    const started = this.#pending;
    this.#pending = [];
    if (started.length === 0) return;
    void terminal.drain().then(() => {
      const now = performance.now();
      for (const t of started) this.#samples.push(now - t);
    });
  }

  async save(): Promise<void> {
    await this.platform.fs.writeTextFile(this.file, this.#samples.map((s) => s.toFixed(3)).join("\n") + "\n");
  }
}
