/**
 * Streams an answer's markdown to the terminal as it arrives, line by line: each complete line is
 * rendered and committed at once (headings, list items, quotes, paragraphs keep their indentation),
 * a fenced code block is held until it closes (so it is coloured as a whole; past 200 lines it is
 * committed in pieces), and a table until its last row. The incomplete tail is what the live
 * preview shows. Work per byte is constant: nothing already committed is parsed again.
 */

export interface MarkdownSink {
  /** Renders one markdown fragment (a line, a table) to terminal lines. */
  render(markdown: string): string[];
  /** Renders a fenced block's code (`first`: the block's first piece, which carries its label). */
  renderCode(code: string, language: string, first: boolean): string[];
  /** Commits finished lines to the scrollback. */
  emit(lines: string[]): void;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)/;
const TABLE_ROW = /^\s*\|/;
const CODE_CHUNK_LINES = 200;

export class MarkdownStream {
  #partial = "";
  #fence: { marker: string; language: string; lines: string[]; first: boolean } | null = null;
  #table: string[] = [];
  #blank = true;

  constructor(private readonly sink: MarkdownSink) {}

  push(delta: string): void {
    const newline = delta.lastIndexOf("\n");
    if (newline < 0) {
      this.#partial += delta;
      return;
    }
    const complete = this.#partial + delta.slice(0, newline);
    this.#partial = delta.slice(newline + 1);
    for (const line of complete.split("\n")) this.#line(line);
  }

  /** What is not committed yet: the current line, or the open code block / table. */
  pending(): string {
    const held = this.#fence ? this.#fence.lines : this.#table;
    return held.length > 0 ? [...held.slice(-8), this.#partial].join("\n") : this.#partial;
  }

  /** Commits everything, the incomplete last line and an unclosed block included. */
  finish(): void {
    if (this.#partial) this.#line(this.#partial);
    this.#partial = "";
    this.#closeFence();
    this.#flushTable();
  }

  #line(line: string): void {
    const fence = this.#fence;
    if (fence) {
      if (line.trim().startsWith(fence.marker) && line.trim().replace(/[`~]/g, "") === "") {
        this.#closeFence();
      } else {
        fence.lines.push(line);
        if (fence.lines.length >= CODE_CHUNK_LINES) this.#flushCode();
      }
      return;
    }
    const opening = FENCE.exec(line);
    if (opening) {
      this.#flushTable();
      this.#fence = { marker: opening[2], language: opening[3], lines: [], first: true };
      return;
    }
    if (TABLE_ROW.test(line)) {
      this.#table.push(line);
      return;
    }
    this.#flushTable();
    if (line.trim() === "") {
      if (!this.#blank) this.#emit([""]);
      this.#blank = true;
      return;
    }
    const indent = line.length - line.trimStart().length;
    const rendered = this.sink.render(line.trimStart());
    this.#emit(indent > 0 ? rendered.map((l) => " ".repeat(indent) + l) : rendered);
  }

  #flushCode(): void {
    const fence = this.#fence;
    if (!fence || fence.lines.length === 0) return;
    this.#emit(this.sink.renderCode(fence.lines.join("\n"), fence.language, fence.first));
    fence.lines = [];
    fence.first = false;
  }

  #closeFence(): void {
    this.#flushCode();
    this.#fence = null;
  }

  #flushTable(): void {
    if (this.#table.length === 0) return;
    const rows = this.#table;
    this.#table = [];
    this.#emit(this.sink.render(rows.join("\n")));
  }

  #emit(lines: string[]): void {
    if (lines.length === 0) return;
    this.#blank = lines.at(-1) === "";
    this.sink.emit(lines);
  }
}
