import stringWidth from "string-width";
import type { TerminalIo } from "../../platform/mod.ts";
import { asciiOnly } from "./style.ts";

/** The bottom of the screen the UI redraws: rows (each narrower than the terminal) and the cursor. */
export interface LiveRegion {
  rows: string[];
  /** Where the text cursor goes (the prompt being typed); hidden when absent. */
  cursor?: { row: number; column: number };
}

const CSI = "\x1b[";
/** DEC mode 2026: the terminal shows a frame at once, never half drawn (ignored where unknown). */
const SYNC_START = `${CSI}?2026h`;
const SYNC_END = `${CSI}?2026l`;

/**
 * A scrolling, line-oriented screen like Codex's: finished output is written once and scrolls into
 * the terminal's own scrollback; only the live region at the bottom (streaming preview, status line,
 * prompt, menus, questions) is redrawn. A frame moves to the live region's first row, clears to the
 * end of the screen, writes what was committed since the last frame, then the live region again —
 * so committed text can never be garbled by the status line, and a question stays whole.
 *
 * Raw mode turns off output post-processing, so every newline goes out as CR LF.
 */
export class Screen {
  #committed: string[] = [];
  /** Rows between the live region's first row and where the cursor was left, as last drawn. */
  #cursorRow = 0;
  #drawnRows: string[] = [];
  #drawnCursorColumn = 0;
  #scheduled: ReturnType<typeof setTimeout> | undefined;
  #lastFrame = 0;
  #closed = false;

  constructor(
    private readonly terminal: TerminalIo,
    /** The live region as it should look now (asked at every frame). */
    private live: () => LiveRegion,
    private readonly options: { frameMs?: number; ascii?: boolean } = {},
  ) {}

  get columns(): number {
    return Math.max(20, this.terminal.size().columns);
  }

  get rows(): number {
    return Math.max(5, this.terminal.size().rows);
  }

  /** Queues finished lines (already rendered, ANSI included) above the live region. */
  commit(lines: string[]): void {
    for (const line of lines) this.#committed.push(line);
    this.schedule();
  }

  /** A frame soon (at most one per `frameMs`): for streaming text and spinners. */
  schedule(): void {
    if (this.#scheduled !== undefined || this.#closed) return;
    const wait = Math.max(0, this.#lastFrame + (this.options.frameMs ?? 16) - performance.now());
    this.#scheduled = setTimeout(() => {
      this.#scheduled = undefined;
      this.draw();
    }, wait);
  }

  /** A frame now: for keys, so what is typed shows within the same tick. */
  draw(): void {
    if (this.#closed) return;
    clearTimeout(this.#scheduled);
    this.#scheduled = undefined;
    this.#lastFrame = performance.now();
    const columns = this.columns;
    const maxLive = this.rows - 1;
    const live = this.live();
    const rows = live.rows.length > maxLive ? live.rows.slice(-maxLive) : live.rows;
    const cut = live.rows.length - rows.length;
    let frame = SYNC_START + `${CSI}?25l\r`;
    if (this.#cursorRow > 0) frame += `${CSI}${this.#cursorRow}A`;
    // Never at the top-left corner (the app commits a line before its first frame): there, tmux
    // would copy the whole screen into the scrollback on every erase-below.
    frame += `${CSI}J`;
    if (this.#committed.length > 0) {
      frame += this.#committed.join("\r\n") + "\r\n";
      this.#committed = [];
    }
    frame += rows.map((row) => fit(row, columns - 1)).join("\r\n");
    const cursor = live.cursor && live.cursor.row >= cut
      ? { row: live.cursor.row - cut, column: Math.min(live.cursor.column, columns - 1) }
      : undefined;
    const last = Math.max(0, rows.length - 1);
    const row = cursor ? cursor.row : last;
    if (last - row > 0) frame += `${CSI}${last - row}A`;
    frame += "\r";
    if (cursor && cursor.column > 0) frame += `${CSI}${cursor.column}C`;
    if (cursor) frame += `${CSI}?25h`;
    frame += SYNC_END;
    this.#cursorRow = row;
    this.#drawnRows = rows;
    this.#drawnCursorColumn = cursor?.column ?? 0;
    this.terminal.write(this.options.ascii ? asciiOnly(frame) : frame);
  }

  /**
   * After a change of width the terminal has re-wrapped the rows drawn last (tmux, VTE, iTerm2 and
   * kitty reflow): count how many rows above the cursor they occupy now, so the next frame starts
   * at the live region's real first row.
   */
  resized(): void {
    const columns = this.columns;
    let above = 0;
    for (let i = 0; i < this.#cursorRow && i < this.#drawnRows.length; i++) {
      above += Math.max(1, Math.ceil(stringWidth(this.#drawnRows[i]) / columns));
    }
    above += Math.floor(this.#drawnCursorColumn / columns);
    this.#cursorRow = above;
    this.draw();
  }

  /** Leaves the live region as drawn, the cursor below it, and stops drawing. */
  close(finalRows: string[] = []): void {
    this.live = () => ({ rows: finalRows });
    this.draw();
    this.terminal.write(`\r\n${CSI}?25h`);
    this.#closed = true;
  }
}

/** A row cut to `width` columns (the live region never wraps, so its height is known). */
export function fit(row: string, width: number): string {
  if (row.length <= width && !/[^\x20-\x7e]/.test(row)) return row;
  if (stringWidth(row) <= width) return row;
  let out = "";
  let used = 0;
  // deno-lint-ignore no-control-regex
  for (const part of row.split(/(\x1b\[[0-9;]*m)/)) {
    if (part.startsWith("\x1b[")) {
      out += part;
      continue;
    }
    for (const ch of part) {
      const w = stringWidth(ch);
      if (used + w > width) return out + "\x1b[0m";
      out += ch;
      used += w;
    }
  }
  return out;
}
