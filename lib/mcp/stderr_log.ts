import type { FileSystem } from "../platform/mod.ts";

/** A stdio server's stderr log is rotated when it would pass this size (issue #13). */
export const MAX_STDERR_LOG_BYTES = 5 * 1024 * 1024;

/**
 * `$TRELLIS_HOME/logs/mcp/<server>.log`, bounded across sessions: when an append would take the
 * file past `maxBytes`, it becomes `<server>.log.1` (replacing the previous old one) and a new file
 * starts, so a server never holds more than about twice `maxBytes` of disk. Appends are chained,
 * in order; a failure to write is dropped (a log must never fail the server).
 */
export class RotatingLog {
  #size: number | undefined;
  #pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly fs: FileSystem,
    readonly file: string,
    private readonly maxBytes = MAX_STDERR_LOG_BYTES,
  ) {}

  append(text: string): void {
    this.#pending = this.#pending.then(() => this.#append(text)).catch(() => {});
  }

  /** Resolves once every append so far reached the file. */
  flushed(): Promise<void> {
    return this.#pending;
  }

  async #append(text: string): Promise<void> {
    const bytes = new TextEncoder().encode(text).length;
    this.#size ??= (await this.fs.stat(this.file))?.size ?? 0;
    if (this.#size > 0 && this.#size + bytes > this.maxBytes) {
      await this.fs.rename(this.file, `${this.file}.1`);
      this.#size = 0;
    }
    await this.fs.appendTextFile(this.file, text);
    this.#size += bytes;
  }
}
