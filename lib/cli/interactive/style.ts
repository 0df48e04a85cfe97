import pc from "picocolors";

/** What the terminal can show: colour (NO_COLOR, TERM=dumb) and UTF-8 glyphs (the locale). */
export interface TerminalCaps {
  color: boolean;
  unicode: boolean;
}

/**
 * NO_COLOR (any non-empty value, no-color.org) or TERM=dumb turn colour off, FORCE_COLOR turns it
 * on; the first of LC_ALL, LC_CTYPE and LANG that is set decides UTF-8 (`C`, `POSIX` or another
 * charset mean ASCII; none set means UTF-8, as every current terminal speaks it).
 */
export function detectCaps(env: (name: string) => string | undefined): TerminalCaps {
  const force = env("FORCE_COLOR");
  const color = force !== undefined && force !== "0"
    ? true
    : !(env("NO_COLOR") ?? "") && env("TERM") !== "dumb";
  const locale = env("LC_ALL") || env("LC_CTYPE") || env("LANG") || "";
  const unicode = locale === "" || /utf-?8/i.test(locale);
  return { color, unicode };
}

export type Palette = ReturnType<typeof pc.createColors>;

/** Colour functions; each returns its input unchanged when colour is off. */
export function palette(caps: TerminalCaps): Palette {
  return pc.createColors(caps.color);
}

/** The few glyphs the UI draws, with ASCII stand-ins for a terminal that is not UTF-8. */
export interface Glyphs {
  prompt: string;
  continuation: string;
  bullet: string;
  spinner: string[];
  ok: string;
  fail: string;
  arrow: string;
  rule: string;
  ellipsis: string;
  quote: string;
}

export function glyphs(caps: TerminalCaps): Glyphs {
  return caps.unicode
    ? {
      prompt: "› ",
      continuation: "  ",
      bullet: "•",
      spinner: ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"],
      ok: "✓",
      fail: "✗",
      arrow: "→",
      rule: "─",
      ellipsis: "…",
      quote: "│",
    }
    : {
      prompt: "> ",
      continuation: "  ",
      bullet: "*",
      spinner: ["|", "/", "-", "\\"],
      ok: "+",
      fail: "x",
      arrow: "->",
      rule: "-",
      ellipsis: "...",
      quote: "|",
    };
}

/** Punctuation the UI writes as text (not through `glyphs`), as ASCII. */
const ASCII_PUNCTUATION: Record<string, string> = { "·": "|", "…": "...", "—": "-", "–": "-" };

/**
 * For a terminal that is not UTF-8: the control pictures the shared sanitizer shows (`␛`, `␍` …)
 * become caret notation (`^[`, `^M`, `^?`), the UI's own punctuation its ASCII form, anything else
 * outside ASCII `?`.
 */
export function asciiOnly(text: string): string {
  if (!/[\u0080-\u{10FFFF}]/u.test(text)) return text;
  return text.replace(/[\u0080-\u{10FFFF}]/gu, (ch) => {
    const code = ch.charCodeAt(0);
    if (code >= 0x2400 && code < 0x2420) return `^${String.fromCharCode(code - 0x2400 + 0x40)}`;
    if (code === 0x2421) return "^?";
    return ASCII_PUNCTUATION[ch] ?? "?";
  });
}
