import type { Token, Tokens } from "marked";
import stringWidth from "string-width";
import wrapAnsi from "wrap-ansi";
import type { Glyphs, Palette } from "./style.ts";

/** The libraries rendering needs, loaded on first use (`loadMarkdownLibraries`). */
export interface MarkdownLibraries {
  lex(text: string): Token[];
  /** Inline tokens only (emphasis, code spans, links) of one line of text. */
  lexInline(text: string): Token[];
  /** Syntax colour for a fenced block; the code unchanged when the language is unknown. */
  highlight(code: string, language: string): string;
}

export interface RenderOptions {
  width: number;
  colors: Palette;
  glyphs: Glyphs;
}

/**
 * Markdown → terminal lines: marked lexes, this walks its tokens (headings, lists, quotes, rules,
 * tables, emphasis, code spans, links) and wrap-ansi wraps to the width. The text is already
 * terminal-safe; the only escape sequences in the result are the palette's.
 *
 * Hand-written instead of `marked-terminal`: measured here, marked-terminal 7.3 took 500 ms to load
 * (cli-highlight pulls in highlight.js with every grammar, parse5 and yargs) and 4.2–6.2 s to render
 * 1 MB of typical model markdown, against ~1–2 s for marked's lexer alone; this walker adds little
 * to the lexer's time.
 */
export function renderMarkdown(text: string, libs: MarkdownLibraries, options: RenderOptions): string[] {
  return renderBlocks(libs.lex(text), libs, options, 0);
}

