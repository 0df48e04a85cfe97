import { readRegularChunks } from "../platform/mod.ts";
import { isBinary } from "./file_errors.ts";

const MAX_LINE_CHARS = 2000;
/**
 * After the requested lines, reading goes on to count the file's lines for the "of N" note, but not
 * past this many more bytes: an 800 MB log costs its first window plus 32 MiB, not 800 MB of reading.
 */
const COUNT_MAX_BYTES = 32 * 1024 * 1024;

export interface LineWindow {
  /** The requested lines, each cut at MAX_LINE_CHARS. */
  lines: string[];
  /** Lines counted: all of them when `complete`, else a lower bound. */
  counted: number;
  complete: boolean;
  binary: boolean;
}

/**
 * Lines `offset` … `offset + limit - 1` (1-based) of a regular file, streamed: memory stays bounded by
 * the window whatever the file's size or line length. Throws what `readRegularChunks` throws.
 */
export async function readLineWindow(
  path: string,
  window: { offset: number; limit: number },
  signal?: AbortSignal,
): Promise<LineWindow> {
  const collector = new LineCollector(window.offset, window.offset + window.limit - 1);
  const decoder = new TextDecoder();
  let bytesAfterWindow = 0;
  let first = true;
  for await (const chunk of readRegularChunks(path, { signal })) {
    if (first && isBinary(chunk)) return { lines: [], counted: 0, complete: true, binary: true };
    first = false;
    collector.add(decoder.decode(chunk, { stream: true }));
    if (collector.pastWindow()) {
      bytesAfterWindow += chunk.length;
      if (bytesAfterWindow > COUNT_MAX_BYTES) return collector.result(false);
    }
  }
  collector.add(decoder.decode());
  return collector.result(true);
}

/** The same window of text already in memory (an editor's buffer): never binary, always complete. */
export function textLineWindow(text: string, window: { offset: number; limit: number }): LineWindow {
  const collector = new LineCollector(window.offset, window.offset + window.limit - 1);
  collector.add(text);
  return collector.result(true);
}

/** Splits streamed text into lines, keeping only those in [first, last] and only their first characters. */
class LineCollector {
  readonly lines: string[] = [];
  /** The line being read, 1-based. */
  private line = 1;
  private partial = "";
  /** The line being read has at least one character. */
  private pending = false;

  constructor(private readonly first: number, private readonly last: number) {}

  pastWindow(): boolean {
    return this.line > this.last;
  }

  add(text: string): void {
    for (let start = 0;;) {
      const end = text.indexOf("\n", start);
      const stop = end < 0 ? text.length : end;
      if (this.inWindow() && this.partial.length <= MAX_LINE_CHARS) {
        this.partial += text.slice(start, Math.min(stop, start + MAX_LINE_CHARS + 1));
      }
      if (end < 0) {
        this.pending ||= stop > start;
        return;
      }
      this.endLine();
      start = end + 1;
    }
  }

  result(complete: boolean): LineWindow {
    if (complete && this.pending) this.endLine(); // a last line without a newline
    return { lines: this.lines, counted: this.line - 1, complete, binary: false };
  }

  private inWindow(): boolean {
    return this.line >= this.first && this.line <= this.last;
  }

  private endLine(): void {
    if (this.inWindow()) this.lines.push(cut(this.partial));
    this.partial = "";
    this.pending = false;
    this.line++;
  }
}

function cut(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line truncated]` : line;
}

/** The window as `cat -n` would number it, with a note when lines remain (or the offset is past the end). */
export function formatLineWindow(window: LineWindow, offset: number): string {
  if (window.complete && window.counted === 0) return "(empty file)";
  if (window.complete && offset > window.counted) {
    return `(offset ${offset} is past the end: the file has ${window.counted} lines)`;
  }
  const numbered = window.lines.map((line, i) => `${String(offset + i).padStart(6)}\t${line}`);
  const last = offset - 1 + window.lines.length;
  if (!window.complete) {
    numbered.push(`(showing lines ${offset}-${last}; the file has more than ${window.counted} lines)`);
  } else if (last < window.counted) {
    numbered.push(`(showing lines ${offset}-${last} of ${window.counted})`);
  }
  return numbered.join("\n");
}
