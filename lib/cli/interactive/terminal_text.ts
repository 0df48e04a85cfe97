/**
 * Text the model or a server chose, made safe to print: nothing it contains can move the cursor,
 * change colours, set the title, write the clipboard (OSC 52) or reorder what is shown (bidi
 * overrides). Control characters become visible (`^[`, `^G`, `<U+202E>`) instead of being executed.
 *
 * Private to the interactive mode until the shared sanitizer of lib/shared lands (#13 item 11);
 * then this file becomes a re-export of it.
 */

const TAB = "  ";

/** Characters that must never reach the terminal raw: C0 (but tab and newline), DEL, C1, bidi controls. */
// deno-lint-ignore no-control-regex
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return "^?";
  return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
}

/** Keeps newlines and tabs (as two spaces); every other control is shown, never executed. */
export function terminalSafe(text: string): string {
  const unified = text.includes("\r") ? text.replace(/\r\n/g, "\n") : text;
  const safe = UNSAFE.test(unified) ? unified.replace(UNSAFE, visible) : unified;
  UNSAFE.lastIndex = 0;
  return safe.includes("\t") ? safe.replaceAll("\t", TAB) : safe;
}

/** One line: newlines shown as `⏎` (or ` | ` without UTF-8) as well. */
export function terminalSafeLine(text: string, unicode = true): string {
  return terminalSafe(text).replace(/\n/g, unicode ? "⏎" : " | ");
}

/** For a terminal that is not UTF-8: anything outside ASCII becomes `?`. */
export function asciiOnly(text: string): string {
  // deno-lint-ignore no-control-regex
  return /[^\x00-\x7f]/.test(text) ? text.replace(/[^\x00-\x7f]/gu, "?") : text;
}
