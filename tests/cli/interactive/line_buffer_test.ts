import assert from "node:assert/strict";
import { LineBuffer, PASTE_PLACEHOLDER_CHARS } from "../../../lib/cli/interactive/line_buffer.ts";

Deno.test("LineBuffer edits like readline: insert, move, kill words and lines", () => {
  const b = new LineBuffer();
  b.insert("hello world");
  b.wordLeft();
  b.insert("big ");
  assert.deepEqual([b.text, b.cursor], ["hello big world", 10]);
  b.killWordBack();
  assert.deepEqual([b.text, b.cursor], ["hello world", 6]);
  b.lineEnd();
  b.backspace();
  assert.equal(b.text, "hello worl");
  b.killToLineStart();
  assert.deepEqual([b.text, b.cursor], ["", 0]);
});

Deno.test("LineBuffer moves between lines of a multi-line prompt and reports the edges", () => {
  const b = new LineBuffer();
  b.insert("first line\nsecond");
  assert.equal(b.up(), true);
  assert.equal(b.cursor, 6);
  assert.equal(b.up(), false, "the first line gives Up to history");
  assert.equal(b.down(), true);
  assert.equal(b.cursor, b.text.length);
  assert.equal(b.down(), false);
});

Deno.test("LineBuffer keeps a large paste whole behind one placeholder that backspace removes at once", () => {
  const b = new LineBuffer();
  const big = "a".repeat(PASTE_PLACEHOLDER_CHARS + 1) + "\nz";
  b.insert("see: ");
  b.paste(big);
  assert.equal(b.text, "see: [Pasted text #1, 1,003 chars, 2 lines]");
  assert.equal(b.value(), `see: ${big}`);
  b.backspace();
  assert.equal(b.text, "see: ");
  b.paste("short");
  assert.equal(b.value(), "see: short");
});

Deno.test("LineBuffer never splits a surrogate pair", () => {
  const b = new LineBuffer();
  b.insert("a😀");
  b.left();
  assert.equal(b.cursor, 1);
  b.right();
  b.backspace();
  assert.equal(b.text, "a");
});
