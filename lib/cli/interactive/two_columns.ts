import stringWidth from "string-width";
import { wrap } from "./markdown_render.ts";
import type { Ui } from "./ui.ts";

/**
 * Rows of `name  text` with the texts aligned in one column (#21 item 6): the name column as wide
 * as the widest name (at most 40% of the width), each text wrapped under itself (`wrapText`), or
 * cut to one line with an ellipsis (`cut`). `style` colours a name after it is measured.
 */
export function twoColumns(
  ui: Ui,
  rows: { name: string; text: string }[],
  options: { mode: "wrap" | "cut"; style?: (name: string) => string },
): string[] {
  const width = ui.width() - 1;
  const indent = 2;
  // As wide as the widest name that fits in 40% of the width; a wider one gets a line of its own.
  const cap = Math.floor(width * 0.4);
  const nameWidth = Math.max(0, ...rows.map((r) => stringWidth(r.name)).filter((w) => w <= cap));
  const textWidth = Math.max(10, width - indent - nameWidth - 2);
  const style = options.style ?? ((name: string) => name);
  const out: string[] = [];
  for (const row of rows) {
    const pad = " ".repeat(Math.max(0, nameWidth - stringWidth(row.name)));
    const head = `${" ".repeat(indent)}${style(row.name)}${pad}  `;
    // A name wider than its column takes a line of its own.
    const lead = stringWidth(row.name) > nameWidth ? [`${" ".repeat(indent)}${style(row.name)}`] : [];
    const lines = options.mode === "wrap" ? wrap(row.text, textWidth) : [cut(row.text, textWidth, ui)];
    const blank = " ".repeat(indent + nameWidth + 2);
    out.push(
      ...lead,
      ...lines.map((line, i) => `${i === 0 && !lead.length ? head : blank}${line.trimEnd()}`),
    );
  }
  return out;
}

function cut(text: string, width: number, ui: Ui): string {
  if (stringWidth(text) <= width) return text;
  let out = "";
  for (const ch of text) {
    if (stringWidth(out + ch) > width - 1) break;
    out += ch;
  }
  return out + ui.glyphs.ellipsis;
}
