import { terminalText } from "../../shared/mod.ts";
import stringWidth from "string-width";
import type { LineBuffer } from "./line_buffer.ts";

export interface EditorLayout {
  rows: string[];
  cursor: { row: number; column: number };
}

/** Rows shown at most: a long prompt scrolls around the cursor. */
const MAX_ROWS = 12;

/**
 * Lays the prompt out in rows of `width` columns: the first line after `prompt`, the others after
 * `continuation`, each wrapped by display width (CJK and emoji take two columns); control
 * characters typed or pasted are shown, never sent to the terminal.
 */
export function layoutEditor(
  buffer: LineBuffer,
  width: number,
  marks: { prompt: string; continuation: string },
): EditorLayout {
  const rows: string[] = [];
  let cursor = { row: 0, column: 0 };
  const lines = buffer.text.split("\n");
  let offset = 0;
  lines.forEach((line, index) => {
    const lead = index === 0 ? marks.prompt : marks.continuation;
    let row = lead;
    let used = stringWidth(lead);
    const place = (i: number) => {
      if (offset + i === buffer.cursor) cursor = { row: rows.length, column: used };
    };
    let i = 0;
    for (const ch of line) {
      place(i);
      const shown = ch.charCodeAt(0) < 0x20 || ch === "\x7f" ? terminalText(ch, { tabWidth: 2 }) : ch;
      const w = shown.length === 1 && shown.charCodeAt(0) < 0x7f ? 1 : stringWidth(shown);
      if (used + w > width) {
        rows.push(row);
        row = " ".repeat(stringWidth(lead));
        used = stringWidth(lead);
        place(i);
      }
      row += shown;
      used += w;
      i += ch.length;
    }
    place(i);
    if (used >= width && offset + i === buffer.cursor) {
      rows.push(row);
      row = " ".repeat(stringWidth(lead));
      cursor = { row: rows.length, column: stringWidth(lead) };
    }
    rows.push(row);
    offset += line.length + 1;
  });
  if (rows.length <= MAX_ROWS) return { rows, cursor };
  const start = Math.max(0, Math.min(cursor.row - Math.floor(MAX_ROWS / 2), rows.length - MAX_ROWS));
  return {
    rows: rows.slice(start, start + MAX_ROWS),
    cursor: { row: cursor.row - start, column: cursor.column },
  };
}