const HEADING = /^(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const BULLET = /^([-*+])\s+(\[[ xX]\]\s+)?(.*)$/;
const ORDERED = /^(\d{1,9})([.)])\s+(.*)$/;
const QUOTE = /^>\s?(.*)$/;
const RULE = /^(?:(?:\*\s*){3,}|(?:-\s*){3,}|(?:_\s*){3,})$/;
/** A line starting like this is not one of the shapes above: marked's block lexer reads it. */
const OTHER_BLOCK = /^(?:[<|=]|`{3}|~{3}|\[[^\]]+\]:)/;

/**
 * One line of a streamed answer (the stream hands over complete lines): the common block shapes —
 * heading, list item, quote, rule, paragraph — are recognised here and only their text goes
 * through marked's inline lexer; anything else is lexed as a block. Measured here on 1 MB of model
 * markdown: lexing every line as a block cost ~3.5 s, the inline lexer on the same lines ~0.2 s.
 * The output is what `renderMarkdown` gives for the same line.
 */
export function renderLine(line: string, libs: MarkdownLibraries, o: RenderOptions): string[] {
  const c = o.colors;
  const inline = inlineOf(libs, o);
  if (RULE.test(line)) return [c.dim(o.glyphs.rule.repeat(Math.min(o.width, 40)))];
  if (OTHER_BLOCK.test(line)) return renderMarkdown(line, libs, o);
  let m = HEADING.exec(line);
  if (m) {
    const text = inline(m[2]);
    const depth = m[1].length;
    return wrap(
      depth === 1 ? c.bold(c.underline(text)) : depth === 2 ? c.bold(text) : c.italic(c.bold(text)),
      o.width,
    );
  }
  m = BULLET.exec(line) ?? ORDERED.exec(line);
  if (m) {
    const ordered = /\d/.test(m[1]);
    const marker = ordered ? `${Number(m[1])}.` : o.glyphs.bullet;
    const check = !ordered && m[2] ? (/x/i.test(m[2]) ? "[x] " : "[ ] ") : "";
    const indent = stringWidth(marker) + 1;
    const body = wrap(check + inline(m[3]), Math.max(10, o.width - indent));
    return body.map((row, i) => (i === 0 ? `${c.cyan(marker)} ${row}` : `${" ".repeat(indent)}${row}`));
  }
  m = QUOTE.exec(line);
  if (m) {
    return wrap(inline(m[1]), o.width - 2).map((row) => `${c.dim(o.glyphs.quote)} ${c.italic(row)}`);
  }
  return wrap(inline(line), o.width);
}

function renderBlocks(tokens: Token[], libs: MarkdownLibraries, o: RenderOptions, depth: number): string[] {
  const out: string[] = [];
  for (const token of tokens) out.push(...renderBlock(token, libs, o, depth));
  return out;
}

function renderBlock(token: Token, libs: MarkdownLibraries, o: RenderOptions, depth: number): string[] {
  const c = o.colors;
  switch (token.type) {
    case "space":
      return depth === 0 && token.raw.includes("\n\n") ? [""] : [];
    case "heading": {
      const t = token as Tokens.Heading;
      const text = inline(t.tokens, o);
      const styled = t.depth === 1
        ? c.bold(c.underline(text))
        : t.depth === 2
        ? c.bold(text)
        : c.italic(c.bold(text));
      return wrap(styled, o.width);
    }
    case "paragraph":
      return wrap(inline((token as Tokens.Paragraph).tokens, o), o.width);
    case "text": {
      const t = token as Tokens.Text;
      return wrap(t.tokens ? inline(t.tokens, o) : t.text, o.width);
    }
    case "code": {
      const t = token as Tokens.Code;
      return codeBlock(t.text, t.lang ?? "", libs, o);
    }
    case "blockquote": {
      const inner = renderBlocks(
        (token as Tokens.Blockquote).tokens,
        libs,
        { ...o, width: o.width - 2 },
        depth + 1,
      );
      return inner.map((line) => `${c.dim(o.glyphs.quote)} ${c.italic(line)}`);
    }
    case "list":
      return list(token as Tokens.List, libs, o, depth);
    case "hr":
      return [c.dim(o.glyphs.rule.repeat(Math.min(o.width, 40)))];
    case "table":
      return table(token as Tokens.Table, o);
    case "html":
      return wrap((token as Tokens.HTML).text.replace(/\n$/, ""), o.width);
    default:
      return "raw" in token && typeof token.raw === "string"
        ? wrap(token.raw.replace(/\n+$/, ""), o.width)
        : [];
  }
}

function list(token: Tokens.List, libs: MarkdownLibraries, o: RenderOptions, depth: number): string[] {
  const out: string[] = [];
  const start = typeof token.start === "number" ? token.start : 1;
  token.items.forEach((item, i) => {
    const marker = token.ordered ? `${start + i}.` : o.glyphs.bullet;
    const check = item.task ? (item.checked ? "[x] " : "[ ] ") : "";
    const indent = stringWidth(marker) + 1;
    // The checkbox is drawn above; marked also keeps it as a token of the item.
    const body = item.tokens.filter((t) => t.type !== "checkbox");
    const lines = renderBlocks(body, libs, { ...o, width: Math.max(10, o.width - indent) }, depth + 1)
      .filter((line, n, all) => line !== "" || n < all.length - 1);
    lines.forEach((line, n) => {
      out.push(n === 0 ? `${o.colors.cyan(marker)} ${check}${line}` : `${" ".repeat(indent)}${line}`);
    });
  });
  return out;
}

/** A fenced block's lines, indented two columns, coloured when its language is known. */
export function codeBlock(
  code: string,
  language: string,
  libs: MarkdownLibraries,
  o: RenderOptions,
  withLabel = true,
  colour = true,
): string[] {
  const lang = language.split(/\s/)[0];
  const body = lang && colour ? libs.highlight(code, lang) : code;
  const label = lang && withLabel ? o.colors.dim(`  ${lang}`) : null;
  // Code is not re-wrapped (indentation matters); the terminal wraps a line too long for it.
  return [...(label ? [label] : []), ...body.split("\n").map((line) => `  ${line}`)];
}

const COLUMN_GAP = 2;
/** Narrower than this a column is not squeezed: the terminal wraps the row instead. */
const MIN_COLUMN = 6;

/**
 * A table in aligned columns. One wider than the width gets column widths that fit (#21 item 6):
 * a column narrower than its share keeps its width, the rest share what is left, and each cell's
 * text wraps inside its column, so a wide table never breaks the layout of the lines around it.
 */
function table(token: Tokens.Table, o: RenderOptions): string[] {
  const rows = [
    token.header.map((cell) => inline(cell.tokens, o)),
    ...token.rows.map((row) => row.map((cell) => inline(cell.tokens, o))),
  ];
  const natural = token.header.map((_, i) =>
    Math.max(...rows.map((row) => Math.max(...(row[i] ?? "").split("\n").map((l) => stringWidth(l)))))
  );
  const longestWords = token.header.map((_, i) =>
    Math.max(...rows.map((row) => Math.max(...(row[i] ?? "").split(/\s+/).map((w) => stringWidth(w)))))
  );
  const widths = columnWidths(natural, o.width - COLUMN_GAP * (natural.length - 1), longestWords);
  const gap = " ".repeat(COLUMN_GAP);
  const lines = (row: string[]): string[] => {
    const cells = widths.map((w, i) => cellLines(row[i] ?? "", w));
    const height = Math.max(...cells.map((c) => c.length));
    return Array.from({ length: height }, (_, n) =>
      cells.map((c, i) => {
        const text = c[n] ?? "";
        return text + " ".repeat(Math.max(0, widths[i] - stringWidth(text)));
      }).join(gap).trimEnd());
  };
  return [
    ...lines(rows[0]).map((l) => o.colors.bold(l)),
    o.colors.dim(widths.map((w) => o.glyphs.rule.repeat(w)).join(gap)),
    ...rows.slice(1).flatMap(lines),
  ];
}

/**
 * Each column's natural width when they all fit in `room`. Else each column first gets its longest
 * word (so words are not cut) when those fit, and the rest of the room is shared fairly among the
 * columns that want more (water-filling: a column wanting less than its share keeps what it wants).
 */
export function columnWidths(natural: number[], room: number, longestWords: number[] = []): number[] {
  if (natural.reduce((a, b) => a + b, 0) <= room) return natural;
  const floor = natural.map((n, i) => Math.min(n, Math.max(MIN_COLUMN, longestWords[i] ?? 0)));
  const floorSum = floor.reduce((a, b) => a + b, 0);
  if (longestWords.length === 0 || floorSum > room) return shareFairly(natural, room, MIN_COLUMN);
  const more = shareFairly(natural.map((n, i) => n - floor[i]), room - floorSum, 0);
  return floor.map((f, i) => f + more[i]);
}

function shareFairly(wanted: number[], room: number, minimum: number): number[] {
  const widths = wanted.map(() => 0);
  let open = wanted.map((_, i) => i);
  let left = room;
  while (open.length > 0) {
    const share = Math.floor(left / open.length);
    const fitting = open.filter((i) => wanted[i] <= share);
    if (fitting.length === 0) {
      // The widest columns share what is left; the first ones take the remainder's columns.
      const base = Math.max(minimum, share);
      const extra = Math.max(0, left - base * open.length);
      open.forEach((i, n) => widths[i] = Math.min(wanted[i], base + (n < extra ? 1 : 0)));
      return widths;
    }
    for (const i of fitting) {
      widths[i] = wanted[i];
      left -= wanted[i];
    }
    open = open.filter((i) => wanted[i] > share);
  }
  return widths;
}

function cellLines(text: string, width: number): string[] {
  if (text === "") return [""];
  return wrapAnsi(text, Math.max(1, width), { hard: true, trim: true }).split("\n");
}

function inline(tokens: Token[] | undefined, o: RenderOptions): string {
  if (!tokens) return "";
  const c = o.colors;
  let out = "";
  for (const token of tokens) {
    switch (token.type) {
      case "strong":
        out += c.bold(inline((token as Tokens.Strong).tokens, o));
        break;
      case "em":
        out += c.italic(inline((token as Tokens.Em).tokens, o));
        break;
      case "del":
        out += c.strikethrough(inline((token as Tokens.Del).tokens, o));
        break;
      case "codespan":
        out += c.yellow(unescapeEntities((token as Tokens.Codespan).text));
        break;
      case "link": {
        const t = token as Tokens.Link;
        const text = inline(t.tokens, o);
        out += text === t.href ? c.blue(c.underline(text)) : `${c.blue(text)} ${c.dim(`(${t.href})`)}`;
        break;
      }
      case "image": {
        const t = token as Tokens.Image;
        out += c.dim(`[image: ${t.text || t.href}]`);
        break;
      }
      case "br":
        out += "\n";
        break;
      case "text": {
        const t = token as Tokens.Text;
        out += t.tokens ? inline(t.tokens, o) : unescapeEntities(t.text);
        break;
      }
      case "escape":
        out += (token as Tokens.Escape).text;
        break;
      default:
        out += "raw" in token && typeof token.raw === "string" ? token.raw : "";
    }
  }
  return out;
}

/** marked keeps `&amp;`-style entities of the source text in `text`; a terminal shows characters. */
function unescapeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(
    /&(amp|lt|gt|quot|#39|#x27);/g,
    (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" })[name] ?? "",
  );
}

/** Characters that can start inline markup (emphasis, code, links, autolinks, HTML, entities, escapes). */
const INLINE_MARKUP = /[*_`[\]<>&~\\!]|https?:|www\.|@/;

/** Inline rendering for one line's text: text with no markup character skips the lexer. */
function inlineOf(libs: MarkdownLibraries, o: RenderOptions): (text: string) => string {
  return (text) => (INLINE_MARKUP.test(text) ? inline(libs.lexInline(text), o) : text);
}

/** Rows of at most `width` columns; a short ASCII line (most of them) skips wrap-ansi entirely. */
export function wrap(text: string, width: number): string[] {
  if (text === "") return [""];
  // deno-lint-ignore no-control-regex
  if (text.length <= width && !text.includes("\n") && /^[\x00-\x7e]*$/.test(text)) return [text];
  return wrapAnsi(text, Math.max(10, width), { hard: true, trim: false }).split("\n");
}
