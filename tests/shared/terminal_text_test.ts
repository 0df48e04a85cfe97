import assert from "node:assert/strict";
import fc from "fast-check";
import { terminalText } from "../../lib/shared/mod.ts";

Deno.test("terminalText() makes ESC, CSI, OSC 52, CR and BEL visible instead of sending them (#13 item 11)", () => {
  assert.equal(
    terminalText("a\x1b[2Jb\x1b]52;c;cm0gLXJmIH4=\x07c\rd\x1b[1A\x1b[2K"),
    "a␛[2Jb␛]52;c;cm0gLXJmIH4=␇c␍d␛[1A␛[2K",
  );
});

Deno.test("terminalText() escapes C1 controls, DEL, bidi overrides and invisible characters", () => {
  assert.equal(
    terminalText("\x9b31m\x85\x7f|\u202eevil\u202c|\u2066x\u2069|\u200bz\ufeff|\u2028"),
    "\\u009b31m\\u0085␡|\\u202eevil\\u202c|\\u2066x\\u2069|\\u200bz\\ufeff|\\u2028",
  );
});

Deno.test("terminalText() keeps tabs and line feeds unless asked to show them, and leaves text alone", () => {
  assert.equal(terminalText("a\tb\nc"), "a\tb\nc");
  assert.equal(terminalText("a\tb\nc", { lineBreaks: "show" }), "a␉b␊c");
  const plain = "naïve 日本語 emoji 👩‍👩‍👧 — “quotes” ~/path $HOME";
  assert.equal(terminalText(plain), plain);
});

Deno.test("terminalText() output never holds a character a terminal interprets (property)", () => {
  // deno-lint-ignore no-control-regex -- matching controls is the point
  const unsafe = /[\x00-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/;
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
      assert.doesNotMatch(terminalText(text, { lineBreaks: "show" }), unsafe);
      assert.doesNotMatch(terminalText(text).replace(/[\t\n]/g, ""), unsafe);
    }),
  );
});

Deno.test("terminalText() tabWidth expands tabs for a layout that measures widths; show makes them visible", () => {
  assert.equal(terminalText("a\tb\n\x1b", { tabWidth: 2 }), "a  b\n␛");
  assert.equal(terminalText("a\tb\n", { lineBreaks: "show", tabWidth: 2 }), "a␉b␊");
  assert.equal(terminalText("a\tb"), "a\tb");
});
