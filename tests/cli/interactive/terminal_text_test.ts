import assert from "node:assert/strict";
import { asciiOnly, terminalSafe, terminalSafeLine } from "../../../lib/cli/interactive/terminal_text.ts";

Deno.test("terminalSafe shows control characters instead of sending them", () => {
  assert.equal(terminalSafe("a\x1b[2Jb\x07c\x7f"), "a^[[2Jb^Gc^?");
  assert.equal(terminalSafe("\x1b]52;c;eA==\x07"), "^[]52;c;eA==^G");
  assert.equal(terminalSafe("x\u009by"), "x<U+009B>y", "C1 CSI");
  assert.equal(terminalSafe("\u202Eevil"), "<U+202E>evil", "bidi override");
  assert.equal(terminalSafe("line\r\nnext\rover"), "line\nnext^Mover");
  assert.equal(terminalSafe("tab\there"), "tab  here");
});

Deno.test("terminalSafeLine keeps one line; asciiOnly keeps ASCII", () => {
  assert.equal(terminalSafeLine("a\nb"), "a⏎b");
  assert.equal(terminalSafeLine("a\nb", false), "a | b");
  assert.equal(asciiOnly("café ✓"), "caf? ?");
});
